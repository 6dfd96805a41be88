// Execution workspaces and the operation records of their runtime services/commands.
import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { projects, projectWorkspaces, DESIRED_STATES } from "./projects";
import { environments } from "./environments";

export const EXECUTION_WORKSPACE_MODES = ["shared", "isolated"] as const;
export const EXECUTION_WORKSPACE_STATUSES = ["open", "closing", "closed"] as const;
export const WORKSPACE_OPERATION_KINDS = ["runtime_service", "runtime_command"] as const;
export const LEASE_STATUSES = ["active", "released", "expired"] as const;
export const WORKSPACE_OPERATION_STATUSES = ["applied", "queued", "cancelled"] as const;

export interface RuntimeServiceState {
  name: string;
  command: string | null;
  port: number | null;
  status: "running" | "stopped";
  updatedAt: string;
}

export const executionWorkspaces = sqliteTable(
  "execution_workspaces",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectId: text("project_id").references(() => projects.id, { onDelete: "set null" }),
    projectWorkspaceId: text("project_workspace_id").references(() => projectWorkspaces.id, { onDelete: "set null" }),
    issueId: text("issue_id"),
    environmentId: text("environment_id").references(() => environments.id, { onDelete: "set null" }),
    mode: text("mode", { enum: EXECUTION_WORKSPACE_MODES }).notNull(),
    status: text("status", { enum: EXECUTION_WORKSPACE_STATUSES }).notNull(),
    cwd: text("cwd"),
    branch: text("branch"),
    baseRef: text("base_ref"),
    desiredState: text("desired_state", { enum: DESIRED_STATES }).notNull(),
    runtimeServices: text("runtime_services", { mode: "json" }).$type<RuntimeServiceState[]>().notNull(),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown> | null>(),
    openedByAgentId: text("opened_by_agent_id"),
    openedByUserId: text("opened_by_user_id"),
    openedAt: text("opened_at").notNull(),
    closedAt: text("closed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("execution_workspaces_company_status_idx").on(t.companyId, t.status),
    index("execution_workspaces_issue_idx").on(t.issueId),
    index("execution_workspaces_project_idx").on(t.projectId),
  ],
);

export const workspaceOperations = sqliteTable(
  "workspace_operations",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectWorkspaceId: text("project_workspace_id").references(() => projectWorkspaces.id, { onDelete: "cascade" }),
    executionWorkspaceId: text("execution_workspace_id").references(() => executionWorkspaces.id, { onDelete: "cascade" }),
    /** `runtime_service` (start/stop/restart) or `runtime_command` (run/cancel). */
    kind: text("kind", { enum: WORKSPACE_OPERATION_KINDS }).notNull(),
    action: text("action").notNull(),
    /** Service name or command line the operation is about (null = every configured service). */
    target: text("target"),
    args: text("args", { mode: "json" }).$type<string[] | null>(),
    /** Environment overrides, stored redacted. */
    env: text("env", { mode: "json" }).$type<Record<string, string> | null>(),
    /** `applied` (desired state recorded), `queued` (command waiting for the runtime), `cancelled`. */
    status: text("status", { enum: WORKSPACE_OPERATION_STATUSES }).notNull(),
    result: text("result", { mode: "json" }).$type<Record<string, unknown> | null>(),
    requestedByActorType: text("requested_by_actor_type").notNull(),
    requestedByActorId: text("requested_by_actor_id").notNull(),
    runId: text("run_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("workspace_operations_execution_idx").on(t.executionWorkspaceId, t.createdAt),
    index("workspace_operations_project_ws_idx").on(t.projectWorkspaceId, t.createdAt),
  ],
);

/** An environment held for an execution workspace (here, beside the workspace it names: environments.ts imports nothing of this file). */
export const environmentLeases = sqliteTable(
  "environment_leases",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    environmentId: text("environment_id")
      .notNull()
      .references(() => environments.id, { onDelete: "cascade" }),
    executionWorkspaceId: text("execution_workspace_id").references(() => executionWorkspaces.id, { onDelete: "set null" }),
    issueId: text("issue_id"),
    agentId: text("agent_id"),
    runId: text("run_id"),
    status: text("status", { enum: LEASE_STATUSES }).notNull(),
    acquiredAt: text("acquired_at").notNull(),
    releasedAt: text("released_at"),
    expiresAt: text("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("environment_leases_environment_idx").on(t.environmentId, t.status),
    index("environment_leases_workspace_idx").on(t.executionWorkspaceId, t.status),
  ],
);
