// A company's notification channels (board only): Slack, Discord and Teams by webhook URL,
// Telegram by bot token and chat, email through Resend or Postmark. The URL, token or provider key
// is a company secret — a raw value is stored as a new one, a secret reference is checked — so
// reads show only the reference. Test messages and redelivery go through the same deliveries as
// events (the company's event hub sends them).
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { actorRef } from "../actor";
import { badRequest, conflict, notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { normalizeEnvBindings, resolveEnvBindings } from "../secrets/bindings";
import { checkEventPatterns, checkWebhookUrl } from "../events/webhooks";
import type { ChannelSecretRef, NotificationChannelKind } from "../../db/schema/notifications";
import { deliveryInsert } from "./enqueue";
import type { Notification } from "./message";

export type ChannelRow = typeof schema.notificationChannels.$inferSelect;

/** The secret each kind keeps, named as a secret-looking variable (so a raw value becomes a company secret). */
const SECRET_KEY: Record<NotificationChannelKind, string> = {
  slack: "SLACK_WEBHOOK_URL_SECRET",
  discord: "DISCORD_WEBHOOK_URL_SECRET",
  teams: "TEAMS_WEBHOOK_URL_SECRET",
  telegram: "TELEGRAM_BOT_TOKEN",
  email: "EMAIL_API_KEY",
};

export interface ChannelInput {
  kind: NotificationChannelKind;
  name: string;
  target: string | Record<string, unknown>;
  events?: string[];
  enabled?: boolean;
  chatId?: string | number;
  apiBaseUrl?: string | null;
  provider?: "resend" | "postmark";
  from?: string;
  to?: string[];
  digestHour?: number | null;
  timeZone?: string;
}

export const channelView = (row: ChannelRow) => {
  const s = row.settings as Record<string, unknown>;
  return {
    id: row.id,
    companyId: row.companyId,
    kind: row.kind,
    name: row.name,
    target: row.target,
    events: row.events,
    enabled: row.enabled,
    ...(row.kind === "telegram" ? { chatId: String(s.chatId ?? ""), apiBaseUrl: (s.apiBaseUrl as string | null) ?? null } : {}),
    ...(row.kind === "email"
      ? { provider: s.provider as string, apiBaseUrl: (s.apiBaseUrl as string | null) ?? null, from: String(s.from ?? ""), to: (s.to as string[]) ?? [] }
      : {}),
    digestHour: row.digestHour,
    timeZone: row.timeZone,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
};

export function checkTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return timeZone;
  } catch {
    throw badRequest(`Unknown time zone "${timeZone}" (an IANA name such as Europe/Berlin)`, { field: "timeZone" });
  }
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** The fields each kind takes besides the common ones (another kind's field is a 400: it would be ignored). */
const KIND_FIELDS: Record<NotificationChannelKind, Array<keyof ChannelInput>> = {
  slack: [],
  discord: [],
  teams: [],
  telegram: ["chatId", "apiBaseUrl"],
  email: ["provider", "apiBaseUrl", "from", "to"],
};

/** The kind's settings from the input, checked (400 naming the field). */
function settingsOf(
  kind: NotificationChannelKind,
  input: Partial<ChannelInput>,
  exposure: string,
  before: Record<string, unknown> = {},
): Record<string, unknown> {
  const foreign = (["chatId", "apiBaseUrl", "provider", "from", "to"] as const).filter((f) => input[f] !== undefined && !KIND_FIELDS[kind].includes(f));
  if (foreign.length) throw badRequest(`${foreign.join(", ")} ${foreign.length === 1 ? "is" : "are"} not a field of a ${kind} channel`, { field: foreign[0] });
  const apiBaseUrl = input.apiBaseUrl === undefined ? ((before.apiBaseUrl as string | null | undefined) ?? null) : input.apiBaseUrl;
  const checkedBase = apiBaseUrl ? checkWebhookUrl(apiBaseUrl, exposure).replace(/\/+$/, "") : null;
  if (kind === "telegram") {
    const chatId = input.chatId ?? before.chatId;
    if (chatId === undefined || chatId === null || String(chatId).trim() === "") throw badRequest("chatId is required for telegram", { field: "chatId" });
    return { chatId: String(chatId).trim(), apiBaseUrl: checkedBase };
  }
  if (kind === "email") {
    const provider = input.provider ?? before.provider;
    if (provider !== "resend" && provider !== "postmark") throw badRequest("provider must be resend or postmark", { field: "provider" });
    const from = input.from ?? before.from;
    if (typeof from !== "string" || !EMAIL.test(from.replace(/^.*<(.+)>\s*$/, "$1"))) throw badRequest("from must be an email address", { field: "from" });
    const to = input.to ?? before.to;
    if (!Array.isArray(to) || !to.length || to.length > 50 || !to.every((a) => typeof a === "string" && EMAIL.test(a)))
      throw badRequest("to must be 1–50 email addresses", { field: "to" });
    return { provider, from, to, apiBaseUrl: checkedBase };
  }
  return {};
}

/** The target as a secret reference: a raw URL (checked) or token becomes a new company secret. */
async function targetRef(ctx: CommandContext, actor: Actor, kind: NotificationChannelKind, name: string, target: string | Record<string, unknown>) {
  if (typeof target === "string") {
    if (!target.trim()) throw badRequest("target is required", { field: "target" });
    if (kind === "slack" || kind === "discord" || kind === "teams") {
      try {
        checkWebhookUrl(target, ctx.env.SERVER_EXPOSURE);
      } catch (err) {
        throw badRequest(`target must be the ${kind} webhook URL: ${(err as Error).message}`, { field: "target" });
      }
    }
  } else if (target?.type !== "secret_ref") throw badRequest('target must be a string or { "type": "secret_ref", "secretId", "version" }', { field: "target" });
  const key = SECRET_KEY[kind];
  const normalized = await normalizeEnvBindings(ctx, actor, { [key]: target }, { ownerLabel: "NOTIFY" });
  const ref = normalized.env?.[key] as ChannelSecretRef | undefined;
  if (ref?.type !== "secret_ref") throw badRequest("target must be a secret value or a secret reference", { field: "target" });
  return { ref, statements: normalized.statements };
}

async function loadChannel(ctx: CommandContext, channelId: string): Promise<ChannelRow> {
  const c = schema.notificationChannels;
  const [row] = await ctx.db
    .select()
    .from(c)
    .where(and(eq(c.id, channelId), eq(c.companyId, ctx.companyId)));
  if (!row) throw notFound("Notification channel not found");
  return row;
}

const channelActivity = (ctx: CommandContext, action: string, row: Pick<ChannelRow, "id" | "kind" | "name">, details: Record<string, unknown> = {}) =>
  ctx.activity({ action, entityType: "notification_channel", entityId: row.id, details: { kind: row.kind, name: row.name, ...details } });

export const createChannel = defineCommand("notification.channel.create", async (ctx, actor, input: ChannelInput) => {
  const settings = settingsOf(input.kind, input, ctx.env.SERVER_EXPOSURE);
  const events = checkEventPatterns(input.events ?? ["*"]);
  const { ref, statements } = await targetRef(ctx, actor, input.kind, input.name, input.target);
  const { actorType, actorId } = actorRef(actor);
  const row: ChannelRow = {
    id: newId(),
    companyId: ctx.companyId,
    kind: input.kind,
    name: input.name,
    target: ref,
    settings,
    events,
    enabled: input.enabled ?? true,
    digestHour: input.digestHour ?? null,
    timeZone: checkTimeZone(input.timeZone ?? "UTC"),
    lastDigestOn: null,
    disabledReason: null,
    failingSince: null,
    createdByUserId: actorType === "user" ? actorId : null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await ctx.batch([
    ...statements,
    ctx.db.insert(schema.notificationChannels).values(row),
    channelActivity(ctx, "notification_channel.created", row, { events }),
  ]);
  return channelView(row);
});

export const updateChannel = defineCommand(
  "notification.channel.update",
  async (ctx, actor, input: { channelId: string; patch: Partial<Omit<ChannelInput, "kind">> }) => {
    const before = await loadChannel(ctx, input.channelId);
    const { patch } = input;
    const statements: Statement[] = [];
    let target = before.target;
    if (patch.target !== undefined) {
      const made = await targetRef(ctx, actor, before.kind, patch.name ?? before.name, patch.target);
      target = made.ref;
      statements.push(...made.statements);
    }
    const enabling = patch.enabled === true && !before.enabled;
    const after: ChannelRow = {
      ...before,
      name: patch.name ?? before.name,
      target,
      settings: settingsOf(before.kind, patch, ctx.env.SERVER_EXPOSURE, before.settings as Record<string, unknown>),
      events: patch.events ? checkEventPatterns(patch.events) : before.events,
      enabled: patch.enabled ?? before.enabled,
      digestHour: patch.digestHour === undefined ? before.digestHour : patch.digestHour,
      timeZone: patch.timeZone ? checkTimeZone(patch.timeZone) : before.timeZone,
      // Enabled again (after being disabled for failures): a fresh start.
      ...(enabling ? { disabledReason: null, failingSince: null } : {}),
      updatedAt: ctx.now,
    };
    const c = schema.notificationChannels;
    statements.push(
      ctx.db.update(c).set(after).where(eq(c.id, before.id)),
      channelActivity(ctx, "notification_channel.updated", after, {
        changed: Object.keys(patch)
          .filter((k) => k !== "target")
          .concat(patch.target !== undefined ? ["target"] : []),
      }),
    );
    await ctx.batch(statements);
    return channelView(after);
  },
);

export const deleteChannel = defineCommand("notification.channel.delete", async (ctx, _actor, input: { channelId: string }) => {
  const row = await loadChannel(ctx, input.channelId);
  await ctx.batch([
    ctx.db.delete(schema.notificationDeliveries).where(eq(schema.notificationDeliveries.channelId, row.id)),
    ctx.db.delete(schema.notificationChannels).where(eq(schema.notificationChannels.id, row.id)),
    channelActivity(ctx, "notification_channel.deleted", row),
  ]);
  return { id: row.id, deleted: true as const };
});

/** A test message to the channel: a delivery like any other (the hub sends it); its id to follow. */
export const testChannel = defineCommand("notification.channel.test", async (ctx, actor, input: { channelId: string; consoleUrl: string }) => {
  const row = await loadChannel(ctx, input.channelId);
  if (!row.enabled) throw conflict("The channel is disabled: enable it first", { disabledReason: row.disabledReason });
  const company = (
    await ctx.db
      .select({ name: schema.companies.name, issuePrefix: schema.companies.issuePrefix })
      .from(schema.companies)
      .where(eq(schema.companies.id, ctx.companyId))
  )[0];
  const who = actor.type === "board" ? "A board member" : "The service";
  const message: Notification = {
    eventType: "test",
    title: `Test message from ${company?.name ?? "your company"}`,
    body: `${who} sent this test to check that notifications reach "${row.name}".`,
    actor: null,
    fields: [{ label: "Channel", value: `${row.name} (${row.kind})` }],
    link: {
      url: `${input.consoleUrl.replace(/\/+$/, "")}/${encodeURIComponent(company?.issuePrefix ?? "")}/settings/notifications`,
      label: "Open Notifications",
    },
    level: "info",
    company: { id: ctx.companyId, name: company?.name ?? "" },
  };
  const deliveryId = newId();
  await ctx.batch([
    deliveryInsert(
      ctx.db,
      ctx.companyId,
      { destination: row.kind, channelId: row.id, key: `test:${deliveryId}`, notBefore: null },
      null,
      message,
      ctx.now,
      deliveryId,
    ),
    channelActivity(ctx, "notification_channel.tested", row),
  ]);
  return { deliveryId };
});

export const redeliverNotification = defineCommand("notification.redeliver", async (ctx, _actor, input: { channelId: string; deliveryId: string }) => {
  const row = await loadChannel(ctx, input.channelId);
  const d = schema.notificationDeliveries;
  const [delivery] = await ctx.db
    .select()
    .from(d)
    .where(and(eq(d.id, input.deliveryId), eq(d.channelId, row.id)));
  if (!delivery) throw notFound("Delivery not found");
  if (delivery.status === "pending") throw conflict("The delivery is still pending", { status: delivery.status });
  await ctx.batch([
    ctx.db.update(d).set({ status: "pending", nextAttemptAt: ctx.now, lastError: null, updatedAt: ctx.now }).where(eq(d.id, delivery.id)),
    channelActivity(ctx, "notification_channel.redelivered", row, { deliveryId: delivery.id }),
  ]);
  return { deliveryId: delivery.id };
});

/** The channel's secret, opened for one send (never stored or logged). */
export async function openChannelTarget(
  env: Env,
  db: Parameters<typeof resolveEnvBindings>[1],
  row: Pick<ChannelRow, "companyId" | "kind" | "target">,
): Promise<string> {
  const key = SECRET_KEY[row.kind];
  const resolved = await resolveEnvBindings(env, db, row.companyId, { [key]: row.target });
  const value = resolved[key];
  if (!value) throw unprocessable("The channel's secret is empty");
  return value;
}

export const channelCommands = [createChannel, updateChannel, deleteChannel, testChannel, redeliverNotification];
