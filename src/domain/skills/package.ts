// A skill package: a folder with `SKILL.md` (YAML frontmatter, then markdown) and optional
// `references/`, `scripts/`, `assets/`. Parsing, limits, per-file kind/size/SHA-256, the trust
// level and the content hash. Frontmatter is parsed with `yaml` (eemeli/yaml: maintained, no
// dependencies, exact error positions). Problems are 422s naming the file and what is wrong.
import { loadYaml } from "../yaml";
import { sha256Hex } from "../../crypto/hash";
import { unprocessable } from "../errors";
import { slugify as slugifyName } from "../users/slug";
import type { SKILL_FILE_KINDS, SKILL_TRUST_LEVELS } from "../../db/schema/skills";

export const SKILL_LIMITS = { maxFiles: 200, maxFileBytes: 1024 * 1024, maxTotalBytes: 5 * 1024 * 1024 } as const;
export type TrustLevel = (typeof SKILL_TRUST_LEVELS)[number];
export type SkillFileKind = (typeof SKILL_FILE_KINDS)[number];

export interface SkillFileInput {
  path: string;
  bytes: Uint8Array;
}

export interface SkillFile {
  path: string;
  kind: SkillFileKind;
  sizeBytes: number;
  sha256: string;
  bytes: Uint8Array;
  /** The UTF-8 text, or null for binary content (not previewable). */
  text: string | null;
}

export interface SkillFrontmatter {
  name: string;
  description: string | null;
  slug: string;
  key: string | null;
  metadata: Record<string, unknown> | null;
}

export interface SkillPackage extends SkillFrontmatter {
  files: SkillFile[];
  trustLevel: TrustLevel;
  contentHash: string;
  body: string;
}

const EXECUTABLE = /\.(sh|bash|zsh|py|rb|pl|js|mjs|cjs|ts|ps1|bat|cmd|exe)$/i;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const encoder = new TextEncoder();

export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** The UTF-8 text of `bytes`, or null when they are not text (invalid UTF-8 or a NUL byte). */
export function textOf(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** A skill slug: the shared name slug, at most 64 characters (`skill` when nothing is left). */
export const slugify = (text: string) => slugifyName(text).slice(0, 64).replace(/-+$/, "") || "skill";

/** A relative path inside the package, or a 422: no absolute paths, `..`, empty or hidden segments. */
export function normalisePath(raw: string): string {
  const path = raw.replace(/\\/g, "/").replace(/^\.\//, "");
  const parts = path.split("/");
  if (!path || path.startsWith("/") || parts.some((p) => !p || p === "." || p === "..") || path.length > 300) {
    throw unprocessable(`Invalid file path "${raw}": use a relative path inside the skill folder`, { path: raw });
  }
  return path;
}

export function fileKind(path: string): SkillFileKind {
  if (path === "SKILL.md") return "skill";
  const top = path.split("/")[0];
  if (top === "references") return "reference";
  if (top === "scripts") return "script";
  if (top === "assets") return "asset";
  return "other";
}

/** Whether a file would run as code (scripts/, an executable extension or a shebang). */
export const isExecutable = (file: Pick<SkillFile, "kind" | "path" | "text">) =>
  file.kind === "script" || EXECUTABLE.test(file.path) || Boolean(file.text?.startsWith("#!"));

/** The highest of markdown_only < assets < scripts_executables over the files. */
export function trustLevelOf(files: Array<Pick<SkillFile, "kind" | "path" | "text">>): TrustLevel {
  if (files.some(isExecutable)) return "scripts_executables";
  if (files.some((f) => f.kind === "asset" || f.text === null)) return "assets";
  return "markdown_only";
}

/** One hash for the whole package: SHA-256 over the sorted `path:sha256` lines. */
export const contentHashOf = (files: Array<Pick<SkillFile, "path" | "sha256">>) =>
  sha256Hex(
    [...files]
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map((f) => `${f.path}:${f.sha256}\n`)
      .join(""),
  );

/** The frontmatter and body of a SKILL.md; a 422 naming the problem when the frontmatter is malformed. */
export async function parseSkillMarkdown(text: string, path = "SKILL.md"): Promise<{ frontmatter: SkillFrontmatter; body: string }> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) throw unprocessable(`${path} must start with YAML frontmatter between --- lines (name, description)`, { path });
  const { parse: parseYaml } = await loadYaml();
  let data: unknown;
  try {
    data = parseYaml(match[1], { maxAliasCount: 0 });
  } catch (err) {
    throw unprocessable(`${path} has malformed YAML frontmatter: ${(err as Error).message.split("\n")[0]}`, { path });
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw unprocessable(`${path} frontmatter must be a mapping of fields`, { path });
  const fields = data as Record<string, unknown>;
  const str = (name: string) => {
    const value = fields[name];
    if (value === undefined || value === null) return null;
    if (typeof value !== "string") throw unprocessable(`${path} frontmatter field "${name}" must be a string`, { path, field: name });
    return value.trim() || null;
  };
  const name = str("name");
  if (!name) throw unprocessable(`${path} frontmatter needs a "name"`, { path, field: "name" });
  const metadata = fields.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata))) {
    throw unprocessable(`${path} frontmatter field "metadata" must be a mapping`, { path, field: "metadata" });
  }
  const key = str("key") ?? str("skillKey");
  if (key && !/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(key))
    throw unprocessable(`${path} frontmatter "key" must be path-like (letters, digits, . _ - and /)`, { path, key });
  const slug = str("slug");
  return {
    frontmatter: {
      name,
      description: str("description"),
      slug: slugify(slug ?? name),
      key: key?.toLowerCase() ?? null,
      metadata: (metadata as Record<string, unknown>) ?? null,
    },
    body: text.slice(match[0].length),
  };
}

/** Validates and describes a package: limits, SKILL.md at the root, frontmatter, kinds, hashes, trust level. */
export async function buildSkillPackage(inputs: SkillFileInput[]): Promise<SkillPackage> {
  if (inputs.length === 0) throw unprocessable("A skill needs at least a SKILL.md");
  if (inputs.length > SKILL_LIMITS.maxFiles) throw unprocessable(`A skill may have at most ${SKILL_LIMITS.maxFiles} files (got ${inputs.length})`);
  let total = 0;
  const seen = new Set<string>();
  const files: SkillFile[] = inputs.map((input) => {
    const path = normalisePath(input.path);
    if (seen.has(path)) throw unprocessable(`File ${path} appears twice`, { path });
    seen.add(path);
    if (input.bytes.byteLength > SKILL_LIMITS.maxFileBytes)
      throw unprocessable(`File ${path} is larger than ${SKILL_LIMITS.maxFileBytes} bytes`, { path, sizeBytes: input.bytes.byteLength });
    total += input.bytes.byteLength;
    return { path, kind: fileKind(path), sizeBytes: input.bytes.byteLength, sha256: sha256Hex(input.bytes), bytes: input.bytes, text: textOf(input.bytes) };
  });
  if (total > SKILL_LIMITS.maxTotalBytes)
    throw unprocessable(`A skill may hold at most ${SKILL_LIMITS.maxTotalBytes} bytes (got ${total})`, { totalBytes: total });
  const skillMd = files.find((f) => f.path === "SKILL.md");
  if (!skillMd) throw unprocessable("The skill folder has no SKILL.md at its root", { paths: files.map((f) => f.path).slice(0, 20) });
  if (skillMd.text === null) throw unprocessable("SKILL.md must be UTF-8 text", { path: "SKILL.md" });
  const { frontmatter, body } = await parseSkillMarkdown(skillMd.text);
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { ...frontmatter, body, files, trustLevel: trustLevelOf(files), contentHash: contentHashOf(files) };
}

/** A package from text files (the catalog, managed skills). */
export const packageFromTexts = (texts: Record<string, string>): Promise<SkillPackage> =>
  buildSkillPackage(Object.entries(texts).map(([path, text]) => ({ path, bytes: utf8(text) })));
