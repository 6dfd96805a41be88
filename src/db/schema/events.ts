// Outbound events: the company's event outbox (written in the same batch as the change that causes
// it), webhook subscriptions, and one delivery row per (subscription, event).
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt, json, bool } from "./columns";
import { companies } from "./companies";
import { ACTOR_TYPES } from "./activity";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export const companyEvents = sqliteTable(
  "company_events",
  {
    /** Order of events, across companies (within a company: the order its changes were written). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    actorType: text("actor_type", { enum: ACTOR_TYPES }).notNull(),
    actorId: text("actor_id").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    data: json<Record<string, unknown>>("data").notNull(),
    occurredAt: text("occurred_at").notNull(),
  },
  (t) => [uniqueIndex("company_events_id_uq").on(t.id), index("company_events_company_seq_idx").on(t.companyId, t.seq)],
);

export const webhookSubscriptions = sqliteTable(
  "webhook_subscriptions",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Exact event types or `prefix.*` wildcards (JSON array). */
    events: json<string[]>("events").notNull(),
    enabled: bool("enabled").notNull(),
    description: text("description"),
    /** The signing secret, AES-GCM encrypted (src/crypto/secret-box.ts); shown only at creation and rotation. */
    secretCiphertext: text("secret_ciphertext").notNull(),
    disabledReason: text("disabled_reason"),
    /** Since when every delivery attempt has failed (null after a success): 24 h of that disables it. */
    failingSince: text("failing_since"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_subscriptions_company_idx").on(t.companyId)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventSeq: integer("event_seq").notNull(),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: text("next_attempt_at"),
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms"),
    lastError: text("last_error"),
    responseBody: text("response_body"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_subscription_idx").on(t.subscriptionId, t.eventSeq),
    index("webhook_deliveries_due_idx").on(t.companyId, t.status, t.nextAttemptAt),
  ],
);
