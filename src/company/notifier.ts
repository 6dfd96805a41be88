// The company's notifications, run by its event hub with the webhook deliveries: queued notable
// events become deliveries (src/domain/notifications/enqueue.ts), and due deliveries are sent in
// each service's format (src/domain/notifications/formats/) with the guarantees of webhooks — at
// least once, retried with back-off (the service's own wait honoured: a 429's Retry-After,
// Discord's retry_after, Telegram's parameters.retry_after), given up after 24 h, and a channel
// whose every message failed for 24 h disabled (an activity entry, so an event other channels
// announce, and the console's inbox shows it). A message the service accepted is journaled in the
// hub's storage before its row is updated, so an eviction in between never sends it twice.
import { and, asc, eq, isNull, lte, min, or, sql } from "drizzle-orm";
import { schema, type Db } from "../db/client";
import { runBatch, type Statement } from "../db/batch";
import { activityInsert } from "../domain/activity/record";
import { SYSTEM_ACTOR } from "../domain/actor";
import { decideSubscription, DELIVERY_GIVE_UP_MS, FIRST_RETRY_MS, MAX_RETRY_MS } from "../domain/events/delivery";
import { enqueueNotifications } from "../domain/notifications/enqueue";
import { openChannelTarget, type ChannelRow } from "../domain/notifications/channels";
import { instanceVapidKeys } from "../domain/notifications/vapid";
import type { DeliveryOutcome, Notification } from "../domain/notifications/message";
import { classifyNotificationAnswer, isSubscriptionGone, notificationRequest, type NotificationTarget } from "../domain/notifications/formats";
import { serviceApiUrl } from "../config";

/** Deliveries sent per pass (the next alarm carries on). */
const PER_PASS = 50;
const SEND_TIMEOUT_MS = 10_000;

type DeliveryRow = typeof schema.notificationDeliveries.$inferSelect;
type Due = { delivery: DeliveryRow; channel: ChannelRow | null; push: typeof schema.pushSubscriptions.$inferSelect | null };

/** The hub's journal of accepted messages (its SQLite), so an eviction never sends one twice. */
export interface AckJournal {
  ack(deliveryId: string, status: number): void;
  acked(): Array<{ deliveryId: string; status: number }>;
  forget(deliveryId: string): void;
}

/** The next attempt after `attempts` failed ones: exponential back-off with jitter, at least the service's wait; null when given up. */
export function nextAttempt(
  outcome: Extract<DeliveryOutcome, { kind: "retry" }>,
  attempts: number,
  createdAt: string,
  nowMs: number,
  random = Math.random,
): string | null {
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS) * (0.8 + random() * 0.4);
  const next = nowMs + Math.max(backoff, outcome.retryAfterMs ?? 0);
  return next - Date.parse(createdAt) > DELIVERY_GIVE_UP_MS ? null : new Date(next).toISOString();
}

export class Notifier {
  constructor(
    private readonly env: Env,
    private readonly journal: AckJournal,
  ) {}

  /** One pass: the queue into deliveries, then the due deliveries. */
  async pass(db: Db, companyId: string): Promise<void> {
    await this.recordJournaled(db);
    // The queue, a page at a time (each page one batch).
    for (let i = 0; i < 10; i++) if ((await enqueueNotifications(db, companyId, serviceApiUrl(this.env))) === 0) break;
    await this.deliverDue(db, companyId);
  }

  /** When the next delivery is due (ms), or null; the queue not yet turned into deliveries: now. */
  async nextDueAt(db: Db, companyId: string): Promise<number | null> {
    const d = schema.notificationDeliveries;
    const c = schema.notificationChannels;
    const [[next], queued] = await db.batch([
      db
        .select({ at: min(d.nextAttemptAt) })
        .from(d)
        .leftJoin(c, eq(c.id, d.channelId))
        .where(and(eq(d.companyId, companyId), eq(d.status, "pending"), or(isNull(d.channelId), eq(c.enabled, true)))),
      db.select({ one: sql<number>`1` }).from(schema.notificationQueue).where(eq(schema.notificationQueue.companyId, companyId)).limit(1),
    ]);
    if (queued.length) return Date.now();
    return next?.at ? Date.parse(next.at) : null;
  }

  private async deliverDue(db: Db, companyId: string): Promise<void> {
    const d = schema.notificationDeliveries;
    const c = schema.notificationChannels;
    const p = schema.pushSubscriptions;
    const due: Due[] = await db
      .select({ delivery: d, channel: c, push: p })
      .from(d)
      .leftJoin(c, eq(c.id, d.channelId))
      .leftJoin(p, eq(p.id, d.pushSubscriptionId))
      .where(
        and(eq(d.companyId, companyId), eq(d.status, "pending"), lte(d.nextAttemptAt, new Date().toISOString()), or(isNull(d.channelId), eq(c.enabled, true))),
      )
      .orderBy(asc(d.nextAttemptAt))
      .limit(PER_PASS);
    if (!due.length) return;
    const emailChannel = due.some((x) => x.delivery.destination === "personal_email") ? await this.companyEmailChannel(db, companyId) : null;
    // Channels: one failing-since per channel across this pass's attempts.
    const failing = new Map<string, string | null>();
    for (const item of due) {
      const outcome = await this.attempt(db, item, emailChannel);
      await this.record(db, item, outcome, failing);
    }
  }

  private async companyEmailChannel(db: Db, companyId: string): Promise<ChannelRow | null> {
    const c = schema.notificationChannels;
    const [row] = await db
      .select()
      .from(c)
      .where(and(eq(c.companyId, companyId), eq(c.kind, "email"), eq(c.enabled, true)))
      .orderBy(asc(c.createdAt))
      .limit(1);
    return row ?? null;
  }

  /** Where one delivery goes, with its secrets opened for this send only. */
  private async targetOf(db: Db, item: Due, emailChannel: ChannelRow | null): Promise<NotificationTarget> {
    const { delivery, channel, push } = item;
    if (delivery.destination === "web_push") {
      if (!push) throw new Error("The browser's push subscription is gone");
      const vapid = await instanceVapidKeys(this.env, db);
      return {
        kind: "push",
        subscription: { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
        vapid,
        subject: vapidSubject(this.env),
      };
    }
    if (delivery.destination === "personal_email") {
      if (!emailChannel) throw new Error("The company has no enabled email channel to send through");
      const p = schema.notificationPreferences;
      const [pref] = await db
        .select({ email: p.email })
        .from(p)
        .where(and(eq(p.companyId, delivery.companyId), eq(p.userId, delivery.userId ?? "")));
      if (!pref?.email) throw new Error("The member has no email address any more");
      const settings = emailChannel.settings as { provider: "resend" | "postmark"; from: string; apiBaseUrl?: string | null };
      return {
        kind: "email",
        provider: settings.provider,
        apiKey: await openChannelTarget(this.env, db, emailChannel),
        apiBaseUrl: settings.apiBaseUrl ?? null,
        from: settings.from,
        to: [pref.email],
      };
    }
    if (!channel) throw new Error("The channel is gone");
    const secret = await openChannelTarget(this.env, db, channel);
    const settings = channel.settings as Record<string, unknown>;
    switch (channel.kind) {
      case "slack":
      case "discord":
      case "teams":
        return { kind: channel.kind, webhookUrl: secret };
      case "telegram":
        return { kind: "telegram", botToken: secret, chatId: String(settings.chatId), apiBaseUrl: (settings.apiBaseUrl as string | null) ?? null };
      case "email":
        return {
          kind: "email",
          provider: settings.provider as "resend" | "postmark",
          apiKey: secret,
          apiBaseUrl: (settings.apiBaseUrl as string | null) ?? null,
          from: String(settings.from),
          to: settings.to as string[],
        };
    }
  }

  private async attempt(db: Db, item: Due, emailChannel: ChannelRow | null): Promise<DeliveryOutcome> {
    let target: NotificationTarget;
    try {
      target = await this.targetOf(db, item, emailChannel);
    } catch (err) {
      return { kind: "failed", status: 0, error: (err as Error).message };
    }
    let request: Awaited<ReturnType<typeof notificationRequest>>;
    try {
      request = await notificationRequest(item.delivery.message as unknown as Notification, target);
    } catch (err) {
      // A message that cannot be made (a malformed browser key, a payload too large) never will be.
      return { kind: "failed", status: 0, error: `Could not build the message: ${(err as Error).message}` };
    }
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: "manual",
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      const body = await response.text().catch(() => "");
      const outcome = classifyNotificationAnswer(
        target.kind === "email" ? { kind: "email", provider: target.provider } : { kind: target.kind },
        { status: response.status, headers: response.headers, body },
        Date.now(),
      );
      // Accepted: journaled before anything else, so an eviction from here on never sends it again.
      if (outcome.kind === "delivered") this.journal.ack(item.delivery.id, outcome.status);
      return outcome;
    } catch (err) {
      // Never the request (a Telegram URL carries the bot token): only what went wrong.
      const message = (err as Error)?.name === "TimeoutError" ? `Timed out after ${SEND_TIMEOUT_MS / 1000} s` : "Network error";
      return { kind: "retry", status: null, retryAfterMs: null, error: message };
    }
  }

  private async record(db: Db, item: Due, outcome: DeliveryOutcome, failing: Map<string, string | null>): Promise<void> {
    const { delivery, channel } = item;
    const now = new Date();
    const at = now.toISOString();
    const attempts = delivery.attempts + 1;
    const d = schema.notificationDeliveries;
    const next = outcome.kind === "retry" ? nextAttempt(outcome, attempts, delivery.createdAt, now.getTime()) : null;
    const status = outcome.kind === "delivered" ? "succeeded" : outcome.kind === "retry" && next ? "pending" : "failed";
    const lastError = outcome.kind === "delivered" ? null : outcome.kind === "retry" && !next ? `${outcome.error}; gave up after 24 h` : outcome.error;
    const statements: Statement[] = [
      db
        .update(d)
        .set({ status, attempts, nextAttemptAt: status === "pending" ? next : null, responseStatus: outcome.status || null, lastError, updatedAt: at })
        .where(and(eq(d.id, delivery.id), eq(d.status, "pending"))),
    ];
    if (channel) {
      const since = failing.has(channel.id) ? failing.get(channel.id)! : channel.failingSince;
      const decided = decideSubscription(since, outcome.kind === "delivered", now.getTime());
      failing.set(channel.id, decided.failingSince);
      const c = schema.notificationChannels;
      if (decided.disable && channel.enabled) {
        const reason = "Every message failed for 24 hours";
        channel.enabled = false;
        statements.push(
          db.update(c).set({ enabled: false, disabledReason: reason, failingSince: decided.failingSince, updatedAt: at }).where(eq(c.id, channel.id)),
          activityInsert(db, {
            companyId: channel.companyId,
            actor: SYSTEM_ACTOR,
            action: "notification_channel.disabled",
            entityType: "notification_channel",
            entityId: channel.id,
            details: { kind: channel.kind, name: channel.name, reason },
            now: at,
          }),
        );
      } else if (decided.failingSince !== channel.failingSince) {
        statements.push(db.update(c).set({ failingSince: decided.failingSince }).where(eq(c.id, channel.id)));
        channel.failingSince = decided.failingSince;
      }
    }
    // A browser that unsubscribed (404/410): its subscription goes.
    if (item.push && isSubscriptionGone(outcome)) statements.push(db.delete(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.id, item.push.id)));
    await runBatch(db, statements);
    this.journal.forget(delivery.id);
  }

  /** Messages accepted whose row was not updated (an eviction, a failed write): recorded now, never sent again. */
  private async recordJournaled(db: Db): Promise<void> {
    const rows = this.journal.acked();
    if (!rows.length) return;
    const d = schema.notificationDeliveries;
    const at = new Date().toISOString();
    await runBatch(
      db,
      rows.map((r) =>
        db
          .update(d)
          .set({ status: "succeeded", attempts: sql`${d.attempts} + 1`, nextAttemptAt: null, responseStatus: r.status, lastError: null, updatedAt: at })
          .where(and(eq(d.id, r.deliveryId), eq(d.status, "pending"))),
      ),
    );
    for (const r of rows) this.journal.forget(r.deliveryId);
  }
}

/** The VAPID contact: the service's public URL (an operator may set VAPID_SUBJECT to a mailto: address). */
function vapidSubject(env: Env): string {
  const configured = (env as { VAPID_SUBJECT?: string }).VAPID_SUBJECT?.trim();
  if (configured) return configured;
  const url = serviceApiUrl(env);
  return url.startsWith("https://") ? url : "mailto:notifications@localhost.invalid";
}
