// The knowledge wiki's pages as the console reads them: which wiki and space a URL names (`?wiki=`,
// `?space=`; the defaults when absent), the query every wiki route takes (companyId and those), the
// console's URL of a page, and how links inside a page become links to the console's page view —
// `[[wiki links]]` by the wiki's rule (src/domain/wiki/links.ts: `[[Deploy Guide]]` →
// wiki/deploy-guide.md, `[[concepts/cache|the cache]]` → wiki/concepts/cache.md; the console cannot
// import it) and markdown links to `.md` files relative to the page.
import { type Company, companyPath } from "./companies";

export interface WikiRef {
  wikiId?: string;
  spaceSlug?: string;
}

/** The wiki and space a page's URL names. */
export const wikiRefOf = (query: Record<string, string>): WikiRef => ({
  ...(query.wiki ? { wikiId: query.wiki } : {}),
  ...(query.space ? { spaceSlug: query.space } : {}),
});

/** The query of a wiki route: the company, and the wiki and space when not the defaults. */
export const wikiQuery = (companyId: string, ref: WikiRef) => ({ companyId, ...ref });

function refParams(ref: WikiRef): URLSearchParams {
  const params = new URLSearchParams();
  if (ref.wikiId && ref.wikiId !== "default") params.set("wiki", ref.wikiId);
  if (ref.spaceSlug && ref.spaceSlug !== "default") params.set("space", ref.spaceSlug);
  return params;
}

/** The console's page of the wiki (its index), with a search when `q` is given. */
export function wikiHref(company: Company, ref: WikiRef, q?: string): string {
  const params = refParams(ref);
  if (q) params.set("q", q);
  const query = params.toString();
  return `${companyPath(company, "wiki")}${query ? `?${query}` : ""}`;
}

/** The console's view of one page (`edit`: with its editor open). */
export function wikiPageHref(company: Company, ref: WikiRef, path: string, edit = false): string {
  const params = refParams(ref);
  params.set("path", path);
  if (edit) params.set("edit", "1");
  return `${companyPath(company, "wiki/page")}?${params}`;
}

/** The control files at the wiki's root (beside wiki/). */
const ROOT_FILES = ["AGENTS.md", "IDEA.md"];

/** A `[[target]]`'s page path. */
export function wikiLinkPath(target: string): string {
  const name = target.split("|")[0].split("#")[0].trim();
  if (name.endsWith(".md")) return ROOT_FILES.includes(name) || name.startsWith("wiki/") ? name : `wiki/${name}`;
  const slug = name
    .split("/")
    .map((s) => s.trim().toLowerCase().replace(/\s+/g, "-"))
    .filter(Boolean);
  return `${slug[0] === "wiki" ? slug.join("/") : ["wiki", ...slug].join("/")}.md`;
}

/** The markdown with each `[[target|label]]` as a link to the target's page in the console. */
export function linkWikiLinks(markdown: string, href: (path: string) => string): string {
  return markdown.replace(/\[\[([^\]\n]+?)\]\]/g, (_, inner: string) => {
    const label = (inner.split("|")[1] ?? inner.split("|")[0]).trim().replace(/[[\]]/g, "");
    return `[${label}](${href(wikiLinkPath(inner))})`;
  });
}

/** A relative markdown link's page path from the page at `from` (`../b.md`, `/wiki/b.md`, `wiki/b.md`), or null. */
export function relativePagePath(from: string, href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("//")) return null;
  const target = href.split("#")[0].split("?")[0];
  if (!target.endsWith(".md")) return null;
  const base = target.startsWith("/") || target.startsWith("wiki/") ? [] : from.split("/").slice(0, -1);
  const out: string[] = [];
  for (const segment of [...base, ...target.split("/")]) {
    if (segment === "..") out.pop();
    else if (segment && segment !== ".") out.push(segment);
  }
  return out.join("/");
}

/** A search snippet's parts: the matched words (between `**`) marked. */
export function snippetParts(snippet: string): Array<{ text: string; match: boolean }> {
  return snippet.split("**").map((text, i) => ({ text, match: i % 2 === 1 }));
}
