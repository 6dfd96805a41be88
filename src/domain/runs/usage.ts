// A run's usage becomes a cost event tied to the run (heartbeatRunId), through the same budget
// rules as any other cost event. Usage comes in two shapes: an agent's own report (`costCents`,
// POST …/complete and the http adapter) and a runtime's (`costUsd` and tokens: runners, the edge
// agent). The billing decides the cents: a plan login (`subscription_included`) costs 0, a metered
// API its reported cost; a run with tokens and no price still records its tokens (0 cents).
import type { CommandContext } from "../../company/command";
import { billingTypes } from "../../db/schema/costs";
import { reportCostEvent } from "../costs/commands";
import { usdToCents } from "../costs/cents";
import type { RunRow } from "./lifecycle";
import type { RunUsage } from "../../adapters/types";

const count = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined);

/** The cents a usage report costs, or undefined when it says nothing about cost or tokens. */
export function usageCents(usage: RunUsage): number | undefined {
  const cents = count(usage.costCents);
  if (usage.billingType === "subscription_included") return 0;
  if (cents !== undefined) return cents;
  if (typeof usage.costUsd === "number" && usage.costUsd >= 0) return usdToCents(usage.costUsd);
  const tokens = (count(usage.inputTokens) ?? 0) + (count(usage.cachedInputTokens) ?? 0) + (count(usage.outputTokens) ?? 0);
  return tokens > 0 ? 0 : undefined;
}

/** Records the cost event when `usage` carries a cost or tokens (nothing otherwise). */
export async function recordRunUsage(ctx: CommandContext, run: Pick<RunRow, "id" | "agentId" | "issueId">, usage: RunUsage | null | undefined) {
  const costCents = usage ? usageCents(usage) : undefined;
  if (!usage || costCents === undefined) return null;
  const billingType = (billingTypes as readonly string[]).includes(String(usage.billingType))
    ? (usage.billingType as (typeof billingTypes)[number])
    : undefined;
  return reportCostEvent.run(ctx, ctx.actor, {
    agentId: run.agentId,
    provider: typeof usage.provider === "string" && usage.provider ? usage.provider : "unknown",
    model: typeof usage.model === "string" && usage.model ? usage.model : "unknown",
    costCents,
    occurredAt: ctx.now,
    issueId: run.issueId,
    heartbeatRunId: run.id,
    billingType,
    inputTokens: count(usage.inputTokens),
    cachedInputTokens: count(usage.cachedInputTokens),
    outputTokens: count(usage.outputTokens),
  });
}
