// Cron tick (every minute): records the scheduler heartbeat, runs access maintenance and, on each
// shard, prunes aged-out runs and Idempotency-Key receipts, enqueues the daily digests due, and applies directory rows left behind; fires due routine schedule
// triggers (found on every shard, each company's fired in its own object), and wakes event hubs
// whose webhook deliveries are overdue.
import { runAccessMaintenance } from "../domain/instance/maintenance";
import { pruneRuns } from "../domain/runs/retention";
import { pruneReceipts } from "../domain/idempotency/receipts";
import { enqueueDueDigests } from "../domain/notifications/digest";
import { serviceApiUrl } from "../config";
import { fireDueRoutines } from "../domain/routines/tick";
import { sql } from "drizzle-orm";
import { createDb, schema } from "../db/client";
import { forEachShard } from "../db/shards";
import { withCountedD1 } from "../db/round-trips";
import { drainDirectoryOutbox } from "../db/directory-sync";
import { eventsHub } from "../company/client";
import { companiesWithDueDeliveries } from "../domain/events/queries";

export async function runScheduledTick(given: Env, at: Date): Promise<void> {
  // The routed, counted databases (src/db/shards.ts); a no-op when the caller already passed them.
  const env = withCountedD1(given);
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
  // Per shard (src/db/shards.ts): retention deletes, and directory rows a writer left behind.
  await forEachShard(env, async (shard) => {
    await pruneRuns(db, env, at).catch((err) => console.error(`run retention failed on ${shard}`, err));
    await pruneReceipts(db, at)
      .run()
      .catch((err) => console.error(`idempotency receipt retention failed on ${shard}`, err));
    // Daily digests due now (members' and channels' local hours): their hubs send them at once.
    const digested = await enqueueDueDigests(db, serviceApiUrl(env), at).catch((err) => {
      console.error(`digests failed on ${shard}`, err);
      return [] as string[];
    });
    await Promise.all(
      digested.map((companyId) =>
        eventsHub(env, companyId)
          .deliverNow(companyId)
          .catch((err) => console.error(`event hub ${companyId}`, err)),
      ),
    );
    await drainDirectoryOutbox(db).catch((err) => console.error(`directory sync failed on ${shard}`, err));
  });
  await pokeEventHubs(env, db, at).catch((err) => console.error("event hub safety net failed", err));
}

/** Webhook deliveries due whose hub was never told (a lost notification): those hubs deliver now. */
async function pokeEventHubs(env: Env, db: ReturnType<typeof createDb>, at: Date): Promise<void> {
  // Due for more than a minute: a notified hub would have sent them already. Each shard answers for its companies.
  const companies = (await forEachShard(env, () => companiesWithDueDeliveries(db, new Date(at.getTime() - 60_000).toISOString()))).flat();
  await Promise.all(
    companies.map((companyId) =>
      eventsHub(env, companyId)
        .deliverNow(companyId)
        .catch((err) => console.error(`event hub ${companyId}`, err)),
    ),
  );
}
