// Deciding what the company's queued wake-ups become (pure: facts in, decisions out). In order:
// a company that is not active, a budget hard stop, an agent that cannot run → `skipped` with a
// reason; a live run of the same agent on the same issue → `coalesced` into it; the agent's
// hourly run budget spent → `skipped` (rate_limited); all of its concurrent slots busy → stays
// queued (dispatched when a run ends); else a new run starts.

import type { WakeSkipReason } from "../../db/schema/runs";

export type SkipReason = WakeSkipReason;

export interface QueuedWakeup {
  id: string;
  agentId: string;
  reason: string;
  issueId: string | null;
  context: Record<string, unknown> | null;
  createdAt: string;
}

export interface DispatchAgent {
  id: string;
  status: string;
  pauseReason: string | null;
  adapterType: string;
  runtimeConfig: Record<string, unknown>;
}

export interface LiveRun {
  id: string;
  agentId: string;
  issueId: string | null;
  status: string;
}

export interface DispatchFacts {
  company: { status: string; pauseReason: string | null };
  agents: Map<string, DispatchAgent>;
  /** Live (queued, running, scheduled_retry) runs of the company. */
  liveRuns: LiveRun[];
  /** Runs started by the service per agent in the last hour. */
  runsLastHour: Map<string, number>;
  /** Agents backing off after consecutive failed runs: no new run before this time (ms). */
  backoffUntil?: Map<string, number>;
  /** Now (ms), for the back-off. */
  nowMs?: number;
}

export type WakeDecision =
  | { kind: "skip"; wakeup: QueuedWakeup; reason: SkipReason }
  | { kind: "coalesce"; wakeup: QueuedWakeup; runId: string }
  | { kind: "start"; wakeup: QueuedWakeup; agent: DispatchAgent; runId: string }
  | { kind: "wait"; wakeup: QueuedWakeup };

const INVOKABLE = new Set(["active", "idle", "running", "error"]);
export const DEFAULT_MAX_CONCURRENT_RUNS = 1;
export const DEFAULT_MAX_RUNS_PER_HOUR = 30;

function heartbeatSetting(agent: DispatchAgent, key: string, fallback: number, min: number, max: number): number {
  const heartbeat = agent.runtimeConfig?.heartbeat;
  const value = heartbeat && typeof heartbeat === "object" ? (heartbeat as Record<string, unknown>)[key] : undefined;
  return typeof value === "number" && Number.isInteger(value) ? Math.min(Math.max(value, min), max) : fallback;
}

export const maxConcurrentRuns = (agent: DispatchAgent) => heartbeatSetting(agent, "maxConcurrentRuns", DEFAULT_MAX_CONCURRENT_RUNS, 1, 50);
export const maxRunsPerHour = (agent: DispatchAgent) => heartbeatSetting(agent, "maxRunsPerHour", DEFAULT_MAX_RUNS_PER_HOUR, 1, 10_000);

/** The wake reason's invocation source (the run surface's coarse "who started it"). */
export function invocationSourceOf(reason: string): string {
  if (reason === "assignment" || reason === "on_demand" || reason === "timer") return reason;
  return "automation";
}

/** Why an agent cannot be run now (null when it can): company first, then a budget stop, then the agent's status. */
export function skipReasonOf(
  company: { status: string; pauseReason: string | null },
  agent: { status: string; pauseReason: string | null } | undefined,
): SkipReason | null {
  if (company.status !== "active") return company.pauseReason === "budget" ? "budget.blocked" : "company.inactive";
  if (!agent) return "agent.not_invokable";
  if (agent.pauseReason === "budget") return "budget.blocked";
  if (!INVOKABLE.has(agent.status)) return "agent.not_invokable";
  return null;
}

/** Decides every queued wake-up in order (oldest first); the decisions account for each other. */
export function decideWakeups(wakeups: QueuedWakeup[], facts: DispatchFacts, newRunId: () => string = () => crypto.randomUUID()): WakeDecision[] {
  const live = [...facts.liveRuns];
  const started = new Map<string, number>(facts.runsLastHour);
  const decisions: WakeDecision[] = [];
  for (const wakeup of wakeups) {
    const agent = facts.agents.get(wakeup.agentId);
    const skip = skipReasonOf(facts.company, agent);
    if (skip || !agent) {
      decisions.push({ kind: "skip", wakeup, reason: skip ?? "agent.not_invokable" });
      continue;
    }
    const mine = live.filter((r) => r.agentId === agent.id);
    const same = wakeup.issueId ? mine.find((r) => r.issueId === wakeup.issueId) : mine.find((r) => r.issueId === null && r.status === "queued");
    if (same) {
      decisions.push({ kind: "coalesce", wakeup, runId: same.id });
      continue;
    }
    if ((started.get(agent.id) ?? 0) >= maxRunsPerHour(agent)) {
      decisions.push({ kind: "skip", wakeup, reason: "rate_limited" });
      continue;
    }
    const backoff = facts.backoffUntil?.get(agent.id);
    if (backoff !== undefined && backoff > (facts.nowMs ?? Date.now())) {
      decisions.push({ kind: "wait", wakeup });
      continue;
    }
    if (mine.length >= maxConcurrentRuns(agent)) {
      decisions.push({ kind: "wait", wakeup });
      continue;
    }
    const runId = newRunId();
    decisions.push({ kind: "start", wakeup, agent, runId });
    started.set(agent.id, (started.get(agent.id) ?? 0) + 1);
    live.push({ id: runId, agentId: agent.id, issueId: wakeup.issueId, status: "running" });
  }
  return decisions;
}
