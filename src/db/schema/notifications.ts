// Notifications where people are (src/domain/notifications/): company channels (Slack, Discord,
// Telegram, Teams, email), members' own preferences and web push subscriptions, the queue of
// events to notify about (written by a trigger with each notable event), and one delivery per
// (event, destination) with the rendered message, retried like webhook deliveries. The instance's
// VAPID keys live in the directory.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt, json, bool } from "./columns";
import { companies } from "./companies";
import { inDirectory } from "./homes";

export const NOTIFICATION_CHANNEL_KINDS = ["slack", "discord", "telegram", "teams", "email"] as const;
export type NotificationChannelKind = (typeof NOTIFICATION_CHANNEL_KINDS)[number];
/** Where a delivery goes: a company channel, or a member's own email or browser. */
export const NOTIFICATION_DESTINATIONS = [...NOTIFICATION_CHANNEL_KINDS, "personal_email", "web_push"] as const;
export const NOTIFICATION_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export const EMAIL_PROVIDERS = ["resend", "postmark"] as const;

/** A secret the service keeps for a channel: a company secret reference (never the value). */
export interface ChannelSecretRef {
  type: "secret_ref";
  secretId: string;
  version: number | "latest";
}

export const notificationChannels = sqliteTable(
  "notification_channels",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_CHANNEL_KINDS }).notNull(),
    name: text("name").notNull(),
    /** The webhook URL (Slack, Discord, Teams), bot token (Telegram) or provider key (email), as a secret reference. */
    target: json<ChannelSecretRef>("target").notNull(),
    /** The kind's other fields: chatId, apiBaseUrl (Telegram); provider, apiBaseUrl, from, to (email). */
    settings: json<Record<string, unknown>>("settings").notNull(),
    /** Event types or `prefix.*` (JSON array); `*`: every notable event. */
    events: json<string[]>("events").notNull(),
    enabled: bool("enabled").notNull(),
    /** The daily digest to this channel at this local hour (0–23) in `timeZone`; null: none. */
    digestHour: integer("digest_hour"),
    timeZone: text("time_zone").notNull(),
    lastDigestOn: text("last_digest_on"),
    disabledReason: text("disabled_reason"),
    /** Since when every delivery has failed (null after a success): 24 h of that disables it. */
    failingSince: text("failing_since"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("notification_channels_company_idx").on(t.companyId)],
);

export const notificationPreferences = sqliteTable(
  "notification_preferences",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    /** Which notifications reach this member: { approvals, questions, assignments, blocked, runs, budgets, channels }. */
    topics: json<Record<string, boolean>>("topics").notNull(),
    email: text("email"),
    emailEnabled: bool("email_enabled").notNull(),
    pushEnabled: bool("push_enabled").notNull(),
    /** Quiet hours ("HH:MM", local): deliveries wait until they end. */
    quietStart: text("quiet_start"),
    quietEnd: text("quiet_end"),
    timeZone: text("time_zone").notNull(),
    digestHour: integer("digest_hour"),
    lastDigestOn: text("last_digest_on"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("notification_preferences_member_uq").on(t.companyId, t.userId)],
);

export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_uq").on(t.companyId, t.userId, t.endpoint), index("push_subscriptions_user_idx").on(t.companyId, t.userId)],
);

/** Notable events not yet turned into deliveries (written by the trigger notification_queue_on_event). */
export const notificationQueue = sqliteTable(
  "notification_queue",
  {
    eventId: text("event_id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    eventSeq: integer("event_seq").notNull(),
  },
  (t) => [index("notification_queue_company_idx").on(t.companyId, t.eventSeq)],
);

export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    destination: text("destination", { enum: NOTIFICATION_DESTINATIONS }).notNull(),
    /** The company channel, or (personal) the member and their push subscription. */
    channelId: text("channel_id"),
    userId: text("user_id"),
    pushSubscriptionId: text("push_subscription_id"),
    /** The event it announces (null: a digest or a test message). */
    eventId: text("event_id"),
    /** What makes it unique: `<event or digest id>:<destination id>`. */
    dedupeKey: text("dedupe_key").notNull(),
    /** The rendered message (a Notification: src/domain/notifications/message.ts). */
    message: json<Record<string, unknown>>("message").notNull(),
    status: text("status", { enum: NOTIFICATION_DELIVERY_STATUSES }).notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: text("next_attempt_at"),
    responseStatus: integer("response_status"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("notification_deliveries_dedupe_uq").on(t.companyId, t.dedupeKey),
    index("notification_deliveries_due_idx").on(t.companyId, t.status, t.nextAttemptAt),
    index("notification_deliveries_channel_idx").on(t.channelId, t.createdAt),
  ],
);

/** The instance's VAPID key pair for web push (the private key sealed with the secrets master key). */
export const vapidKeys = inDirectory(
  sqliteTable("vapid_keys", {
    id: integer("id").primaryKey(),
    publicKey: text("public_key").notNull(),
    privateKeyCiphertext: text("private_key_ciphertext").notNull(),
    createdAt: createdAt(),
  }),
);
