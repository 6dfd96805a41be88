// The board console runs in the browser: it talks to the API only through the typed client and
// imports nothing of the Worker but the event catalogue (a table with no imports); the Worker and
// the CLI never import the console.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const src = path.join(root, "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.(ts|tsx|mjs)$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
  return specs.map((spec) =>
    spec.startsWith(".")
      ? `src:${path
          .relative(src, path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join("/")}`
      : spec,
  );
}

const table = files(src).map((file) => ({ rel: path.relative(src, file).split(path.sep).join("/"), imports: importsOf(file) }));
const consoleFiles = table.filter((f) => f.rel.startsWith("console/") && f.rel !== "console/build.mjs");

describe("board console boundaries", () => {
  it("sees the console (a broken scan would pass vacuously)", () => {
    expect(consoleFiles.length).toBeGreaterThan(20);
    expect(consoleFiles.find((f) => f.rel === "console/lib/api.ts")?.imports).toContain("src:client");
  });

  it("imports only the console, the typed client, the event catalogue and its browser packages", () => {
    const packages = /^(preact|preact\/hooks|preact-iso\/router|preact-iso\/lazy|@preact\/signals|micromark)$/;
    const allowed = (i: string) =>
      i.startsWith("src:console/") ||
      i === "src:client" ||
      i === "src:domain/events/catalogue" ||
      (!i.startsWith("src:") && packages.test(i)) ||
      i.endsWith(".css");
    const bad = consoleFiles.flatMap((f) => f.imports.filter((i) => !allowed(i)).map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });

  it("the event catalogue it imports stands alone", () => {
    expect(table.find((f) => f.rel === "domain/events/catalogue.ts")?.imports).toEqual([]);
  });

  it("nothing outside the console imports it", () => {
    const bad = table
      .filter((f) => !f.rel.startsWith("console/"))
      .flatMap((f) => f.imports.filter((i) => i.startsWith("src:console")).map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });
});
