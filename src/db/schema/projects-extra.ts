// Project workspaces, environments and their leases, execution workspaces and the
// operation records of runtime services/commands (migration 0009).
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { projects } from "./goals-projects";

export const workspaceSourceTypes = ["local_path", "git_repo", "remote_managed", "non_git_path"] as const;
export const desiredStates = ["running", "stopped"] as const;
export const environmentKinds = ["local", "ssh", "container", "cloud_sandbox"] as const;
export const environmentStatuses = ["active", "disabled"] as const;
export const leaseStatuses = ["active", "released", "expired"] as const;
export const executionWorkspaceModes = ["shared", "isolated"] as const;
export const executionWorkspaceStatuses = ["open", "closing", "closed"] as const;

export interface RuntimeServiceState {
  name: string;
  command: string | null;
  port: number | null;
  status: "running" | "stopped";
  updatedAt: string;
}

export const projectWorkspaces = sqliteTable(
  "project_workspaces",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sourceType: text("source_type", { enum: workspaceSourceTypes }).notNull(),
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
    desiredState: text("desired_state", { enum: desiredStates }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("project_workspaces_project_idx").on(t.projectId, t.createdAt), index("project_workspaces_company_idx").on(t.companyId)],
);

export const environments = sqliteTable(
  "environments",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    kind: text("kind", { enum: environmentKinds }).notNull(),
    status: text("status", { enum: environmentStatuses }).notNull(),
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    labels: text("labels", { mode: "json" }).$type<Record<string, string>>().notNull(),
    maxConcurrentLeases: integer("max_concurrent_leases").notNull(),
    lastProbeAt: text("last_probe_at"),
    lastProbeStatus: text("last_probe_status", { enum: ["ok", "failed"] }),
    lastProbeChecks: text("last_probe_checks", { mode: "json" }).$type<Array<{ name: string; ok: boolean; message: string }> | null>(),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("environments_company_name_uq").on(t.companyId, t.name)],
);

export const executionWorkspaces = sqliteTable(
  "execution_workspaces",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    projectId: text("project_id").references(() => projects.id, { onDelete: "set null" }),
    projectWorkspaceId: text("project_workspace_id").references(() => projectWorkspaces.id, { onDelete: "set null" }),
    issueId: text("issue_id"),
    environmentId: text("environment_id").references(() => environments.id, { onDelete: "set null" }),
    mode: text("mode", { enum: executionWorkspaceModes }).notNull(),
    status: text("status", { enum: executionWorkspaceStatuses }).notNull(),
    cwd: text("cwd"),
    branch: text("branch"),
    baseRef: text("base_ref"),
    desiredState: text("desired_state", { enum: desiredStates }).notNull(),
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

export const environmentLeases = sqliteTable(
  "environment_leases",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    environmentId: text("environment_id").notNull().references(() => environments.id, { onDelete: "cascade" }),
    executionWorkspaceId: text("execution_workspace_id").references(() => executionWorkspaces.id, { onDelete: "set null" }),
    issueId: text("issue_id"),
    agentId: text("agent_id"),
    runId: text("run_id"),
    status: text("status", { enum: leaseStatuses }).notNull(),
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

export const workspaceOperations = sqliteTable(
  "workspace_operations",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    projectWorkspaceId: text("project_workspace_id").references(() => projectWorkspaces.id, { onDelete: "cascade" }),
    executionWorkspaceId: text("execution_workspace_id").references(() => executionWorkspaces.id, { onDelete: "cascade" }),
    /** `runtime_service` (start/stop/restart) or `runtime_command` (run/cancel). */
    kind: text("kind", { enum: ["runtime_service", "runtime_command"] }).notNull(),
    action: text("action").notNull(),
    /** Service name or command line the operation is about (null = every configured service). */
    target: text("target"),
    args: text("args", { mode: "json" }).$type<string[] | null>(),
    /** Environment overrides, stored redacted. */
    env: text("env", { mode: "json" }).$type<Record<string, string> | null>(),
    /** `applied` (desired state recorded), `queued` (command waiting for the runtime), `cancelled`. */
    status: text("status", { enum: ["applied", "queued", "cancelled"] }).notNull(),
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
