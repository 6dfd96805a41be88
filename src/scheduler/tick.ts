// Cron tick (every minute): records the scheduler heartbeat, runs access maintenance and prunes
// aged-out runs; due routine triggers are fired from here once routines exist.
import { runAccessMaintenance } from "../domain/instance/maintenance";
import { pruneRuns } from "../domain/runs/retention";
import { createDb } from "../db/client";

export async function runScheduledTick(env: Env, at: Date): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO scheduler_heartbeats (name, last_tick_at, tick_count) VALUES ('cron', ?1, 1) ON CONFLICT(name) DO UPDATE SET last_tick_at = excluded.last_tick_at, tick_count = tick_count + 1",
  )
    .bind(at.toISOString())
    .run();
  // Board-claim tokens and liveness auto-recovery; a failure there must not stop the tick.
  await runAccessMaintenance(env, at).catch((err) => console.error("access maintenance failed", err));
  await pruneRuns(createDb(env.DB), env, at).catch((err) => console.error("run retention failed", err));
}
