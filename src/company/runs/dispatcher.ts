// The company object's run dispatcher, driven by its alarm (at-least-once: every step re-reads
// the queue and is safe to repeat). One step, serialised with the company's commands
// (src/company/runs/step.ts):
//   1. queued wake-ups of agents whose runs it can start (the service runs them itself, or a
//      connected runner serves them: the adapter says, src/adapters) become runs, are
//      coalesced into a live run of the same agent and issue, wait for a free slot, or are
//      skipped with a reason (src/domain/runs/dispatch.ts);
//   2. runs in `scheduled_retry` whose time has come are attempted again;
//   3. accepted (202) runs past their completion deadline end `timed_out`.
// The attempts (each adapter's own) then happen outside the serialised section, concurrently; each
// answer is recorded serialised again. The alarm is set for the earliest moment something is due.
// A dispatch cut short (the object evicted, a write failing) loses nothing: the alarm is re-armed
// before it starts (DISPATCH_RESUME_MS), and runs it decided to start are journaled in the
// object's storage (starting_runs) before its batch, so the next dispatch hands out the ones that
// were written but not handed out (at least once: an agent may see a run id twice, never two runs).
import { and, eq, isNotNull, lte, min } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { systemContext, type DispatcherHost } from "./host";
import { dispatchable, dispatchStep } from "./step";
import { adapterOf } from "../../adapters";
import { resendUnacknowledgedStarts } from "./attempts/runner";
import { ATTEMPTS } from "./attempts";
import { sweepRemoteRuns } from "./remote-sweep";
import { RUNNER_STALE_MS } from "./runners";
import { runtimeSettings } from "./timing";

/** One alarm: a dispatch step, the attempts, and the next alarm. */
export async function runDispatch(host: DispatcherHost, companyId: string): Promise<void> {
  const step = await host.serialise(() => dispatchStep(systemContext(host, companyId), host.runners, host.handingOut));
  let outcomes: boolean[];
  try {
    outcomes = await Promise.all(
      step.invoke.map(async ({ run, adapterConfig }) => {
        const ended = await ATTEMPTS[adapterOf(run.adapterType).where](host, systemContext(host, companyId), run, adapterConfig);
        // Handed out and recorded: no longer the next dispatch's to hand out.
        host.storage.startingRuns.forget(run.id);
        return ended;
      }),
    );
  } finally {
    for (const { run } of step.invoke) host.handingOut.delete(run.id);
  }
  // run.start messages a runner did not acknowledge in time go again, or to another runner.
  await resendUnacknowledgedStarts(host, systemContext(host, companyId));
  const again = step.ended || outcomes.some((ended) => ended);
  // Runs that ended (or were cancelled while being handed out) are stopped where they run.
  if (again || step.invoke.some(({ run }) => adapterOf(run.adapterType).where !== "object")) await sweepRemoteRuns(host);
  const lostAt = host.storage.remoteRuns.earliestLost();
  // While runners execute runs, look again after RUNNER_STALE_MS: a socket that went silent loses its runs.
  const runnerCheck = host.storage.remoteRuns.all().some((r) => r.kind === "runner" && r.lostAt === null)
    ? Date.now() + RUNNER_STALE_MS + runtimeSettings(host.env).dispatchDelayMs
    : null;
  const unacknowledged = host.storage.remoteRuns.earliestUnacknowledged();
  const next = await host.serialise(async () =>
    earliest(
      await nextDueAt(host.db, companyId, [...host.runners.servedAgents().keys()]),
      host.storage.timers.earliest(),
      step.backoffUntil,
      lostAt === null ? null : lostAt + runtimeSettings(host.env).runnerGraceMs,
      runnerCheck,
      unacknowledged === null ? null : unacknowledged + runtimeSettings(host.env).runStartAckMs,
    ),
  );
  await host.settleAlarm(again ? Date.now() + runtimeSettings(host.env).dispatchDelayMs : next);
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
    db
      .select({ at: min(r.deadlineAt) })
      .from(r)
      .where(and(eq(r.companyId, companyId), eq(r.status, "running"), isNotNull(r.deadlineAt), lte(r.deadlineAt, "9999"))),
  ]);
  const times = [retry[0]?.at, deadline[0]?.at].filter((t): t is string => Boolean(t)).map((t) => Date.parse(t));
  return times.length ? Math.min(...times) : null;
}
