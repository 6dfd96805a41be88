// A run's reported usage with a cost becomes a cost event tied to the run (heartbeatRunId),
// through the same budget rules as any other cost event.
import type { CommandContext } from "../../company/command";
import { billingTypes } from "../../db/schema/costs";
import { reportCostEvent } from "../costs/commands";
import type { RunRow } from "./lifecycle";

export interface RunUsage {
  provider?: unknown;
  model?: unknown;
  inputTokens?: unknown;
  cachedInputTokens?: unknown;
  outputTokens?: unknown;
  costCents?: unknown;
  billingType?: unknown;
}

const count = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined);

/** Records the cost event when `usage` carries a cost (nothing otherwise). */
export async function recordRunUsage(ctx: CommandContext, run: Pick<RunRow, "id" | "agentId" | "issueId">, usage: RunUsage | null | undefined) {
  const costCents = count(usage?.costCents);
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
