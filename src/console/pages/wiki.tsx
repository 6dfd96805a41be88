// The knowledge wiki (a plugin; linked in the navigation while it is ready): its spaces, the pages of
// the chosen one by folder, a search over them (`?q=`, the matched words marked), and New page (a
// path not taken yet). Pages open in pages/wiki-page.tsx. Follows the wiki's events.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Submit, useAction } from "../components/action";
import { TextArea, TextField } from "../components/fields";
import { Async } from "../components/states";
import { TitleWithCreate } from "../components/title-row";
import { ApiError, api, call, type Schemas } from "../lib/api";
import type { Company } from "../lib/companies";
import { ago, when } from "../lib/format";
import { submittedForm } from "../lib/form";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import { type WikiRef, wikiHref, wikiPageHref, wikiQuery, wikiRefOf } from "../lib/wiki";
import { snippetParts } from "../lib/wiki-links";
import type { CompanyPageProps } from "../routes";

type WikiPage = Schemas["WikiPage"];

const folderOf = (path: string) => path.split("/").slice(0, -1).join("/") || "(root)";

export default function WikiIndex({ company, query }: CompanyPageProps) {
  useTitle("Wiki");
  const ref = wikiRefOf(query);
  const q = query.q?.trim() ?? "";
  const [creating, setCreating] = useState(false);
  const live = { types: ["wiki.*"] };
  const spaces = useResource(
    () => call(api.GET("/api/plugins/knowledge-wiki/api/spaces", { params: { query: wikiQuery(company.id, { wikiId: ref.wikiId }) } })),
    [company.id, ref.wikiId],
    live,
  );
  const pages = useResource(
    () => call(api.GET("/api/plugins/knowledge-wiki/api/pages", { params: { query: wikiQuery(company.id, ref) } })),
    [company.id, ref.wikiId, ref.spaceSlug],
    live,
  );
  const current = ref.spaceSlug ?? "default";
  return (
    <>
      <TitleWithCreate title="Wiki" createLabel="New page" creating={creating} onCreate={() => setCreating(true)} />
      <p class="meta">The company's knowledge wiki: pages its agents and people keep, linked to each other.</p>
      <Async resource={spaces} what="spaces" isEmpty={(s) => s.spaces.length < 2} empty={null}>
        {(s) => (
          <nav aria-label="Spaces" class="views">
            {s.spaces
              .flatMap((space) => (space ? [space] : []))
              .map((space) => (
                <a
                  key={space.id}
                  href={wikiHref(company, { wikiId: ref.wikiId, spaceSlug: space.slug })}
                  aria-current={space.slug === current ? "page" : undefined}
                >
                  {space.displayName}
                </a>
              ))}
          </nav>
        )}
      </Async>
      {creating && <NewPage company={company} wiki={ref} onCancel={() => setCreating(false)} />}
      <WikiSearch company={company} wiki={ref} q={q} />
      <section aria-labelledby="wiki-pages">
        <h2 id="wiki-pages">Pages</h2>
        <Async resource={pages} what="pages" isEmpty={(p) => p.pages.length === 0} empty="No pages yet: New page writes the first.">
          {(p) => <PagesByFolder pages={p.pages} company={company} wiki={ref} />}
        </Async>
      </section>
    </>
  );
}

function PagesByFolder({ pages, company, wiki }: { pages: WikiPage[]; company: Company; wiki: WikiRef }) {
  const folders = new Map<string, WikiPage[]>();
  for (const page of pages) folders.set(folderOf(page.path), [...(folders.get(folderOf(page.path)) ?? []), page]);
  return (
    <>
      {[...folders].map(([folder, list]) => (
        <section key={folder} class="wiki-folder" aria-label={`Folder ${folder}`}>
          <h3 class="mono">{folder}/</h3>
          <ul class="rows">
            {list.map((page) => (
              <li key={page.path}>
                <a href={wikiPageHref(company, wiki, page.path)}>{page.title}</a> <span class="badge">{page.pageType}</span>{" "}
                <span class="meta">
                  <span class="mono">{page.path}</span> · updated{" "}
                  <time dateTime={page.updatedAt} title={when(page.updatedAt)}>
                    {ago(page.updatedAt)}
                  </time>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function WikiSearch({ company, wiki, q }: { company: Company; wiki: WikiRef; q: string }) {
  const { route } = useLocation();
  const results = useResource(
    async () => (q ? call(api.GET("/api/plugins/knowledge-wiki/api/search", { params: { query: { ...wikiQuery(company.id, wiki), q, limit: 20 } } })) : null),
    [company.id, wiki.wikiId, wiki.spaceSlug, q],
    { types: ["wiki.*"] },
  );
  const submit = (event: Event) => {
    const { text } = submittedForm(event);
    route(wikiHref(company, wiki, text("q")));
  };
  return (
    <section aria-labelledby="wiki-search">
      <h2 id="wiki-search">Search the wiki</h2>
      <search>
        <form class="inline-form" onSubmit={submit}>
          <TextField label="Words to find" name="q" type="search" defaultValue={q} key={q} />
          <button type="submit">Search</button>
        </form>
      </search>
      {q && (
        <Async resource={results} what="results" isEmpty={(r) => !r || r.results.length === 0} empty={`Nothing in the wiki matches “${q}”.`}>
          {(r) => (
            <ul class="rows" aria-label={`Results for ${q}`}>
              {r?.results.map((hit) => (
                <li key={`${hit.kind}:${hit.path}`}>
                  {hit.kind === "page" ? <a href={wikiPageHref(company, wiki, hit.path)}>{hit.title}</a> : <strong>{hit.title}</strong>}{" "}
                  <span class="badge">{hit.kind === "page" ? "Page" : "Source"}</span> <span class="meta mono">{hit.path}</span>
                  <p class="meta">{snippetParts(hit.snippet).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text))}</p>
                </li>
              ))}
            </ul>
          )}
        </Async>
      )}
    </section>
  );
}

function NewPage({ company, wiki, onCancel }: { company: Company; wiki: WikiRef; onCancel: () => void }) {
  const action = useAction();
  const { route } = useLocation();
  const submit = async (event: Event) => {
    const { form, text } = submittedForm(event);
    const path = text("path");
    const written = await action.run(async () => {
      // A new page only: a path already taken opens that page instead of overwriting it.
      const taken = await call(api.GET("/api/plugins/knowledge-wiki/api/page", { params: { query: { ...wikiQuery(company.id, wiki), path } } })).catch(
        (err) => {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        },
      );
      if (taken) throw new Error(`A page already exists at ${path}: open it to edit it.`);
      return call(
        api.POST("/api/plugins/knowledge-wiki/api/pages", {
          body: {
            ...wikiQuery(company.id, wiki),
            path,
            contents: String(form.get("contents") ?? ""),
            title: text("title") || undefined,
            summary: text("summary") || undefined,
          },
        }),
      );
    });
    if (written) route(wikiPageHref(company, wiki, written.path));
  };
  return (
    <form class="card stack narrow-form" onSubmit={submit} aria-label="New page">
      <TextField
        label="Path"
        name="path"
        required
        defaultValue="wiki/"
        maxLength={300}
        hint="A .md file under wiki/, e.g. wiki/concepts/deploys.md (folders: concepts, entities, areas, synthesis)."
      />
      <TextField label="Page title" name="title" maxLength={200} hint="Optional: the first heading otherwise." />
      <TextArea label="Contents" name="contents" rows={12} required hint="Markdown; link pages with [[concepts/deploys]]." />
      <TextField label="Change summary" name="summary" maxLength={500} hint="Optional." />
      <Submit action={action} label="Create page" primary>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </Submit>
    </form>
  );
}
