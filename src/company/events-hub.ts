// CompanyEventsHub: one Durable Object per company (named by its id) that sends the company's
// outbound events — webhook deliveries, driven by its alarm, and the live event stream (SSE).
// The events themselves are written by the company object's commands, in the batch of the change
// (src/domain/events/outbox.ts); the company object then tells this hub (`notify`). A sibling of
// the company object rather than the company object itself: its alarm is the run dispatcher's and
// a slow receiver or fifty open streams must not hold up dispatching or commands.
//
// Notifications (src/company/notifier.ts) go with the deliveries: notable events become messages to
// the company's channels and members, sent with the same guarantees.
//
// Deliveries: at least once, in event order per subscription (only a subscription's oldest pending
// delivery is attempted), concurrently across subscriptions. An acknowledged delivery is journaled
// in this object's storage before its D1 row is updated, so an eviction between the two never
// sends it again. A notification that never arrives is covered by the minute cron (pokes hubs
// with deliveries due).
import { DurableObject } from "cloudflare:workers";
import { and, asc, eq, gt, gte, min, sql } from "drizzle-orm";
import { createDb, schema, type Db } from "../db/client";
import { runBatch, type Statement } from "../db/batch";
import { withCountedD1 } from "../db/round-trips";
import { onShardOf } from "../db/placement";
import { eventView, pendingDeliveriesRead, type EventRow, type ServiceEvent } from "../domain/events/outbox";
import {
  decideDelivery,
  decideSubscription,
  DELIVERY_TIMEOUT_MS,
  RESPONSE_BODY_KEEP,
  retryAfterSeconds,
  signedDelivery,
  type AttemptOutcome,
} from "../domain/events/delivery";
import { openSigningSecret, type DeliveryRow, type WebhookRow } from "../domain/events/webhooks";
import { matchesEventPatterns, visibleToAgents } from "../domain/events/catalogue";
import { activityInsert } from "../domain/activity/record";
import { SYSTEM_ACTOR } from "../domain/actor";
import { pruneEventsStatements } from "../domain/events/retention";
import { companyObject, STREAM_HEADERS } from "./client";
import { PRUNE_EVERY_MS } from "./hub-link";
import { migrateObjectStorage, ObjectFaults } from "./object-scaffolding";
import { Notifier } from "./notifier";

/** Deliveries one subscription is sent per alarm before the hub yields (the next alarm carries on). */
const MAX_PER_SUBSCRIPTION = 200;
/** SSE keep-alive comment interval. */
const KEEP_ALIVE_MS = 15_000;
/** Events read per page when replaying or broadcasting. */
const PAGE = 500;
/** Pending deliveries of one subscription read at a time. */
const PAGE_DELIVERIES = 50;

/** A subscription's drain so far: its failing-since as decided, and how many deliveries were sent. */
interface DrainState {
  failingSince: string | null;
  sent: number;
}

/** Headers the Worker sets on a stream request after authenticating it (the hub is reachable only from the Worker). */

interface StreamClient {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  types: string[] | null;
  /** Agent callers see only what their agent may read (no finance events). */
  agent: boolean;
  /** The last event seq this client has been sent. */
  cursor: number;
}

const encoder = new TextEncoder();
const sseFrame = (event: ServiceEvent) => encoder.encode(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

/** The hub's own tables, in append-only versioned steps (src/company/object-scaffolding.ts). */
const HUB_STORAGE_STEPS: readonly string[][] = [
  // 1: deliveries acknowledged by their receiver but not yet recorded in D1 (never sent twice), and the hub's facts.
  [
    "CREATE TABLE IF NOT EXISTS acked (delivery_id TEXT PRIMARY KEY, status INTEGER NOT NULL, latency_ms INTEGER NOT NULL, body TEXT, at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  ],
  // 2: notification messages accepted by their service but not yet recorded in D1 (src/company/notifier.ts).
  ["CREATE TABLE IF NOT EXISTS notified (delivery_id TEXT PRIMARY KEY, status INTEGER NOT NULL)"],
];

export class CompanyEventsHub extends DurableObject<Env> {
  private readonly countedEnv: Env;
  private readonly faults: ObjectFaults;
  private readonly clients = new Set<StreamClient>();
  private keepAlive: ReturnType<typeof setInterval> | null = null;
  /** Serialises broadcasts (each reads from the lowest client cursor). */
  private broadcasting: Promise<void> = Promise.resolve();
  private delivering: Promise<unknown> | null = null;

  /** The company's notifications (src/company/notifier.ts): sent with the webhook deliveries. */
  private readonly notifier: Notifier;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.countedEnv = withCountedD1(env);
    this.faults = new ObjectFaults(env);
    migrateObjectStorage(ctx.storage.sql, HUB_STORAGE_STEPS);
    const sql = ctx.storage.sql;
    this.notifier = new Notifier(this.countedEnv, {
      ack: (deliveryId, status) => sql.exec("INSERT OR REPLACE INTO notified (delivery_id, status) VALUES (?, ?)", deliveryId, status),
      acked: () =>
        sql
          .exec<{ delivery_id: string; status: number }>("SELECT delivery_id, status FROM notified")
          .toArray()
          .map((r) => ({ deliveryId: r.delivery_id, status: Number(r.status) })),
      forget: (deliveryId) => sql.exec("DELETE FROM notified WHERE delivery_id = ?", deliveryId),
    });
  }

  /** Facts read once per instance: only this object writes them. */
  private readonly facts = new Map<string, string | null>();

  private fact(key: string): string | null {
    if (this.facts.has(key)) return this.facts.get(key) ?? null;
    const row = this.ctx.storage.sql.exec<{ value: string }>("SELECT value FROM facts WHERE key = ?", key).toArray()[0];
    this.facts.set(key, row?.value ?? null);
    return row?.value ?? null;
  }

  private setFact(key: string, value: string) {
    this.ctx.storage.sql.exec("INSERT INTO facts (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
    this.facts.set(key, value);
  }

  private get db(): Db {
    return createDb(this.countedEnv.DB);
  }

  /**
   * New events were written for `companyId`: stream them, and deliver what is due. A writer that
   * read, at the end of its transaction, whether the company has deliveries pending says so; one
   * that did not (the run dispatcher) has the hub read it (one D1 read instead of a delivery pass).
   * No pending delivery: no delivery pass (but the hourly pruning still runs in one). Answers
   * whether streams are open: while none is, the company object notifies only when deliveries are
   * pending (or pruning is due); a stream that opens tells it (openStream).
   */
  async notify(companyId: string, deliveriesPending?: boolean): Promise<boolean> {
    if (this.fact("companyId") !== companyId) this.setFact("companyId", companyId);
    if (this.pruneDue() || (deliveriesPending ?? (await this.deliveriesPending(companyId)))) await this.ctx.storage.setAlarm(Date.now());
    if (this.clients.size) await this.inShard(companyId, () => this.broadcast(companyId));
    return this.clients.size > 0;
  }

  /** Whether the company has deliveries pending; true when that cannot be read (the delivery pass finds out). */
  private async deliveriesPending(companyId: string): Promise<boolean> {
    try {
      const [rows] = await this.inShard(companyId, () => this.db.batch([pendingDeliveriesRead(this.db, companyId)]));
      return rows.length > 0;
    } catch (err) {
      console.error("event hub: pending deliveries read failed", err);
      return true;
    }
  }

  /** Company-table statements go to the company's shard (src/db/shards.ts). */
  private inShard<T>(companyId: string, fn: () => Promise<T>): Promise<T> {
    return onShardOf(this.db, companyId, fn);
  }

  /** Test-only (TEST_FAULTS = "1"): fault rules for this hub's D1 batches. */
  async armFaults(spec: string): Promise<void> {
    this.faults.arm(spec);
  }

  /** Test-only: deliveries acknowledged but not yet recorded in D1. */
  async journaled(): Promise<string[]> {
    return this.ctx.storage.sql
      .exec<{ delivery_id: string }>("SELECT delivery_id FROM acked")
      .toArray()
      .map((r) => r.delivery_id);
  }

  async alarm(): Promise<void> {
    const companyId = this.fact("companyId");
    if (!companyId) return;
    // An alarm that fails (a write, an eviction) is retried by the runtime; every step is safe to repeat.
    await this.inShard(companyId, () => this.faults.around(() => this.deliverDue(companyId)));
  }

  /** Runs the deliveries now (tests and the bench instead of waiting for the alarm). */
  async deliverNow(companyId: string): Promise<void> {
    if (this.fact("companyId") !== companyId) this.setFact("companyId", companyId);
    await this.inShard(companyId, () => this.faults.around(() => this.deliverDue(companyId)));
  }

  private deliverDue(companyId: string): Promise<void> {
    // One delivery pass at a time; a pass asked for meanwhile runs after it.
    const pass = () => this.deliveryPass(companyId);
    const run = (this.delivering ?? Promise.resolve()).then(pass, pass);
    const settled = run.catch(() => undefined);
    this.delivering = settled;
    void settled.then(() => {
      if (this.delivering === settled) this.delivering = null;
    });
    return run;
  }

  private async deliveryPass(companyId: string): Promise<void> {
    const db = this.db;
    await this.recordJournaled(db);
    const d = schema.webhookDeliveries;
    const s = schema.webhookSubscriptions;
    // Each subscription's oldest pending delivery (event order per subscription).
    const heads = await db
      .select({ delivery: d, subscription: s })
      .from(d)
      .innerJoin(s, eq(s.id, d.subscriptionId))
      .where(
        and(
          eq(d.companyId, companyId),
          eq(d.status, "pending"),
          eq(s.enabled, true),
          sql`${d.eventSeq} = (SELECT min(d2.event_seq) FROM webhook_deliveries d2 WHERE d2.subscription_id = ${d.subscriptionId} AND d2.status = 'pending')`,
        ),
      );
    const now = Date.now();
    const due = heads.filter((h) => h.delivery.nextAttemptAt !== null && Date.parse(h.delivery.nextAttemptAt) <= now);
    await Promise.all(due.map((head) => this.drainSubscription(db, head.subscription, head.delivery)));
    // Notifications: a failure there must not hold up the webhooks (the next alarm tries again).
    await this.notifier.pass(db, companyId).catch((err) => console.error("event hub: notifications failed", err));
    // The pass may have written events of its own (webhook.disabled, notification_channel.disabled): streamed now.
    if (this.clients.size) await this.broadcast(companyId);
    await this.pruneNow(db, companyId);
    await this.armNextAlarm(db, companyId);
  }

  /** Sends a subscription's due deliveries in event order until one is not acknowledged (or the per-alarm cap). */
  private async drainSubscription(db: Db, subscription: WebhookRow, first: DeliveryRow): Promise<void> {
    let secret: string;
    try {
      secret = await openSigningSecret(this.env, subscription);
    } catch (err) {
      console.error(`webhook ${subscription.id}: the signing secret cannot be opened`, err);
      return;
    }
    const drain: DrainState = { failingSince: subscription.failingSince, sent: 0 };
    // Pages of the subscription's pending deliveries with their events, in event order (one read per page).
    // An acknowledged delivery is journaled in this object's storage as it is acknowledged (attempt),
    // so it is never sent again; its D1 row is written with the page's others (recordJournaled) at the
    // end of the page — one D1 batch per page instead of one write per delivery — or before anything
    // else is recorded. A failure, a retry or a change in the subscription's state is recorded at once.
    try {
      while (drain.sent < MAX_PER_SUBSCRIPTION) {
        const page = await this.pendingPage(db, subscription.id, first.eventSeq);
        if (!page.length || !(await this.drainPage(db, subscription, page, secret, drain))) return;
        if (page.length < PAGE_DELIVERIES) return;
        await this.recordJournaled(db);
      }
    } finally {
      await this.recordJournaled(db);
    }
  }

  /** Sends one page in order; false when the drain stops (not acknowledged, not due, disabled, or the cap). */
  private async drainPage(
    db: Db,
    subscription: WebhookRow,
    page: Array<{ delivery: DeliveryRow; event: EventRow | null }>,
    secret: string,
    drain: DrainState,
  ): Promise<boolean> {
    for (const { delivery, event } of page) {
      if (delivery.nextAttemptAt === null || Date.parse(delivery.nextAttemptAt) > Date.now()) return false;
      if (!event) {
        // Pruned before it could be delivered (retention): the delivery fails with that reason.
        await runBatch(db, [
          db
            .update(schema.webhookDeliveries)
            .set({ status: "failed", lastError: "The event is no longer retained", nextAttemptAt: null, updatedAt: new Date().toISOString() })
            .where(eq(schema.webhookDeliveries.id, delivery.id)),
        ]);
        continue;
      }
      const result = await this.attempt(subscription, delivery, eventView(event), secret);
      const decision = decideDelivery(result.outcome, delivery.attempts + 1, event.occurredAt, Date.now());
      const sub = decideSubscription(drain.failingSince, decision.status === "succeeded", Date.now());
      const unchanged = sub.failingSince === drain.failingSince;
      drain.failingSince = sub.failingSince;
      drain.sent++;
      const capped = drain.sent >= MAX_PER_SUBSCRIPTION;
      // Acknowledged with nothing else to record: journaled (attempt), written with the page.
      if (decision.status === "succeeded" && !sub.disable && unchanged) {
        if (capped) return false;
        continue;
      }
      await this.recordJournaled(db);
      await this.record(db, subscription, delivery, result, decision, sub);
      if (decision.status !== "succeeded" || sub.disable || capped) return false;
    }
    return true;
  }

  /** The subscription's oldest pending deliveries from `fromSeq` on, with their events (null when pruned). */
  private async pendingPage(db: Db, subscriptionId: string, fromSeq: number): Promise<Array<{ delivery: DeliveryRow; event: EventRow | null }>> {
    const d = schema.webhookDeliveries;
    const e = schema.companyEvents;
    return db
      .select({ delivery: d, event: e })
      .from(d)
      .leftJoin(e, eq(e.id, d.eventId))
      .where(and(eq(d.subscriptionId, subscriptionId), eq(d.status, "pending"), gte(d.eventSeq, fromSeq)))
      .orderBy(asc(d.eventSeq))
      .limit(PAGE_DELIVERIES);
  }

  private async attempt(
    subscription: WebhookRow,
    delivery: DeliveryRow,
    event: ServiceEvent,
    secret: string,
  ): Promise<{ outcome: AttemptOutcome; latencyMs: number; body: string | null }> {
    const { body, headers } = signedDelivery(event, secret, Date.now());
    const started = Date.now();
    try {
      const response = await fetch(subscription.url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
      const text = (await response.text().catch(() => "")).slice(0, RESPONSE_BODY_KEEP);
      const latencyMs = Date.now() - started;
      if (response.ok) {
        // Journaled before anything else can happen: an eviction from here on never sends it again.
        this.ctx.storage.sql.exec(
          "INSERT OR REPLACE INTO acked (delivery_id, status, latency_ms, body, at) VALUES (?, ?, ?, ?, ?)",
          delivery.id,
          response.status,
          latencyMs,
          text,
          new Date().toISOString(),
        );
      }
      return {
        outcome: { kind: "response", status: response.status, retryAfterSec: retryAfterSeconds(response.headers.get("retry-after"), Date.now()) },
        latencyMs,
        body: text,
      };
    } catch (err) {
      const message =
        (err as Error)?.name === "TimeoutError"
          ? `Timed out after ${DELIVERY_TIMEOUT_MS / 1000} s`
          : `Network error: ${(err as Error)?.message ?? String(err)}`;
      return { outcome: { kind: "network", error: message }, latencyMs: Date.now() - started, body: null };
    }
  }

  private async record(
    db: Db,
    subscription: WebhookRow,
    delivery: DeliveryRow,
    result: { outcome: AttemptOutcome; latencyMs: number; body: string | null },
    decision: ReturnType<typeof decideDelivery>,
    sub: ReturnType<typeof decideSubscription>,
  ): Promise<void> {
    const now = new Date().toISOString();
    const statements: Statement[] = [
      db
        .update(schema.webhookDeliveries)
        .set({
          status: decision.status,
          attempts: delivery.attempts + 1,
          nextAttemptAt: decision.status === "pending" ? decision.nextAttemptAt : null,
          responseStatus: result.outcome.kind === "response" ? result.outcome.status : null,
          latencyMs: result.latencyMs,
          lastError:
            decision.status === "succeeded"
              ? null
              : result.outcome.kind === "network"
                ? result.outcome.error
                : decision.status === "failed"
                  ? decision.reason
                  : `HTTP ${result.outcome.status}`,
          responseBody: result.body,
          updatedAt: now,
        })
        .where(eq(schema.webhookDeliveries.id, delivery.id)),
    ];
    if (sub.disable) {
      const reason = "Every delivery failed for 24 hours";
      statements.push(
        db
          .update(schema.webhookSubscriptions)
          .set({ enabled: false, disabledReason: reason, failingSince: sub.failingSince, updatedAt: now })
          .where(eq(schema.webhookSubscriptions.id, subscription.id)),
        activityInsert(db, {
          companyId: subscription.companyId,
          actor: SYSTEM_ACTOR,
          action: "webhook.disabled",
          entityType: "webhook",
          entityId: subscription.id,
          details: { reason },
          now,
        }),
      );
    } else if (sub.failingSince !== subscription.failingSince) {
      statements.push(
        db.update(schema.webhookSubscriptions).set({ failingSince: sub.failingSince }).where(eq(schema.webhookSubscriptions.id, subscription.id)),
      );
    }
    await runBatch(db, statements);
    subscription.failingSince = sub.failingSince;
    this.ctx.storage.sql.exec("DELETE FROM acked WHERE delivery_id = ?", delivery.id);
  }

  /** Acknowledged deliveries whose D1 update did not happen (an eviction or a failed write): recorded now, never sent again. */
  private async recordJournaled(db: Db): Promise<void> {
    const rows = this.ctx.storage.sql
      .exec<{ delivery_id: string; status: number; latency_ms: number; body: string | null }>("SELECT delivery_id, status, latency_ms, body FROM acked")
      .toArray();
    if (!rows.length) return;
    const now = new Date().toISOString();
    await runBatch(
      db,
      rows.map((r) =>
        db
          .update(schema.webhookDeliveries)
          .set({
            status: "succeeded",
            attempts: sql`${schema.webhookDeliveries.attempts} + 1`,
            nextAttemptAt: null,
            responseStatus: r.status,
            latencyMs: r.latency_ms,
            lastError: null,
            responseBody: r.body,
            updatedAt: now,
          })
          .where(and(eq(schema.webhookDeliveries.id, r.delivery_id), eq(schema.webhookDeliveries.status, "pending"))),
      ),
    );
    this.ctx.storage.sql.exec(`DELETE FROM acked WHERE delivery_id IN (${rows.map(() => "?").join(",")})`, ...rows.map((r) => r.delivery_id));
  }

  private async armNextAlarm(db: Db, companyId: string): Promise<void> {
    const d = schema.webhookDeliveries;
    const s = schema.webhookSubscriptions;
    const [next] = await db
      .select({ at: min(d.nextAttemptAt) })
      .from(d)
      .innerJoin(s, eq(s.id, d.subscriptionId))
      .where(and(eq(d.companyId, companyId), eq(d.status, "pending"), eq(s.enabled, true)));
    const notifyAt = await this.notifier.nextDueAt(db, companyId).catch(() => Date.now() + 60_000);
    const times = [next?.at ? Date.parse(next.at) : null, notifyAt].filter((t): t is number => t !== null);
    if (times.length) await this.ctx.storage.setAlarm(Math.max(Math.min(...times), Date.now() + 50));
    else await this.ctx.storage.deleteAlarm();
  }

  private pruneDue(): boolean {
    return Date.now() - Number(this.fact("prunedAt") ?? 0) >= PRUNE_EVERY_MS;
  }

  private async pruneNow(db: Db, companyId: string): Promise<void> {
    if (!this.pruneDue()) return;
    await runBatch(db, pruneEventsStatements(db, companyId, new Date()));
    this.setFact("prunedAt", String(Date.now()));
  }

  // ---- the live stream ------------------------------------------------------------------------

  /** An SSE stream of the company's events, already authenticated by the Worker (src/routes/events.ts). */
  async fetch(request: Request): Promise<Response> {
    const companyId = request.headers.get(STREAM_HEADERS.company);
    if (!companyId) return new Response("Not found", { status: 404 });
    return this.inShard(companyId, () => this.openStream(request, companyId));
  }

  private async openStream(request: Request, companyId: string): Promise<Response> {
    if (this.fact("companyId") !== companyId) this.setFact("companyId", companyId);
    const types = request.headers.get(STREAM_HEADERS.types);
    const lastEventId = request.headers.get(STREAM_HEADERS.lastEventId);
    const db = this.db;
    const e = schema.companyEvents;
    let cursor: number;
    if (lastEventId) {
      const found = (
        await db
          .select({ seq: e.seq })
          .from(e)
          .where(and(eq(e.id, lastEventId), eq(e.companyId, companyId)))
      )[0];
      if (!found) {
        return Response.json(
          {
            error: "Last-Event-ID is not a retained event of this company: reconnect without it (events older than the retention window are gone)",
            details: { lastEventId },
          },
          { status: 409 },
        );
      }
      cursor = found.seq;
    } else {
      // From now on: the newest event written so far is the starting point.
      cursor = (await db.select({ seq: sql<number>`coalesce(max(${e.seq}), 0)` }).from(e))[0]?.seq ?? 0;
    }
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const client: StreamClient = {
      writer: writable.getWriter(),
      types: types
        ? types
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean)
        : null,
      agent: request.headers.get(STREAM_HEADERS.agent) === "1",
      cursor,
    };
    void client.writer.write(encoder.encode(`: connected\nretry: 2000\n\n`));
    this.clients.add(client);
    client.writer.closed.then(
      () => this.drop(client),
      () => this.drop(client),
    );
    this.startKeepAlive();
    // The company object notifies this hub of every event from now on; then what came after
    // Last-Event-ID (or was written since the cursor was taken, or before the object learned of
    // this stream) is replayed.
    void this.streamOpened(companyId, client).finally(() => this.broadcast(companyId));
    return new Response(readable, {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
    });
  }

  /**
   * Tells the company object that a stream is open (it skips notifications while none is). When it
   * cannot be told, the stream is closed: the client reconnects (`retry: 2000`) with Last-Event-ID
   * and tries again, instead of waiting for a notification that may not come for an hour.
   */
  private async streamOpened(companyId: string, client: StreamClient): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await companyObject(this.env, companyId).streamsOpened();
      } catch (err) {
        if (attempt < 3) {
          await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
          continue;
        }
        console.error("event hub: telling the company object of a stream failed; closing the stream", err);
        this.drop(client);
        await client.writer.close().catch(() => undefined);
        return;
      }
    }
  }

  /** Test and bench helper: open streams. */
  async streamCount(): Promise<number> {
    return this.clients.size;
  }

  private drop(client: StreamClient) {
    this.clients.delete(client);
    if (!this.clients.size && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = null;
    }
  }

  private startKeepAlive() {
    if (this.keepAlive) return;
    this.keepAlive = setInterval(() => {
      for (const client of this.clients) client.writer.write(encoder.encode(": keep-alive\n\n")).catch(() => this.drop(client));
    }, KEEP_ALIVE_MS);
  }

  /** Sends every client the events after its cursor, in order (serialised: no duplicates, no gaps). */
  private broadcast(companyId: string): Promise<void> {
    const run = this.broadcasting.then(() => this.broadcastOnce(companyId));
    this.broadcasting = run.catch((err) => console.error("event stream broadcast failed", err));
    return run;
  }

  private async broadcastOnce(companyId: string): Promise<void> {
    if (!this.clients.size) return;
    const e = schema.companyEvents;
    const db = this.db;
    for (;;) {
      const from = Math.min(...[...this.clients].map((c) => c.cursor));
      const rows = await db
        .select()
        .from(e)
        .where(and(eq(e.companyId, companyId), gt(e.seq, from)))
        .orderBy(asc(e.seq))
        .limit(PAGE);
      for (const row of rows) {
        const event = eventView(row);
        for (const client of this.clients) {
          if (row.seq <= client.cursor) continue;
          client.cursor = row.seq;
          if (client.agent && !visibleToAgents(event.type)) continue;
          if (!matchesEventPatterns(event.type, client.types)) continue;
          client.writer.write(sseFrame(event)).catch(() => this.drop(client));
        }
      }
      if (rows.length < PAGE || !this.clients.size) return;
    }
  }
}
