// The run an agent caller acts in (X-Service-Run-Id or the JWT's run_id). A run id the service
// has not seen yet is recorded as an `external` run of that agent, so agents driven outside the
// service's adapters can work; a run of another agent is refused. Every use bumps last_activity_at.
import type { Statement } from "../../db/batch";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { ReadBatch } from "../../db/read-batch";
import type { Actor } from "../actor";
import { forbidden, unauthorized } from "../errors";
import { newRunRow } from "./lifecycle";

export type { RunRow } from "./lifecycle";
import type { RunRow } from "./lifecycle";

export interface ActorRun {
  run: RunRow;
  /** Statements to put in the command's batch (insert of a new run, or the activity bump). */
  statements: Statement[];
}

export const RUN_ID_REQUIRED = "Agent run id required: send the X-Service-Run-Id header (or use an agent JWT carrying run_id) for this mutation";

export function requireRunId(actor: Actor): string {
  if (!actor.runId) throw unauthorized(RUN_ID_REQUIRED);
  return actor.runId;
}

export interface ActorRunFacts {
  existing: RunRow | null;
  agentAdapterType: string | null;
}

/** Adds the reads for the agent caller's run to `batch`; null for board callers or agents without a run id. */
export function addActorRunRead(batch: ReadBatch, actor: Actor): (() => ActorRunFacts) | null {
  if (actor.type !== "agent" || !actor.runId) return null;
  if (actor.runId.length > 200) throw forbidden("Run id too long", { runId: actor.runId.slice(0, 40) });
  const run = batch.add(batch.db.select().from(schema.heartbeatRuns).where(eq(schema.heartbeatRuns.id, actor.runId)));
  const agent = batch.add(batch.db.select({ adapterType: schema.agents.adapterType }).from(schema.agents).where(eq(schema.agents.id, actor.agentId)));
  return () => ({ existing: run.value[0] ?? null, agentAdapterType: agent.value[0]?.adapterType ?? null });
}

/**
 * The caller's run as the rules see it, from loaded facts (a run not seen yet would be recorded as
 * a running external run); 403 when the run id is another agent's.
 */
export function actorRunSeen(actor: Actor, facts: ActorRunFacts | null | undefined): Pick<RunRow, "id" | "status"> | null {
  if (actor.type !== "agent" || !actor.runId || !facts) return null;
  const existing = facts.existing;
  if (existing && existing.agentId !== actor.agentId) throw forbidden("Run belongs to another agent", { runId: actor.runId });
  return existing ?? { id: actor.runId, status: "running" };
}

/** The caller's run from the loaded facts (recorded as an external run if new); null for board callers or agents without a run id. */
export function actorRunFrom(ctx: CommandContext, actor: Actor, facts: ActorRunFacts | null | undefined): ActorRun | null {
  if (actor.type !== "agent" || !actor.runId || !facts) return null;
  const existing = facts.existing;
  if (existing) {
    if (existing.agentId !== actor.agentId || existing.companyId !== ctx.companyId) {
      throw forbidden("Run belongs to another agent", { runId: actor.runId });
    }
    return {
      run: { ...existing, lastActivityAt: ctx.now },
      statements: [ctx.db.update(schema.heartbeatRuns).set({ lastActivityAt: ctx.now }).where(eq(schema.heartbeatRuns.id, existing.id))],
    };
  }
  const run = newRunRow({
    id: actor.runId,
    companyId: ctx.companyId,
    agentId: actor.agentId,
    status: "running",
    adapterType: facts.agentAdapterType ?? "external",
    invocationSource: "external",
    startedAt: ctx.now,
    lastActivityAt: ctx.now,
    createdAt: ctx.now,
  });
  return { run, statements: [ctx.db.insert(schema.heartbeatRuns).values(run).onConflictDoNothing()] };
}

/** Loads (or records) the agent caller's run (one round trip); null for board callers or agents without a run id. */
export async function resolveActorRun(ctx: CommandContext, actor: Actor): Promise<ActorRun | null> {
  const batch = new ReadBatch(ctx.db);
  const facts = addActorRunRead(batch, actor);
  await batch.run();
  return actorRunFrom(ctx, actor, facts?.());
}
