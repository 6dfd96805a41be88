// API views of issue rows, comments and labels.
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { schema } from "../../db/client";
import { TERMINAL_ISSUE_STATUSES } from "../../db/schema/issues";

export type IssueRow = typeof schema.issues.$inferSelect;
export type CommentRow = typeof schema.issueComments.$inferSelect;
export type LabelRow = typeof schema.labels.$inferSelect;

export interface IssueRelations {
  labels: Array<{ id: string; name: string; color: string | null }>;
  blockedByIssueIds: string[];
}

export function issueView(row: IssueRow, rel: IssueRelations) {
  return {
    id: row.id,
    companyId: row.companyId,
    identifier: row.identifier,
    number: row.number,
    title: row.title,
    description: row.description ?? null,
    status: row.status,
    priority: row.priority,
    projectId: row.projectId ?? null,
    goalId: row.goalId ?? null,
    parentId: row.parentId ?? null,
    assigneeAgentId: row.assigneeAgentId ?? null,
    assigneeUserId: row.assigneeUserId ?? null,
    checkoutRunId: row.checkoutRunId ?? null,
    checkedOutAt: row.checkedOutAt ?? null,
    executionPolicy: row.executionPolicy ?? null,
    executionWorkspaceId: row.executionWorkspaceId ?? null,
    executionWorkspacePreference: row.executionWorkspacePreference ?? null,
    executionWorkspaceSettings: row.executionWorkspaceSettings ?? null,
    labelIds: rel.labels.map((l) => l.id),
    labels: rel.labels,
    blockedByIssueIds: rel.blockedByIssueIds,
    originKind: row.originKind,
    originId: row.originId ?? null,
    hiddenAt: row.hiddenAt ?? null,
    startedAt: row.startedAt ?? null,
    completedAt: row.completedAt ?? null,
    cancelledAt: row.cancelledAt ?? null,
    createdByAgentId: row.createdByAgentId ?? null,
    createdByUserId: row.createdByUserId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type IssueView = ReturnType<typeof issueView>;

/**
 * issueView built by SQLite (json_object) for the row in scope (`issues`), given its relations as
 * JSON subqueries: a list of many issues comes back as one JSON text, with no row objects, mapping
 * or JSON.stringify in the Worker. Keyed by IssueView, so a field added to issueView and not here is
 * a type error; test/http/issue-list-json.test.ts holds the two equal on every kind of value.
 */
export function issueViewJson(rel: { labels: SQL; labelIds: SQL; blockedByIssueIds: SQL }): SQL<string> {
  const t = schema.issues;
  const fields: { [K in keyof IssueView]: SQL | SQLiteColumn } = {
    id: t.id,
    companyId: t.companyId,
    identifier: t.identifier,
    number: t.number,
    title: t.title,
    description: t.description,
    status: t.status,
    priority: t.priority,
    projectId: t.projectId,
    goalId: t.goalId,
    parentId: t.parentId,
    assigneeAgentId: t.assigneeAgentId,
    assigneeUserId: t.assigneeUserId,
    checkoutRunId: t.checkoutRunId,
    checkedOutAt: t.checkedOutAt,
    executionPolicy: sql`json(${t.executionPolicy})`,
    executionWorkspaceId: t.executionWorkspaceId,
    executionWorkspacePreference: t.executionWorkspacePreference,
    executionWorkspaceSettings: sql`json(${t.executionWorkspaceSettings})`,
    labelIds: sql`json(${rel.labelIds})`,
    labels: sql`json(${rel.labels})`,
    blockedByIssueIds: sql`json(${rel.blockedByIssueIds})`,
    originKind: t.originKind,
    originId: t.originId,
    hiddenAt: t.hiddenAt,
    startedAt: t.startedAt,
    completedAt: t.completedAt,
    cancelledAt: t.cancelledAt,
    createdByAgentId: t.createdByAgentId,
    createdByUserId: t.createdByUserId,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
  const args = Object.entries(fields).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`);
  return sql<string>`json_object(${sql.join(args, sql`, `)})`;
}

export function issueSummary(
  row: Pick<IssueRow, "id" | "identifier" | "title" | "status" | "priority" | "assigneeAgentId" | "projectId" | "parentId" | "updatedAt">,
) {
  return {
    id: row.id,
    identifier: row.identifier,
    title: row.title,
    status: row.status,
    priority: row.priority,
    assigneeAgentId: row.assigneeAgentId ?? null,
    projectId: row.projectId ?? null,
    parentId: row.parentId ?? null,
    updatedAt: row.updatedAt,
  };
}

export function commentView(row: CommentRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    issueId: row.issueId,
    body: row.body,
    authorAgentId: row.authorAgentId ?? null,
    authorUserId: row.authorUserId ?? null,
    runId: row.runId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function labelView(row: LabelRow) {
  return { id: row.id, companyId: row.companyId, name: row.name, color: row.color ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** Statuses after which an issue no longer blocks anything or needs work. */
export const isTerminalStatus = (status: string) => (TERMINAL_ISSUE_STATUSES as readonly string[]).includes(status);
