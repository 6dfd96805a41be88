// The company search in the header of every company page (GET /api/companies/{id}/search): issues,
// agents, projects, issue documents and wiki pages as you type; each result opens the page it names.
// `/` (when not typing in a field) or Ctrl/⌘+K puts the cursor in it; ↓ and ↑ move through the
// results, Enter opens the first, Escape closes them (and then clears the box).
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { api, call, messageOf, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { wikiPageHref } from "../lib/wiki";

type Result = Schemas["SearchResult"];

const TYPE_DELAY_MS = 200;
const LIMIT = 10;

/** The console's page a result names. */
export function resultHref(company: Company, result: Result): string {
  switch (result.kind) {
    case "issue":
      return companyPath(company, `issues/${result.identifier}`);
    case "agent":
      return companyPath(company, `agents/${result.id}`);
    case "project":
      return companyPath(company, `projects/${result.id}`);
    case "document":
      return `${companyPath(company, `issues/${result.issueIdentifier}`)}#document-${encodeURIComponent(result.key)}`;
    case "wiki_page":
      return wikiPageHref(company, { wikiId: result.wikiId, spaceSlug: result.spaceSlug }, result.path);
  }
}

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

export function SearchBox({ company }: { company: Company }) {
  const id = useId();
  const { route } = useLocation();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [found, setFound] = useState<{ q: string; results: Result[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut = (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey);
      if (shortcut || (event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !typingIn(event.target))) {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    const term = q.trim();
    if (!term) {
      setFound(null);
      setError(null);
      return;
    }
    const mine = ++asked.current;
    const timer = setTimeout(async () => {
      try {
        const { results } = await call(
          api.GET("/api/companies/{companyId}/search", { params: { path: { companyId: company.id }, query: { q: term, limit: LIMIT } } }),
        );
        if (mine === asked.current) {
          setFound({ q: term, results });
          setError(null);
        }
      } catch (err) {
        if (mine === asked.current) setError(messageOf(err));
      }
    }, TYPE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [q, company.id]);

  const links = () => [...(list.current?.querySelectorAll("a") ?? [])];
  // A result's link is followed by the router; the box closes.
  const close = () => {
    setOpen(false);
    setQ("");
  };
  const go = (href: string) => {
    close();
    route(href);
  };
  const onInputKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      links()[0]?.focus();
    } else if (event.key === "Escape" && open) {
      // The first Escape closes the results; the next clears the box (the search field's own).
      event.preventDefault();
      setOpen(false);
    }
  };
  const onListKey = (event: KeyboardEvent) => {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = at + (event.key === "ArrowDown" ? 1 : -1);
      if (next < 0) input.current?.focus();
      else all[Math.min(next, all.length - 1)]?.focus();
    } else if (event.key === "Escape") {
      setOpen(false);
      input.current?.focus();
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const first = found?.q === q.trim() ? found.results[0] : undefined;
    if (first) go(resultHref(company, first));
  };
  // Leaving the box (focus elsewhere) closes the results.
  const onFocusOut = (event: FocusEvent) => {
    const form = event.currentTarget as HTMLFormElement;
    if (!form.contains(event.relatedTarget as Node | null)) setOpen(false);
  };

  const term = q.trim();
  const current = found?.q === term ? found.results : null;
  const status = !term ? "" : error ? `Search failed: ${error}` : !current ? "Searching…" : current.length ? `${current.length} found` : "Nothing found";
  return (
    <search class="search" aria-label="Company search">
      <form onSubmit={submit} onFocusOut={onFocusOut}>
        <label for={id} class="visually-hidden">
          Search the company
        </label>
        <input
          id={id}
          ref={input}
          type="search"
          autocomplete="off"
          placeholder="Search  ( / )"
          aria-keyshortcuts="/ Control+K Meta+K"
          aria-describedby={`${id}-status`}
          value={q}
          onInput={(e) => {
            setQ(e.currentTarget.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onInputKey}
        />
        <span id={`${id}-status`} class="visually-hidden" role="status">
          {open ? status : ""}
        </span>
        {open && term && (
          // A press on a result keeps the focus in the box, so the results stay until the click opens one.
          // biome-ignore lint/a11y/noStaticElementInteractions: only keeps the focus where it is; the links inside take the click and the keyboard
          <div class="search-results" onMouseDown={(e) => e.preventDefault()}>
            {current && current.length > 0 ? (
              <ul ref={list} aria-label={`Results for ${term}`} onKeyDown={onListKey}>
                {current.map((result) => (
                  <li key={`${result.kind}:${result.id}`}>
                    <a href={resultHref(company, result)} onClick={close}>
                      <span class="badge">{label(result.kind)}</span> <strong>{result.title}</strong>
                      {result.snippet && <span class="meta snippet">{result.snippet}</span>}
                    </a>
                  </li>
                ))}
              </ul>
            ) : (
              <p class={`search-status ${error ? "error" : "meta"}`}>{status}</p>
            )}
          </div>
        )}
      </form>
    </search>
  );
}
