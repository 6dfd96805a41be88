// Editing a wiki page: the whole page as markdown, saved with the hash it was read with
// (`expectedHash`), so a write made meanwhile is not lost. When the page changed since (409 with
// details.currentHash), a merge prompt shows the current version next to yours with the line diff
// between them, and lets the person keep theirs (saved over the current one), take the current one
// (theirs dropped) or edit theirs beside the current one — each save then expects the current hash.
import { useId, useState } from "preact/hooks";
import { ApiError, api, call, type Schemas } from "../lib/api";
import type { WikiRef } from "../lib/wiki";
import { wikiQuery } from "../lib/wiki";
import { Feedback, Submit, useAction } from "./action";
import { DiffView } from "./diff-view";
import { TextArea, TextField } from "./fields";

type Written = Schemas["WrittenWikiPage"];
type Current = Schemas["WikiPageContent"];

interface Conflict {
  /** The page as it is now (null: deleted since). */
  current: Current | null;
  /** The person chose to edit theirs beside the current version. */
  editing: boolean;
}

export function WikiEditor({
  companyId,
  wiki,
  path,
  base,
  onSaved,
  onCancel,
}: {
  companyId: string;
  wiki: WikiRef;
  path: string;
  /** The page as read when editing starts (null: a new page); later versions are not taken in silently. */
  base: { contents: string; hash: string } | null;
  onSaved: (written: Written) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const action = useAction();
  const [text, setText] = useState(base?.contents ?? "");
  const [summary, setSummary] = useState("");
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // The hash of the version this edit started from, kept while the page reloads under it.
  const [baseHash] = useState(base?.hash ?? null);

  const save = async (expectedHash: string | null) => {
    const written = await action.run(async () => {
      try {
        return await call(
          api.POST("/api/plugins/knowledge-wiki/api/pages", {
            body: { ...wikiQuery(companyId, wiki), path, contents: text, summary: summary.trim() || undefined, expectedHash: expectedHash ?? undefined },
          }),
        );
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 409) throw err;
        const current = await call(api.GET("/api/plugins/knowledge-wiki/api/page", { params: { query: { ...wikiQuery(companyId, wiki), path } } })).catch(
          (readError) => {
            if (readError instanceof ApiError && readError.status === 404) return null;
            throw readError;
          },
        );
        setConflict({ current, editing: false });
        return undefined;
      }
    });
    if (written) {
      setConflict(null);
      onSaved(written);
    }
  };

  const submit = (event: Event) => {
    event.preventDefault();
    if (conflict) void save(conflict.current?.hash ?? null);
    else void save(baseHash);
  };

  const editor = (
    <>
      <TextArea
        label="Page contents"
        rows={16}
        required
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        hint="Markdown; link pages with [[concepts/deploys]]."
      />
      <TextField
        label="Change summary"
        maxLength={500}
        value={summary}
        onInput={(e) => setSummary(e.currentTarget.value)}
        hint="Optional: what this change does."
      />
    </>
  );

  return (
    <form class="stack wiki-editor" onSubmit={submit} aria-label={`Edit ${path}`}>
      {conflict && !conflict.editing ? (
        <section class="merge" aria-labelledby={`${id}-merge`}>
          <h2 id={`${id}-merge`}>This page changed while you edited it</h2>
          <p role="alert">
            {conflict.current
              ? "Someone saved a new version after you opened it. Compare the two, then keep yours, take theirs, or edit yours beside theirs."
              : "Someone deleted the page after you opened it. Write yours again, or leave it deleted."}
          </p>
          <div class="merge-columns">
            <figure>
              <figcaption>The current version</figcaption>
              <pre class="json">{conflict.current ? conflict.current.contents : "(deleted)"}</pre>
            </figure>
            <figure>
              <figcaption>Yours</figcaption>
              <pre class="json">{text}</pre>
            </figure>
          </div>
          {conflict.current && <DiffView before={conflict.current.contents} after={text} label="From the current version to yours" />}
          <div class="actions">
            <button type="button" class="primary" disabled={action.busy} onClick={() => void save(conflict.current?.hash ?? null)}>
              {conflict.current ? "Keep mine" : "Write mine again"}
            </button>
            <button type="button" disabled={action.busy} onClick={onCancel}>
              {conflict.current ? "Take the current one" : "Leave it deleted"}
            </button>
            {conflict.current && (
              <button type="button" disabled={action.busy} onClick={() => setConflict({ ...conflict, editing: true })}>
                Edit mine
              </button>
            )}
          </div>
        </section>
      ) : conflict?.editing && conflict.current ? (
        <div class="merge-columns">
          <figure>
            <figcaption>The current version</figcaption>
            <pre class="json">{conflict.current.contents}</pre>
          </figure>
          <div class="stack">{editor}</div>
        </div>
      ) : (
        editor
      )}
      {conflict && !conflict.editing ? (
        <Feedback action={action} />
      ) : (
        <Submit action={action} label="Save page" primary>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </Submit>
      )}
    </form>
  );
}
