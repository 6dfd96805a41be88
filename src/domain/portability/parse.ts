// Reading a company package: the manifest's format and version, every kind's files checked by its
// schema (./kinds), and every reference between files resolved inside the package. Problems are
// 422s naming the file (`details.path`), before anything is written.
import { loadYaml } from "../yaml";
import type { z } from "zod";
import { unprocessable } from "../errors";
import { MAX_PACKAGE_BYTES, PACKAGE_FORMAT, PACKAGE_VERSION, readJson, readMarkdown, type Include, type Manifest, type PackageFiles } from "./format";
import { KINDS } from "./kinds";
import type { PackageReader, PortableKind } from "./kinds/kind";
import { MAX_TEXT } from "./kinds/fields";
import type { PkgCompany } from "./kinds/company";
import type { PkgAgent } from "./kinds/agents";
import type { PkgGoal } from "./kinds/goals";
import type { PkgProject } from "./kinds/projects";
import type { PkgLabel } from "./kinds/labels";
import type { PkgIssue } from "./kinds/issues";
import type { PkgRoutine } from "./kinds/routines";
import type { PkgSkill } from "./kinds/skills";

export interface ParsedPackage {
  manifest: Manifest;
  company: PkgCompany | null;
  agents: PkgAgent[];
  goals: PkgGoal[];
  projects: PkgProject[];
  labels: PkgLabel[];
  issues: PkgIssue[];
  routines: PkgRoutine[];
  skills: PkgSkill[];
}

/** A file's body within `max` characters (422 naming the file otherwise). */
function bounded(body: string | null, path: string, max = MAX_TEXT): string | null {
  if (body && body.length > max) throw unprocessable(`${path}: the text is longer than ${max} characters`, { path, length: body.length });
  return body;
}

function check<T extends z.ZodType>(schema: T, value: unknown, path: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const first = result.error.issues[0];
    throw unprocessable(`${path}: ${first.path.join(".") || "file"} ${first.message}`, {
      path,
      issues: result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  return result.data;
}

function readerOf(files: PackageFiles): PackageReader {
  return {
    files,
    has: (path) => files[path] !== undefined,
    under: (dir, ext) =>
      Object.keys(files)
        .filter((p) => p.startsWith(`${dir}/`) && p.endsWith(ext) && p.split("/").length === 2)
        .sort(),
    markdown: (path) => readMarkdown(path, files[path]),
    json: (path) => readJson(path, files[path]),
    check,
    bounded,
  };
}

/**
 * Parses and validates a package (422 naming the file on any problem). Kinds the import's `include`
 * leaves out are not in `files`; references to them are dropped rather than refused.
 */
export async function parsePackage(files: PackageFiles, include: Partial<Include> = {}): Promise<ParsedPackage> {
  const total = Object.entries(files).reduce((n, [p, t]) => n + p.length + (typeof t === "string" ? t.length : 0), 0);
  if (total > MAX_PACKAGE_BYTES) throw unprocessable(`The package is larger than ${MAX_PACKAGE_BYTES} bytes`, { path: "", totalBytes: total });
  for (const [path, content] of Object.entries(files)) {
    if (typeof content !== "string") throw unprocessable(`${path}: file content must be text`, { path });
    if (path.startsWith("/") || path.split("/").some((part) => part === ".." || part === "")) throw unprocessable(`${path}: invalid path`, { path });
  }
  if (files["manifest.json"] === undefined) throw unprocessable("manifest.json is missing", { path: "manifest.json" });
  const manifest = readJson<Manifest>("manifest.json", files["manifest.json"]);
  if (manifest?.format !== PACKAGE_FORMAT) throw unprocessable(`manifest.json: format must be "${PACKAGE_FORMAT}"`, { path: "manifest.json" });
  if (manifest.version !== PACKAGE_VERSION)
    throw unprocessable(`manifest.json: version ${manifest.version} is not supported (this service reads version ${PACKAGE_VERSION})`, {
      path: "manifest.json",
    });

  await loadYaml();
  const reader = readerOf(files);
  const parsed = { manifest, ...Object.fromEntries(KINDS.map((kind) => [kind.key, kind.parse(reader)])) } as ParsedPackage;
  dropReferencesToLeftOut(parsed, include);
  checkReferences(parsed);
  return parsed;
}

type Item = Record<string, unknown> & { path?: string };
/** A kind's items (the company is one file, not a list). */
const itemsOf = (p: ParsedPackage, kind: PortableKind): Item[] => {
  const parsed: unknown = p[kind.key];
  return Array.isArray(parsed) ? parsed : [];
};
/** A kind's items that carry ids (skills are keyed by their folder). */
const identified = (p: ParsedPackage, kind: PortableKind) => itemsOf(p, kind).filter((item): item is Item & { id: string } => typeof item.id === "string");

/** References to kinds the import leaves out become null (or empty lists). */
function dropReferencesToLeftOut(p: ParsedPackage, include: Partial<Include>) {
  for (const kind of KINDS) {
    for (const ref of kind.references ?? []) {
      if (include[ref.to] !== false) continue;
      for (const item of itemsOf(p, kind)) item[ref.field] = Array.isArray(item[ref.field]) ? [] : null;
    }
  }
}

/** Every id a file names must be in the package (or be null); parent chains must not loop. */
function checkReferences(p: ParsedPackage) {
  const ids = new Map<string, Set<string>>();
  for (const kind of KINDS) {
    const seen = new Set<string>();
    for (const item of identified(p, kind)) {
      if (seen.has(item.id)) throw unprocessable(`${item.path ?? kind.noun}: ${kind.noun} id ${item.id} appears twice`, { path: item.path ?? kind.noun });
      seen.add(item.id);
    }
    ids.set(kind.key, seen);
  }
  const nounOf = new Map(KINDS.map((kind) => [kind.key as string, kind.noun]));
  for (const kind of KINDS) {
    for (const item of itemsOf(p, kind)) {
      for (const { field, to } of kind.references ?? []) {
        const value = item[field] as string | string[] | null | undefined;
        for (const named of Array.isArray(value) ? value : [value]) {
          if (named && !ids.get(to)!.has(named))
            throw unprocessable(`${item.path}: ${field} names ${nounOf.get(to)} ${named}, which is not in the package`, { path: item.path, field, id: named });
        }
      }
    }
  }
  for (const kind of KINDS) {
    const { parent } = kind;
    if (!parent) continue;
    const items = identified(p, kind);
    const parentOf = new Map(items.map((item) => [item.id, item[parent] as string | null]));
    for (const item of items) {
      const seen = new Set<string>();
      for (let at: string | null = item.id; at; at = parentOf.get(at) ?? null) {
        if (seen.has(at)) throw unprocessable(`${item.path}: the ${kind.noun} hierarchy has a cycle`, { path: item.path });
        seen.add(at);
      }
    }
  }
}
