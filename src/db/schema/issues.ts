// Issues (the company's work items) and what hangs off them: comments, labels, blocker relations,
// runs that touched an issue, and per-user read / inbox-archive state.
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const ISSUE_STATUSES = ["backlog", "todo", "in_progress", "in_review", "blocked", "done", "cancelled"] as const;
/** Statuses an issue's work is over in (it wakes no one, holds no checkout). */
export const TERMINAL_ISSUE_STATUSES = ["done", "cancelled"] as const satisfies readonly (typeof ISSUE_STATUSES)[number][];
export const ISSUE_PRIORITIES = ["critical", "high", "medium", "low"] as const;

export const issues = sqliteTable(
  "issues",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    identifier: text("identifier").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    status: text("status", { enum: ISSUE_STATUSES }).notNull(),
    priority: text("priority", { enum: ISSUE_PRIORITIES }).notNull(),
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
    /** Bumped by every UPDATE (trigger issues_version_bump, migration 0010): guarded writes compare it. */
    version: integer("version").notNull().default(0),
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

export const issueComments = sqliteTable(
  "issue_comments",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    authorAgentId: text("author_agent_id"),
    authorUserId: text("author_user_id"),
    /** The run that wrote the comment (agents), so the issue's runs can be listed. */
    runId: text("run_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("issue_comments_issue_created_idx").on(t.issueId, t.createdAt),
    index("issue_comments_company_agent_idx").on(t.companyId, t.authorAgentId),
    index("issue_comments_company_user_idx").on(t.companyId, t.authorUserId),
  ],
);

export const labels = sqliteTable(
  "labels",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Lower-cased name: label names are unique per company regardless of case. */
    nameKey: text("name_key").notNull(),
    color: text("color"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("labels_company_name_uq").on(t.companyId, t.nameKey)],
);

export const issueLabels = sqliteTable(
  "issue_labels",
  {
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    labelId: text("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.labelId] }), index("issue_labels_label_idx").on(t.labelId)],
);

/** `issueId` is blocked by `blockerIssueId`. */
export const issueBlockers = sqliteTable(
  "issue_blockers",
  {
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    blockerIssueId: text("blocker_issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.blockerIssueId] }), index("issue_blockers_blocker_idx").on(t.blockerIssueId)],
);

/** Heartbeat runs that touched an issue (checked it out, commented on or updated it). */
export const issueRunLinks = sqliteTable(
  "issue_run_links",
  {
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    runId: text("run_id").notNull(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.runId] }), index("issue_run_links_run_idx").on(t.runId)],
);

/** A board user's read cursor and inbox-archive mark on an issue. */
export const issueUserStates = sqliteTable(
  "issue_user_states",
  {
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    lastReadAt: text("last_read_at"),
    inboxArchivedAt: text("inbox_archived_at"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.userId] }), index("issue_user_states_user_idx").on(t.companyId, t.userId)],
);

/** Preconditions of command write batches (see src/company/command.ts `guard`): row 1 only. */
export const commandGuards = sqliteTable("command_guards", {
  id: integer("id").primaryKey(),
  held: integer("held").notNull(),
});
