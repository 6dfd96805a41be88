// Wiki path rules (pure): pages are `.md` files under `wiki/` or the root control files; raw
// sources live under `raw/`. No `..` or `.` segments, backslashes, empty segments or leading `/`.
import { badRequest } from "../errors";
import type { WIKI_PAGE_TYPES } from "../../db/schema/plugins";

/** The files a bootstrap writes when missing; the root two are the maintainer's instructions. */
export const CONTROL_FILES = ["AGENTS.md", "IDEA.md", "wiki/index.md", "wiki/log.md"] as const;
/** Control files agent tools may not write (board callers may). */
export const AGENT_PROTECTED_FILES: readonly string[] = ["AGENTS.md", "IDEA.md"];
export const INDEX_PATH = "wiki/index.md";
export const LOG_PATH = "wiki/log.md";
export const MAX_PATH_LENGTH = 300;

/** Why `path` breaks the common rules, or null. */
export function pathProblem(path: string): string | null {
  if (!path) return "path is required";
  if (path.length > MAX_PATH_LENGTH) return `path is longer than ${MAX_PATH_LENGTH} characters`;
  if (path.includes("\\")) return "path may not contain backslashes";
  if ([...path].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127)) return "path may not contain control characters";
  if (path.startsWith("/")) return "path is relative to the wiki root (no leading /)";
  const segments = path.split("/");
  if (segments.some((s) => s === "")) return "path may not contain empty segments";
  if (segments.some((s) => s === "." || s === "..")) return "path may not contain '.' or '..' segments";
  if (segments.some((s) => s.trim() !== s)) return "path segments may not start or end with spaces";
  return null;
}

/** Whether `path` is a page path (no exception). */
export function isPagePath(path: string): boolean {
  if (pathProblem(path)) return false;
  return AGENT_PROTECTED_FILES.includes(path) || (path.startsWith("wiki/") && path.endsWith(".md") && path.length > "wiki/.md".length);
}

/** A page path, or a 400 saying which rule it breaks. */
export function requirePagePath(path: string): string {
  const problem = pathProblem(path);
  if (problem) throw badRequest(`Invalid page path '${path}': ${problem}`, { path });
  if (!isPagePath(path))
    throw badRequest(`Invalid page path '${path}': pages are .md files under wiki/ or the root control files AGENTS.md and IDEA.md`, { path });
  return path;
}

/** A raw source path (`raw/…`), or a 400. */
export function requireRawPath(path: string): string {
  const problem = pathProblem(path);
  if (problem) throw badRequest(`Invalid rawPath '${path}': ${problem}`, { rawPath: path });
  if (!path.startsWith("raw/") || path.length <= "raw/".length) throw badRequest(`Invalid rawPath '${path}': sources live under raw/`, { rawPath: path });
  return path;
}

const FOLDER_TYPES: Record<string, (typeof WIKI_PAGE_TYPES)[number]> = {
  sources: "source",
  projects: "project",
  areas: "area",
  entities: "entity",
  concepts: "concept",
  synthesis: "synthesis",
};

export function pageTypeOf(path: string): (typeof WIKI_PAGE_TYPES)[number] {
  if (AGENT_PROTECTED_FILES.includes(path)) return "control";
  if (path === INDEX_PATH) return "index";
  if (path === LOG_PATH) return "log";
  const folder = path.split("/")[1];
  return (path.split("/").length > 2 && FOLDER_TYPES[folder]) || "page";
}

/** The page's title: its first `# ` heading, else its file name without `.md`. */
export function titleOf(path: string, contents: string): string {
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(contents)?.[1]?.trim();
  if (heading) return heading.slice(0, 200);
  return path.split("/").pop()!.replace(/\.md$/, "");
}

export const slugOf = (text: string, fallback = "source") =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "") || fallback;

/** `raw/YYYY-MM-DD-<slug>-<hash8>.md` (the date of capture, UTC). */
export const defaultRawPath = (now: string, title: string | null | undefined, hash: string) =>
  `raw/${now.slice(0, 10)}-${slugOf(title ?? "")}-${hash.slice(0, 8)}.md`;
