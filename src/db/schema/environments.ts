// Environments (where agents' work runs) and their leases.
import { sqliteTable, text, integer, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const ENVIRONMENT_KINDS = ["local", "ssh", "container", "cloud_sandbox"] as const;
export const ENVIRONMENT_STATUSES = ["active", "disabled"] as const;
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
