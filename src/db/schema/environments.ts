// Environments (where agents' work runs) and their leases.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { executionWorkspaces } from "./execution-workspaces";

export const ENVIRONMENT_KINDS = ["local", "ssh", "container", "cloud_sandbox"] as const;
export const ENVIRONMENT_STATUSES = ["active", "disabled"] as const;
export const LEASE_STATUSES = ["active", "released", "expired"] as const;
export const PROBE_STATUSES = ["ok", "failed"] as const;

export const environments = sqliteTable(
  "environments",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    kind: text("kind", { enum: ENVIRONMENT_KINDS }).notNull(),
    status: text("status", { enum: ENVIRONMENT_STATUSES }).notNull(),
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    labels: text("labels", { mode: "json" }).$type<Record<string, string>>().notNull(),
    maxConcurrentLeases: integer("max_concurrent_leases").notNull(),
    lastProbeAt: text("last_probe_at"),
    lastProbeStatus: text("last_probe_status", { enum: PROBE_STATUSES }),
    lastProbeChecks: text("last_probe_checks", { mode: "json" }).$type<Array<{ name: string; ok: boolean; message: string }> | null>(),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("environments_company_name_uq").on(t.companyId, t.name)],
);

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
