// Webhook subscriptions: create, change, delete, rotate the signing secret, send a test ping,
// redeliver. Board only (the routes check); serialised in the company object like every mutation.
// The secret is stored AES-GCM encrypted and shown only at creation and rotation.
import { and, eq, sql } from "drizzle-orm";
import { defineCommand, type CommandContext } from "../../company/command";
import { schema } from "../../db/client";
import { writeWith } from "../../db/batch";
import { newId, randomToken } from "../../crypto/random";
import { decryptSecretValue, encryptSecretValue, importMasterKey } from "../../crypto/secret-encryption";
import { isPrivateTarget } from "../../net/hosts";
import { badRequest, notFound } from "../errors";
import { actorRef } from "../actor";
import { isEventPattern } from "./catalogue";

export type WebhookRow = typeof schema.webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof schema.webhookDeliveries.$inferSelect;

export const newWebhookSigningSecret = () => `whsec_${randomToken(32)}`;

const secretContext = (webhookId: string) => `webhook-subscription:${webhookId}`;

export async function sealSigningSecret(env: Env, webhookId: string, secret: string): Promise<string> {
  return JSON.stringify(await encryptSecretValue(await importMasterKey(env.SECRETS_MASTER_KEY), secret, secretContext(webhookId)));
}

export async function openSigningSecret(env: Env, row: Pick<WebhookRow, "id" | "secretCiphertext">): Promise<string> {
  return decryptSecretValue(await importMasterKey(env.SECRETS_MASTER_KEY), JSON.parse(row.secretCiphertext), secretContext(row.id));
}

/** A subscription as every read shows it: never the secret. */
export const webhookView = (row: WebhookRow) => ({
  id: row.id,
  companyId: row.companyId,
  url: row.url,
  events: row.events,
  enabled: row.enabled,
  description: row.description,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const deliveryView = (row: DeliveryRow) => ({
  id: row.id,
  webhookId: row.subscriptionId,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  latencyMs: row.latencyMs,
  nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
  lastError: row.lastError,
  responseBody: row.responseBody,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * The target policy of outbound calls (the same as the http adapter's): https, or http to a
 * loopback host while the service is not exposed publicly; a private-network host is refused when
 * it is. A 400 naming `url` otherwise.
 */
export function checkWebhookUrl(raw: string, exposure: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest("url must be an absolute https URL", { field: "url" });
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host === "::1" || /^127\./.test(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback && exposure !== "public")) {
    throw badRequest("url must be https (plain http only to a loopback host while the service is not public)", { field: "url" });
  }
  if (url.username || url.password) throw badRequest("url must not carry credentials", { field: "url" });
  if (exposure === "public" && isPrivateTarget(url.hostname))
    throw badRequest("url points at a private network, refused while the service is public", { field: "url" });
  return url.toString();
}

/** Exact catalogue types, `prefix.*` of a catalogue prefix, or `*`; a 400 naming the unknown ones. */
export function checkEventPatterns(patterns: string[]): string[] {
  const unknown = patterns.filter((p) => !isEventPattern(p));
  if (unknown.length) throw badRequest(`Unknown event types: ${unknown.join(", ")}`, { field: "events", unknown });
  return [...new Set(patterns)];
}

async function loadWebhook(ctx: CommandContext, webhookId: string): Promise<WebhookRow> {
  const row = (
    await ctx.db
      .select()
      .from(schema.webhookSubscriptions)
      .where(and(eq(schema.webhookSubscriptions.id, webhookId), eq(schema.webhookSubscriptions.companyId, ctx.companyId)))
  )[0];
  if (!row) throw notFound("Webhook not found");
  return row;
}

const webhookActivity = (ctx: CommandContext, action: string, webhookId: string, details: Record<string, unknown> = {}) =>
  ctx.activity({ action, entityType: "webhook", entityId: webhookId, details });

export interface WebhookInput {
  url: string;
  events: string[];
  enabled?: boolean;
  description?: string | null;
}

export const createWebhook = defineCommand("webhook.create", async (ctx, actor, input: WebhookInput) => {
  const url = checkWebhookUrl(input.url, ctx.env.SERVER_EXPOSURE);
  const events = checkEventPatterns(input.events);
  const id = newId();
  const secret = newWebhookSigningSecret();
  const { actorType, actorId } = actorRef(actor);
  const row: WebhookRow = {
    id,
    companyId: ctx.companyId,
    url,
    events,
    enabled: input.enabled ?? true,
    description: input.description ?? null,
    secretCiphertext: await sealSigningSecret(ctx.env, id, secret),
    disabledReason: null,
    failingSince: null,
    createdByUserId: actorType === "user" ? actorId : null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await ctx.batch([ctx.db.insert(schema.webhookSubscriptions).values(row), webhookActivity(ctx, "webhook.created", id, { url, events })]);
  return { ...webhookView(row), secret };
});

export const updateWebhook = defineCommand("webhook.update", async (ctx, _actor, input: { webhookId: string; patch: Partial<WebhookInput> }) => {
  const before = await loadWebhook(ctx, input.webhookId);
  const { patch } = input;
  const set: Partial<WebhookRow> = { updatedAt: ctx.now };
  if (patch.url !== undefined) set.url = checkWebhookUrl(patch.url, ctx.env.SERVER_EXPOSURE);
  if (patch.events !== undefined) set.events = checkEventPatterns(patch.events);
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.enabled !== undefined) {
    set.enabled = patch.enabled;
    // Enabled again by hand: the failure history that disabled it is cleared.
    if (patch.enabled) Object.assign(set, { disabledReason: null, failingSince: null });
  }
  const after = { ...before, ...set };
  await ctx.batch([
    ctx.db.update(schema.webhookSubscriptions).set(set).where(eq(schema.webhookSubscriptions.id, before.id)),
    webhookActivity(ctx, "webhook.updated", before.id, { changed: Object.keys(patch) }),
  ]);
  return webhookView(after);
});

export const deleteWebhook = defineCommand("webhook.delete", async (ctx, _actor, input: { webhookId: string }) => {
  const before = await loadWebhook(ctx, input.webhookId);
  await ctx.batch([
    ctx.db.delete(schema.webhookSubscriptions).where(eq(schema.webhookSubscriptions.id, before.id)),
    webhookActivity(ctx, "webhook.deleted", before.id, { url: before.url }),
  ]);
  return webhookView(before);
});

export const rotateWebhookSecret = defineCommand("webhook.rotateSecret", async (ctx, _actor, input: { webhookId: string }) => {
  const before = await loadWebhook(ctx, input.webhookId);
  const secret = newWebhookSigningSecret();
  const secretCiphertext = await sealSigningSecret(ctx.env, before.id, secret);
  await ctx.batch([
    ctx.db.update(schema.webhookSubscriptions).set({ secretCiphertext, updatedAt: ctx.now }).where(eq(schema.webhookSubscriptions.id, before.id)),
    webhookActivity(ctx, "webhook.secret_rotated", before.id),
  ]);
  return { ...webhookView({ ...before, updatedAt: ctx.now }), secret };
});

/** A `ping` event delivered to this subscription only (whatever its filter), now. */
export const pingWebhook = defineCommand("webhook.ping", async (ctx, actor, input: { webhookId: string }) => {
  const webhook = await loadWebhook(ctx, input.webhookId);
  const { actorType, actorId } = actorRef(actor);
  const eventId = newId();
  const deliveryId = newId();
  const eventInsert = ctx.db.insert(schema.companyEvents).values({
    id: eventId,
    companyId: ctx.companyId,
    type: "ping",
    actorType,
    actorId,
    subjectType: "webhook",
    subjectId: webhook.id,
    data: { webhookId: webhook.id },
    occurredAt: ctx.now,
  });
  const deliveryInsert = ctx.db.insert(schema.webhookDeliveries).values({
    id: deliveryId,
    companyId: ctx.companyId,
    subscriptionId: webhook.id,
    eventId,
    eventSeq: sqlSeqOf(eventId),
    eventType: "ping",
    status: "pending",
    attempts: 0,
    nextAttemptAt: ctx.now,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.batch([writeWith(eventInsert, [deliveryInsert])]);
  return { eventId, deliveryId };
});

/** The same event (same event id) delivered again to this subscription, as a new delivery. */
export const redeliverWebhook = defineCommand("webhook.redeliver", async (ctx, _actor, input: { webhookId: string; deliveryId: string }) => {
  const webhook = await loadWebhook(ctx, input.webhookId);
  const d = schema.webhookDeliveries;
  const original = (
    await ctx.db
      .select()
      .from(d)
      .where(and(eq(d.id, input.deliveryId), eq(d.subscriptionId, webhook.id)))
  )[0];
  if (!original) throw notFound("Delivery not found");
  const row: DeliveryRow = {
    ...original,
    id: newId(),
    status: "pending",
    attempts: 0,
    nextAttemptAt: ctx.now,
    responseStatus: null,
    latencyMs: null,
    lastError: null,
    responseBody: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  // A statement with a follow-up marks the batch as one that needs delivering (see eventsWritten).
  const marker = webhookActivity(ctx, "webhook.redelivered", webhook.id, { deliveryId: original.id, eventId: original.eventId });
  await ctx.batch([writeWith(ctx.db.insert(d).values(row), [marker])]);
  return deliveryView(row);
});

/** The sequence number of an event written earlier in the same batch. */
const sqlSeqOf = (eventId: string) =>
  sql`(SELECT ${schema.companyEvents.seq} FROM ${schema.companyEvents} WHERE ${schema.companyEvents.id} = ${eventId})` as unknown as number;

export const webhookCommands = [createWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret, pingWebhook, redeliverWebhook];
