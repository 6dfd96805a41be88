// Links inside a wiki page, read the way the wiki reads them, so they open pages in the console (pure):
// `[[wiki links]]` by the wiki's rule (src/domain/wiki/links.ts, which the console cannot import:
// `[[Deploy Guide]]` → wiki/deploy-guide.md, `[[concepts/cache|the cache]]` → wiki/concepts/cache.md),
// markdown links to `.md` files relative to the page, and a search snippet's matched words.

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
