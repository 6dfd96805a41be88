// Outbound events: the event shape, webhook subscriptions, deliveries and the event list/stream.
import { z } from "@hono/zod-openapi";
import { CompanyIdParam, Timestamp } from "./common";
import { EVENT_CATALOGUE_VERSION, eventCatalogueMarkdown } from "../domain/events/catalogue";
import { WEBHOOK_DELIVERY_STATUSES } from "../db/schema/events";

export const EVENT_CATALOGUE_DESCRIPTION = `Event catalogue v${EVENT_CATALOGUE_VERSION}:\n\n${eventCatalogueMarkdown()}`;

export const EventSchema = z
  .object({
    id: z.string(),
    type: z.string().openapi({ description: EVENT_CATALOGUE_DESCRIPTION }),
    companyId: z.string(),
    occurredAt: Timestamp,
    actor: z.object({ type: z.enum(["user", "agent", "system"]), id: z.string() }),
    subject: z.object({ type: z.string(), id: z.string() }),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("Event", { description: "An outbound event, as delivered to webhooks and streamed" });

const Pattern = z.string().trim().min(1).max(100).openapi({ description: "An exact event type, `prefix.*` (e.g. `issue.*`) or `*`", example: "issue.*" });

export const WebhookSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string().nullable(),
    disabledReason: z.string().nullable().openapi({ description: "Why the service disabled it (24 h of failed deliveries)" }),
    failingSince: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Webhook");

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({ description: "The signing secret: shown only here (creation, rotation)" }),
}).openapi("WebhookWithSecret");

export const CreateWebhookSchema = z
  .object({
    url: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .openapi({ description: "https (or http to a loopback host while the service is not public)", example: "https://example.com/hooks/acp" }),
    events: z.array(Pattern).min(1).max(50),
    enabled: z.boolean().optional(),
    description: z.string().trim().max(500).nullable().optional(),
  })
  .strict()
  .openapi("CreateWebhook");

export const UpdateWebhookSchema = CreateWebhookSchema.partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to change" })
  .openapi("UpdateWebhook");

export const DeliverySchema = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    responseStatus: z.number().int().nullable(),
    latencyMs: z.number().int().nullable(),
    nextAttemptAt: z.string().nullable(),
    lastError: z.string().nullable(),
    responseBody: z.string().nullable().openapi({ description: "The receiver's answer, first 1,000 characters" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("WebhookDelivery");

export const WebhookIdParam = CompanyIdParam.extend({
  webhookId: z
    .string()
    .min(1)
    .openapi({ param: { name: "webhookId", in: "path" } }),
});
export const DeliveryIdParam = WebhookIdParam.extend({
  deliveryId: z
    .string()
    .min(1)
    .openapi({ param: { name: "deliveryId", in: "path" } }),
});

const Limit = z.coerce.number().int().min(1).max(500).optional();

export const DeliveryListQuery = z.object({
  limit: Limit.openapi({ description: "Default 50" }),
  cursor: z.string().max(200).optional().openapi({ description: "nextCursor of the previous page" }),
});
export const DeliveryPageSchema = z.object({ deliveries: z.array(DeliverySchema), nextCursor: z.string().nullable() }).openapi("WebhookDeliveryPage");

export const EventListQuery = z.object({
  types: z.string().max(1000).optional().openapi({ description: "Comma-separated event types or `prefix.*` wildcards" }),
  after: z.string().max(200).optional().openapi({ description: "An event id: only events after it (oldest first)" }),
  cursor: z.string().max(200).optional().openapi({ description: "nextCursor of the previous page (same as after)" }),
  limit: Limit.openapi({ description: "Default 100" }),
});
export const EventPageSchema = z.object({ events: z.array(EventSchema), nextCursor: z.string().nullable() }).openapi("EventPage");

export const StreamQuery = z.object({
  types: z.string().max(1000).optional().openapi({ description: "Comma-separated event types or `prefix.*` wildcards" }),
});
export const StreamHeaders = z.object({
  "last-event-id": z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Resume after this event (from the retention window: 24 h or the last 10,000 events)" }),
});

export const PingResultSchema = z.object({ eventId: z.string(), deliveryId: z.string() }).openapi("WebhookPing");
