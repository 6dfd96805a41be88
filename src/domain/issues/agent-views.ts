// Issue reads shaped for agents: the compact inbox of open assigned issues and the context a
// heartbeat needs about one issue.
import { and, asc, desc, eq, isNull, notInArray, sql } from "drizzle-orm";
import { inIds } from "../../db/id-list";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { runIsStale } from "../runs/lease";
import { attachmentSummariesForIssue } from "../attachments/summaries";
import { planReviewContextForIssue } from "../documents/summaries";
import { issueViewsFor } from "./load";
import { PRIORITY_RANK } from "./list";
import { loadAncestors, loadProjectAndGoal } from "./detail";
import { commentView, type IssueRow } from "./view";
import { TERMINAL_ISSUE_STATUSES } from "../../db/schema/issues";

const issues = schema.issues;

/** The agent's open assigned issues (hidden ones left out) with their live checkout run and open blockers. */
export async function agentInboxLite(db: Db, agent: { companyId: string; agentId: string }, now: string, leaseMs: number) {
  const rows = await db
    .select()
    .from(issues)
    .where(
      and(
        eq(issues.companyId, agent.companyId),
        eq(issues.assigneeAgentId, agent.agentId),
        notInArray(issues.status, [...TERMINAL_ISSUE_STATUSES]),
        isNull(issues.hiddenAt),
      ),
    )
    .orderBy(PRIORITY_RANK, sql`${issues.updatedAt} DESC`, issues.id)
    .limit(500);
  const ids = rows.map((r) => r.id);
  const runIds = rows.map((r) => r.checkoutRunId).filter((x): x is string => Boolean(x));
  const b = schema.issueBlockers;
  const [blockers, runs] = await Promise.all([
    ids.length
      ? db
          .select({ issueId: b.issueId, blockerIssueId: b.blockerIssueId })
          .from(b)
          .innerJoin(issues, eq(issues.id, b.blockerIssueId))
          .where(and(inIds(b.issueId, ids), notInArray(issues.status, [...TERMINAL_ISSUE_STATUSES])))
          .orderBy(asc(issues.number))
      : [],
    runIds.length ? db.select().from(schema.heartbeatRuns).where(inIds(schema.heartbeatRuns.id, runIds)) : [],
  ]);
  const openBlockers = new Map<string, string[]>();
  for (const x of blockers) openBlockers.set(x.issueId, [...(openBlockers.get(x.issueId) ?? []), x.blockerIssueId]);
  const runById = new Map(runs.map((r) => [r.id, r]));
  return rows.map((r) => {
    const run = r.checkoutRunId ? runById.get(r.checkoutRunId) : undefined;
    const unresolved = openBlockers.get(r.id) ?? [];
    return {
      id: r.id,
      identifier: r.identifier,
      title: r.title,
      status: r.status,
      priority: r.priority,
      projectId: r.projectId ?? null,
      goalId: r.goalId ?? null,
      parentId: r.parentId ?? null,
      updatedAt: r.updatedAt,
      activeRun: run && !runIsStale(run, now, leaseMs) ? { id: run.id, status: run.status, agentId: run.agentId, startedAt: run.startedAt ?? null } : null,
      dependencyReady: unresolved.length === 0,
      unresolvedBlockerCount: unresolved.length,
      unresolvedBlockerIssueIds: unresolved,
    };
  });
}

/**
 * Reduced issue, ancestors, project and goal, comment cursor metadata, the wake comment (404 when
 * it is not a comment of this issue), attachment summaries and the plan review context.
 */
export async function heartbeatContext(db: Db, issue: IssueRow, wakeCommentId: string | undefined) {
  const t = schema.issueComments;
  const [views, ancestors, related, totalComments, latest, wake, attachments, planReviewContext] = await Promise.all([
    issueViewsFor(db, [issue]),
    loadAncestors(db, issue),
    loadProjectAndGoal(db, issue),
    db.$count(t, eq(t.issueId, issue.id)),
    db.select().from(t).where(eq(t.issueId, issue.id)).orderBy(desc(t.createdAt), sql`rowid DESC`).limit(1).get(),
    wakeCommentId ? db.query.issueComments.findFirst({ where: and(eq(t.id, wakeCommentId), eq(t.issueId, issue.id)) }) : undefined,
    attachmentSummariesForIssue(db, issue.id),
    planReviewContextForIssue(db, issue.id),
  ]);
  if (wakeCommentId && !wake) throw notFound("Wake comment not found on this issue");
  const view = views[0];
  return {
    issue: {
      id: view.id,
      identifier: view.identifier,
      title: view.title,
      description: view.description,
      status: view.status,
      priority: view.priority,
      projectId: view.projectId,
      goalId: view.goalId,
      parentId: view.parentId,
      assigneeAgentId: view.assigneeAgentId,
      assigneeUserId: view.assigneeUserId,
      checkoutRunId: view.checkoutRunId,
      blockedByIssueIds: view.blockedByIssueIds,
      labelIds: view.labelIds,
      updatedAt: view.updatedAt,
    },
    ancestors,
    ...related,
    commentCursor: { totalComments: Number(totalComments ?? 0), latestCommentId: latest?.id ?? null, latestCommentAt: latest?.createdAt ?? null },
    wakeComment: wake ? commentView(wake) : null,
    attachments,
    planReviewContext,
  };
}
