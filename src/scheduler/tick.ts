// Cron tick (every minute): records the scheduler heartbeat, runs access maintenance and prunes
// aged-out runs, and fires due routine schedule triggers (each company's in its own object).
import { runAccessMaintenance } from "../domain/instance/maintenance";
import { pruneRuns } from "../domain/runs/retention";
import { fireDueRoutines } from "../domain/routines/tick";
import { sql } from "drizzle-orm";
import { createDb, schema } from "../db/client";

export async function runScheduledTick(env: Env, at: Date): Promise<void> {
  const db = createDb(env.DB);
  const beats = schema.schedulerHeartbeats;
  await db
    .insert(beats)
    .values({ name: "cron", lastTickAt: at.toISOString(), tickCount: 1 })
    .onConflictDoUpdate({ target: beats.name, set: { lastTickAt: at.toISOString(), tickCount: sql`${beats.tickCount} + 1` } })
    .run();
  // Board-claim tokens and liveness auto-recovery; a failure there must not stop the tick.
  await runAccessMaintenance(env, at).catch((err) => console.error("access maintenance failed", err));
  await fireDueRoutines(env, db, at).catch((err) => console.error("routine schedules failed", err));
  await pruneRuns(db, env, at).catch((err) => console.error("run retention failed", err));
}
