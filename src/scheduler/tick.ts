// Cron tick (every minute): records the scheduler heartbeat, runs access maintenance and prunes
// aged-out runs, fires due routine schedule triggers (each company's in its own object), and wakes
// event hubs whose webhook deliveries are overdue.
import { runAccessMaintenance } from "../domain/instance/maintenance";
import { pruneRuns } from "../domain/runs/retention";
import { fireDueRoutines } from "../domain/routines/tick";
import { sql } from "drizzle-orm";
import { createDb, schema } from "../db/client";
import { companiesWithDueDeliveries, eventsHub } from "../company/events-hub";

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
  await pokeEventHubs(env, db, at).catch((err) => console.error("event hub safety net failed", err));
}

/** Webhook deliveries due whose hub was never told (a lost notification): those hubs deliver now. */
async function pokeEventHubs(env: Env, db: ReturnType<typeof createDb>, at: Date): Promise<void> {
  // Due for more than a minute: a notified hub would have sent them already.
  const companies = await companiesWithDueDeliveries(db, new Date(at.getTime() - 60_000).toISOString());
  await Promise.all(
    companies.map((companyId) =>
      eventsHub(env, companyId)
        .deliverNow(companyId)
        .catch((err) => console.error(`event hub ${companyId}`, err)),
    ),
  );
}
