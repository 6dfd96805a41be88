// The company package format (version 1): a folder-like map of relative paths to text, easy to
// review and keep in git. Markdown files carry YAML frontmatter (the entity's fields, with its
// original id so references between files resolve) and the entity's long text as the body.
//
//   manifest.json                          format, version, exportedAt, source company, include, counts, secret placeholders
//   company.md                             name, description, brandColor, budgetMonthlyCents, requireBoardApprovalForNewAgents
//   agents/<urlKey>.md                     id, name, role, title, icon, reportsTo, adapterType, adapterConfig, runtimeConfig,
//                                          budgetMonthlyCents, desiredSkills, metadata; body: capabilities
//   goals/<id>.md                          id, title, level, status, parentId, ownerAgentId, isCompanyDefault; body: description
//   projects/<urlKey>.md                   id, name, status, goalIds, leadAgentId, targetDate, color, workspaces; body: description
//   labels.json                            [{ id, name, color }]
//   issues/<identifier>.md                 id, identifier, title, status, priority, parentId, projectId, goalId,
//                                          assigneeAgentId, blockedByIssueIds, labelIds; body: description
//   issues/<identifier>/comments.json      [{ authorAgentId, authorUserId, body, createdAt }]   (include.comments)
//   issues/<identifier>/documents/<key>.md key, title, format; body: the latest revision          (include.documents)
//   routines/<id>.md                       id, title, assigneeAgentId, projectId, goalId, parentIssueId, priority, status,
//                                          concurrencyPolicy, catchUpPolicy, variables, triggers (no webhook secrets); body: description
//   skills/<key>/<path>                    the files of the company's own (non-bundled) skills
//
// Each kind's files are written, read back and imported by its module in ./kinds.
//
// Secret references (`{ type: "secret_ref", secretId }`) become `{ type: "secret_placeholder",
// name }`; the importer binds each name to a secret of the target company.
import { loadedYaml } from "../yaml";
import { unprocessable } from "../errors";
import { slugify } from "../users/slug";

export const PACKAGE_FORMAT = "acp-company-package";
export const PACKAGE_VERSION = 1;
/** The largest package accepted for import (sum of file lengths). */
export const MAX_PACKAGE_BYTES = 20 * 1024 * 1024;

export const INCLUDE_KEYS = ["company", "agents", "goals", "projects", "labels", "issues", "comments", "documents", "routines", "skills"] as const;
export type IncludeKey = (typeof INCLUDE_KEYS)[number];
export type Include = Record<IncludeKey, boolean>;

/** Everything but comments and documents, unless asked. */
export function resolveInclude(given: Partial<Record<string, boolean>> | undefined): Include {
  const include = {} as Include;
  for (const key of INCLUDE_KEYS) include[key] = given?.[key] ?? !(key === "comments" || key === "documents");
  return include;
}

/** The kinds of entity an import preview lists, and what an import does with each entity. */
export const ENTITY_KINDS = ["agents", "goals", "projects", "labels", "issues", "routines", "skills"] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
export const ENTITY_ACTIONS = ["create", "skip", "rename"] as const;
export type EntityAction = (typeof ENTITY_ACTIONS)[number];

export interface Manifest {
  format: typeof PACKAGE_FORMAT;
  version: number;
  exportedAt: string;
  company: { id: string; name: string };
  include: Include;
  counts: Record<string, number>;
  secretPlaceholders: Array<{ name: string; usedBy: string[] }>;
}

export type PackageFiles = Record<string, string>;

/** A name as a path segment (`item` when nothing of it is left). */
export const slugOf = (text: string) => slugify(text) || "item";

/** `base`, else `base-2`, `base-3`, … — the first not in `taken` (which then holds it). */
export function uniqueKey(base: string, taken: Set<string>): string {
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

/** A markdown file with `fields` as YAML frontmatter and `body` after it (YAML loaded: see src/domain/yaml.ts). */
export function markdownWith(fields: Record<string, unknown>, body: string | null | undefined): string {
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return `---\n${loadedYaml().stringify(clean, { lineWidth: 0 })}---\n${body ? `\n${body}\n` : ""}`;
}

/** The frontmatter and body of a package markdown file; a 422 naming the path when it is malformed (YAML loaded: see src/domain/yaml.ts). */
export function readMarkdown(path: string, text: string): { fields: Record<string, unknown>; body: string | null } {
  const match = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) throw unprocessable(`${path}: missing YAML frontmatter`, { path });
  let fields: unknown;
  try {
    fields = loadedYaml().parse(match[1], { maxAliasCount: 0 });
  } catch (err) {
    throw unprocessable(`${path}: malformed YAML frontmatter: ${(err as Error).message.split("\n")[0]}`, { path });
  }
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) throw unprocessable(`${path}: frontmatter must be a mapping`, { path });
  const body = text.slice(match[0].length).replace(/^\n/, "").replace(/\n$/, "");
  return { fields: fields as Record<string, unknown>, body: body.length ? body : null };
}

export function readJson<T>(path: string, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw unprocessable(`${path}: invalid JSON (${(err as Error).message})`, { path });
  }
}

/** Replaces every secret reference in `value` by a named placeholder; `nameOf` knows the secrets' names. */
export function withPlaceholders(value: unknown, nameOf: (secretId: string) => string | undefined, found: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => withPlaceholders(v, nameOf, found));
  if (!value || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record.type === "secret_ref" && typeof record.secretId === "string") {
    const name = nameOf(record.secretId) ?? `SECRET_${record.secretId.slice(0, 8).toUpperCase()}`;
    found.add(name);
    return { type: "secret_placeholder", name };
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, withPlaceholders(v, nameOf, found)]));
}

/** Replaces every placeholder by a reference to the bound secret; unbound names are collected. */
export function bindPlaceholders(value: unknown, bindings: Map<string, string>, unbound: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => bindPlaceholders(v, bindings, unbound));
  if (!value || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record.type === "secret_placeholder" && typeof record.name === "string") {
    const secretId = bindings.get(record.name);
    if (!secretId) {
      unbound.add(record.name);
      return null;
    }
    return { type: "secret_ref", secretId };
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, bindPlaceholders(v, bindings, unbound)]));
}

/** Placeholders named anywhere in `value`. */
export function placeholdersIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => placeholdersIn(v, found));
  else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record.type === "secret_placeholder" && typeof record.name === "string") found.add(record.name);
    else Object.values(record).forEach((v) => placeholdersIn(v, found));
  }
  return found;
}
