// Budget policies (company, agent or project scope).
import { sqliteTable, text, integer, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const budgetPolicies = sqliteTable(
  "budget_policies",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    scopeType: text("scope_type", { enum: ["company", "agent", "project"] }).notNull(),
    scopeId: text("scope_id").notNull(),
    metric: text("metric").notNull(),
    windowKind: text("window_kind", { enum: ["calendar_month_utc", "lifetime"] }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    warnPercent: integer("warn_percent").notNull(),
    hardStopEnabled: integer("hard_stop_enabled", { mode: "boolean" }).notNull(),
    notifyEnabled: integer("notify_enabled", { mode: "boolean" }).notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("budget_policies_scope_uq").on(t.companyId, t.scopeType, t.scopeId, t.metric, t.windowKind)],
);
