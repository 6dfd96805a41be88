// Keeps the company or agent monthly budget policy in step with budgetMonthlyCents, and the
// general budget-policy upsert it is built on.
import { sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { newId } from "../../crypto/random";
import type { BUDGET_SCOPE_TYPES, BUDGET_WINDOW_KINDS } from "../../db/schema/budgets";

export type BudgetScope = (typeof BUDGET_SCOPE_TYPES)[number];
export type BudgetWindowKind = (typeof BUDGET_WINDOW_KINDS)[number];

export const defaultWindowKind = (scope: BudgetScope): BudgetWindowKind => (scope === "project" ? "lifetime" : "calendar_month_utc");

export interface BudgetPolicyFields {
  companyId: string;
  scopeType: BudgetScope;
  scopeId: string;
  metric: string;
  windowKind: BudgetWindowKind;
  amountCents: number;
  warnPercent: number;
  hardStopEnabled: boolean;
  notifyEnabled: boolean;
  isActive: boolean;
}

/**
 * Insert-or-update of a policy on its natural key (company, scope, metric, window). On update every
 * given field is replaced; `id` is used only when the policy is new.
 */
export function budgetPolicyUpsertStatement(db: Db, policy: BudgetPolicyFields & { id?: string; now: string }) {
  const { now, id, ...fields } = policy;
  return db
    .insert(schema.budgetPolicies)
    .values({ id: id ?? newId(), ...fields, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [
        schema.budgetPolicies.companyId,
        schema.budgetPolicies.scopeType,
        schema.budgetPolicies.scopeId,
        schema.budgetPolicies.metric,
        schema.budgetPolicies.windowKind,
      ],
      set: {
        amountCents: sql`excluded.amount_cents`,
        warnPercent: sql`excluded.warn_percent`,
        hardStopEnabled: sql`excluded.hard_stop_enabled`,
        notifyEnabled: sql`excluded.notify_enabled`,
        isActive: sql`excluded.is_active`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/**
 * Upsert of the scope's `billed_cents` policy in its default window. An amount of 0
 * deactivates the policy (0 means "no budget" on companies and agents).
 */
export function budgetPolicySyncStatement(db: Db, args: { companyId: string; scopeType: BudgetScope; scopeId: string; amountCents: number; now: string }) {
  const windowKind = defaultWindowKind(args.scopeType);
  return db
    .insert(schema.budgetPolicies)
    .values({
      id: newId(),
      companyId: args.companyId,
      scopeType: args.scopeType,
      scopeId: args.scopeId,
      metric: "billed_cents",
      windowKind,
      amountCents: args.amountCents,
      warnPercent: 80,
      hardStopEnabled: true,
      notifyEnabled: true,
      isActive: args.amountCents > 0,
      createdAt: args.now,
      updatedAt: args.now,
    })
    .onConflictDoUpdate({
      target: [
        schema.budgetPolicies.companyId,
        schema.budgetPolicies.scopeType,
        schema.budgetPolicies.scopeId,
        schema.budgetPolicies.metric,
        schema.budgetPolicies.windowKind,
      ],
      set: { amountCents: args.amountCents, isActive: args.amountCents > 0, updatedAt: sql`excluded.updated_at` },
    });
}

/** A policy that mirrors an entity's budgetMonthlyCents (company or agent, billed cents, calendar month). */
export const isMonthlyBudgetPolicy = (p: { scopeType: string; metric: string; windowKind: string }) =>
  (p.scopeType === "company" || p.scopeType === "agent") && p.metric === "billed_cents" && p.windowKind === "calendar_month_utc";
