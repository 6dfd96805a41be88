// Notification channels, deliveries, preferences and push subscriptions: request and response shapes.
import { z } from "@hono/zod-openapi";
import { Timestamp, Uuid } from "./common";
import { EMAIL_PROVIDERS, NOTIFICATION_CHANNEL_KINDS, NOTIFICATION_DELIVERY_STATUSES, NOTIFICATION_DESTINATIONS } from "../db/schema/notifications";
import { NOTIFICATION_TOPICS } from "../domain/notifications/notable";

const SecretRefSchema = z
  .object({ type: z.literal("secret_ref"), secretId: Uuid, version: z.union([z.literal("latest"), z.number().int().min(1)]).optional() })
  .openapi("SecretReference");

const Target = z.union([z.string().min(1).max(2000), SecretRefSchema]).openapi({
  description:
    "Slack, Discord, Teams: the webhook URL; Telegram: the bot token; email: the provider's API key. A raw value is stored as a new company secret; reads show only the reference.",
});

const EventPatterns = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(50)
  .openapi({ description: "Event types or prefix.* of the notable events (default `*`: all of them)", example: ["approval.created", "question.asked"] });

const Hour = z.number().int().min(0).max(23);

const channelFields = {
  name: z.string().trim().min(1).max(100),
  target: Target,
  events: EventPatterns.optional(),
  enabled: z.boolean().optional(),
  chatId: z
    .union([z.string().min(1).max(100), z.number().int()])
    .optional()
    .openapi({ description: "telegram: the chat (or channel) id" }),
  apiBaseUrl: z.url().nullable().optional().openapi({ description: "telegram: a self-hosted Bot API server; email: the provider's API (tests, regions)" }),
  provider: z.enum(EMAIL_PROVIDERS).optional().openapi({ description: "email: resend or postmark" }),
  from: z.string().min(3).max(320).optional().openapi({ description: "email: the sender, e.g. Acme <alerts@acme.dev>" }),
  to: z.array(z.email()).min(1).max(50).optional().openapi({ description: "email: the recipients" }),
  digestHour: Hour.nullable().optional().openapi({ description: "A daily digest at this local hour (0–23); null: none" }),
  timeZone: z.string().min(1).max(64).optional().openapi({ description: "IANA time zone of digestHour (default UTC)" }),
};

export const CreateChannelSchema = z
  .object({ kind: z.enum(NOTIFICATION_CHANNEL_KINDS), ...channelFields })
  .strict()
  .openapi("CreateNotificationChannel");

export const UpdateChannelSchema = z
  .object(
    Object.fromEntries(Object.entries(channelFields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof channelFields]: z.ZodOptional<(typeof channelFields)[K]>;
    },
  )
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "at least one field to update is required" })
  .openapi("UpdateNotificationChannel");

export const ChannelSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    kind: z.enum(NOTIFICATION_CHANNEL_KINDS),
    name: z.string(),
    target: SecretRefSchema.extend({ version: z.union([z.literal("latest"), z.number().int()]) }),
    events: z.array(z.string()),
    enabled: z.boolean(),
    chatId: z.string().optional(),
    apiBaseUrl: z.string().nullable().optional(),
    provider: z.string().optional(),
    from: z.string().optional(),
    to: z.array(z.string()).optional(),
    digestHour: z.number().int().nullable(),
    timeZone: z.string(),
    disabledReason: z.string().nullable(),
    failingSince: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("NotificationChannel");

export const ChannelIdParams = z.object({
  companyId: z
    .string()
    .min(1)
    .openapi({ param: { name: "companyId", in: "path" } }),
  channelId: z
    .string()
    .min(1)
    .openapi({ param: { name: "channelId", in: "path" } }),
});

export const DeliveryIdParams = ChannelIdParams.extend({
  deliveryId: z
    .string()
    .min(1)
    .openapi({ param: { name: "deliveryId", in: "path" } }),
});

export const NotificationDeliverySchema = z
  .object({
    id: z.string(),
    destination: z.enum(NOTIFICATION_DESTINATIONS),
    channelId: z.string().nullable(),
    eventId: z.string().nullable(),
    eventType: z.string(),
    title: z.string(),
    status: z.enum(NOTIFICATION_DELIVERY_STATUSES),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    responseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("NotificationDelivery");

export const DeliveryListQuery = z.object({
  status: z.enum(NOTIFICATION_DELIVERY_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM (24 h)");

export const PreferencesSchema = z
  .object({
    userId: z.string(),
    topics: z.object(Object.fromEntries(NOTIFICATION_TOPICS.map((t) => [t, z.boolean()])) as Record<(typeof NOTIFICATION_TOPICS)[number], z.ZodBoolean>),
    email: z.string().nullable(),
    emailEnabled: z.boolean(),
    pushEnabled: z.boolean(),
    quietStart: z.string().nullable(),
    quietEnd: z.string().nullable(),
    timeZone: z.string(),
    digestHour: z.number().int().nullable(),
    pushSubscriptions: z.array(z.object({ id: z.string(), service: z.string(), userAgent: z.string().nullable(), createdAt: Timestamp })),
  })
  .openapi("NotificationPreferences");

export const PutPreferencesSchema = z
  .object({
    topics: z
      .object(
        Object.fromEntries(NOTIFICATION_TOPICS.map((t) => [t, z.boolean().optional()])) as Record<
          (typeof NOTIFICATION_TOPICS)[number],
          z.ZodOptional<z.ZodBoolean>
        >,
      )
      .strict()
      .optional()
      .openapi({ description: "approvals, questions, assignments, blocked, runs, budgets, channels" }),
    email: z.email().nullable().optional(),
    emailEnabled: z.boolean().optional(),
    pushEnabled: z.boolean().optional(),
    quietStart: HHMM.nullable().optional(),
    quietEnd: HHMM.nullable().optional(),
    timeZone: z.string().min(1).max(64).optional(),
    digestHour: Hour.nullable().optional(),
  })
  .strict()
  .openapi("PutNotificationPreferences");

export const PushSubscriptionSchema = z
  .object({
    endpoint: z.url().max(2000),
    keys: z.object({ p256dh: z.string().min(20).max(200), auth: z.string().min(8).max(100) }),
    userAgent: z.string().max(500).nullable().optional(),
  })
  .openapi("PushSubscriptionInput");

export const VapidKeySchema = z
  .object({
    publicKey: z.string().openapi({ description: "The VAPID public key (uncompressed P-256 point, base64url): PushManager.subscribe's applicationServerKey" }),
  })
  .openapi("VapidPublicKey");
