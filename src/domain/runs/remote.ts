// What runs executing outside the service report back (a remote gateway's relayed events and
// terminal status, a runner's output and completion): serialised in the company object like
// every other run write. Internal only: no route calls it, the caller is the service itself.
import { and, eq } from "drizzle-orm";
import { defineCommand, type CommandContext } from "../../company/command";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import type { RunErrorCode } from "../../db/schema/runs";
import { backoffSeconds, endRunStatements, MAX_RETRIES, type RunEnding } from "./lifecycle";
import { runEvent, runEventsInsert, type RunEventInput } from "./events";
import { recordRunUsage } from "./usage";
import type { RunUsage } from "../../adapters/types";
import { clearSessionStatement, saveSessionStatement, type SavedSession } from "./sessions";

export interface RemoteRunReport {
  runId: string;
  events?: RunEventInput[];
  /** The run's end (with the usage that becomes its cost event). */
  ending?: Omit<RunEnding, "usage"> & { usage?: RunUsage | null };
  /**
   * Instead of an end: the provider refused for now (a usage or rate limit); the run waits in
   * `scheduled_retry` until `at` (no other run of its agent starts before), then runs again — or
   * fails with `errorCode` after MAX_RETRIES.
   */
  reschedule?: { at?: string; errorCode: RunErrorCode; error: string; usage?: RunUsage | null; summary?: string | null };
  /** The runtime's session after this run: kept for the agent's next run on the task, or forgotten. */
  session?: SavedSession | { clear: true };
  /** Mid-run (no ending): one model call's usage, recorded as a cost event now, so budgets see spend during the run. */
  usage?: RunUsage | null;
  /**
   * Mid-run: whether the run may go on spending. A run whose agent, company or project is stopped by
   * its budget (a hard stop, perhaps by this very report's usage) is cancelled with `budget_blocked`,
   * and the answer is `live: false`.
   */
  checkBudget?: boolean;
}

/** The budget stop (if any) of the run's agent, company or the project of its issue: read with the run. */
function budgetStopRead(ctx: CommandContext, run: { agentId: string; issueId: string | null }) {
  const a = schema.agents;
  const c = schema.companies;
  const i = schema.issues;
  const p = schema.projects;
  return ctx.db
    .select({
      agentPause: a.pauseReason,
      agentStatus: a.status,
      companyPause: c.pauseReason,
      companyStatus: c.status,
      projectPause: p.pauseReason,
      projectPausedAt: p.pausedAt,
    })
    .from(a)
    .innerJoin(c, eq(c.id, a.companyId))
    .leftJoin(i, and(eq(i.id, run.issueId ?? ""), eq(i.companyId, a.companyId)))
    .leftJoin(p, eq(p.id, i.projectId))
    .where(and(eq(a.id, run.agentId), eq(a.companyId, ctx.companyId)));
}

type BudgetRow = Awaited<ReturnType<typeof budgetStopRead>>[number];
const stoppedBy = (row: BudgetRow | undefined): "agent" | "company" | "project" | null =>
  !row
    ? null
    : row.companyStatus === "paused" && row.companyPause === "budget"
      ? "company"
      : row.agentStatus === "paused" && row.agentPause === "budget"
        ? "agent"
        : row.projectPausedAt && row.projectPause === "budget"
          ? "project"
          : null;

/** Per event: at most this much message text and this much JSON data (a remote cannot flood the log). */
const MAX_MESSAGE = 10_000;
const MAX_DATA_BYTES = 64 * 1024;

/** An event as stored: message cut, oversized data replaced by a note. */
export function boundedEvent(event: RunEventInput): RunEventInput {
  let data = event.data ?? null;
  if (data !== null) {
    const size = JSON.stringify(data)?.length ?? 0;
    if (size > MAX_DATA_BYTES) data = { truncated: true, bytes: size };
  }
  return { kind: event.kind, message: event.message.slice(0, MAX_MESSAGE), data };
}

/**
 * Records a remote run's events and, with `ending` (or `reschedule`), ends it (or schedules it
 * again), with its cost event and session. Answers `live: false` when the run is no longer running
 * (cancelled meanwhile): the remote side stops.
 */
export const reportRemoteRun = defineCommand("run.remote.report", async (ctx, _actor, input: RemoteRunReport) => {
  const r = schema.heartbeatRuns;
  const run = (
    await ctx.db
      .select()
      .from(r)
      .where(and(eq(r.id, input.runId), eq(r.companyId, ctx.companyId)))
  )[0];
  if (run?.status !== "running") {
    // Ended meanwhile (cancelled, a budget stop): the session it reached is still the task's to continue.
    if (run && input.session && !("clear" in input.session)) await ctx.batch([saveSessionStatement(ctx, run, input.session)]);
    return { live: false, status: run?.status ?? null };
  }
  const events = (input.events ?? []).map(boundedEvent);
  const { ending, reschedule } = input;
  if (!ending && !reschedule) {
    if (events.length) await ctx.batch([runEventsInsert(ctx, run, events), ctx.db.update(r).set({ lastActivityAt: ctx.now }).where(eq(r.id, run.id))]);
    if (input.usage) await recordRunUsage(ctx, run, input.usage);
    if (!input.checkBudget) return { live: true, status: run.status };
    // After the usage (its cost event may have opened a hard stop, which cancels the agent's or company's runs).
    const [[current], [budget]] = await ctx.batch([ctx.db.select({ status: r.status }).from(r).where(eq(r.id, run.id)), budgetStopRead(ctx, run)]);
    if (current?.status !== "running") return { live: false, status: current?.status ?? null };
    const scope = stoppedBy(budget);
    if (!scope) return { live: true, status: run.status };
    await ctx.batch([
      ...endRunStatements(ctx, run.id, { status: "cancelled", errorCode: "budget_blocked", error: `The ${scope}'s budget is exhausted (hard stop)` }),
      runEvent(ctx, run, "status", `Stopped before the next model call: the ${scope}'s budget is exhausted`, { errorCode: "budget_blocked", scope }),
    ]);
    ctx.storage.remoteRuns.forget(run.id);
    ctx.requestDispatch();
    return { live: false, status: "cancelled" };
  }
  const session: Statement[] = !input.session
    ? []
    : "clear" in input.session
      ? [clearSessionStatement(ctx, run)]
      : [saveSessionStatement(ctx, run, input.session)];
  const head = [...(events.length ? [runEventsInsert(ctx, run, events)] : []), ...session];
  let status: string;
  let usage: RunUsage | null | undefined;
  if (reschedule && run.retryCount + 1 <= MAX_RETRIES) {
    const retryCount = run.retryCount + 1;
    // The provider's reset time, else a back-off; never in the past (a reset time already reached retries at the next dispatch).
    const wanted = reschedule.at ? Date.parse(reschedule.at) : Date.parse(ctx.now) + backoffSeconds(retryCount) * 1000;
    const at = new Date(Math.max(wanted || 0, Date.parse(ctx.now) + 1000)).toISOString();
    await ctx.batch([
      ...head,
      ctx.db
        .update(r)
        .set({
          status: "scheduled_retry",
          retryCount,
          nextRetryAt: at,
          errorCode: reschedule.errorCode,
          error: reschedule.error,
          ...(reschedule.summary !== undefined ? { summary: reschedule.summary } : {}),
          lastActivityAt: ctx.now,
          updatedAt: ctx.now,
        })
        .where(and(eq(r.id, run.id), eq(r.status, "running"))),
      runEvent(ctx, run, "status", `${reschedule.error}; retry ${retryCount} at ${at}`, { errorCode: reschedule.errorCode, nextRetryAt: at }),
    ]);
    status = "scheduled_retry";
    usage = reschedule.usage;
  } else {
    const end: RunEnding = ending
      ? { ...ending, usage: (ending.usage ?? null) as Record<string, unknown> | null }
      : {
          status: "failed",
          errorCode: reschedule!.errorCode,
          error: `${reschedule!.error} (${MAX_RETRIES} retries)`,
          usage: (reschedule!.usage ?? null) as Record<string, unknown> | null,
          ...(reschedule!.summary !== undefined ? { summary: reschedule!.summary } : {}),
        };
    await ctx.batch([
      ...head,
      ...endRunStatements(ctx, run.id, end),
      runEvent(ctx, run, "status", `Completed: ${end.status}${end.error ? ` (${end.error})` : ""}`),
    ]);
    status = end.status;
    usage = ending ? ending.usage : reschedule!.usage;
  }
  // The remote side ended it: nothing to stop there (the object forgets it before sweeping). Only
  // once recorded: a completion whose batch failed is still the run's, and may be sent again.
  ctx.storage.remoteRuns.forget(run.id);
  await recordRunUsage(ctx, run, usage);
  ctx.requestDispatch();
  return { live: false, status };
});
