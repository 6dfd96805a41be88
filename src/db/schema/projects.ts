// Projects (deliverables), their goal links and their workspaces.
import { sqliteTable, text, index, primaryKey, integer } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { goals } from "./goals";

export const PROJECT_STATUSES = ["backlog", "planned", "in_progress", "completed", "cancelled"] as const;

export const projects = sqliteTable(
  "projects",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    urlKey: text("url_key").notNull(),
    description: text("description"),
    status: text("status", { enum: PROJECT_STATUSES }).notNull(),
    goalId: text("goal_id"),
    leadAgentId: text("lead_agent_id"),
    targetDate: text("target_date"),
    color: text("color"),
    env: text("env", { mode: "json" }).$type<Record<string, unknown> | null>(),
    executionWorkspacePolicy: text("execution_workspace_policy", { mode: "json" }).$type<Record<string, unknown> | null>(),
    /** Set when a hard budget stop (or an operator) pauses the project; paused projects block checkouts. */
    pausedAt: text("paused_at"),
    pauseReason: text("pause_reason"),
    archivedAt: text("archived_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("projects_company_idx").on(t.companyId), index("projects_company_url_key_idx").on(t.companyId, t.urlKey)],
);

export const projectGoals = sqliteTable(
  "project_goals",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    goalId: text("goal_id")
      .notNull()
      .references(() => goals.id, { onDelete: "cascade" }),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.goalId] }), index("project_goals_goal_idx").on(t.goalId)],
);

export const WORKSPACE_SOURCE_TYPES = ["local_path", "git_repo", "remote_managed", "non_git_path"] as const;
export const DESIRED_STATES = ["running", "stopped"] as const;

export const projectWorkspaces = sqliteTable(
  "project_workspaces",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sourceType: text("source_type", { enum: WORKSPACE_SOURCE_TYPES }).notNull(),
    cwd: text("cwd"),
    repoUrl: text("repo_url"),
    repoRef: text("repo_ref"),
    defaultRef: text("default_ref"),
    visibility: text("visibility").notNull(),
    setupCommand: text("setup_command"),
    cleanupCommand: text("cleanup_command"),
    remoteProvider: text("remote_provider"),
    remoteWorkspaceRef: text("remote_workspace_ref"),
    sharedWorkspaceKey: text("shared_workspace_key"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown> | null>(),
    runtimeConfig: text("runtime_config", { mode: "json" }).$type<Record<string, unknown> | null>(),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull().default(false),
    desiredState: text("desired_state", { enum: DESIRED_STATES }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("project_workspaces_project_idx").on(t.projectId, t.createdAt), index("project_workspaces_company_idx").on(t.companyId)],
);
