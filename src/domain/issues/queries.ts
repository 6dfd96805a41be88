// Issue reads answered at the edge: comments, labels, and the heartbeat runs that touched an
// issue (and the issues a run touched).
import { and, asc, desc, eq, gt, inArray, or, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { effectiveRunStatus } from "../runs/lease";
import { commentView, issueSummary, labelView, type IssueRow } from "./view";

const comments = schema.issueComments;
const runs = schema.heartbeatRuns;
const runLinks = schema.issueRunLinks;

export interface CommentFilters {
  after?: string;
  afterCommentId?: string;
  order?: "asc" | "desc";
  limit?: number;
}

/** Comments of the issue after an optional cursor, in creation order (rowid breaks ties of equal times). */
export async function listComments(db: Db, issueId: string, query: CommentFilters) {
  let cursor: SQL | undefined;
  if (query.afterCommentId) {
    const anchor = await db
      .select({ createdAt: comments.createdAt, rowid: sql<number>`rowid` })
      .from(comments)
      .where(and(eq(comments.id, query.afterCommentId), eq(comments.issueId, issueId)))
      .get();
    if (!anchor) throw notFound("Comment not found");
    cursor = sql`(${comments.createdAt} > ${anchor.createdAt} OR (${comments.createdAt} = ${anchor.createdAt} AND rowid > ${anchor.rowid}))`;
  }
  const order = query.order === "desc" ? [desc(comments.createdAt), sql`rowid DESC`] : [asc(comments.createdAt), sql`rowid ASC`];
  const rows = await db
    .select()
    .from(comments)
    .where(and(eq(comments.issueId, issueId), query.after ? gt(comments.createdAt, new Date(query.after).toISOString()) : undefined, cursor))
    .orderBy(...order)
    .limit(query.limit ?? 100);
  return rows.map(commentView);
}

/** One comment of the issue; 404 when it belongs to another issue or does not exist. */
export async function getComment(db: Db, issueId: string, commentId: string) {
  const row = await db.query.issueComments.findFirst({ where: and(eq(comments.id, commentId), eq(comments.issueId, issueId)) });
  if (!row) throw notFound("Comment not found");
  return commentView(row);
}

/** The company's issue labels, by name. */
export async function listLabels(db: Db, companyId: string) {
  const rows = await db.query.labels.findMany({ where: eq(schema.labels.companyId, companyId), orderBy: asc(schema.labels.nameKey) });
  return rows.map(labelView);
}

type RunRow = typeof runs.$inferSelect;

const issueRunView = (run: RunRow, now: string, leaseMs: number) => ({
  runId: run.id,
  status: effectiveRunStatus(run, now, leaseMs),
  agentId: run.agentId,
  adapterType: run.adapterType,
  startedAt: run.startedAt ?? null,
  finishedAt: run.finishedAt ?? null,
  createdAt: run.createdAt,
  invocationSource: run.invocationSource,
  usageJson: run.usageJson ?? null,
  resultJson: run.resultJson ?? null,
  logBytes: run.logBytes,
});

/** Runs linked to the issue or holding its checkout, newest first; live runs past the lease read `timed_out`. */
export async function runsOfIssue(db: Db, issue: IssueRow, now: string, leaseMs: number) {
  const linked = db.select({ runId: runLinks.runId }).from(runLinks).where(eq(runLinks.issueId, issue.id));
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.companyId, issue.companyId), or(inArray(runs.id, linked), eq(runs.id, issue.checkoutRunId ?? ""))))
    .orderBy(desc(runs.createdAt), desc(runs.id));
  return rows.map((run) => issueRunView(run, now, leaseMs));
}

export const findRun = (db: Db, runId: string) => db.query.heartbeatRuns.findFirst({ where: eq(runs.id, runId) });

/** Summaries of the issues the run checked out or is linked to, by number. */
export async function issuesOfRun(db: Db, run: Pick<RunRow, "id" | "companyId">) {
  const t = schema.issues;
  const linked = db.select({ issueId: runLinks.issueId }).from(runLinks).where(eq(runLinks.runId, run.id));
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.companyId, run.companyId), or(eq(t.checkoutRunId, run.id), inArray(t.id, linked))))
    .orderBy(asc(t.number));
  return rows.map(issueSummary);
}
