// API views of approvals (payload redacted) and their comments.
import type { schema } from "../../db/client";
import { redactSecrets } from "../redaction";

export type ApprovalRow = typeof schema.approvals.$inferSelect;
export type ApprovalCommentRow = typeof schema.approvalComments.$inferSelect;

export function approvalView(row: ApprovalRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    type: row.type,
    status: row.status,
    payload: redactSecrets(row.payload ?? {}),
    requestedByAgentId: row.requestedByAgentId ?? null,
    requestedByUserId: row.requestedByUserId ?? null,
    decisionNote: row.decisionNote ?? null,
    decidedByUserId: row.decidedByUserId ?? null,
    decidedAt: row.decidedAt ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type ApprovalView = ReturnType<typeof approvalView>;

export function approvalCommentView(row: ApprovalCommentRow) {
  return {
    id: row.id,
    approvalId: row.approvalId,
    companyId: row.companyId,
    body: row.body,
    authorAgentId: row.authorAgentId ?? null,
    authorUserId: row.authorUserId ?? null,
    createdAt: row.createdAt,
  };
}
