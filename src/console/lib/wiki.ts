// The knowledge wiki's pages as the console addresses them: which wiki and space a URL names
// (`?wiki=`, `?space=`; the defaults when absent), the query every wiki route takes (companyId and
// those) and the console's URLs of the wiki and of a page. How links inside a page are read:
// lib/wiki-links.ts.
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
