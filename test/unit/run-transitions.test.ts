// decideRunTransitions: one dispatch step's decisions from the company's state (pure). Each kind of
// transition from the smallest state that makes it; the company object's tests (test/http/
// heartbeat-runs, runners, remote-gateway, fault-injection) cover the same step end to end.
import { describe, expect, it } from "vitest";
import {
  consecutiveFailureBackoff,
  decideRunTransitions,
  endsRun,
  runsToHandOut,
  type RunAgent,
  type RunState,
  type RunTransition,
} from "../../src/domain/runs/transitions";
import { MAX_RETRIES, newRunRow, type RunRow } from "../../src/domain/runs/lifecycle";

const NOW = "2026-11-20T12:00:00.000Z";
const NOW_MS = Date.parse(NOW);
const at = (offsetSec: number) => new Date(NOW_MS + offsetSec * 1000).toISOString();

const agent = (fields: Partial<RunAgent> = {}): RunAgent => ({
  id: "a",
  status: "idle",
  pauseReason: null,
  adapterType: "http",
  runtimeConfig: {},
  adapterConfig: { url: "https://agent.test" },
  ...fields,
});
const wake = (id: string, issueId: string | null = null, fields: Record<string, unknown> = {}) => ({
  id,
  agentId: "a",
  reason: "comment",
  issueId,
  context: null,
  createdAt: at(-60),
  ...fields,
});
const run = (id: string, fields: Partial<RunRow> = {}): RunRow =>
  newRunRow({
    id,
    companyId: "c",
    agentId: "a",
    status: "running",
    adapterType: "http",
    invocationSource: "automation",
    createdAt: at(-600),
    startedAt: at(-600),
    ...fields,
  });
const state = (fields: Partial<RunState> = {}): RunState => ({
  companyId: "c",
  company: { status: "active", pauseReason: null },
  agents: [agent()],
  queued: [],
  liveRuns: [],
  timedAgents: [],
  timers: new Map(),
  runsLastHour: new Map(),
  recentFinished: [],
  starting: [],
  handingOut: new Set(),
  remoteRuns: [],
  runnerGraceMs: 30_000,
  ...fields,
});

const decide = (s: RunState) => {
  let n = 0;
  return decideRunTransitions(s, NOW, { newId: () => `id-${++n}`, random: () => 0.5 });
};
const kinds = (transitions: RunTransition[]) => transitions.map((t) => t.kind);
const only = <K extends RunTransition["kind"]>(transitions: RunTransition[], kind: K) =>
  transitions.filter((t): t is Extract<RunTransition, { kind: K }> => t.kind === kind);

describe("decideRunTransitions: wake-ups", () => {
  it("start: a queued wake-up of an idle agent becomes a running run with the wake's context, handed out with the agent's config", () => {
    const { transitions } = decide(state({ queued: [wake("w1", "i1", { reason: "assignment", context: { commentId: "k1" } })] }));
    expect(kinds(transitions)).toEqual(["start"]);
    const [start] = only(transitions, "start");
    expect(start.wakeup.id).toBe("w1");
    expect(start.run).toMatchObject({
      id: "id-1",
      companyId: "c",
      agentId: "a",
      status: "running",
      adapterType: "http",
      invocationSource: "assignment",
      wakeupRequestId: "w1",
      startedAt: NOW,
      issueId: "i1",
    });
    expect(start.run.context).toEqual({ commentId: "k1", wakeReason: "assignment", issueId: "i1" });
    expect(runsToHandOut(transitions)).toEqual([{ run: start.run, adapterConfig: { url: "https://agent.test" } }]);
  });

  it("coalesce: a wake-up on an issue a live run holds merges into it; the run's context gains the comment and the reason", () => {
    const live = run("r1", { issueId: "i1", context: { commentId: "k0" } });
    const { transitions } = decide(
      state({
        liveRuns: [live],
        queued: [wake("w1", "i1", { context: { commentId: "k1" } }), wake("w2", "i1", { reason: "mention", context: { commentId: "k1" } })],
      }),
    );
    expect(kinds(transitions)).toEqual(["coalesce", "coalesce", "context"]);
    expect(only(transitions, "coalesce").map((t) => t.runId)).toEqual(["r1", "r1"]);
    expect(only(transitions, "context")).toEqual([
      { kind: "context", runId: "r1", context: { commentId: "k0", commentIds: ["k0", "k1"], coalescedReasons: ["comment", "mention"] } },
    ]);
    expect(live.context).toEqual({ commentId: "k0" }); // the state is not changed
    expect(runsToHandOut(transitions)).toEqual([]);
  });

  it("coalesce into a run started in the same step: the new run's context carries the merge", () => {
    const { transitions } = decide(state({ queued: [wake("w1", "i1"), wake("w2", "i1", { context: { commentId: "k2" } })] }));
    expect(kinds(transitions)).toEqual(["start", "coalesce", "context"]);
    const [start] = only(transitions, "start");
    expect(only(transitions, "coalesce")[0].runId).toBe(start.run.id);
    expect(start.run.context).toMatchObject({ commentIds: ["k2"], coalescedReasons: ["comment"] });
  });

  it("skip: an agent that cannot run, a company that is not active, a spent hourly budget", () => {
    expect(decide(state({ agents: [agent({ status: "paused" })], queued: [wake("w1")] })).transitions).toEqual([
      { kind: "skip", wakeup: wake("w1"), reason: "agent.not_invokable" },
    ]);
    expect(only(decide(state({ company: { status: "paused", pauseReason: "budget" }, queued: [wake("w1")] })).transitions, "skip")[0].reason).toBe(
      "budget.blocked",
    );
    expect(only(decide(state({ runsLastHour: new Map([["a", 30]]), queued: [wake("w1")] })).transitions, "skip")[0].reason).toBe("rate_limited");
  });

  it("wait: no free slot, or the agent backs off after consecutive failures (and the step says until when)", () => {
    const busy = decide(state({ liveRuns: [run("r1", { issueId: "i1" })], queued: [wake("w1", "i2")] }));
    expect(kinds(busy.transitions)).toEqual(["wait"]);
    expect(busy.backoffUntil).toBeNull();
    const failing = decide(
      state({
        recentFinished: [
          { agentId: "a", status: "failed", finishedAt: at(-1) },
          { agentId: "a", status: "timed_out", finishedAt: at(-5) },
        ],
        queued: [wake("w1")],
      }),
    );
    expect(kinds(failing.transitions)).toEqual(["wait"]);
    expect(failing.backoffUntil).toBe(NOW_MS - 1000 + 4000); // 2 failures: 2^2 s after the last one
  });

  it("an inactive company decides nothing but skips", () => {
    const { transitions } = decide(state({ company: { status: "archived", pauseReason: null }, queued: [wake("w1"), wake("w2", "i1")] }));
    expect(kinds(transitions)).toEqual(["skip", "skip"]);
    expect(transitions.some(endsRun)).toBe(false);
  });
});

describe("decideRunTransitions: timer heartbeats", () => {
  const timed = { id: "a", status: "idle", runtimeConfig: { heartbeat: { enabled: true, intervalSec: 60 } } };

  it("a timer due (or never run) queues a timer wake-up decided with the others; the next is due an interval later", () => {
    const { transitions } = decide(state({ timedAgents: [timed] }));
    expect(kinds(transitions)).toEqual(["timer", "start"]);
    const [timer] = only(transitions, "timer");
    expect(timer).toEqual({
      kind: "timer",
      wakeup: { id: "id-1", agentId: "a", reason: "timer", issueId: null, context: { intervalSec: 60 }, createdAt: NOW },
      nextDueAt: NOW_MS + 60_000,
    });
    expect(only(transitions, "start")[0].run).toMatchObject({ wakeupRequestId: "id-1", invocationSource: "timer" });
  });

  it("a timer not due yet does nothing; an agent no longer timed (or not served) is forgotten", () => {
    expect(decide(state({ timedAgents: [timed], timers: new Map([["a", NOW_MS + 1]]) })).transitions).toEqual([]);
    expect(decide(state({ timers: new Map([["a", NOW_MS]]) })).transitions).toEqual([{ kind: "timer_forgotten", agentId: "a" }]);
    expect(decide(state({ agents: [], timedAgents: [timed], timers: new Map([["a", NOW_MS]]) })).transitions).toEqual([
      { kind: "timer_forgotten", agentId: "a" },
    ]);
  });
});

describe("decideRunTransitions: runs created queued", () => {
  it("start when the agent has a free slot (oldest first), else stay queued", () => {
    const older = run("q1", { status: "queued", startedAt: null, createdAt: at(-20) });
    const newer = run("q2", { status: "queued", startedAt: null, createdAt: at(-10) });
    const { transitions } = decide(state({ liveRuns: [newer, older] }));
    expect(transitions).toEqual([{ kind: "start_queued", run: { ...older, status: "running", startedAt: NOW }, adapterConfig: { url: "https://agent.test" } }]);
  });

  it("cancelled with the reason when the agent cannot run; untouched when the agent is not this step's", () => {
    const queued = run("q1", { status: "queued", startedAt: null });
    const { transitions } = decide(state({ agents: [agent({ pauseReason: "budget", status: "paused" })], liveRuns: [queued] }));
    expect(transitions).toEqual([{ kind: "cancel_queued", run: queued, reason: "budget.blocked" }]);
    expect(transitions.some(endsRun)).toBe(true);
    expect(decide(state({ agents: [], liveRuns: [queued] })).transitions).toEqual([]);
  });
});

describe("decideRunTransitions: retries and deadlines", () => {
  it("retry due: a scheduled retry whose time has come runs again (with its coalesced context); one not due waits", () => {
    const due = run("r1", { status: "scheduled_retry", nextRetryAt: at(-1), retryCount: 1, issueId: "i1", context: { x: 1 } });
    const later = run("r2", { status: "scheduled_retry", nextRetryAt: at(60), issueId: "i2" });
    const { transitions } = decide(
      state({ agents: [agent({ runtimeConfig: { heartbeat: { maxConcurrentRuns: 5 } } })], liveRuns: [due, later], queued: [wake("w1", "i1")] }),
    );
    expect(kinds(transitions)).toEqual(["coalesce", "context", "retry"]);
    const [retry] = only(transitions, "retry");
    expect(retry.run).toEqual({ ...due, status: "running", context: { x: 1, coalescedReasons: ["comment"] } });
    expect(runsToHandOut(transitions).map((r) => r.run.id)).toEqual(["r1"]);
  });

  it("a retry of an agent that is not this step's (a runner agent no runner serves) waits", () => {
    expect(decide(state({ agents: [], liveRuns: [run("r1", { status: "scheduled_retry", nextRetryAt: at(-1) })] })).transitions).toEqual([]);
  });

  it("deadline passed → timed_out, for any agent; a deadline still ahead does nothing", () => {
    const late = run("r1", { deadlineAt: at(-1) });
    const { transitions } = decide(state({ agents: [], liveRuns: [late, run("r2", { deadlineAt: at(60) })] }));
    expect(transitions).toEqual([{ kind: "timed_out", run: late }]);
    expect(transitions.some(endsRun)).toBe(true);
  });
});

describe("decideRunTransitions: lost runner runs", () => {
  const runnerAgent = agent({ adapterType: "process", adapterConfig: { command: "x" } });
  const runnerRun = (fields: Partial<RunRow> = {}) => run("r1", { adapterType: "process", ...fields });
  const lostAt = (ms: number) => [{ runId: "r1", kind: "runner" as const, lostAt: ms }];

  it("lost past the grace period → process_lost, scheduled again with back-off (any runner serving the agent takes it)", () => {
    const lost = runnerRun({ retryCount: 1 });
    const { transitions } = decide(state({ agents: [runnerAgent], liveRuns: [lost], remoteRuns: lostAt(NOW_MS - 30_000) }));
    expect(transitions).toEqual([{ kind: "lost_retry", run: lost, retryCount: 2, nextRetryAt: at(4) }]);
    expect(transitions.some(endsRun)).toBe(false);
  });

  it("lost after MAX_RETRIES → failed with process_lost", () => {
    const lost = runnerRun({ retryCount: MAX_RETRIES });
    const { transitions } = decide(state({ liveRuns: [lost], remoteRuns: lostAt(NOW_MS - 60_000) }));
    expect(transitions).toEqual([{ kind: "lost_failed", run: lost, retryCount: MAX_RETRIES + 1 }]);
    expect(transitions.some(endsRun)).toBe(true);
  });

  it("within the grace period, still connected, or a gateway run: nothing; lost but no longer running: only forgotten", () => {
    expect(decide(state({ liveRuns: [runnerRun()], remoteRuns: lostAt(NOW_MS - 29_999) })).transitions).toEqual([]);
    expect(decide(state({ liveRuns: [runnerRun()], remoteRuns: [{ runId: "r1", kind: "runner", lostAt: null }] })).transitions).toEqual([]);
    expect(decide(state({ liveRuns: [runnerRun()], remoteRuns: [{ runId: "r1", kind: "gateway", lostAt: 0 }] })).transitions).toEqual([]);
    expect(decide(state({ remoteRuns: lostAt(0) })).transitions).toEqual([{ kind: "lost_gone", runId: "r1" }]);
  });

  it("a lost run past its deadline is lost, not also timed out", () => {
    const lost = runnerRun({ deadlineAt: at(-1) });
    expect(kinds(decide(state({ liveRuns: [lost], remoteRuns: lostAt(0) })).transitions)).toEqual(["lost_retry"]);
  });
});

describe("decideRunTransitions: left-over starts", () => {
  it("a journaled start an earlier dispatch did not hand out is resumed with its agent's config", () => {
    const leftOver = run("r1");
    const { transitions } = decide(state({ liveRuns: [leftOver], starting: ["r1"] }));
    expect(transitions).toEqual([{ kind: "resume", run: leftOver, adapterConfig: { url: "https://agent.test" } }]);
    expect(runsToHandOut(transitions)).toEqual([{ run: leftOver, adapterConfig: { url: "https://agent.test" } }]);
  });

  it("a runner agent's left-over is resumed even when no runner serves it now (it is then lost: the retry policy)", () => {
    const leftOver = run("r1", { adapterType: "claude_local" });
    expect(decide(state({ agents: [], liveRuns: [leftOver], starting: ["r1"] })).transitions).toEqual([{ kind: "resume", run: leftOver, adapterConfig: {} }]);
  });

  it("forgotten when its run is not running (never written, or ended) or no longer this service's; kept while handed out, past its deadline, or lost", () => {
    expect(decide(state({ starting: ["gone"] })).transitions).toEqual([{ kind: "start_forgotten", runId: "gone" }]);
    expect(decide(state({ liveRuns: [run("r1", { status: "scheduled_retry", nextRetryAt: at(60) })], starting: ["r1"] })).transitions).toEqual([
      { kind: "start_forgotten", runId: "r1" },
    ]);
    expect(decide(state({ agents: [], liveRuns: [run("r1")], starting: ["r1"] })).transitions).toEqual([{ kind: "start_forgotten", runId: "r1" }]);
    expect(decide(state({ liveRuns: [run("r1")], starting: ["r1"], handingOut: new Set(["r1"]) })).transitions).toEqual([]);
    expect(kinds(decide(state({ liveRuns: [run("r1", { deadlineAt: at(-1) })], starting: ["r1"] })).transitions)).toEqual(["timed_out"]);
    expect(kinds(decide(state({ liveRuns: [run("r1")], starting: ["r1"], remoteRuns: [{ runId: "r1", kind: "runner", lostAt: 0 }] })).transitions)).toEqual([
      "lost_retry",
    ]);
  });
});

describe("decideRunTransitions: one step", () => {
  it("the transitions come in the order their writes go: timers, wake-ups, contexts, queued runs, lost runs, left-overs, retries and deadlines", () => {
    const s = state({
      agents: [agent({ runtimeConfig: { heartbeat: { maxConcurrentRuns: 10, intervalSec: 60 } } }), agent({ id: "b", adapterType: "process" })],
      timedAgents: [{ id: "a", status: "idle", runtimeConfig: { heartbeat: { enabled: true, intervalSec: 60 } } }],
      timers: new Map([["gone", 0]]),
      queued: [wake("w1", "i1")],
      liveRuns: [
        run("held", { issueId: "i1" }),
        run("q1", { status: "queued", startedAt: null, issueId: "i9" }),
        run("lost", { agentId: "b", adapterType: "process" }),
        run("left"),
        run("retry", { status: "scheduled_retry", nextRetryAt: at(-1) }),
        run("late", { deadlineAt: at(-1) }),
      ],
      starting: ["left"],
      remoteRuns: [{ runId: "lost", kind: "runner", lostAt: 0 }],
    });
    const { transitions } = decide(s);
    expect(kinds(transitions)).toEqual([
      "timer_forgotten",
      "timer",
      "start",
      "coalesce",
      "context",
      "start_queued",
      "lost_retry",
      "resume",
      "retry",
      "timed_out",
    ]);
    expect(runsToHandOut(transitions).map((r) => r.run.id)).toEqual(["id-2", "q1", "left", "retry"]);
  });

  it("is pure: the same state decides the same transitions", () => {
    const s = state({
      queued: [wake("w1", "i1")],
      liveRuns: [run("r1", { status: "scheduled_retry", nextRetryAt: at(-1) })],
      timedAgents: [{ id: "a", status: "idle", runtimeConfig: {} }],
    });
    expect(decide(s)).toEqual(decide(s));
  });
});

describe("consecutiveFailureBackoff", () => {
  it("counts failures (failed, timed_out) back to the newest success; 2^n s after the last failure", () => {
    const until = consecutiveFailureBackoff([
      { agentId: "a", status: "failed", finishedAt: at(-10) },
      { agentId: "a", status: "timed_out", finishedAt: at(-20) },
      { agentId: "a", status: "failed", finishedAt: at(-30) },
      { agentId: "a", status: "succeeded", finishedAt: at(-40) },
      { agentId: "a", status: "failed", finishedAt: at(-50) },
      { agentId: "b", status: "succeeded", finishedAt: at(-10) },
    ]);
    expect(until).toEqual(new Map([["a", NOW_MS - 10_000 + 8000]]));
  });
});
