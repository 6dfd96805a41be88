// One dispatch step, serialised with the company's commands (at-least-once: it re-reads the queue
// and is safe to repeat): one read batch of the company's runs and wake-ups (plus the object's own
// timers, journal and remote runs), the decisions (decideRunTransitions, src/domain/runs/transitions.ts),
// then the object's storage and one write batch (transitionStatements).
import { and, asc, count, desc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { inIds } from "../../db/id-list";
import type { CommandContext } from "../command";
import { newId } from "../../crypto/random";
import type { QueuedWakeup } from "../../domain/runs/dispatch";
import { LIVE_RUN_STATUSES } from "../../db/schema/runs";
import type { RunRow } from "../../domain/runs/lifecycle";
import { decideRunTransitions, endsRun, runsToHandOut, type RunState } from "../../domain/runs/transitions";
import { transitionStatements } from "./transition-statements";
import type { RunnerHub } from "./runners";
import { runtimeSettings } from "./timing";
import { typesWhere } from "../../adapters";

const QUEUE_BATCH = 200;

export interface DispatchStep {
  /** Runs to call now (new, or retried). */
  invoke: Array<{ run: RunRow; adapterConfig: Record<string, unknown> }>;
  /** Whether any run ended in this step (a waiting wake-up may now have a slot). */
  ended: boolean;
  /** The earliest moment an agent backing off after failures may run again (ms), or null. */
  backoffUntil: number | null;
}

/**
 * Agents the dispatcher starts runs for, as the adapters say where their runs execute: those run by
 * the service itself (in the object, a gateway or a loop object), and runner agents a connected runner
 * serves (wake-ups of the others wait for one).
 */
export const dispatchable = (served: readonly string[]) =>
  or(
    inArray(schema.agents.adapterType, typesWhere("object", "gateway", "loop")),
    and(inIds(schema.agents.id, served), inArray(schema.agents.adapterType, typesWhere("runner"))),
  );

export async function dispatchStep(ctx: CommandContext, runners: RunnerHub, handingOut: Set<string>): Promise<DispatchStep> {
  const state = await readRunState(ctx, runners, handingOut);
  if (!state) return { invoke: [], ended: false, backoffUntil: null };
  const { transitions, backoffUntil } = decideRunTransitions(state, ctx.now, { newId });
  // The object's own timers and journal first (as the decisions go), then the one write batch.
  for (const t of transitions) {
    if (t.kind === "timer_forgotten") ctx.storage.timers.forget(t.agentId);
    else if (t.kind === "timer") ctx.storage.timers.set(t.wakeup.agentId, t.nextDueAt);
    else if (t.kind === "start_forgotten") ctx.storage.startingRuns.forget(t.runId);
  }
  const statements = transitionStatements(ctx, transitions);
  const invoke = runsToHandOut(transitions);
  // Journaled before the batch that makes them running: a dispatch cut short after it leaves them to the next.
  const starting = invoke.map(({ run }) => run.id);
  try {
    ctx.storage.startingRuns.add(starting, Date.parse(ctx.now));
    for (const runId of starting) handingOut.add(runId);
    await ctx.batch(statements);
  } catch (err) {
    for (const runId of starting) handingOut.delete(runId);
    throw err;
  }
  for (const t of transitions) {
    if (t.kind === "lost_retry" || t.kind === "lost_failed") ctx.storage.remoteRuns.forget(t.run.id);
    else if (t.kind === "lost_gone") ctx.storage.remoteRuns.forget(t.runId);
  }
  return { invoke, ended: transitions.some(endsRun), backoffUntil };
}

/** What a dispatch step decides on: one D1 read batch and the object's own storage; null when the company is gone. */
async function readRunState(ctx: CommandContext, runners: RunnerHub, handingOut: ReadonlySet<string>): Promise<RunState | null> {
  const { db, companyId, now } = ctx;
  const r = schema.heartbeatRuns;
  const w = schema.agentWakeupRequests;
  const a = schema.agents;
  const served = [...runners.servedAgents().keys()];
  const batch = new ReadBatch(db);
  const company = batch.add(
    db.select({ status: schema.companies.status, pauseReason: schema.companies.pauseReason }).from(schema.companies).where(eq(schema.companies.id, companyId)),
  );
  const queued = batch.add(
    db
      .select({ id: w.id, agentId: w.agentId, reason: w.reason, issueId: w.issueId, context: w.context, createdAt: w.createdAt })
      .from(w)
      .innerJoin(a, eq(a.id, w.agentId))
      .where(and(eq(w.companyId, companyId), eq(w.status, "queued"), dispatchable(served)))
      .orderBy(asc(w.createdAt), asc(w.id))
      .limit(QUEUE_BATCH),
  );
  const agents = batch.add(
    db
      .select({
        id: a.id,
        status: a.status,
        pauseReason: a.pauseReason,
        adapterType: a.adapterType,
        runtimeConfig: a.runtimeConfig,
        adapterConfig: a.adapterConfig,
      })
      .from(a)
      .where(and(eq(a.companyId, companyId), dispatchable(served))),
  );
  const live = batch.add(
    db
      .select()
      .from(r)
      .where(and(eq(r.companyId, companyId), inArray(r.status, [...LIVE_RUN_STATUSES]))),
  );
  // Agents with a timer heartbeat (any adapter: runners serve the others' wake-ups).
  const timed = batch.add(
    db
      .select({ id: a.id, status: a.status, runtimeConfig: a.runtimeConfig })
      .from(a)
      .where(and(eq(a.companyId, companyId), sql`json_extract(${a.runtimeConfig}, '$.heartbeat.enabled') = 1`)),
  );
  const hourAgo = new Date(Date.parse(now) - 3_600_000).toISOString();
  const lastHour = batch.add(
    db
      .select({ agentId: r.agentId, n: count() })
      .from(r)
      .where(and(eq(r.companyId, companyId), gt(r.createdAt, hourAgo), sql`${r.invocationSource} != 'external'`))
      .groupBy(r.agentId),
  );
  // The latest finished runs per dispatched agent: consecutive failures mean back-off.
  const recent = batch.add(
    db
      .select({ agentId: r.agentId, status: r.status, finishedAt: r.finishedAt })
      .from(r)
      .innerJoin(a, eq(a.id, r.agentId))
      .where(and(eq(r.companyId, companyId), dispatchable(served), isNotNull(r.finishedAt), gt(r.finishedAt, hourAgo)))
      .orderBy(desc(r.finishedAt))
      .limit(500),
  );
  await batch.run();
  if (!company.value[0]) return null;
  return {
    companyId,
    company: company.value[0],
    agents: agents.value,
    queued: queued.value as QueuedWakeup[],
    liveRuns: live.value,
    timedAgents: timed.value,
    timers: ctx.storage.timers.all(),
    runsLastHour: new Map(lastHour.value.map((row) => [row.agentId, row.n])),
    recentFinished: recent.value,
    starting: ctx.storage.startingRuns.all(),
    handingOut,
    remoteRuns: ctx.storage.remoteRuns.all(),
    runnerGraceMs: runtimeSettings(ctx.env).runnerGraceMs,
  };
}
