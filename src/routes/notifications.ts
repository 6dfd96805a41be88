// Notifications: a company's channels (board only: create, list, read, change, delete, a test
// message, the delivery log, redelivery), a member's own preferences and browsers (push
// subscriptions), and the instance's VAPID public key.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireActor, requireCompanyAccess } from "../http/access";
import { eventsHub, runCompanyCommand } from "../company/client";
import { serviceApiUrl } from "../config";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  ChannelIdParams,
  ChannelSchema,
  CreateChannelSchema,
  DeliveryIdParams,
  DeliveryListQuery,
  NotificationDeliverySchema,
  PreferencesSchema,
  PushSubscriptionSchema,
  PutPreferencesSchema,
  UpdateChannelSchema,
  VapidKeySchema,
} from "../schemas/notifications";
import { createChannel, deleteChannel, redeliverNotification, testChannel, updateChannel } from "../domain/notifications/channels";
import { getChannel, getDelivery, listChannelDeliveries, listChannels } from "../domain/notifications/queries";
import { channelView } from "../domain/notifications/channels";
import { preferencesView, putPreferences, subscribePush, unsubscribePush } from "../domain/notifications/preferences";
import { vapidPublicKey } from "../domain/notifications/vapid";
import { forbidden } from "../domain/errors";

const tags = ["Notifications"];
export const notificationsRouter = createRouter();
/** Channels are the board's: owners and admins change them, every board member reads them. */
const MANAGERS = { board: true, roles: ["owner", "admin"] } as const satisfies Parameters<typeof requireCompanyAccess>[2];

notificationsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/notification-channels",
    operationId: "createNotificationChannel",
    tags,
    summary:
      "Add a notification channel: Slack, Discord, Teams (webhook URL), Telegram (bot token and chat), email (Resend or Postmark) — board owners and admins",
    description:
      "`target` is stored as a company secret (a raw value becomes a new one) and shown only as a reference. URLs (Slack, Discord, Teams, apiBaseUrl) pass the webhook target policy: https, or http to a loopback host while the service is not public (400 otherwise). " +
      "`events`: types or prefix.* of the notable events (default `*`): approval.created, question.asked, issue.assigned (to a person), issue.updated (set blocked), run.finished (failed), budget.incident_opened, webhook.disabled, notification_channel.disabled. " +
      "Questions asked of one person and issues assigned to a person go only to that person's own channels.",
    request: { params: CompanyIdParam, body: jsonBody(CreateChannelSchema) },
    responses: { 201: jsonContent(ChannelSchema, "The channel"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, MANAGERS);
    return c.json(await runCompanyCommand(c.env, companyId, createChannel, c.get("actor"), c.req.valid("json")), 201);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/notification-channels",
    operationId: "listNotificationChannels",
    tags,
    summary: "The company's notification channels (board members; never a URL, token or key)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(ChannelSchema), "Channels"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listChannels(dbOf(c), companyId), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/notification-channels/{channelId}",
    operationId: "getNotificationChannel",
    tags,
    summary: "A notification channel",
    request: { params: ChannelIdParams },
    responses: { 200: jsonContent(ChannelSchema, "The channel"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, channelId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(channelView(await getChannel(dbOf(c), companyId, channelId)), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/notification-channels/{channelId}",
    operationId: "updateNotificationChannel",
    tags,
    summary: "Change a notification channel (enabling a disabled one starts it afresh)",
    request: { params: ChannelIdParams, body: jsonBody(UpdateChannelSchema) },
    responses: { 200: jsonContent(ChannelSchema, "The channel"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId, channelId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, MANAGERS);
    return c.json(await runCompanyCommand(c.env, companyId, updateChannel, c.get("actor"), { channelId, patch: c.req.valid("json") }), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/companies/{companyId}/notification-channels/{channelId}",
    operationId: "deleteNotificationChannel",
    tags,
    summary: "Delete a notification channel and its delivery log (its secret stays among the company's secrets)",
    request: { params: ChannelIdParams },
    responses: { 200: jsonContent(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, channelId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, MANAGERS);
    return c.json(await runCompanyCommand(c.env, companyId, deleteChannel, c.get("actor"), { channelId }), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/notification-channels/{channelId}/test",
    operationId: "testNotificationChannel",
    tags,
    summary: "Send a test message to the channel now; answers its delivery (succeeded, or pending with the error when it will be retried, or failed)",
    request: { params: ChannelIdParams },
    responses: { 200: jsonContent(NotificationDeliverySchema, "The test message's delivery"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId, channelId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, MANAGERS);
    const { deliveryId } = await runCompanyCommand(c.env, companyId, testChannel, c.get("actor"), { channelId, consoleUrl: serviceApiUrl(c.env) });
    await eventsHub(c.env, companyId).deliverNow(companyId);
    return c.json(await getDelivery(dbOf(c), companyId, deliveryId), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/notification-channels/{channelId}/deliveries",
    operationId: "listNotificationDeliveries",
    tags,
    summary: "The channel's delivery log, newest first (status, attempts, the service's answer)",
    request: { params: ChannelIdParams, query: DeliveryListQuery },
    responses: { 200: jsonContent(z.array(NotificationDeliverySchema), "Deliveries"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId, channelId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listChannelDeliveries(dbOf(c), companyId, channelId, c.req.valid("query")), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/notification-channels/{channelId}/deliveries/{deliveryId}/redeliver",
    operationId: "redeliverNotification",
    tags,
    summary: "Send a finished delivery again (a pending one: 409)",
    request: { params: DeliveryIdParams },
    responses: { 200: jsonContent(NotificationDeliverySchema, "The delivery, after the attempt"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId, channelId, deliveryId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, MANAGERS);
    await runCompanyCommand(c.env, companyId, redeliverNotification, c.get("actor"), { channelId, deliveryId });
    await eventsHub(c.env, companyId).deliverNow(companyId);
    return c.json(await getDelivery(dbOf(c), companyId, deliveryId), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/notification-preferences",
    operationId: "getNotificationPreferences",
    tags,
    summary: "The caller's own notification preferences in the company (board members)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(PreferencesSchema, "Preferences (defaults when never set)"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const actor = c.get("actor");
    if (actor.type !== "board") throw forbidden("Notification preferences are a board member's own");
    return c.json(await preferencesView(dbOf(c), companyId, actor.userId), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "put",
    path: "/api/companies/{companyId}/notification-preferences",
    operationId: "putNotificationPreferences",
    tags,
    summary: "Change the caller's own preferences: topics, email, push, quiet hours (HH:MM in timeZone), digest hour",
    description: "Fields left out keep their value. quietStart and quietEnd are set or cleared together; emailEnabled needs an email address (400).",
    request: { params: CompanyIdParam, body: jsonBody(PutPreferencesSchema) },
    responses: { 200: jsonContent(PreferencesSchema, "Preferences"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const { userId } = await runCompanyCommand(c.env, companyId, putPreferences, c.get("actor"), c.req.valid("json"));
    return c.json(await preferencesView(dbOf(c), companyId, userId), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/push-subscriptions",
    operationId: "subscribePush",
    tags,
    summary: "Register this browser's push subscription (PushManager.subscribe's JSON) for the caller; push is then on",
    request: { params: CompanyIdParam, body: jsonBody(PushSubscriptionSchema) },
    responses: { 201: jsonContent(z.object({ id: z.string() }), "The subscription"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await runCompanyCommand(c.env, companyId, subscribePush, c.get("actor"), c.req.valid("json")), 201);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/companies/{companyId}/push-subscriptions/{subscriptionId}",
    operationId: "unsubscribePush",
    tags,
    summary: "Remove one of the caller's browsers",
    request: {
      params: CompanyIdParam.extend({
        subscriptionId: z
          .string()
          .min(1)
          .openapi({ param: { name: "subscriptionId", in: "path" } }),
      }),
    },
    responses: { 200: jsonContent(z.object({ id: z.string(), deleted: z.literal(true) }), "Removed"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, subscriptionId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await runCompanyCommand(c.env, companyId, unsubscribePush, c.get("actor"), { subscriptionId }), 200);
  },
);

notificationsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/notifications/vapid-public-key",
    operationId: "getVapidPublicKey",
    tags,
    summary: "The instance's VAPID public key for web push (generated once, the private key kept encrypted)",
    responses: { 200: jsonContent(VapidKeySchema, "The public key"), ...errors(401) },
  }),
  async (c) => {
    requireActor(c);
    return c.json({ publicKey: await vapidPublicKey(c.env, dbOf(c)) }, 200);
  },
);
