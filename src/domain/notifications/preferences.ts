// A member's own notification preferences in a company (never visible to other members): which
// notifications reach them (topics), on which of their own channels (their email address, the
// browsers where they turned push on), quiet hours in their time zone, and their daily digest hour.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { defineCommand } from "../../company/command";
import { badRequest, forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { checkTimeZone } from "./channels";
import { DEFAULT_TOPICS, NOTIFICATION_TOPICS, type NotificationTopic } from "./notable";

type PreferencesRow = typeof schema.notificationPreferences.$inferSelect;

export interface PreferencesInput {
  topics?: Partial<Record<NotificationTopic, boolean>>;
  email?: string | null;
  emailEnabled?: boolean;
  pushEnabled?: boolean;
  quietStart?: string | null;
  quietEnd?: string | null;
  timeZone?: string;
  digestHour?: number | null;
}

const defaults = (companyId: string, userId: string, now: string): PreferencesRow => ({
  id: newId(),
  companyId,
  userId,
  topics: { ...DEFAULT_TOPICS },
  email: null,
  emailEnabled: false,
  pushEnabled: false,
  quietStart: null,
  quietEnd: null,
  timeZone: "UTC",
  digestHour: null,
  lastDigestOn: null,
  createdAt: now,
  updatedAt: now,
});

export async function preferencesView(db: Db, companyId: string, userId: string) {
  const p = schema.notificationPreferences;
  const s = schema.pushSubscriptions;
  const [rows, subscriptions] = await db.batch([
    db
      .select()
      .from(p)
      .where(and(eq(p.companyId, companyId), eq(p.userId, userId))),
    db
      .select({ id: s.id, endpoint: s.endpoint, userAgent: s.userAgent, createdAt: s.createdAt })
      .from(s)
      .where(and(eq(s.companyId, companyId), eq(s.userId, userId))),
  ]);
  const row = rows[0] ?? defaults(companyId, userId, new Date().toISOString());
  return {
    userId,
    topics: Object.fromEntries(NOTIFICATION_TOPICS.map((t) => [t, (row.topics as Record<string, boolean>)[t] ?? DEFAULT_TOPICS[t]])) as Record<
      NotificationTopic,
      boolean
    >,
    email: row.email,
    emailEnabled: row.emailEnabled,
    pushEnabled: row.pushEnabled,
    quietStart: row.quietStart,
    quietEnd: row.quietEnd,
    timeZone: row.timeZone,
    digestHour: row.digestHour,
    // The browser's push endpoint is a capability: only its host is shown.
    pushSubscriptions: subscriptions.map((sub) => ({ id: sub.id, service: new URL(sub.endpoint).host, userAgent: sub.userAgent, createdAt: sub.createdAt })),
  };
}

const requireMember = (actor: { type: string }, userId: string | null): string => {
  if (actor.type !== "board" || !userId) throw forbidden("Notification preferences are a board member's own");
  return userId;
};

export const putPreferences = defineCommand("notification.preferences.put", async (ctx, actor, input: PreferencesInput) => {
  const userId = requireMember(actor, actor.type === "board" ? actor.userId : null);
  const p = schema.notificationPreferences;
  const [existing] = await ctx.db
    .select()
    .from(p)
    .where(and(eq(p.companyId, ctx.companyId), eq(p.userId, userId)));
  const before = existing ?? defaults(ctx.companyId, userId, ctx.now);
  if ((input.quietStart === undefined) !== (input.quietEnd === undefined) || (input.quietStart === null) !== (input.quietEnd === null))
    throw badRequest("quietStart and quietEnd are set (or cleared) together", { field: "quietStart" });
  const email = input.email === undefined ? before.email : input.email;
  const emailEnabled = input.emailEnabled ?? before.emailEnabled;
  if (emailEnabled && !email) throw badRequest("emailEnabled needs an email address", { field: "email" });
  const after: PreferencesRow = {
    ...before,
    topics: { ...(before.topics as Record<string, boolean>), ...(input.topics ?? {}) },
    email,
    emailEnabled,
    pushEnabled: input.pushEnabled ?? before.pushEnabled,
    quietStart: input.quietStart === undefined ? before.quietStart : input.quietStart,
    quietEnd: input.quietEnd === undefined ? before.quietEnd : input.quietEnd,
    timeZone: input.timeZone ? checkTimeZone(input.timeZone) : before.timeZone,
    digestHour: input.digestHour === undefined ? before.digestHour : input.digestHour,
    updatedAt: ctx.now,
  };
  await ctx.batch([
    ctx.db
      .insert(p)
      .values(after)
      .onConflictDoUpdate({
        target: [p.companyId, p.userId],
        set: {
          topics: after.topics,
          email: after.email,
          emailEnabled: after.emailEnabled,
          pushEnabled: after.pushEnabled,
          quietStart: after.quietStart,
          quietEnd: after.quietEnd,
          timeZone: after.timeZone,
          digestHour: after.digestHour,
          updatedAt: ctx.now,
        },
      }),
  ]);
  return { userId };
});

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  userAgent?: string | null;
}

/** A browser of the member subscribes (push is then on for them). */
export const subscribePush = defineCommand("notification.push.subscribe", async (ctx, actor, input: PushSubscriptionInput) => {
  const userId = requireMember(actor, actor.type === "board" ? actor.userId : null);
  const url = new URL(input.endpoint);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && ctx.env.SERVER_EXPOSURE !== "public" && /^(localhost|127\.)/.test(url.hostname)))
    throw badRequest("endpoint must be the push service's https URL", { field: "endpoint" });
  const s = schema.pushSubscriptions;
  const p = schema.notificationPreferences;
  const id = newId();
  const prefs = defaults(ctx.companyId, userId, ctx.now);
  await ctx.batch([
    ctx.db
      .insert(s)
      .values({
        id,
        companyId: ctx.companyId,
        userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        userAgent: input.userAgent ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .onConflictDoUpdate({ target: [s.companyId, s.userId, s.endpoint], set: { p256dh: input.keys.p256dh, auth: input.keys.auth, updatedAt: ctx.now } }),
    ctx.db
      .insert(p)
      .values({ ...prefs, pushEnabled: true })
      .onConflictDoUpdate({ target: [p.companyId, p.userId], set: { pushEnabled: true, updatedAt: ctx.now } }),
  ]);
  const [row] = await ctx.db
    .select({ id: s.id })
    .from(s)
    .where(and(eq(s.companyId, ctx.companyId), eq(s.userId, userId), eq(s.endpoint, input.endpoint)));
  return { id: row?.id ?? id };
});

export const unsubscribePush = defineCommand("notification.push.unsubscribe", async (ctx, actor, input: { subscriptionId: string }) => {
  const userId = requireMember(actor, actor.type === "board" ? actor.userId : null);
  const s = schema.pushSubscriptions;
  const [row] = await ctx.db
    .select({ id: s.id })
    .from(s)
    .where(and(eq(s.id, input.subscriptionId), eq(s.companyId, ctx.companyId), eq(s.userId, userId)));
  if (!row) throw notFound("Push subscription not found");
  await ctx.batch([ctx.db.delete(s).where(eq(s.id, row.id))]);
  return { id: row.id, deleted: true as const };
});

export const preferenceCommands = [putPreferences, subscribePush, unsubscribePush];
