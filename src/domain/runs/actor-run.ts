// The run an agent caller acts in (X-Service-Run-Id or the JWT's run_id). A run id the service
// has not seen yet is recorded as an `external` run of that agent, so agents driven outside the
// service's adapters can work; a run of another agent is refused. Every use bumps last_activity_at.
import type { Statement } from "../../db/batch";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { forbidden, unauthorized } from "../errors";

export type RunRow = typeof schema.heartbeatRuns.$inferSelect;

export interface ActorRun {
  run: RunRow;
  /** Statements to put in the command's batch (insert of a new run, or the activity bump). */
  statements: Statement[];
}

export const RUN_ID_REQUIRED =
  "Agent run id required: send the X-Service-Run-Id header (or use an agent JWT carrying run_id) for this mutation";

export function requireRunId(actor: Actor): string {
  if (!actor.runId) throw unauthorized(RUN_ID_REQUIRED);
  return actor.runId;
}

/** Loads (or records) the agent caller's run; null for board callers or agents without a run id. */
export async function resolveActorRun(ctx: CommandContext, actor: Actor): Promise<ActorRun | null> {
  if (actor.type !== "agent" || !actor.runId) return null;
  if (actor.runId.length > 200) throw forbidden("Run id too long", { runId: actor.runId.slice(0, 40) });
  const existing = await ctx.db.query.heartbeatRuns.findFirst({ where: eq(schema.heartbeatRuns.id, actor.runId) });
  if (existing) {
    if (existing.agentId !== actor.agentId || existing.companyId !== ctx.companyId) {
      throw forbidden("Run belongs to another agent", { runId: actor.runId });
    }
    const bumped = { ...existing, lastActivityAt: ctx.now };
    return {
      run: bumped,
      statements: [
        ctx.db.update(schema.heartbeatRuns).set({ lastActivityAt: ctx.now }).where(eq(schema.heartbeatRuns.id, existing.id)),
      ],
    };
  }
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, actor.agentId) });
  const run: RunRow = {
    id: actor.runId,
    companyId: ctx.companyId,
    agentId: actor.agentId,
    status: "running",
    adapterType: agent?.adapterType ?? "external",
    invocationSource: "external",
    wakeupRequestId: null,
    startedAt: ctx.now,
    finishedAt: null,
    lastActivityAt: ctx.now,
    usageJson: null,
    resultJson: null,
    error: null,
    logBytes: 0,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  return { run, statements: [ctx.db.insert(schema.heartbeatRuns).values(run).onConflictDoNothing()] };
}
