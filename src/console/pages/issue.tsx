// One issue: its description and comments as safe markdown, a comment form, status / priority /
// assignee controls (each change saves at once), its place among other issues (parent, sub-issues,
// blockers), its documents (revisions and a diff view), attachments, and the runs that touched it
// with their events — all following the issue's events, so an agent's comment appears as it is posted.
import { useState } from "preact/hooks";
import { PriorityBadge, StatusBadge } from "../components/badges";
import { SelectField, TextArea } from "../components/fields";
import { IssueAttachments } from "../components/issue-attachments";
import { IssueDocuments } from "../components/issue-documents";
import { Markdown } from "../components/markdown";
import { RunList } from "../components/runs";
import { Async } from "../components/states";
import { agentName, agents } from "../lib/agents";
import { api, call, messageOf, type Schemas } from "../lib/api";
import { companyPath } from "../lib/companies";
import { ISSUE_PRIORITIES, ISSUE_STATUSES, type IssuePriority, type IssueStatus, label } from "../lib/enums";
import { ago, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { type Resource, useResource } from "../lib/resource";
import { session } from "../lib/session";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type IssueSummary = NonNullable<Schemas["IssueSummary"]>;

export default function IssuePage({ company, params }: CompanyPageProps) {
  const ref = params.issueId;
  const about = (event: LiveEvent) => {
    const data = event.data as { identifier?: string } | undefined;
    return event.subject?.id === issue.data?.id || data?.identifier === ref;
  };
  const issue = useResource(() => call(api.GET("/api/issues/{issueId}", { params: { path: { issueId: ref } } })), [ref], { types: ["issue.*"], when: about });
  const comments = useResource(() => call(api.GET("/api/issues/{issueId}/comments", { params: { path: { issueId: ref }, query: { limit: "500" } } })), [ref], {
    types: ["issue.commented"],
    when: about,
  });
  const id = issue.data?.id;
  const children = useResource(
    async () => (id ? call(api.GET("/api/companies/{companyId}/issues", { params: { path: { companyId: company.id }, query: { parentId: id } } })) : []),
    [company.id, id],
    { types: ["issue.created", "issue.updated"] },
  );
  // A run is linked to the issue when it checks it out, comments on or changes it: reload then, and
  // when one of the listed runs changes.
  const runs: Resource<Schemas["IssueRun"][]> = useResource(
    async () => (id ? call(api.GET("/api/issues/{issueId}/runs", { params: { path: { issueId: id } } })) : []),
    [id],
    {
      types: ["run.*", "issue.checked_out", "issue.commented", "issue.updated"],
      when: (event): boolean => {
        const data = event.data as { issueId?: string; identifier?: string } | undefined;
        const identifier = data?.identifier;
        return (
          data?.issueId === id ||
          (identifier !== undefined && (identifier === ref || identifier === issue.data?.identifier)) ||
          Boolean(runs.data?.some((r) => r.runId === event.subject?.id))
        );
      },
    },
  );
  const users = useResource(() => call(api.GET("/api/companies/{companyId}/user-directory", { params: { path: { companyId: company.id } } })), [company.id]);
  useTitle(issue.data ? `${issue.data.identifier} ${issue.data.title}` : ref);

  const author = (comment: Schemas["IssueComment"]) => {
    if (comment.authorAgentId) return agentName(comment.authorAgentId);
    if (comment.authorUserId === session.value?.user.id) return "You";
    return users.data?.find((u) => u.id === comment.authorUserId)?.name ?? "A board member";
  };
  const issueHref = (s: { identifier: string }) => companyPath(company, `issues/${s.identifier}`);

  return (
    <Async resource={issue} what="the issue">
      {(detail) => (
        <article class="issue">
          <p class="meta">
            <a href={companyPath(company, "issues")}>Issues</a>
            {detail.ancestors[0] && (
              <>
                {" "}
                › <a href={issueHref(detail.ancestors[0])}>{detail.ancestors[0].identifier}</a>
              </>
            )}
          </p>
          <h1 tabIndex={-1}>
            <span class="identifier">{detail.identifier}</span> {detail.title}
          </h1>
          <p class="meta">
            <StatusBadge status={detail.status} /> <PriorityBadge priority={detail.priority} /> · {agentName(detail.assigneeAgentId)} · updated{" "}
            <time dateTime={detail.updatedAt} title={when(detail.updatedAt)}>
              {ago(detail.updatedAt)}
            </time>
          </p>
          <Controls issue={detail} onSaved={() => void issue.reload()} />
          <section aria-labelledby="issue-description">
            <h2 id="issue-description">Description</h2>
            {detail.description ? <Markdown source={detail.description} /> : <p class="empty">No description.</p>}
          </section>
          <Related title="Sub-issues" issues={children.data ?? []} href={issueHref} empty={children.loading ? "Loading sub-issues…" : "No sub-issues."} />
          {detail.blockedBy.length > 0 && <Related title="Blocked by" issues={detail.blockedBy.filter(Boolean) as IssueSummary[]} href={issueHref} />}
          {detail.blocks.length > 0 && <Related title="Blocks" issues={detail.blocks.filter(Boolean) as IssueSummary[]} href={issueHref} />}
          <IssueDocuments issueId={detail.id} identifier={detail.identifier} />
          <IssueAttachments companyId={company.id} issueId={detail.id} identifier={detail.identifier} />
          <section aria-labelledby="issue-comments">
            <h2 id="issue-comments">Comments</h2>
            <Async resource={comments} what="comments" empty="No comments yet.">
              {(list) => (
                <ol class="comments">
                  {list.map((c) => (
                    <li key={c.id} class="comment">
                      <p class="meta">
                        <strong>{author(c)}</strong>{" "}
                        <time dateTime={c.createdAt} title={when(c.createdAt)}>
                          {ago(c.createdAt)}
                        </time>
                      </p>
                      <Markdown source={c.body} />
                    </li>
                  ))}
                </ol>
              )}
            </Async>
            <CommentForm issueId={detail.id} onPosted={() => void comments.reload()} />
          </section>
          <section aria-labelledby="issue-runs">
            <h2 id="issue-runs">Runs</h2>
            <Async resource={runs} what="runs" empty="No run has touched this issue.">
              {(list) => (
                <RunList
                  company={company}
                  runs={list.map((run) => ({
                    id: run.runId,
                    agentId: run.agentId,
                    status: run.status,
                    why: label(run.invocationSource),
                    createdAt: run.createdAt,
                    finishedAt: run.finishedAt,
                  }))}
                />
              )}
            </Async>
          </section>
        </article>
      )}
    </Async>
  );
}

function Controls({ issue, onSaved }: { issue: Schemas["IssueDetail"]; onSaved: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const save = async (body: { status?: IssueStatus; priority?: IssuePriority; assigneeAgentId?: string | null }, what: string) => {
    setError(null);
    try {
      await call(api.PATCH("/api/issues/{issueId}", { params: { path: { issueId: issue.id } }, body }));
      setNotice(`${what} saved.`);
      onSaved();
    } catch (err) {
      setError(messageOf(err));
      onSaved();
    }
  };
  return (
    <section class="controls" aria-label="Issue settings">
      <SelectField
        label="Status"
        value={issue.status}
        options={ISSUE_STATUSES.map((s) => ({ value: s, label: label(s) }))}
        onChange={(e) => save({ status: e.currentTarget.value as IssueStatus }, "Status")}
      />
      <SelectField
        label="Priority"
        value={issue.priority}
        options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: label(p) }))}
        onChange={(e) => save({ priority: e.currentTarget.value as IssuePriority }, "Priority")}
      />
      <SelectField
        label="Assignee"
        value={issue.assigneeAgentId ?? ""}
        options={[{ value: "", label: "Unassigned" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
        onChange={(e) => save({ assigneeAgentId: e.currentTarget.value || null }, "Assignee")}
      />
      <p role="status" class="notice">
        {notice}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}

function Related({ title, issues, href, empty }: { title: string; issues: IssueSummary[]; href: (s: IssueSummary) => string; empty?: string }) {
  const id = `related-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {issues.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <ul class="rows">
          {issues.map((s) => (
            <li key={s.id}>
              <a href={href(s)}>
                <span class="identifier">{s.identifier}</span> {s.title}
              </a>{" "}
              <StatusBadge status={s.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CommentForm({ issueId, onPosted }: { issueId: string; onPosted: () => void }) {
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!body.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await call(api.POST("/api/issues/{issueId}/comments", { params: { path: { issueId } }, body: { body } }));
      setBody("");
      onPosted();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack" onSubmit={submit}>
      <TextArea label="Comment" rows={4} required value={body} onInput={(e) => setBody(e.currentTarget.value)} hint="Markdown; raw HTML is shown as text." />
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Post comment
        </button>
      </div>
    </form>
  );
}
