// Deciding what the company's runs do next in one dispatch step (pure: state in, transitions out;
// src/company/runs/step.ts reads the state and writes the transitions). In order:
//   1. timer heartbeats due become queued `timer` wake-ups (agents no longer timed are forgotten);
//   2. queued wake-ups start, coalesce, wait or are skipped (decideWakeups, dispatch.ts);
//   3. runs created queued start when their agent has a free slot, or are cancelled when it cannot run;
//   4. runner runs lost longer than the grace period fail with `process_lost` and go through the
//      retry policy: scheduled again with back-off (any runner serving the agent takes it), failed
//      after MAX_RETRIES;
//   5. runs an earlier dispatch started but did not hand out (cut short) are handed out again;
//   6. retries whose time has come start again; running runs past their deadline end `timed_out`.
import { decideWakeups, invocationSourceOf, maxConcurrentRuns, skipReasonOf, type DispatchAgent, type QueuedWakeup, type SkipReason } from "./dispatch";
import { backoffSeconds, MAX_RETRIES, newRunRow, type RunRow } from "./lifecycle";
import { findAdapter } from "../../adapters";

/** An agent the dispatcher starts runs for, with its stored adapter config (what its runs are handed). */
export interface RunAgent extends DispatchAgent {
  adapterConfig: Record<string, unknown>;
}

export interface RunState {
  companyId: string;
  company: { status: string; pauseReason: string | null };
  /** Agents the dispatcher starts runs for: adapters the service runs itself, runner agents a connected runner serves. */
  agents: RunAgent[];
  /** Queued wake-ups of those agents, oldest first. */
  queued: QueuedWakeup[];
  /** The company's live runs (queued, running, scheduled_retry). */
  liveRuns: RunRow[];
  /** Agents with a timer heartbeat enabled (any adapter; only those in `agents` get timer wake-ups). */
  timedAgents: Array<{ id: string; status: string; runtimeConfig: Record<string, unknown> }>;
  /** When each agent's timer heartbeat is next due (ms). */
  timers: ReadonlyMap<string, number>;
  /** Runs started by the service per agent in the last hour. */
  runsLastHour: ReadonlyMap<string, number>;
  /** The latest runs of those agents that finished within the hour, newest first. */
  recentFinished: Array<{ agentId: string; status: string; finishedAt: string | null }>;
  /** Runs journaled as starting by a dispatch (oldest first). */
  starting: readonly string[];
  /** Runs a dispatch of this instance is handing out right now (their journal entries are not left over). */
  handingOut: ReadonlySet<string>;
  /** Runs handed to a gateway or a runner; a runner's run whose socket closed carries lostAt (ms). */
  remoteRuns: ReadonlyArray<{ runId: string; kind: "gateway" | "loop" | "runner"; lostAt: number | null }>;
  /** How long a lost runner run waits to be reclaimed (ms). */
  runnerGraceMs: number;
}

export type RunTransition =
  /** The agent no longer has a timer heartbeat the service serves: its next due time is forgotten. */
  | { kind: "timer_forgotten"; agentId: string }
  /** A timer heartbeat is due: a queued `timer` wake-up (decided on below with the others); next due at `nextDueAt` (ms). */
  | { kind: "timer"; wakeup: QueuedWakeup; nextDueAt: number }
  | { kind: "skip"; wakeup: QueuedWakeup; reason: SkipReason }
  | { kind: "coalesce"; wakeup: QueuedWakeup; runId: string }
  /** Stays queued: no free slot, or the agent backs off after failures. */
  | { kind: "wait"; wakeup: QueuedWakeup }
  /** A new run, running, for the wake-up. */
  | { kind: "start"; wakeup: QueuedWakeup; run: RunRow; adapterConfig: Record<string, unknown> }
  /** A live run's context after wake-ups coalesced into it. */
  | { kind: "context"; runId: string; context: Record<string, unknown> }
  /** A run created queued whose agent cannot run: cancelled, its wake-up skipped. */
  | { kind: "cancel_queued"; run: RunRow; reason: SkipReason }
  /** A run created queued whose agent has a free slot: running now (`run` as it becomes). */
  | { kind: "start_queued"; run: RunRow; adapterConfig: Record<string, unknown> }
  /** A lost runner run: `process_lost`, scheduled again at `nextRetryAt` (any runner serving the agent takes it). */
  | { kind: "lost_retry"; run: RunRow; retryCount: number; nextRetryAt: string }
  /** A lost runner run past MAX_RETRIES: failed with `process_lost`. */
  | { kind: "lost_failed"; run: RunRow; retryCount: number }
  /** A lost runner run that is no longer running: only forgotten. */
  | { kind: "lost_gone"; runId: string }
  /** A journaled start that was not handed out (or whose run is no longer running / no longer ours): dropped from the journal. */
  | { kind: "start_forgotten"; runId: string }
  /** A run an earlier dispatch started but did not hand out: handed out now. */
  | { kind: "resume"; run: RunRow; adapterConfig: Record<string, unknown> }
  /** A scheduled retry whose time has come: running again (`run` as it becomes). */
  | { kind: "retry"; run: RunRow; adapterConfig: Record<string, unknown> }
  /** A running run past its completion deadline. */
  | { kind: "timed_out"; run: RunRow };

export interface RunDecisions {
  transitions: RunTransition[];
  /** The earliest moment an agent backing off after failures may run again (ms), or null. */
  backoffUntil: number | null;
}

export interface DecideDeps {
  /** New ids (runs, timer wake-ups). */
  newId?: () => string;
  /** Jitter for the retry back-off, in [0, 1). */
  random?: () => number;
}

/** Transitions that end a run (a waiting wake-up may then have a slot). */
export const endsRun = (t: RunTransition) => t.kind === "cancel_queued" || t.kind === "lost_failed" || t.kind === "timed_out";

/** The runs the step hands out (to call, push or resume), in order. */
export function runsToHandOut(transitions: readonly RunTransition[]): Array<{ run: RunRow; adapterConfig: Record<string, unknown> }> {
  const out: Array<{ run: RunRow; adapterConfig: Record<string, unknown> }> = [];
  for (const t of transitions)
    if (t.kind === "start" || t.kind === "start_queued" || t.kind === "resume" || t.kind === "retry") out.push({ run: t.run, adapterConfig: t.adapterConfig });
  return out;
}

const isoAfter = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1000).toISOString();

/** Decides one dispatch step at `now` (ISO); the transitions are in the order their writes go. */
export function decideRunTransitions(state: RunState, now: string, deps: DecideDeps = {}): RunDecisions {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const random = deps.random ?? Math.random;
  const nowMs = Date.parse(now);
  const agents = new Map(state.agents.map((agent) => [agent.id, agent]));
  const transitions: RunTransition[] = [];

  // 1. Timer heartbeats of agents this step serves.
  const timed = state.timedAgents.filter((t) => agents.has(t.id));
  for (const agentId of state.timers.keys()) if (!timed.some((t) => t.id === agentId)) transitions.push({ kind: "timer_forgotten", agentId });
  const timerWakes: QueuedWakeup[] = [];
  for (const agent of timed) {
    const heartbeat = (agent.runtimeConfig?.heartbeat ?? {}) as Record<string, unknown>;
    const intervalSec = typeof heartbeat.intervalSec === "number" && heartbeat.intervalSec >= 1 ? heartbeat.intervalSec : 3600;
    const due = state.timers.get(agent.id) ?? nowMs;
    if (due > nowMs) continue;
    const wakeup: QueuedWakeup = { id: newId(), agentId: agent.id, reason: "timer", issueId: null, context: { intervalSec }, createdAt: now };
    transitions.push({ kind: "timer", wakeup, nextDueAt: nowMs + intervalSec * 1000 });
    timerWakes.push(wakeup);
  }

  // 2. Queued wake-ups (an agent backing off after failures, or waiting out its provider's limit, starts none).
  const backoff = consecutiveFailureBackoff(state.recentFinished);
  const limited = providerLimitedUntil(state.liveRuns, nowMs);
  for (const [agentId, until] of limited) backoff.set(agentId, Math.max(until, backoff.get(agentId) ?? 0));
  const decisions = decideWakeups(
    [...timerWakes, ...state.queued],
    {
      company: state.company,
      agents,
      liveRuns: state.liveRuns.map((run) => ({ id: run.id, agentId: run.agentId, issueId: run.issueId, status: run.status })),
      runsLastHour: new Map(state.runsLastHour),
      backoffUntil: backoff,
      nowMs,
    },
    newId,
  );
  const contexts = new Map(state.liveRuns.map((run) => [run.id, { ...(run.context ?? {}) }]));
  const touched = new Set<string>();
  for (const decision of decisions) {
    const { wakeup } = decision;
    if (decision.kind === "skip" || decision.kind === "wait") transitions.push(decision);
    else if (decision.kind === "coalesce") {
      transitions.push(decision);
      const merged = contexts.get(decision.runId) ?? {};
      mergeWakeContext(merged, wakeup);
      contexts.set(decision.runId, merged);
      touched.add(decision.runId);
    } else {
      const agent = agents.get(wakeup.agentId)!;
      const context: Record<string, unknown> = { ...(wakeup.context ?? {}), wakeReason: wakeup.reason, issueId: wakeup.issueId };
      const run = newRunRow({
        id: decision.runId,
        companyId: state.companyId,
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
        context,
      });
      // A later wake-up of this step may coalesce into the new run: it merges into this same context.
      contexts.set(run.id, context);
      transitions.push({ kind: "start", wakeup, run, adapterConfig: agent.adapterConfig });
    }
  }
  for (const runId of touched) transitions.push({ kind: "context", runId, context: contexts.get(runId)! });

  // 3. Runs created queued (manual wake-ups) start when their agent has a free slot.
  const busy = new Map<string, number>();
  for (const run of state.liveRuns) if (run.status !== "queued") busy.set(run.agentId, (busy.get(run.agentId) ?? 0) + 1);
  for (const d of decisions) if (d.kind === "start") busy.set(d.agent.id, (busy.get(d.agent.id) ?? 0) + 1);
  for (const run of state.liveRuns.filter((x) => x.status === "queued").sort((x, y) => x.createdAt.localeCompare(y.createdAt))) {
    const agent = agents.get(run.agentId);
    if (!agent) continue; // not ours to run (a runner claims it)
    const skip = skipReasonOf(state.company, agent);
    if (skip) {
      transitions.push({ kind: "cancel_queued", run, reason: skip });
      continue;
    }
    if (limited.has(agent.id)) continue;
    if ((busy.get(agent.id) ?? 0) >= maxConcurrentRuns(agent)) continue;
    busy.set(agent.id, (busy.get(agent.id) ?? 0) + 1);
    transitions.push({ kind: "start_queued", run: { ...run, status: "running", startedAt: now }, adapterConfig: agent.adapterConfig });
  }

  // 4. Runs of runners that disconnected and did not come back within the grace period.
  const liveById = new Map(state.liveRuns.map((run) => [run.id, run]));
  const lost = new Set<string>();
  for (const tracked of state.remoteRuns) {
    if (tracked.kind !== "runner" || tracked.lostAt === null || tracked.lostAt > nowMs - state.runnerGraceMs) continue;
    lost.add(tracked.runId);
    const run = liveById.get(tracked.runId);
    if (run?.status !== "running") {
      transitions.push({ kind: "lost_gone", runId: tracked.runId });
      continue;
    }
    const retryCount = run.retryCount + 1;
    if (retryCount > MAX_RETRIES) transitions.push({ kind: "lost_failed", run, retryCount });
    else transitions.push({ kind: "lost_retry", run, retryCount, nextRetryAt: isoAfter(now, backoffSeconds(retryCount, random())) });
  }

  // 5. Runs an earlier dispatch started (its batch written) but did not hand out: it was cut short.
  // One of an agent no runner serves any more is lost (the retry policy).
  const leftOver: RunRow[] = [];
  for (const runId of state.starting) {
    if (state.handingOut.has(runId)) continue;
    const run = liveById.get(runId);
    if (run?.status === "running") leftOver.push(run);
    else transitions.push({ kind: "start_forgotten", runId }); // its batch was never written, or the run ended meanwhile
  }
  for (const run of leftOver) {
    if (lost.has(run.id) || (run.deadlineAt !== null && run.deadlineAt <= now)) continue;
    const agent = agents.get(run.agentId);
    if (agent) transitions.push({ kind: "resume", run, adapterConfig: agent.adapterConfig });
    else if (findAdapter(run.adapterType)?.where === "runner") transitions.push({ kind: "resume", run, adapterConfig: {} });
    else transitions.push({ kind: "start_forgotten", runId: run.id });
  }

  // 6. Retries whose time has come, and accepted runs past their completion deadline.
  for (const run of state.liveRuns) {
    if (lost.has(run.id)) continue;
    if (run.status === "scheduled_retry" && run.nextRetryAt && run.nextRetryAt <= now) {
      const agent = agents.get(run.agentId);
      if (!agent) continue;
      transitions.push({ kind: "retry", run: { ...run, status: "running", context: contexts.get(run.id) ?? run.context }, adapterConfig: agent.adapterConfig });
    } else if (run.status === "running" && run.deadlineAt && run.deadlineAt <= now) {
      transitions.push({ kind: "timed_out", run });
    }
  }

  const waitingOnBackoff = [...backoff.values()].filter((t) => t > nowMs);
  return { transitions, backoffUntil: waitingOnBackoff.length ? Math.min(...waitingOnBackoff) : null };
}

/**
 * Agents whose provider refused them for now (a run waiting in `scheduled_retry` with
 * `provider_rate_limited`): no other run of theirs starts before that run's retry time (ms).
 */
export function providerLimitedUntil(liveRuns: readonly RunRow[], nowMs: number): Map<string, number> {
  const until = new Map<string, number>();
  for (const run of liveRuns) {
    if (run.status !== "scheduled_retry" || run.errorCode !== "provider_rate_limited" || !run.nextRetryAt) continue;
    const at = Date.parse(run.nextRetryAt);
    if (at > nowMs) until.set(run.agentId, Math.max(at, until.get(run.agentId) ?? 0));
  }
  return until;
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
