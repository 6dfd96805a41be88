// Goals (the intent tree) and projects (deliverables), with the project↔goal links.
import { sqliteTable, text, index, primaryKey, integer } from "drizzle-orm/sqlite-core";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const goals = sqliteTable(
  "goals",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    level: text("level", { enum: ["company", "team", "agent", "task"] }).notNull(),
    status: text("status", { enum: ["planned", "active", "achieved", "cancelled"] }).notNull(),
    parentId: text("parent_id").references((): AnySQLiteColumn => goals.id, { onDelete: "set null" }),
    ownerAgentId: text("owner_agent_id"),
    isCompanyDefault: integer("is_company_default", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("goals_company_idx").on(t.companyId), index("goals_parent_idx").on(t.parentId)],
);

export const projects = sqliteTable(
  "projects",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    urlKey: text("url_key").notNull(),
    description: text("description"),
    status: text("status", { enum: ["backlog", "planned", "in_progress", "completed", "cancelled"] }).notNull(),
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
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    goalId: text("goal_id").notNull().references(() => goals.id, { onDelete: "cascade" }),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.goalId] }), index("project_goals_goal_idx").on(t.goalId)],
);

