// API views of issue rows, comments and labels.
import type { schema } from "../../db/client";
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
