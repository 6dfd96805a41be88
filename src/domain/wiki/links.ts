// Which pages a page links to (pure), so backlinks are exact after every write, move and delete:
// `[[wiki links]]` (`[[Deploy Guide]]` → wiki/deploy-guide.md, `[[concepts/cache]]` →
// wiki/concepts/cache.md, `[[target|label]]`, `[[target#heading]]`), markdown links relative to the
// page (`[x](../b.md)`, `[x](/wiki/b.md)`, `[x](wiki/b.md)` from the root) and bare `wiki/….md`
// mentions. Only targets that are page paths count; a page's links to itself do not.
import { isPagePath, AGENT_PROTECTED_FILES } from "./paths";

const WIKI_LINK = /\[\[([^\]\n]+?)\]\]/g;
const MARKDOWN_LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const BARE_MENTION = /(?:^|[\s(`'"<[])(wiki\/[A-Za-z0-9_.\-/]+?\.md)(?=$|[\s)`'">\].,;:!?])/gm;

/** Resolves `.` and `..` segments; null when the path climbs above the root. */
function normalise(segments: string[]): string | null {
  const out: string[] = [];
  for (const s of segments) {
    if (s === "" || s === ".") continue;
    if (s === "..") {
      if (!out.length) return null;
      out.pop();
    } else out.push(s);
  }
  return out.join("/");
}

const slugSegment = (s: string) => s.trim().toLowerCase().replace(/\s+/g, "-");

function wikiLinkTarget(raw: string): string | null {
  const target = raw.split("|")[0].split("#")[0].trim();
  if (!target) return null;
  if (target.endsWith(".md")) {
    if (AGENT_PROTECTED_FILES.includes(target) || target.startsWith("wiki/")) return normalise(target.split("/"));
    return normalise(["wiki", ...target.split("/")]);
  }
  const segments = target.split("/").map(slugSegment);
  const path = normalise(segments[0] === "wiki" ? segments : ["wiki", ...segments]);
  return path ? `${path}.md` : null;
}

function markdownTarget(fromPath: string, href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("//")) return null;
  let target = href.split("#")[0].split("?")[0];
  try {
    target = decodeURIComponent(target);
  } catch {
    return null;
  }
  if (!target.endsWith(".md")) return null;
  if (target.startsWith("/")) return normalise(target.slice(1).split("/"));
  if (target.startsWith("wiki/")) return normalise(target.split("/"));
  const dir = fromPath.split("/").slice(0, -1);
  return normalise([...dir, ...target.split("/")]);
}

/** The page paths `contents` (the page at `fromPath`) links to, sorted, each once. */
export function linkedPaths(fromPath: string, contents: string): string[] {
  const found = new Set<string>();
  const add = (path: string | null) => {
    if (path && path !== fromPath && isPagePath(path)) found.add(path);
  };
  for (const m of contents.matchAll(WIKI_LINK)) add(wikiLinkTarget(m[1]));
  for (const m of contents.matchAll(MARKDOWN_LINK)) add(markdownTarget(fromPath, m[1]));
  for (const m of contents.matchAll(BARE_MENTION)) add(normalise(m[1].split("/")));
  return [...found].sort();
}
