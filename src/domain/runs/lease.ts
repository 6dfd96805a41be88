// Run lease: a live run with no activity for this long counts as timed out, so the locks it
// holds can be adopted. Default one hour; RUN_LEASE_SECONDS (env) overrides it when set.
import type { schema } from "../../db/client";
import { LIVE_RUN_STATUSES } from "../../db/schema/runs";

export const DEFAULT_RUN_LEASE_SECONDS = 3600;

type RunRow = Pick<typeof schema.heartbeatRuns.$inferSelect, "status" | "lastActivityAt" | "startedAt" | "createdAt">;

export function runLeaseMs(env: Pick<Env, "RUN_LEASE_SECONDS"> | undefined): number {
  const seconds = env?.RUN_LEASE_SECONDS ? Number(env.RUN_LEASE_SECONDS) : NaN;
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_RUN_LEASE_SECONDS) * 1000;
}

export const isLiveStatus = (status: string) => (LIVE_RUN_STATUSES as readonly string[]).includes(status);

/** The run's last sign of life: last activity, else start, else creation. */
export const lastSeenAt = (run: RunRow) => run.lastActivityAt ?? run.startedAt ?? run.createdAt;

/** Whether a live run has outlived its lease. */
export function leaseExpired(run: RunRow, nowIso: string, leaseMs: number): boolean {
  return Date.parse(nowIso) - Date.parse(lastSeenAt(run)) > leaseMs;
}

/**
 * Whether the lock a run holds may be adopted: the run is missing, finished (any non-live
 * status: succeeded, failed, cancelled, timed_out) or live but idle past its lease.
 */
export function runIsStale(run: RunRow | undefined | null, nowIso: string, leaseMs: number): boolean {
  if (!run) return true;
  if (!isLiveStatus(run.status)) return true;
  return leaseExpired(run, nowIso, leaseMs);
}

/** The status the API reports: a live run idle past its lease is reported `timed_out`. */
export function effectiveRunStatus(run: RunRow, nowIso: string, leaseMs: number): string {
  return isLiveStatus(run.status) && leaseExpired(run, nowIso, leaseMs) ? "timed_out" : run.status;
}
