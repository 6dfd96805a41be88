// One dispatch step, serialised with the company's commands (at-least-once: it re-reads the queue
// and is safe to repeat): timer heartbeats due, queued wake-ups become runs (coalesced, waiting or
// skipped: src/domain/runs/dispatch.ts), queued runs start, lost runner runs go through the retry
// policy, left-over starts are handed out again, retries due start, runs past their deadline end
// `timed_out`. One read batch, one write batch.
import { and, asc, count, desc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import type { CommandContext } from "../command";
import { newId } from "../../crypto/random";
import { decideWakeups, invocationSourceOf, maxConcurrentRuns, skipReasonOf, type DispatchAgent, type QueuedWakeup } from "../../domain/runs/dispatch";
import { backoffSeconds, endRunStatements, LIVE_RUN_STATUSES, MAX_RETRIES, newRunRow, type RunRow } from "../../domain/runs/lifecycle";
import { runEvent } from "../../domain/runs/events";
import { isRunnerAdapter } from "../../domain/adapters/runner-types";
import type { RunnerHub } from "./runners";
import { runnerGraceMs } from "./timing";

/** Adapter types this service runs itself; wake-ups of other agents wait for a runner serving them. */
export const DISPATCHED_ADAPTERS = ["http", "remote_gateway"] as const;
const QUEUE_BATCH = 200;

export interface DispatchStep {
  /** Runs to call now (new, or retried). */
  invoke: Array<{ run: RunRow; adapterConfig: Record<string, unknown> }>;
  /** Whether any run ended in this step (a waiting wake-up may now have a slot). */
  ended: boolean;
  /** The earliest moment an agent backing off after failures may run again (ms), or null. */
  backoffUntil: number | null;
}

const isoAfter = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1000).toISOString();

/** Agents the dispatcher starts runs for: adapters the service runs itself, and runner-type agents (isRunnerAdapter, in SQL) a connected runner serves. */
export const dispatchable = (served: readonly string[]) =>
  or(
    inArray(schema.agents.adapterType, [...DISPATCHED_ADAPTERS]),
    and(inIds(schema.agents.id, served), sql`(${schema.agents.adapterType} = 'process' OR ${schema.agents.adapterType} LIKE '%\_local' ESCAPE '\')`),
  );

export async function dispatchStep(ctx: CommandContext, runners: RunnerHub, handingOut: Set<string>): Promise<DispatchStep> {
  const { db, companyId, now } = ctx;
  const r = schema.heartbeatRuns;
  const w = schema.agentWakeupRequests;
  const a = schema.agents;
  const served = [...runners.servedAgents().keys()];
  const batch = new ReadBatch(db);
  const company = batch.add(db.select({ status: schema.companies.status, pauseReason: schema.companies.pauseReason }).from(schema.companies).where(eq(schema.companies.id, companyId)));
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
      .select({ id: a.id, status: a.status, pauseReason: a.pauseReason, adapterType: a.adapterType, runtimeConfig: a.runtimeConfig, adapterConfig: a.adapterConfig })
      .from(a)
      .where(and(eq(a.companyId, companyId), dispatchable(served))),
  );
  const live = batch.add(db.select().from(r).where(and(eq(r.companyId, companyId), inArray(r.status, [...LIVE_RUN_STATUSES]))));
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
  if (!company.value[0]) return { invoke: [], ended: false, backoffUntil: null };

  const agentRows = new Map(agents.value.map((row) => [row.id, row]));
  const statements: Statement[] = [];
  // Timer wake-ups of agents this service runs (runners will serve the others' timers).
  const timerWakes = dueTimerWakes(ctx, timed.value.filter((t) => agentRows.has(t.id)), statements);
  const decisions = decideWakeups([...timerWakes, ...(queued.value as QueuedWakeup[])], {
    company: company.value[0],
    agents: new Map(agents.value.map((row) => [row.id, row as DispatchAgent])),
    liveRuns: live.value.map((run) => ({ id: run.id, agentId: run.agentId, issueId: run.issueId, status: run.status })),
    runsLastHour: new Map(lastHour.value.map((row) => [row.agentId, row.n])),
    backoffUntil: consecutiveFailureBackoff(recent.value),
    nowMs: Date.parse(now),
  });

  const invoke: DispatchStep["invoke"] = [];
  // Runs an earlier dispatch started (its batch written) but did not hand out: it was cut short.
  const leftOver = new Map<string, RunRow>();
  const liveById = new Map(live.value.map((run) => [run.id, run]));
  for (const runId of ctx.storage.startingRuns.all()) {
    if (handingOut.has(runId)) continue;
    const run = liveById.get(runId);
    if (run?.status === "running") leftOver.set(runId, run);
    else ctx.storage.startingRuns.forget(runId); // its batch was never written, or the run ended meanwhile
  }
  const contexts = new Map(live.value.map((run) => [run.id, { ...(run.context ?? {}) }]));
  const touched = new Set<string>();
  for (const decision of decisions) {
    const { wakeup } = decision;
    if (decision.kind === "skip") {
      statements.push(db.update(w).set({ status: "skipped", skipReason: decision.reason, updatedAt: now }).where(eq(w.id, wakeup.id)));
    } else if (decision.kind === "coalesce") {
      statements.push(db.update(w).set({ status: "coalesced", coalescedIntoRunId: decision.runId, updatedAt: now }).where(eq(w.id, wakeup.id)));
      const merged = contexts.get(decision.runId) ?? {};
      mergeWakeContext(merged, wakeup);
      contexts.set(decision.runId, merged);
      touched.add(decision.runId);
    } else if (decision.kind === "start") {
      const agent = agentRows.get(wakeup.agentId)!;
      const runContext: Record<string, unknown> = { ...(wakeup.context ?? {}), wakeReason: wakeup.reason, issueId: wakeup.issueId };
      const run = newRunRow({
        id: decision.runId,
        companyId,
        agentId: wakeup.agentId,
        status: "running",
        adapterType: agent.adapterType,
        invocationSource: invocationSourceOf(wakeup.reason),
        wakeupRequestId: wakeup.id,
        startedAt: now,
        lastActivityAt: now,
        createdAt: now,
        issueId: wakeup.issueId,
        reason: wakeup.reason,
        context: runContext,
      });
      contexts.set(run.id, runContext);
      statements.push(db.insert(r).values(run).onConflictDoNothing());
      statements.push(db.update(w).set({ status: "claimed", runId: run.id, updatedAt: now }).where(eq(w.id, wakeup.id)));
      invoke.push({ run, adapterConfig: agent.adapterConfig });
    }
  }
  for (const runId of touched) statements.push(db.update(r).set({ context: contexts.get(runId)!, updatedAt: now }).where(eq(r.id, runId)));

  // Runs created queued (manual wake-ups) start when their agent has a free slot.
  let ended = false;
  const busy = new Map<string, number>();
  for (const run of live.value) if (run.status !== "queued") busy.set(run.agentId, (busy.get(run.agentId) ?? 0) + 1);
  for (const d of decisions) if (d.kind === "start") busy.set(d.agent.id, (busy.get(d.agent.id) ?? 0) + 1);
  for (const run of [...live.value].filter((x) => x.status === "queued").sort((x, y) => x.createdAt.localeCompare(y.createdAt))) {
    const agent = agentRows.get(run.agentId);
    if (!agent) continue; // not ours to run (a runner claims it)
    const skip = skipReasonOf(company.value[0], agent);
    if (skip) {
      statements.push(...endRunStatements(ctx, run.id, { status: "cancelled", errorCode: skip, error: `Not started: ${skip}` }));
      statements.push(db.update(w).set({ status: "skipped", skipReason: skip, updatedAt: now }).where(eq(w.runId, run.id)));
      ended = true;
      continue;
    }
    if ((busy.get(agent.id) ?? 0) >= maxConcurrentRuns(agent as DispatchAgent)) continue;
    busy.set(agent.id, (busy.get(agent.id) ?? 0) + 1);
    statements.push(db.update(r).set({ status: "running", startedAt: now, lastActivityAt: now, updatedAt: now }).where(and(eq(r.id, run.id), eq(r.status, "queued"))));
    invoke.push({ run: { ...run, status: "running", startedAt: now }, adapterConfig: agent.adapterConfig });
  }

  // Runs of runners that disconnected and did not come back within the grace period.
  const lost = lostRunnerRunStatements(ctx, live.value, Date.parse(now) - runnerGraceMs(ctx.env));
  statements.push(...lost.statements);
  if (lost.ended) ended = true;

  // Left-over runs are handed out now; one of an agent no runner serves any more is lost (the retry policy).
  for (const run of leftOver.values()) {
    if (lost.runIds.has(run.id) || (run.deadlineAt !== null && run.deadlineAt <= now)) continue;
    const agent = agentRows.get(run.agentId);
    if (agent) invoke.push({ run, adapterConfig: agent.adapterConfig });
    else if (isRunnerAdapter(run.adapterType)) invoke.push({ run, adapterConfig: {} });
    else ctx.storage.startingRuns.forget(run.id);
  }

  // Retries whose time has come, and accepted runs past their completion deadline.
  for (const run of live.value) {
    if (lost.runIds.has(run.id)) continue;
    if (run.status === "scheduled_retry" && run.nextRetryAt && run.nextRetryAt <= now) {
      const agent = agentRows.get(run.agentId);
      if (!agent) continue;
      statements.push(db.update(r).set({ status: "running", nextRetryAt: null, lastActivityAt: now, updatedAt: now }).where(and(eq(r.id, run.id), eq(r.status, "scheduled_retry"))));
      invoke.push({ run: { ...run, status: "running", context: contexts.get(run.id) ?? run.context }, adapterConfig: agent.adapterConfig });
    } else if (run.status === "running" && run.deadlineAt && run.deadlineAt <= now) {
      statements.push(...endRunStatements(ctx, run.id, { status: "timed_out", errorCode: "completion_timeout", error: "The agent did not complete the run before its completion deadline" }));
      ended = true;
    }
  }
  // Journaled before the batch that makes them running: a dispatch cut short after it leaves them to the next.
  const starting = invoke.map(({ run }) => run.id);
  try {
    ctx.storage.startingRuns.add(starting, Date.parse(now));
    for (const runId of starting) handingOut.add(runId);
    await ctx.batch(statements);
  } catch (err) {
    for (const runId of starting) handingOut.delete(runId);
    throw err;
  }
  for (const runId of lost.runIds) ctx.storage.remoteRuns.forget(runId);
  const waitingOnBackoff = [...consecutiveFailureBackoff(recent.value).values()].filter((t) => t > Date.parse(now));
  return { invoke, ended, backoffUntil: waitingOnBackoff.length ? Math.min(...waitingOnBackoff) : null };
}

/**
 * After n consecutive failed or timed-out runs (newest first, within the hour) an agent gets no
 * new run before its last failure + backoffSeconds(n): a failing endpoint is not hammered.
 */
export function consecutiveFailureBackoff(recent: Array<{ agentId: string; status: string; finishedAt: string | null }>): Map<string, number> {
  const failures = new Map<string, { count: number; last: number; done: boolean }>();
  for (const run of recent) {
    const entry = failures.get(run.agentId) ?? { count: 0, last: 0, done: false };
    if (entry.done) continue;
    if (run.status === "failed" || run.status === "timed_out") {
      entry.count += 1;
      entry.last = Math.max(entry.last, Date.parse(run.finishedAt ?? ""));
    } else entry.done = true;
    failures.set(run.agentId, entry);
  }
  const until = new Map<string, number>();
  // Deterministic (no jitter here): the dispatcher decides again at that moment.
  for (const [agentId, f] of failures) if (f.count > 0) until.set(agentId, f.last + backoffSeconds(f.count, 0.5) * 1000);
  return until;
}

/**
 * Timer heartbeats due now: a `timer` wake-up per agent whose interval has passed (the first one
 * right after the heartbeat is enabled), inserted queued into `statements`; the next due time is
 * kept in the object's storage. Agents no longer timed are forgotten.
 */
function dueTimerWakes(ctx: CommandContext, timed: Array<{ id: string; status: string; runtimeConfig: Record<string, unknown> }>, statements: Statement[]): QueuedWakeup[] {
  const nowMs = Date.parse(ctx.now);
  const known = ctx.storage.timers.all();
  const wakes: QueuedWakeup[] = [];
  for (const agentId of known.keys()) if (!timed.some((t) => t.id === agentId)) ctx.storage.timers.forget(agentId);
  for (const agent of timed) {
    const heartbeat = (agent.runtimeConfig?.heartbeat ?? {}) as Record<string, unknown>;
    const intervalSec = typeof heartbeat.intervalSec === "number" && heartbeat.intervalSec >= 1 ? heartbeat.intervalSec : 3600;
    const due = known.get(agent.id) ?? nowMs;
    if (due > nowMs) continue;
    ctx.storage.timers.set(agent.id, nowMs + intervalSec * 1000);
    const wake: QueuedWakeup = { id: newId(), agentId: agent.id, reason: "timer", issueId: null, context: { intervalSec }, createdAt: ctx.now };
    statements.push(
      ctx.db.insert(schema.agentWakeupRequests).values({
        ...wake,
        companyId: ctx.companyId,
        status: "queued",
        source: "timer",
        requestedByActorType: "system",
        requestedByActorId: "system",
        updatedAt: ctx.now,
      }),
    );
    wakes.push(wake);
  }
  return wakes;
}

/** A wake merged into a live run: the run's context gains the wake's comment (and reason). */
function mergeWakeContext(context: Record<string, unknown>, wakeup: QueuedWakeup) {
  const commentId = wakeup.context?.commentId;
  if (typeof commentId === "string") {
    const ids = Array.isArray(context.commentIds) ? (context.commentIds as string[]) : typeof context.commentId === "string" ? [context.commentId] : [];
    if (!ids.includes(commentId)) ids.push(commentId);
    context.commentIds = ids;
  }
  const reasons = Array.isArray(context.coalescedReasons) ? (context.coalescedReasons as string[]) : [];
  reasons.push(wakeup.reason);
  context.coalescedReasons = reasons;
}

/**
 * Runner runs lost longer than the grace period (lost at or before `lostBefore`, ms): the attempt
 * fails with `process_lost` and goes through the retry policy — scheduled again with back-off
 * (any runner serving the agent takes it), failed after MAX_RETRIES.
 */
export function lostRunnerRunStatements(ctx: CommandContext, live: RunRow[], lostBefore: number): { statements: Statement[]; runIds: Set<string>; ended: boolean } {
  const r = schema.heartbeatRuns;
  const statements: Statement[] = [];
  const runIds = new Set<string>();
  let ended = false;
  const byId = new Map(live.map((run) => [run.id, run]));
  for (const tracked of ctx.storage.remoteRuns.all()) {
    if (tracked.kind !== "runner" || tracked.lostAt === null || tracked.lostAt > lostBefore) continue;
    runIds.add(tracked.runId);
    const run = byId.get(tracked.runId);
    if (!run || run.status !== "running") continue;
    const error = "The runner executing this run disconnected and did not come back";
    const retryCount = run.retryCount + 1;
    if (retryCount > MAX_RETRIES) {
      statements.push(...endRunStatements(ctx, run.id, { status: "failed", errorCode: "process_lost", error: `${error} (${retryCount} attempts)` }));
      ended = true;
    } else {
      const nextRetryAt = isoAfter(ctx.now, backoffSeconds(retryCount));
      statements.push(
        ctx.db.update(r).set({ status: "scheduled_retry", retryCount, nextRetryAt, deadlineAt: null, errorCode: "process_lost", error, lastActivityAt: ctx.now, updatedAt: ctx.now }).where(and(eq(r.id, run.id), eq(r.status, "running"))),
        runEvent(ctx, run, "status", `${error}; retry ${retryCount} at ${nextRetryAt}`, { errorCode: "process_lost" }),
      );
    }
  }
  return { statements, runIds, ended };
}
