// One knowledge-wiki page (`?path=`, with `?space=`/`?wiki=` when not the defaults): its markdown
// rendered (wiki links and relative .md links open their pages here), the pages linking to it, its
// revisions (who changed it, when, why), and Edit — saved with the hash it was read with, a
// conflict shown as a merge prompt (components/wiki-editor.tsx). A path with no page offers to write
// it. Follows the wiki's events for this page.
import type { TargetedMouseEvent } from "preact";
import { useLocation } from "preact-iso/router";
import { Markdown } from "../components/markdown";
import { Async, ErrorMessage } from "../components/states";
import { WikiEditor } from "../components/wiki-editor";
import { agentName } from "../lib/agents";
import { ApiError, api, call } from "../lib/api";
import { personName } from "../lib/assignees";
import { bytes, ago, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { usePeople } from "../lib/people";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import { wikiHref, wikiPageHref, wikiQuery, wikiRefOf } from "../lib/wiki";
import { linkWikiLinks, relativePagePath } from "../lib/wiki-links";
import type { CompanyPageProps } from "../routes";

export default function WikiPageView({ company, query }: CompanyPageProps) {
  const { route } = useLocation();
  const ref = wikiRefOf(query);
  const path = query.path ?? "";
  const editing = query.edit === "1";
  const about = (event: LiveEvent) => {
    const data = event.data as { path?: string; previousPath?: string } | undefined;
    return data?.path === path || data?.previousPath === path;
  };
  const page = useResource(
    () =>
      call(api.GET("/api/plugins/knowledge-wiki/api/page", { params: { query: { ...wikiQuery(company.id, ref), path } } })).catch((err) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    [company.id, ref.wikiId, ref.spaceSlug, path],
    { types: ["wiki.*"], when: about },
  );
  const revisions = useResource(
    () => call(api.GET("/api/plugins/knowledge-wiki/api/page/revisions", { params: { query: { ...wikiQuery(company.id, ref), path, limit: 50 } } })),
    [company.id, ref.wikiId, ref.spaceSlug, path],
    { types: ["wiki.*"], when: about },
  );
  usePeople(company.id);
  useTitle(page.data ? `${page.data.title} · Wiki` : "Wiki");
  const href = (p: string) => wikiPageHref(company, ref, p);
  const edit = (on: boolean) => route(wikiPageHref(company, ref, path, on), true);
  // A relative markdown link to another page (../b.md) opens it here rather than as a file of the console.
  const follow = (event: TargetedMouseEvent<HTMLDivElement>) => {
    const link = (event.target as HTMLElement).closest("a");
    const target = link?.getAttribute("href");
    const other = target ? relativePagePath(path, target) : null;
    if (!other) return;
    event.preventDefault();
    route(href(other));
  };
  // Saved or left: back to reading, the page as it is now.
  const editor = (base: { contents: string; hash: string } | null) => (
    <WikiEditor
      companyId={company.id}
      wiki={ref}
      path={path}
      base={base}
      onSaved={() => {
        edit(false);
        void page.reload();
        void revisions.reload();
      }}
      onCancel={() => {
        edit(false);
        void page.reload();
      }}
    />
  );
  const crumbs = (
    <p class="meta">
      <a href={wikiHref(company, ref)}>Wiki</a> › <span class="mono">{path}</span>
    </p>
  );
  if (!path)
    return (
      <>
        {crumbs}
        <h1 tabIndex={-1}>Wiki page</h1>
        <ErrorMessage message="No page named: the address needs ?path=wiki/…md." />
      </>
    );
  return (
    <Async resource={page} what="the page">
      {(p) =>
        !p ? (
          <article>
            {crumbs}
            <h1 tabIndex={-1}>No page here yet</h1>
            <p>
              Nothing is written at <span class="mono">{path}</span>
              {editing ? "." : ": links to it wait for it."}
            </p>
            {editing ? (
              editor(null)
            ) : (
              <button type="button" class="primary" onClick={() => edit(true)}>
                Write this page
              </button>
            )}
          </article>
        ) : (
          <article class="wiki-page">
            {crumbs}
            <h1 tabIndex={-1}>{p.title}</h1>
            <p class="meta">
              <span class="badge">{p.pageType}</span> {bytes(p.sizeBytes)} · updated{" "}
              <time dateTime={p.updatedAt} title={when(p.updatedAt)}>
                {ago(p.updatedAt)}
              </time>
            </p>
            {editing ? (
              editor({ contents: p.contents, hash: p.hash })
            ) : (
              <>
                <div class="actions">
                  <button type="button" class="primary" onClick={() => edit(true)}>
                    Edit
                  </button>
                </div>
                {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the click is a link's own (keyboard included); this only reroutes it */}
                <div class="card wiki-body" onClick={follow}>
                  <Markdown source={linkWikiLinks(p.contents, href)} />
                </div>
              </>
            )}
            <section aria-labelledby="wiki-backlinks">
              <h2 id="wiki-backlinks">Linked from</h2>
              {p.backlinks.length === 0 ? (
                <p class="empty">No page links here.</p>
              ) : (
                <ul class="rows">
                  {p.backlinks.map((b) => (
                    <li key={b}>
                      <a href={href(b)} class="mono">
                        {b}
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="wiki-revisions">
              <h2 id="wiki-revisions">Revisions</h2>
              <Async resource={revisions} what="revisions" isEmpty={(r) => r.revisions.length === 0} empty="No revisions recorded.">
                {(r) => (
                  <ol class="rows" aria-label="Revisions">
                    {r.revisions.map((rev) => (
                      <li key={rev.revisionId}>
                        <span class="badge">{rev.change}</span>{" "}
                        {rev.createdByAgentId ? agentName(rev.createdByAgentId) : rev.createdByUserId ? personName(rev.createdByUserId) : "The service"}{" "}
                        <time class="meta" dateTime={rev.createdAt} title={when(rev.createdAt)}>
                          {ago(rev.createdAt)}
                        </time>
                        {rev.summary && <span> · {rev.summary}</span>}
                        {rev.path !== path && <span class="meta"> · as {rev.path}</span>}
                        {rev.hash && <span class="meta mono"> · {rev.hash.slice(0, 8)}</span>}
                        {rev.hash === p.hash && <span class="meta"> (shown)</span>}
                      </li>
                    ))}
                  </ol>
                )}
              </Async>
            </section>
          </article>
        )
      }
    </Async>
  );
}
