// The heartbeat run's lifecycle: which status may follow which, and the statements that end a
// run (its wake-ups settle, wake-ups deferred behind the issues it held are queued again).
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Statement } from "../../db/batch";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { LIVE_RUN_STATUSES, type RunErrorCode } from "../../db/schema/runs";

export type RunStatus = (typeof schema.heartbeatRuns.$inferSelect)["status"];
export type RunRow = typeof schema.heartbeatRuns.$inferSelect;

/** Allowed transitions; finished runs (succeeded, failed, cancelled, timed_out) never move again. */
export const RUN_TRANSITIONS: Record<RunStatus, readonly RunStatus[]> = {
  queued: ["running", "cancelled"],
  running: ["running", "scheduled_retry", "succeeded", "failed", "cancelled", "timed_out"],
  scheduled_retry: ["running", "failed", "cancelled"],
  succeeded: [],
  failed: [],
  cancelled: [],
  timed_out: [],
};

export const isLiveRun = (status: string) => (LIVE_RUN_STATUSES as readonly string[]).includes(status);
export const canMove = (from: RunStatus, to: RunStatus) => RUN_TRANSITIONS[from].includes(to);

/** At most this many 429/503 answers are retried before the run fails. */
export const MAX_RETRIES = 5;

/** Back-off after the n-th retryable answer without Retry-After: 2^n s with ±25 % jitter, at most 10 min. */
export function backoffSeconds(retryCount: number, random = Math.random()): number {
  const base = Math.min(2 ** Math.max(retryCount, 1), 600);
  return Math.max(1, Math.round(base * (0.75 + random * 0.5)));
}

export interface RunEnding {
  status: "succeeded" | "failed" | "cancelled" | "timed_out";
  error?: string | null;
  errorCode?: RunErrorCode | null;
  summary?: string | null;
  usage?: Record<string, unknown> | null;
  result?: Record<string, unknown> | null;
}

/**
 * Ends a live run: the run row (only while it is still live, so a late answer cannot overwrite a
 * cancel), its wake-ups (completed / failed / cancelled), and wake-ups deferred behind issues the
 * run held (queued again, the dispatcher picks them up).
 */
export function endRunStatements(ctx: CommandContext, runId: string, ending: RunEnding): Statement[] {
  const r = schema.heartbeatRuns;
  const w = schema.agentWakeupRequests;
  const wakeStatus = ending.status === "succeeded" ? "completed" : ending.status === "cancelled" ? "cancelled" : "failed";
  ctx.noteRunsEnded();
  return [
    ctx.db
      .update(r)
      .set({
        status: ending.status,
        finishedAt: ctx.now,
        lastActivityAt: ctx.now,
        error: ending.error ?? null,
        errorCode: ending.errorCode ?? null,
        ...(ending.summary !== undefined ? { summary: ending.summary } : {}),
        ...(ending.usage !== undefined ? { usageJson: ending.usage } : {}),
        ...(ending.result !== undefined ? { resultJson: ending.result } : {}),
        nextRetryAt: null,
        deadlineAt: null,
        updatedAt: ctx.now,
      })
      .where(and(eq(r.id, runId), inArray(r.status, [...LIVE_RUN_STATUSES]))),
    ctx.db
      .update(w)
      .set({ status: wakeStatus, updatedAt: ctx.now })
      .where(
        and(eq(w.companyId, ctx.companyId), inArray(w.status, ["claimed", "coalesced"]), sql`(${w.runId} = ${runId} OR ${w.coalescedIntoRunId} = ${runId})`),
      ),
    ctx.db
      .update(w)
      .set({ status: "queued", updatedAt: ctx.now })
      .where(
        and(
          eq(w.companyId, ctx.companyId),
          eq(w.status, "deferred_issue_execution"),
          sql`${w.issueId} IN (SELECT ${schema.issues.id} FROM ${schema.issues} WHERE ${schema.issues.checkoutRunId} = ${runId})`,
        ),
      ),
  ];
}

/**
 * Cancels every live run of the agents (or of the whole company when `agentIds` is null) and the
 * wake-ups they were serving: a pause, termination, archive or budget hard stop ends what runs.
 */
export function cancelLiveRunsStatements(ctx: CommandContext, agentIds: string[] | null, errorCode: RunErrorCode): Statement[] {
  const r = schema.heartbeatRuns;
  const w = schema.agentWakeupRequests;
  const scope = and(
    eq(r.companyId, ctx.companyId),
    inArray(r.status, [...LIVE_RUN_STATUSES]),
    agentIds ? inArray(r.agentId, agentIds.length ? agentIds : ["-"]) : undefined,
  );
  ctx.noteRunsEnded();
  return [
    ctx.db
      .update(w)
      .set({ status: "cancelled", skipReason: errorCode, updatedAt: ctx.now })
      .where(
        and(
          eq(w.companyId, ctx.companyId),
          inArray(w.status, ["claimed", "coalesced"]),
          sql`(${w.runId} IN (SELECT ${r.id} FROM ${r} WHERE ${scope}) OR ${w.coalescedIntoRunId} IN (SELECT ${r.id} FROM ${r} WHERE ${scope}))`,
        ),
      ),
    ctx.db
      .update(r)
      .set({ status: "cancelled", finishedAt: ctx.now, errorCode, error: `Cancelled: ${errorCode}`, nextRetryAt: null, deadlineAt: null, updatedAt: ctx.now })
      .where(scope),
  ];
}

/** A new run row: the given fields over empty defaults (no result, no retry, no deadline). */
export function newRunRow(
  fields: Pick<RunRow, "id" | "companyId" | "agentId" | "status" | "adapterType" | "invocationSource" | "createdAt"> & Partial<RunRow>,
): RunRow {
  return {
    wakeupRequestId: null,
    startedAt: null,
    finishedAt: null,
    lastActivityAt: null,
    usageJson: null,
    resultJson: null,
    error: null,
    logBytes: 0,
    updatedAt: fields.createdAt,
    issueId: null,
    reason: null,
    context: null,
    errorCode: null,
    summary: null,
    retryCount: 0,
    nextRetryAt: null,
    deadlineAt: null,
    idempotencyKey: null,
    ...fields,
  };
}
