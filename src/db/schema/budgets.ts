// Budget policies (company, agent or project scope) and budget incidents (soft/hard threshold crossings).
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const BUDGET_SCOPE_TYPES = ["company", "agent", "project"] as const;
export const BUDGET_WINDOW_KINDS = ["calendar_month_utc", "lifetime"] as const;

export const budgetPolicies = sqliteTable(
  "budget_policies",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    scopeType: text("scope_type", { enum: BUDGET_SCOPE_TYPES }).notNull(),
    scopeId: text("scope_id").notNull(),
    metric: text("metric").notNull(),
    windowKind: text("window_kind", { enum: BUDGET_WINDOW_KINDS }).notNull(),
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

export const BUDGET_INCIDENT_KINDS = ["soft", "hard"] as const;
export const BUDGET_INCIDENT_STATUSES = ["open", "resolved"] as const;
export const BUDGET_INCIDENT_RESOLUTIONS = ["keep_paused", "raise_budget_and_resume"] as const;

export const budgetIncidents = sqliteTable(
  "budget_incidents",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    policyId: text("policy_id").notNull(),
    scopeType: text("scope_type", { enum: BUDGET_SCOPE_TYPES }).notNull(),
    scopeId: text("scope_id").notNull(),
    kind: text("kind", { enum: BUDGET_INCIDENT_KINDS }).notNull(),
    windowKind: text("window_kind", { enum: BUDGET_WINDOW_KINDS }).notNull(),
    /** `YYYY-MM` for calendar months, `lifetime` otherwise. */
    windowKey: text("window_key").notNull(),
    /** The policy amount when the incident opened. */
    amountCents: integer("amount_cents").notNull(),
    /** The spend that triggers this kind: ceil(amount × warnPercent / 100) for soft, the amount for hard. */
    thresholdCents: integer("threshold_cents").notNull(),
    observedCents: integer("observed_cents").notNull(),
    status: text("status", { enum: BUDGET_INCIDENT_STATUSES }).notNull(),
    resolution: text("resolution", { enum: BUDGET_INCIDENT_RESOLUTIONS }),
    approvalId: text("approval_id"),
    resolvedAt: text("resolved_at"),
    resolvedByUserId: text("resolved_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One incident per scope, kind, window and threshold (a raised budget gets its own thresholds).
    uniqueIndex("budget_incidents_scope_window_uq").on(t.companyId, t.scopeType, t.scopeId, t.kind, t.windowKey, t.thresholdCents),
    index("budget_incidents_company_status_idx").on(t.companyId, t.status),
  ],
);
