// One issue: its description and comments as safe markdown, a comment form, status / priority /
// assignee controls (each change saves at once), the questions agents asked on it (answered here),
// its place among other issues (parent, sub-issues, blockers), its documents (revisions and a diff
// view), attachments, and the runs that touched it with their events and pages — all following the
// issue's events, so an agent's comment appears as it is posted.
import { PriorityBadge, StatusBadge } from "../components/badges";
import { CommentForm } from "../components/issue/comment-form";
import { IssueControls } from "../components/issue/controls";
import { IssueQuestions } from "../components/issue/questions";
import { Related } from "../components/issue/related";
import { IssueAttachments } from "../components/issue-attachments";
import { IssueDocuments } from "../components/issue-documents";
import { Markdown } from "../components/markdown";
import { RunList } from "../components/runs";
import { Async } from "../components/states";
import { agentName } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { assigneeName } from "../lib/assignees";
import { companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { usePeople } from "../lib/people";
import { type Resource, useResource } from "../lib/resource";
import { session } from "../lib/session";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type IssueSummary = NonNullable<Schemas["IssueSummary"]>;
const known = (s: Schemas["IssueSummary"]): s is IssueSummary => s !== null;

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
  const users = usePeople(company.id);
  useTitle(issue.data ? `${issue.data.identifier} ${issue.data.title}` : ref);

  const author = (comment: Schemas["IssueComment"]) => {
    if (comment.authorAgentId) return agentName(comment.authorAgentId);
    if (comment.authorUserId === session.value?.user.id) return "You";
    return users.find((u) => u.id === comment.authorUserId)?.name ?? "A board member";
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
            <StatusBadge status={detail.status} /> <PriorityBadge priority={detail.priority} /> · {assigneeName(detail)} · updated{" "}
            <time dateTime={detail.updatedAt} title={when(detail.updatedAt)}>
              {ago(detail.updatedAt)}
            </time>
          </p>
          <IssueControls issue={detail} onSaved={() => void issue.reload()} />
          <section aria-labelledby="issue-description">
            <h2 id="issue-description">Description</h2>
            {detail.description ? <Markdown source={detail.description} /> : <p class="empty">No description.</p>}
          </section>
          <IssueQuestions issueId={detail.id} company={company} />
          <Related title="Sub-issues" issues={children.data ?? []} href={issueHref} empty={children.loading ? "Loading sub-issues…" : "No sub-issues."} />
          {detail.blockedBy.length > 0 && <Related title="Blocked by" issues={detail.blockedBy.filter(known)} href={issueHref} />}
          {detail.blocks.length > 0 && <Related title="Blocks" issues={detail.blocks.filter(known)} href={issueHref} />}
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
