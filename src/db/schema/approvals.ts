// Approvals (board review of hires, strategy, budget overrides, general requests), their linked issues and comments.
import { sqliteTable, text, index, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const APPROVAL_TYPES = ["hire_agent", "approve_ceo_strategy", "budget_override_required", "request_board_approval"] as const;
export const APPROVAL_STATUSES = ["pending", "revision_requested", "approved", "rejected"] as const;

export const approvals = sqliteTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    type: text("type", { enum: APPROVAL_TYPES }).notNull(),
    status: text("status", { enum: APPROVAL_STATUSES }).notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    requestedByAgentId: text("requested_by_agent_id"),
    requestedByUserId: text("requested_by_user_id"),
    decisionNote: text("decision_note"),
    decidedByUserId: text("decided_by_user_id"),
    decidedAt: text("decided_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("approvals_company_status_idx").on(t.companyId, t.status)],
);

export const approvalIssues = sqliteTable(
  "approval_issues",
  {
    approvalId: text("approval_id")
      .notNull()
      .references(() => approvals.id, { onDelete: "cascade" }),
    issueId: text("issue_id").notNull(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.approvalId, t.issueId] }), index("approval_issues_issue_idx").on(t.issueId)],
);

export const approvalComments = sqliteTable(
  "approval_comments",
  {
    id: text("id").primaryKey(),
    approvalId: text("approval_id")
      .notNull()
      .references(() => approvals.id, { onDelete: "cascade" }),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    authorAgentId: text("author_agent_id"),
    authorUserId: text("author_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("approval_comments_approval_idx").on(t.approvalId, t.createdAt)],
);
