// Webhook subscriptions (board only, company-scoped, reads included): CRUD, secret rotation, a test
// ping, the delivery log and redelivery. Deliveries are signed and sent by the company's event hub
// (src/company/events-hub.ts); the catalogue is in the Event schema's description.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  CreateWebhookSchema,
  DeliveryIdParam,
  DeliveryListQuery,
  DeliveryPageSchema,
  DeliverySchema,
  EVENT_CATALOGUE_DESCRIPTION,
  PingResultSchema,
  UpdateWebhookSchema,
  WebhookIdParam,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "../schemas/events";
import { z } from "@hono/zod-openapi";
import { listDeliveries, listWebhooks, requireWebhook } from "../domain/events/queries";
import { createWebhook, deleteWebhook, pingWebhook, redeliverWebhook, rotateWebhookSecret, updateWebhook, webhookView } from "../domain/events/webhooks";

const tags = ["Webhooks"];
const BOARD = "Board only (agents get 403).";
/** Changing subscriptions needs a writing role; viewers read them. */
const WRITERS = { board: true, roles: ["owner", "admin", "member"] } as const satisfies Parameters<typeof requireCompanyAccess>[2];
const SIGNING =
  "Each delivery is a POST of the event as JSON with headers X-Service-Event-Id, X-Service-Event-Type, X-Service-Timestamp (Unix seconds) and " +
  'X-Service-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>." + the raw body, keyed with the secret\'s UTF-8 bytes>. ' +
  "At least once, in event order per subscription, deduplicable by event id; 2xx acknowledges; network errors, timeouts (10 s), 5xx and 429 are retried " +
  "(about 10 s, doubling, Retry-After honoured) for about 24 h; other 4xx fail at once; a subscription failing for 24 h is disabled.";

export const webhooksRouter = createRouter();

webhooksRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/webhooks",
    tags,
    summary: "Subscribe a URL to the company's events; the signing secret is returned only here",
    description: `${SIGNING}\n\n${EVENT_CATALOGUE_DESCRIPTION}\n\n${BOARD}`,
    request: { params: CompanyIdParam, body: jsonBody(CreateWebhookSchema) },
    responses: { 201: jsonContent(WebhookWithSecretSchema, "The subscription and its secret (shown once)"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, WRITERS);
    return c.json(await runCompanyCommand(c.env, companyId, createWebhook, c.get("actor"), c.req.valid("json")), 201);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/webhooks",
    tags,
    summary: "The company's webhook subscriptions, newest first (never their secrets)",
    description: BOARD,
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(WebhookSchema), "Subscriptions"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listWebhooks(dbOf(c), companyId), 200);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/webhooks/{webhookId}",
    tags,
    summary: "One webhook subscription (never its secret)",
    description: BOARD,
    request: { params: WebhookIdParam },
    responses: { 200: jsonContent(WebhookSchema, "Subscription"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, webhookId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(webhookView(await requireWebhook(dbOf(c), companyId, webhookId)), 200);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/webhooks/{webhookId}",
    tags,
    summary: "Change a subscription (url, events, enabled, description); enabling it again clears a failure disable",
    description: BOARD,
    request: { params: WebhookIdParam, body: jsonBody(UpdateWebhookSchema) },
    responses: { 200: jsonContent(WebhookSchema, "Subscription"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId, webhookId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, WRITERS);
    return c.json(await runCompanyCommand(c.env, companyId, updateWebhook, c.get("actor"), { webhookId, patch: c.req.valid("json") }), 200);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/companies/{companyId}/webhooks/{webhookId}",
    tags,
    summary: "Delete a subscription (its pending deliveries are dropped)",
    description: BOARD,
    request: { params: WebhookIdParam },
    responses: { 200: jsonContent(WebhookSchema, "The deleted subscription"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, webhookId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, WRITERS);
    return c.json(await runCompanyCommand(c.env, companyId, deleteWebhook, c.get("actor"), { webhookId }), 200);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/webhooks/{webhookId}/rotate-secret",
    tags,
    summary: "A new signing secret (returned only here); the old one stops signing at once",
    description: BOARD,
    request: { params: WebhookIdParam },
    responses: { 200: jsonContent(WebhookWithSecretSchema, "The subscription and its new secret"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, webhookId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, WRITERS);
    return c.json(await runCompanyCommand(c.env, companyId, rotateWebhookSecret, c.get("actor"), { webhookId }), 200);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/webhooks/{webhookId}/test",
    tags,
    summary: "Send a `ping` event to this subscription now (whatever its filter)",
    description: BOARD,
    request: { params: WebhookIdParam },
    responses: { 202: jsonContent(PingResultSchema, "The ping's event and delivery ids (see deliveries)"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, webhookId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, WRITERS);
    return c.json(await runCompanyCommand(c.env, companyId, pingWebhook, c.get("actor"), { webhookId }), 202);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/webhooks/{webhookId}/deliveries",
    tags,
    summary: "The subscription's deliveries, newest first (status, attempts, response, next attempt)",
    description: BOARD,
    request: { params: WebhookIdParam, query: DeliveryListQuery },
    responses: { 200: jsonContent(DeliveryPageSchema, "Deliveries"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId, webhookId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listDeliveries(dbOf(c), companyId, webhookId, c.req.valid("query")), 200);
  },
);

webhooksRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
    tags,
    summary: "Send the same event (same event id) to this subscription again, as a new delivery",
    description: BOARD,
    request: { params: DeliveryIdParam },
    responses: { 202: jsonContent(DeliverySchema, "The new delivery"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, webhookId, deliveryId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, WRITERS);
    return c.json(await runCompanyCommand(c.env, companyId, redeliverWebhook, c.get("actor"), { webhookId, deliveryId }), 202);
  },
);
