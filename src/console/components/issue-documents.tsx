// An issue's documents: each with its latest body as safe markdown, "Edit" (a new revision, based
// on the one shown, so a concurrent write is refused rather than lost) and "History": its revisions,
// any two of which compare as a line diff. "New document" adds one. The service announces no event
// for document writes, so the list reloads with the issue's events and when a run ends. A link to
// `#document-<key>` (a search result) scrolls to that document once the list is shown.
import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { agentName } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { ago, when } from "../lib/format";
import { submittedForm } from "../lib/form";
import { useResource } from "../lib/resource";
import { Feedback, useAction } from "./action";
import { DiffView } from "./diff-view";
import { SelectField, TextArea, TextField } from "./fields";
import { Markdown } from "./markdown";
import { Async } from "./states";

type IssueDocument = Schemas["IssueDocument"];
type Revision = Schemas["IssueDocumentRevision"];

const author = (r: { createdByAgentId: string | null; createdByUserId: string | null }) => (r.createdByAgentId ? agentName(r.createdByAgentId) : "the board");

export function IssueDocuments({ issueId, identifier }: { issueId: string; identifier: string }) {
  const docs = useResource(() => call(api.GET("/api/issues/{issueId}/documents", { params: { path: { issueId } } })), [issueId], {
    types: ["issue.*", "run.finished", "document.written"],
    when: (event) => event.type === "run.finished" || event.subject?.id === issueId || (event.data as { identifier?: string })?.identifier === identifier,
  });
  const [creating, setCreating] = useState(false);
  const shown = docs.data !== undefined;
  const { url } = useLocation();
  useEffect(() => {
    if (!shown || !location.hash.startsWith("#document-")) return;
    // After the layout has moved the focus to the new page.
    const timer = setTimeout(() => {
      const heading = document.getElementById(decodeURIComponent(location.hash.slice(1)))?.querySelector("h3");
      heading?.scrollIntoView({ block: "start" });
      heading?.focus();
    }, 0);
    return () => clearTimeout(timer);
  }, [shown, url]);
  return (
    <section aria-labelledby="issue-documents">
      <div class="title-row">
        <h2 id="issue-documents">Documents</h2>
        {!creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New document
          </button>
        )}
      </div>
      {creating && (
        <DocumentForm
          issueId={issueId}
          onCancel={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            void docs.reload();
          }}
        />
      )}
      <Async resource={docs} what="documents" empty="No documents yet.">
        {(list) => (
          <ul class="documents">
            {list.map((doc) => (
              <DocumentCard key={doc.id} doc={doc} issueId={issueId} onChanged={() => void docs.reload()} />
            ))}
          </ul>
        )}
      </Async>
    </section>
  );
}

function DocumentCard({ doc, issueId, onChanged }: { doc: IssueDocument; issueId: string; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [history, setHistory] = useState(false);
  const name = doc.title || doc.key;
  const headingId = `doc-${doc.id}`;
  return (
    <li class="card document" aria-labelledby={headingId} id={`document-${doc.key}`}>
      <h3 id={headingId} tabIndex={-1}>
        {name}
      </h3>
      <p class="meta">
        <span class="mono">{doc.key}</span> · revision {doc.latestRevisionNumber} · updated{" "}
        <time dateTime={doc.updatedAt} title={when(doc.updatedAt)}>
          {ago(doc.updatedAt)}
        </time>
        {doc.lockedAt ? " · locked" : ""}
        {doc.changeSummary ? ` · “${doc.changeSummary}”` : ""}
      </p>
      {editing ? (
        <DocumentForm
          issueId={issueId}
          doc={doc}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      ) : (
        <Markdown source={doc.body} />
      )}
      <div class="actions">
        {!editing && (
          <button type="button" disabled={Boolean(doc.lockedAt)} onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
            Edit
          </button>
        )}
        <button type="button" aria-expanded={history} onClick={() => setHistory(!history)} aria-label={`${history ? "Hide history of" : "History of"} ${name}`}>
          {history ? "Hide history" : "History"}
        </button>
      </div>
      {history && <Revisions issueId={issueId} doc={doc} />}
    </li>
  );
}

function Revisions({ issueId, doc }: { issueId: string; doc: IssueDocument }) {
  const revisions = useResource(
    () => call(api.GET("/api/issues/{issueId}/documents/{key}/revisions", { params: { path: { issueId, key: doc.key } } })),
    [issueId, doc.key, doc.latestRevisionId],
  );
  return (
    <div class="revisions">
      <Async resource={revisions} what="revisions" empty="No revisions.">
        {(list) => <RevisionCompare list={list} name={doc.title || doc.key} />}
      </Async>
    </div>
  );
}

function RevisionCompare({ list, name }: { list: Revision[]; name: string }) {
  // Newest first, as the API lists them; by default the latest against the one before it.
  const [toId, setToId] = useState(list[0].id);
  const [fromId, setFromId] = useState((list[1] ?? list[0]).id);
  const to = list.find((r) => r.id === toId) ?? list[0];
  const from = list.find((r) => r.id === fromId) ?? list[list.length - 1];
  const options = list.map((r) => ({ value: r.id, label: `Revision ${r.revisionNumber}${r.changeSummary ? `: ${r.changeSummary}` : ""}` }));
  return (
    <>
      <h4>Revisions of {name}</h4>
      <ol class="rows">
        {list.map((r) => (
          <li key={r.id}>
            Revision {r.revisionNumber} <span class="meta">by {author(r)} · </span>
            <time class="meta" dateTime={r.createdAt} title={when(r.createdAt)}>
              {ago(r.createdAt)}
            </time>
            {r.changeSummary && <span class="meta"> · {r.changeSummary}</span>}
            {r.restoredFromRevisionId && <span class="meta"> · restored</span>}
          </li>
        ))}
      </ol>
      {list.length > 1 ? (
        <>
          <div class="controls">
            <SelectField label="Compare revision" value={from.id} options={options} onChange={(e) => setFromId(e.currentTarget.value)} />
            <SelectField label="with revision" value={to.id} options={options} onChange={(e) => setToId(e.currentTarget.value)} />
          </div>
          <DiffView before={from.body} after={to.body} label={`Revision ${from.revisionNumber} → ${to.revisionNumber}`} />
        </>
      ) : (
        <p class="empty">Only one revision: nothing to compare yet.</p>
      )}
    </>
  );
}

function DocumentForm({ issueId, doc, onCancel, onSaved }: { issueId: string; doc?: IssueDocument; onCancel: () => void; onSaved: () => void }) {
  const action = useAction();
  const submit = async (event: Event) => {
    const { form, text } = submittedForm(event);
    const key = doc?.key ?? text("key");
    const saved = await action.run(() =>
      call(
        api.PUT("/api/issues/{issueId}/documents/{key}", {
          params: { path: { issueId, key } },
          body: {
            title: text("title") || null,
            // The body as typed (not trimmed).
            body: String(form.get("body") ?? ""),
            changeSummary: text("summary") || null,
            ...(doc ? { baseRevisionId: doc.latestRevisionId } : {}),
          },
        }),
      ),
    );
    if (saved) onSaved();
  };
  return (
    <form class="stack" onSubmit={submit} aria-label={doc ? `Edit ${doc.title || doc.key}` : "New document"}>
      {!doc && <TextField label="Key" name="key" required maxLength={64} pattern="[a-z0-9_\-]+" hint="Lower-case letters, digits, - and _; e.g. plan." />}
      <TextField label="Document title" name="title" maxLength={200} defaultValue={doc?.title ?? ""} />
      <TextArea label="Document body" name="body" rows={10} required defaultValue={doc?.body ?? ""} hint="Markdown." />
      <TextField label="Change summary" name="summary" maxLength={1000} hint="Optional: what this revision changes." />
      <Feedback action={action} />
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy}>
          {doc ? "Save revision" : "Create document"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
