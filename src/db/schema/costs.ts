// Cost events (metered usage reported per agent) and finance events (the company's money ledger).
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { companies } from "./companies";

export const billingTypes = ["metered_api", "subscription_included", "subscription_overage", "credits", "fixed", "unknown"] as const;
export type BillingType = (typeof billingTypes)[number];

export const costEvents = sqliteTable(
  "cost_events",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    issueId: text("issue_id"),
    projectId: text("project_id"),
    goalId: text("goal_id"),
    heartbeatRunId: text("heartbeat_run_id"),
    billingCode: text("billing_code"),
    provider: text("provider").notNull(),
    biller: text("biller").notNull(),
    billingType: text("billing_type", { enum: billingTypes }).notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    cachedInputTokens: integer("cached_input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    costCents: integer("cost_cents").notNull(),
    /** ISO-8601 UTC, normalised on write so ranges compare as text. */
    occurredAt: text("occurred_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("cost_events_company_occurred_idx").on(t.companyId, t.occurredAt),
    index("cost_events_company_agent_occurred_idx").on(t.companyId, t.agentId, t.occurredAt),
    index("cost_events_company_project_occurred_idx").on(t.companyId, t.projectId, t.occurredAt),
  ],
);

export const FINANCE_EVENT_KINDS = ["inference_charge", "platform_fee", "credit_purchase", "credit_refund", "manual_adjustment"] as const;
export const FINANCE_DIRECTIONS = ["debit", "credit"] as const;

export const financeEvents = sqliteTable(
  "finance_events",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: FINANCE_EVENT_KINDS }).notNull(),
    /** From the company's side: `debit` = money charged to it, `credit` = money returned or credited to it. */
    direction: text("direction", { enum: FINANCE_DIRECTIONS }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    estimated: integer("estimated", { mode: "boolean" }).notNull(),
    biller: text("biller"),
    provider: text("provider"),
    costEventId: text("cost_event_id"),
    description: text("description"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown> | null>(),
    occurredAt: text("occurred_at").notNull(),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("finance_events_company_occurred_idx").on(t.companyId, t.occurredAt)],
);
