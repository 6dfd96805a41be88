// The import table of src/ (Node): every source file and the modules it imports — static, re-exports
// and dynamic — with relative imports resolved to `src:<path>` (packages stay as written). The
// boundary tests (test/unit/*boundaries.test.ts) check who may import whom with it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const src = path.join(repoRoot, "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.(ts|tsx|mjs)$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2] ?? m[3])
    .map((spec) =>
      spec.startsWith(".")
        ? `src:${path
            .relative(src, path.resolve(path.dirname(file), spec))
            .split(path.sep)
            .join("/")}`
        : spec,
    );
}

export interface ImportRow {
  /** Path under src/, `/`-separated. */
  rel: string;
  imports: string[];
}

export const importTable = (): ImportRow[] => files(src).map((file) => ({ rel: path.relative(src, file).split(path.sep).join("/"), imports: importsOf(file) }));

/** The top folder under src/ of an import (`cli`, `domain`, …), or null for a package. */
export const areaOf = (i: string) => (i.startsWith("src:") ? i.slice(4).split("/")[0] : null);
