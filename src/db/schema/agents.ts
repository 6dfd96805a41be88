// Agents (the company's org tree) and their API keys.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const AGENT_STATUSES = ["active", "paused", "idle", "running", "error", "pending_approval", "terminated"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const agents = sqliteTable(
  "agents",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    urlKey: text("url_key").notNull(),
    role: text("role").notNull(),
    title: text("title"),
    icon: text("icon"),
    capabilities: text("capabilities"),
    reportsTo: text("reports_to").references((): AnySQLiteColumn => agents.id, { onDelete: "set null" }),
    adapterType: text("adapter_type").notNull(),
    adapterConfig: text("adapter_config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    runtimeConfig: text("runtime_config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    budgetMonthlyCents: integer("budget_monthly_cents").notNull().default(0),
    spentMonthlyCents: integer("spent_monthly_cents").notNull().default(0),
    spentMonth: text("spent_month"),
    status: text("status", { enum: AGENT_STATUSES }).notNull(),
    pauseReason: text("pause_reason"),
    permissions: text("permissions", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>(),
    lastHeartbeatAt: text("last_heartbeat_at"),
    terminatedAt: text("terminated_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("agents_company_status_idx").on(t.companyId, t.status),
    index("agents_company_url_key_idx").on(t.companyId, t.urlKey),
    index("agents_reports_to_idx").on(t.reportsTo),
  ],
);

export const agentApiKeys = sqliteTable(
  "agent_api_keys",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    name: text("name"),
    keyHash: text("key_hash").notNull().unique(),
    /** The token's first characters (keys made before it was recorded have none): to recognise a key, never to use it. */
    tokenPrefix: text("token_prefix"),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("agent_api_keys_agent_idx").on(t.agentId)],
);
