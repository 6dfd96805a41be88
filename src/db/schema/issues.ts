// Issues: the company's work items. Related tables (comments, documents, ...) live beside it.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const issueStatuses = ["backlog", "todo", "in_progress", "in_review", "blocked", "done", "cancelled"] as const;
export const issuePriorities = ["critical", "high", "medium", "low"] as const;

export const issues = sqliteTable(
  "issues",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    identifier: text("identifier").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    status: text("status", { enum: issueStatuses }).notNull(),
    priority: text("priority", { enum: issuePriorities }).notNull(),
    projectId: text("project_id"),
    goalId: text("goal_id"),
    parentId: text("parent_id"),
    assigneeAgentId: text("assignee_agent_id"),
    assigneeUserId: text("assignee_user_id"),
    checkoutRunId: text("checkout_run_id"),
    /** When the current checkout took the lock (cleared with it). */
    checkedOutAt: text("checked_out_at"),
    /** Execution lock time for adapters that lock an issue while executing (cleared on release). */
    executionLockedAt: text("execution_locked_at"),
    executionPolicy: text("execution_policy", { mode: "json" }).$type<Record<string, unknown> | null>(),
    executionWorkspaceId: text("execution_workspace_id"),
    executionWorkspacePreference: text("execution_workspace_preference"),
    executionWorkspaceSettings: text("execution_workspace_settings", { mode: "json" }).$type<Record<string, unknown> | null>(),
    originKind: text("origin_kind").notNull().default("manual"),
    originId: text("origin_id"),
    hiddenAt: text("hidden_at"),
    startedAt: text("started_at"),
    completedAt: text("completed_at"),
    cancelledAt: text("cancelled_at"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("issues_identifier_uq").on(t.identifier),
    uniqueIndex("issues_company_number_uq").on(t.companyId, t.number),
    index("issues_company_status_idx").on(t.companyId, t.status),
    index("issues_company_assignee_idx").on(t.companyId, t.assigneeAgentId),
    index("issues_company_project_idx").on(t.companyId, t.projectId),
    index("issues_company_parent_idx").on(t.companyId, t.parentId),
    index("issues_company_updated_idx").on(t.companyId, t.updatedAt),
    index("issues_company_origin_idx").on(t.companyId, t.originKind, t.originId),
    index("issues_company_exec_ws_idx").on(t.companyId, t.executionWorkspaceId),
    index("issues_company_assignee_user_idx").on(t.companyId, t.assigneeUserId),
    index("issues_company_created_by_user_idx").on(t.companyId, t.createdByUserId),
    index("issues_company_created_by_agent_idx").on(t.companyId, t.createdByAgentId),
    index("issues_checkout_run_idx").on(t.checkoutRunId),
    index("issues_goal_idx").on(t.goalId),
    /** The list's default order (see src/domain/issues/list.ts PRIORITY_RANK). */
    index("issues_company_priority_idx").on(
      t.companyId,
      sql`(CASE ${t.priority} WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END)`,
      sql`${t.updatedAt} DESC`,
      t.id,
    ),
  ],
);
