// Notification channels and a member's own preferences as the console's forms read them (pure): the
// kinds and what each needs, a new channel's body from its form (the target a URL, or a company
// secret as a reference), what a member may choose to hear about, quiet hours, and the VAPID key as
// bytes for PushManager.subscribe.
import type { Schemas } from "./api";
import type { FieldErrors } from "./field-errors";
import { eventList } from "./webhooks";

export type Channel = Schemas["NotificationChannel"];
export type ChannelKind = Channel["kind"];
export type NotificationDelivery = Schemas["NotificationDelivery"];
export type Preferences = Schemas["NotificationPreferences"];
export type Topic = keyof Preferences["topics"];

export const CHANNEL_KINDS: Array<{ value: ChannelKind; label: string }> = [
  { value: "slack", label: "Slack" },
  { value: "discord", label: "Discord" },
  { value: "teams", label: "Microsoft Teams" },
  { value: "telegram", label: "Telegram" },
  { value: "email", label: "Email (Resend or Postmark)" },
];
export const kindLabel = (kind: string) => CHANNEL_KINDS.find((k) => k.value === kind)?.label ?? kind;

/** Slack, Discord and Teams post to a webhook URL; Telegram and email use a token or key kept as a company secret. */
export const byUrl = (kind: ChannelKind) => kind === "slack" || kind === "discord" || kind === "teams";

export const EMAIL_PROVIDERS = ["resend", "postmark"] as const;

/** Where a channel sends, as far as the API tells: the secret that keeps its URL, token or key, the chat or the recipients. */
export function targetSummary(c: Channel, secretName: (id: string) => string | undefined) {
  const secret = `${c.kind === "telegram" ? "bot token" : c.kind === "email" ? "API key" : "URL"} in the secret ${secretName(c.target.secretId) ?? c.target.secretId}`;
  if (c.kind === "telegram") return `chat ${c.chatId} · ${secret}`;
  if (c.kind === "email") return `${c.provider} from ${c.from} to ${(c.to ?? []).join(", ")} · ${secret}`;
  return secret;
}

/** The events a channel may take (the notable ones; `*` is all of them). */
export const NOTABLE_EVENTS = [
  "approval.created",
  "question.asked",
  "issue.assigned",
  "issue.updated",
  "run.finished",
  "budget.incident_opened",
  "webhook.disabled",
  "notification_channel.disabled",
] as const;

/** What a member may choose to hear about, in the order shown. */
export const TOPICS: Array<{ topic: Topic; label: string }> = [
  { topic: "approvals", label: "An approval is waiting for the board" },
  { topic: "questions", label: "An agent asks you or the board a question" },
  { topic: "assignments", label: "An issue is assigned to you" },
  { topic: "blocked", label: "An issue is set blocked" },
  { topic: "runs", label: "A run fails or times out" },
  { topic: "budgets", label: "A budget warning or hard stop" },
  { topic: "channels", label: "A notification channel or webhook is disabled" },
];

/** A new channel's form as typed. `secretId` "" means a new value typed in `secretValue`. */
export interface ChannelDraft {
  kind: ChannelKind;
  name: string;
  events: string;
  url: string;
  secretId: string;
  secretValue: string;
  chatId: string;
  apiBaseUrl: string;
  provider: string;
  from: string;
  to: string;
}

export type CreateChannel = Schemas["CreateNotificationChannel"];

/** The fields of the new-channel form (API field names), for placing the API's refusals. */
export const CHANNEL_FIELDS = ["kind", "name", "events", "target", "chatId", "apiBaseUrl", "provider", "from", "to"];

/** The request body of a new channel, or what must be fixed first (by field). */
export function channelBody(d: ChannelDraft): { body?: CreateChannel; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const events = eventList(d.events || "*");
  let target: CreateChannel["target"] | undefined;
  if (byUrl(d.kind)) {
    if (!d.url.trim()) errors.target = "The webhook URL is required.";
    else target = d.url.trim();
  } else if (d.secretId) target = { type: "secret_ref", secretId: d.secretId, version: "latest" };
  else if (d.secretValue.trim()) target = d.secretValue.trim();
  else errors.target = d.kind === "telegram" ? "Choose the bot token's secret, or paste the token." : "Choose the API key's secret, or paste the key.";
  if (!d.name.trim()) errors.name = "A name is required.";
  const apiBaseUrl = d.apiBaseUrl.trim() || undefined;
  const common = { kind: d.kind, name: d.name.trim(), events };
  if (Object.keys(errors).length > 0 || target === undefined) return { errors };
  if (d.kind === "telegram") return { body: { ...common, target, chatId: d.chatId.trim(), ...(apiBaseUrl ? { apiBaseUrl } : {}) }, errors };
  if (d.kind === "email") {
    const provider = d.provider === "postmark" ? "postmark" : "resend";
    return { body: { ...common, target, provider, from: d.from.trim(), to: eventList(d.to), ...(apiBaseUrl ? { apiBaseUrl } : {}) }, errors };
  }
  return { body: { ...common, target }, errors };
}

/** Quiet hours are set or cleared together: both times, or neither. */
export function quietHours(start: string, end: string): { quietStart: string | null; quietEnd: string | null } | { error: FieldErrors } {
  if (!start && !end) return { quietStart: null, quietEnd: null };
  if (!start) return { error: { quietStart: "Give the start as well, or clear both." } };
  if (!end) return { error: { quietEnd: "Give the end as well, or clear both." } };
  return { quietStart: start.slice(0, 5), quietEnd: end.slice(0, 5) };
}

/** A base64url string (the VAPID public key) as bytes. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Bytes as base64url without padding (a subscription's keys when the browser gives no JSON). */
export function bytesBase64Url(bytes: ArrayBuffer | null): string {
  if (!bytes) return "";
  let binary = "";
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The time zones to choose from: the browser's list, with UTC and the current one always there. */
export function timeZones(current: string): string[] {
  const list = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set(["UTC", current, ...list])];
}

/** "14:00" for an hour of the day. */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, "0")}:00`;
