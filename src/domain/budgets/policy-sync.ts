// Keeps the company or agent monthly budget policy in step with budgetMonthlyCents.
import { sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { newId } from "../../crypto/random";

export type BudgetScope = "company" | "agent" | "project";

export const defaultWindowKind = (scope: BudgetScope) => (scope === "project" ? "lifetime" : "calendar_month_utc");

/**
 * Upsert of the scope's `billed_cents` policy in its default window. An amount of 0
 * deactivates the policy (0 means "no budget" on companies and agents).
 */
export function budgetPolicySyncStatement(
  db: Db,
  args: { companyId: string; scopeType: BudgetScope; scopeId: string; amountCents: number; now: string },
) {
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
