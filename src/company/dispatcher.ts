// The company object's run dispatcher, driven by its alarm (at-least-once: every step re-reads
// the queue and is safe to repeat). One step, serialised with the company's commands:
//   1. queued wake-ups of agents this service runs itself (adapter `http`) become runs, are
//      coalesced into a live run of the same agent and issue, wait for a free slot, or are
//      skipped with a reason (src/domain/runs/dispatch.ts);
//   2. runs in `scheduled_retry` whose time has come are attempted again;
//   3. accepted (202) runs past their completion deadline end `timed_out`.
// The adapter calls then happen outside the serialised section, concurrently; each answer is
// recorded serialised again. The alarm is set for the earliest moment something is due.
// A dispatch cut short (the object evicted, a write failing) loses nothing: the alarm is re-armed
// before it starts (DISPATCH_RESUME_MS), and runs it decided to start are journaled in the
// object's storage (starting_runs) before its batch, so the next dispatch hands out the ones that
// were written but not handed out (at least once: an agent may see a run id twice, never two runs).
import { and, asc, count, desc, eq, gt, inArray, isNotNull, lte, min, or, sql } from "drizzle-orm";
import { schema, type Db } from "../db/client";
import { ReadBatch } from "../db/read-batch";
import type { Statement } from "../db/batch";
import { commandContext, type CommandContext } from "./command";
import type { CompanyStorage } from "./storage";
import type { Actor } from "../domain/actor";
import { newId } from "../crypto/random";
import { decideWakeups, invocationSourceOf, maxConcurrentRuns, skipReasonOf, type DispatchAgent, type QueuedWakeup } from "../domain/runs/dispatch";
import { backoffSeconds, endRunStatements, LIVE_RUN_STATUSES, MAX_RETRIES, newRunRow, type RunRow } from "../domain/runs/lifecycle";
import { invokeHttpAgent, readHttpConfig, type HttpOutcome } from "../adapters/http";
import { runInvocationBody } from "../domain/runs/invocation";
import { storedDesiredSkills } from "../domain/agents/skills";
import { recordRunUsage } from "../domain/runs/usage";
import { runEvent } from "../domain/runs/events";
import { dispatchDelayMs } from "./dispatch-delay";
import { inIds } from "../db/id-list";
import { attemptGatewayRun, attemptRunnerRun, lostRunnerRunStatements, resendUnacknowledgedStarts, runnerGraceMs, runStartAckMs, sweepRemoteRuns } from "./remote-attempts";
import { RUNNER_STALE_MS, type RunnerHub } from "./runners";
import { isRunnerAdapter } from "../domain/adapters/runner-types";

/** Adapter types this service runs itself; wake-ups of other agents wait for a runner serving them. */
export const DISPATCHED_ADAPTERS = ["http", "remote_gateway"] as const;
const SYSTEM: Actor = { type: "none", runId: null };
const QUEUE_BATCH = 200;
/** A dispatch that does not finish (object evicted, a write failed) runs again this long after it began (plus DISPATCH_DELAY_MS). */
export const DISPATCH_RESUME_MS = 30_000;

export interface DispatchStep {
  /** Runs to call now (new, or retried). */
  invoke: Array<{ run: RunRow; adapterConfig: Record<string, unknown> }>;
  /** Whether any run ended in this step (a waiting wake-up may now have a slot). */
  ended: boolean;
  /** The earliest moment an agent backing off after failures may run again (ms), or null. */
  backoffUntil: number | null;
}

export interface DispatcherHost {
  env: Env;
  db: Db;
  storage: CompanyStorage;
  /** Runs `fn` serialised with the company's commands, reading and writing the primary. */
  serialise<T>(fn: () => Promise<T>): Promise<T>;
  /** The end of a dispatch: the next alarm at `at` (ms), or none (unless asked for meanwhile). */
  settleAlarm(at: number | null): Promise<void>;
  /** The connected runners (src/company/runners.ts). */
  runners: RunnerHub;
  /** Runs this instance's dispatches are handing out right now (their journal entries are not left over). */
  handingOut: Set<string>;
}

const context = (host: DispatcherHost, companyId: string): CommandContext =>
  commandContext({ env: host.env, db: host.db, companyId, actor: SYSTEM, storage: host.storage, now: new Date().toISOString() });

/** One alarm: a dispatch step, the adapter calls, and the next alarm. */
export async function runDispatch(host: DispatcherHost, companyId: string): Promise<void> {
  const step = await host.serialise(() => dispatchStep(context(host, companyId), host.runners, host.handingOut));
  let outcomes: boolean[];
  try {
    outcomes = await Promise.all(
      step.invoke.map(async ({ run, adapterConfig }) => {
        const ended = await (run.adapterType === "http"
          ? attempt(host, companyId, run, adapterConfig)
          : run.adapterType === "remote_gateway"
            ? attemptGatewayRun(host, context(host, companyId), run, adapterConfig)
            : attemptRunnerRun(host, context(host, companyId), run, adapterConfig));
        // Handed out and recorded: no longer the next dispatch's to hand out.
        host.storage.startingRuns.forget(run.id);
        return ended;
      }),
    );
  } finally {
    for (const { run } of step.invoke) host.handingOut.delete(run.id);
  }
  // run.start messages a runner did not acknowledge in time go again, or to another runner.
  await resendUnacknowledgedStarts(host, context(host, companyId));
  const again = step.ended || outcomes.some((ended) => ended);
  // Runs that ended (or were cancelled while being handed out) are stopped where they run.
  if (again || step.invoke.some(({ run }) => run.adapterType !== "http")) await sweepRemoteRuns(host);
  const lostAt = host.storage.remoteRuns.earliestLost();
  // While runners execute runs, look again after RUNNER_STALE_MS: a socket that went silent loses its runs.
  const runnerCheck = host.storage.remoteRuns.all().some((r) => r.kind === "runner" && r.lostAt === null) ? Date.now() + RUNNER_STALE_MS + dispatchDelayMs(host.env) : null;
  const unacknowledged = host.storage.remoteRuns.earliestUnacknowledged();
  const next = await host.serialise(async () =>
    earliest(
      await nextDueAt(host.db, companyId, [...host.runners.servedAgents().keys()]),
      host.storage.timers.earliest(),
      step.backoffUntil,
      lostAt === null ? null : lostAt + runnerGraceMs(host.env),
      runnerCheck,
      unacknowledged === null ? null : unacknowledged + runStartAckMs(host.env),
    ),
  );
  await host.settleAlarm(again ? Date.now() + dispatchDelayMs(host.env) : next);
}

export { dispatchDelayMs } from "./dispatch-delay";

/** Agents the dispatcher starts runs for: adapters the service runs itself, and runner-type agents (isRunnerAdapter, in SQL) a connected runner serves. */
const dispatchable = (served: readonly string[]) =>
  or(
    inArray(schema.agents.adapterType, [...DISPATCHED_ADAPTERS]),
    and(inIds(schema.agents.id, served), sql`(${schema.agents.adapterType} = 'process' OR ${schema.agents.adapterType} LIKE '%\_local' ESCAPE '\')`),
  );

async function dispatchStep(ctx: CommandContext, runners: RunnerHub, handingOut: Set<string>): Promise<DispatchStep> {
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

/** Calls the agent's endpoint once and records the answer; true when the run ended. */
async function attempt(host: DispatcherHost, companyId: string, run: RunRow, adapterConfig: Record<string, unknown>): Promise<boolean> {
  const config = readHttpConfig(adapterConfig);
  let outcome: HttpOutcome;
  try {
    const body = await runInvocationBody(host.env, host.db, run, config.payloadTemplate, adapterConfig.env, config.completionTimeoutSec, storedDesiredSkills(adapterConfig));
    outcome = await invokeHttpAgent(config, run.id, body, { exposure: host.env.SERVER_EXPOSURE === "public" ? "public" : "private" });
  } catch (err) {
    outcome = { kind: "failed", errorCode: "adapter_refused", error: `Could not prepare the run: ${(err as Error)?.message ?? err}` };
  }
  return host.serialise(() => recordOutcome(context(host, companyId), run, outcome, config.completionTimeoutSec));
}

async function recordOutcome(ctx: CommandContext, run: RunRow, outcome: HttpOutcome, completionTimeoutSec: number): Promise<boolean> {
  const r = schema.heartbeatRuns;
  const stillRunning = and(eq(r.id, run.id), eq(r.status, "running"));
  const current = (await ctx.db.select({ status: r.status, retryCount: r.retryCount }).from(r).where(eq(r.id, run.id)))[0];
  if (!current || current.status !== "running") return false; // cancelled (or completed) while the call was out
  switch (outcome.kind) {
    case "accepted": {
      const deadlineAt = new Date(Date.parse(ctx.now) + completionTimeoutSec * 1000).toISOString();
      await ctx.batch([ctx.db.update(r).set({ deadlineAt, lastActivityAt: ctx.now, updatedAt: ctx.now }).where(stillRunning), runEvent(ctx, run, "status", "Accepted by the agent endpoint (202); waiting for completion")]);
      return false;
    }
    case "retry": {
      const retryCount = current.retryCount + 1;
      if (retryCount > MAX_RETRIES) {
        await ctx.batch(endRunStatements(ctx, run.id, { status: "failed", errorCode: "adapter_unavailable", error: `Agent endpoint answered HTTP ${outcome.status} ${retryCount} times` }));
        return true;
      }
      const wait = outcome.retryAfterSec ?? backoffSeconds(retryCount);
      const nextRetryAt = new Date(Date.parse(ctx.now) + wait * 1000).toISOString();
      await ctx.batch([
        ctx.db.update(r).set({ status: "scheduled_retry", retryCount, nextRetryAt, lastActivityAt: ctx.now, updatedAt: ctx.now }).where(stillRunning),
        runEvent(ctx, run, "status", `Agent endpoint answered HTTP ${outcome.status}; retry ${retryCount} at ${nextRetryAt}`),
      ]);
      return false;
    }
    case "succeeded": {
      const statements = endRunStatements(ctx, run.id, { status: "succeeded", summary: outcome.summary, usage: outcome.usage, result: outcome.result });
      await ctx.batch(statements);
      await recordRunUsage(ctx, run, outcome.usage);
      return true;
    }
    case "failed":
      await ctx.batch(endRunStatements(ctx, run.id, { status: "failed", errorCode: outcome.errorCode, error: outcome.error }));
      return true;
    case "timed_out":
      await ctx.batch(endRunStatements(ctx, run.id, { status: "timed_out", errorCode: "timeout", error: outcome.error }));
      return true;
  }
}

const earliest = (...times: Array<number | null>) => {
  const known = times.filter((t): t is number => t !== null);
  return known.length ? Math.min(...known) : null;
};

/** The earliest retry (of agents that can run now) or completion deadline of the company's runs (ms), or null. */
async function nextDueAt(db: Db, companyId: string, served: readonly string[]): Promise<number | null> {
  const r = schema.heartbeatRuns;
  const a = schema.agents;
  const [retry, deadline] = await db.batch([
    db
      .select({ at: min(r.nextRetryAt) })
      .from(r)
      .innerJoin(a, eq(a.id, r.agentId))
      .where(and(eq(r.companyId, companyId), eq(r.status, "scheduled_retry"), isNotNull(r.nextRetryAt), dispatchable(served))),
    db.select({ at: min(r.deadlineAt) }).from(r).where(and(eq(r.companyId, companyId), eq(r.status, "running"), isNotNull(r.deadlineAt), lte(r.deadlineAt, "9999"))),
  ]);
  const times = [retry[0]?.at, deadline[0]?.at].filter((t): t is string => Boolean(t)).map((t) => Date.parse(t));
  return times.length ? Math.min(...times) : null;
}
