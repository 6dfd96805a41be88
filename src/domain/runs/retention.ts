// Run retention (cron): finished runs, their events and issue links, and settled wake-ups older
// than RUN_RETENTION_DAYS (default 30) are deleted in bounded batches, so the tables stop growing
// without one tick doing unbounded work. Live runs and waiting wake-ups are never touched; the
// activity log is append-only and keeps its entries.
import { and, inArray, lt, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";

export const DEFAULT_RUN_RETENTION_DAYS = 30;
const BATCH = 500;
/** At most this many batches per tick (the rest waits for the next minute). */
const MAX_BATCHES = 10;
const FINISHED_RUNS = ["succeeded", "failed", "cancelled", "timed_out"] as const;
const SETTLED_WAKEUPS = ["skipped", "coalesced", "completed", "failed", "cancelled"] as const;

export function retentionDays(env: Env): number {
  const raw = Number(env.RUN_RETENTION_DAYS);
  return Number.isFinite(raw) && raw >= 1 ? Math.floor(raw) : DEFAULT_RUN_RETENTION_DAYS;
}

/** Deletes what has aged out; returns how many runs and wake-ups went. */
export async function pruneRuns(db: Db, env: Env, at: Date): Promise<{ runs: number; wakeups: number }> {
  const cutoff = new Date(at.getTime() - retentionDays(env) * 86_400_000).toISOString();
  const r = schema.heartbeatRuns;
  const w = schema.agentWakeupRequests;
  let runs = 0;
  let wakeups = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const victims = db
      .select({ id: r.id })
      .from(r)
      .where(and(inArray(r.status, [...FINISHED_RUNS]), lt(r.finishedAt, cutoff)))
      .limit(BATCH);
    const oldWakes = db
      .select({ id: w.id })
      .from(w)
      .where(and(inArray(w.status, [...SETTLED_WAKEUPS]), lt(w.updatedAt, cutoff)))
      .limit(BATCH);
    // Events go with their run (ON DELETE CASCADE); links are removed first so the issue's runs list never names a missing run.
    const [, deletedRuns, deletedWakes] = await db.batch([
      db.delete(schema.issueRunLinks).where(sql`${schema.issueRunLinks.runId} IN ${victims}`),
      db.delete(r).where(sql`${r.id} IN ${victims}`).returning({ id: r.id }),
      db.delete(w).where(sql`${w.id} IN ${oldWakes}`).returning({ id: w.id }),
    ]);
    runs += deletedRuns.length;
    wakeups += deletedWakes.length;
    if (deletedRuns.length < BATCH && deletedWakes.length < BATCH) break;
  }
  return { runs, wakeups };
}
