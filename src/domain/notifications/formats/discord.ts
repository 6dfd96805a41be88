// Discord webhook: one embed (title linking to the console, the body, fields, who and which
// company, the level as its colour), `?wait=true` so Discord answers with the message (200) once
// it is posted, and `allowed_mentions: { parse: [] }` so no text can ever ping anyone. A 429 says
// how long to wait in its JSON `retry_after` (seconds, a decimal) and in Retry-After.
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import { answerJson, detailOf, outcomeOf, property, secondsToMs, type ServiceAnswer } from "./answer";
import { cut, escapeDiscord, fitEscaped, oneLine, urlForMarkup } from "./text";

export interface DiscordSettings {
  /** The webhook URL (a secret: anyone holding it can post); it may carry `?thread_id=`. */
  webhookUrl: string;
}

/** Embed limits (characters); `total` is the sum of every text in an embed. */
export const DISCORD_LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, total: 6000 };

export const DISCORD_COLORS = { info: 0x5865f2, warning: 0xf0b232, error: 0xed4245 } as const;

/** Fields this short sit side by side. */
const INLINE_MAX = 40;

/** What the body leaves the fields at least, of the embed's 6000 characters (when they need it). */
const FIELDS_RESERVE = 1500;

/** The message Discord is sent (the request body); `timestamp` is when it happened (ISO). */
export function discordMessage(n: Notification, timestamp: string) {
  const title = cut(oneLine(n.title), DISCORD_LIMITS.title);
  const footer = cut(
    [n.actor, n.company.name]
      .filter((part): part is string => !!part)
      .map(oneLine)
      .join(" · "),
    300,
  );
  const linkLine = `[${fitEscaped(oneLine(n.link.label), 200, escapeDiscord)}](${urlForMarkup(n.link.url)})`;
  const wanted = n.fields.slice(0, DISCORD_LIMITS.fields).map((f) => ({
    name: cut(oneLine(f.label), DISCORD_LIMITS.fieldName) || "—",
    value: fitEscaped(f.value, DISCORD_LIMITS.fieldValue, escapeDiscord) || "—",
    plain: f.value,
  }));
  // One budget for the embed (6000 characters in all): the body first, leaving the fields some room; then the fields, in order, while it lasts.
  const fixed = title.length + footer.length + linkLine.length + 2;
  const fieldsNeed = wanted.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
  const bodyRoom = Math.min(DISCORD_LIMITS.description - linkLine.length - 2, DISCORD_LIMITS.total - fixed - Math.min(fieldsNeed, FIELDS_RESERVE));
  const body = n.body.trim() ? fitEscaped(n.body.trim(), Math.max(0, bodyRoom), escapeDiscord) : "";
  let left = DISCORD_LIMITS.total - fixed - body.length;
  const fields: Array<{ name: string; value: string; inline: boolean }> = [];
  for (const f of wanted) {
    const value = f.name.length + f.value.length <= left ? f.value : fitEscaped(f.plain, left - f.name.length, escapeDiscord);
    if (!value) break;
    fields.push({ name: f.name, value, inline: f.plain.length <= INLINE_MAX && !f.plain.includes("\n") });
    left -= f.name.length + value.length;
  }
  return {
    embeds: [
      {
        title,
        description: body ? `${body}\n\n${linkLine}` : linkLine,
        url: n.link.url,
        color: DISCORD_COLORS[n.level],
        fields,
        footer: { text: footer },
        timestamp,
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function discordRequest(n: Notification, settings: DiscordSettings, timestamp = new Date().toISOString()): OutboundRequest {
  const url = new URL(settings.webhookUrl);
  url.searchParams.set("wait", "true");
  return { url: url.toString(), method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(discordMessage(n, timestamp)) };
}

/** 200/204 delivered; 429 retried after its `retry_after` (or Retry-After); 5xx retried; 401/403/404 (`Unknown Webhook`) and other 4xx failed. */
export function classifyDiscordAnswer(answer: ServiceAnswer, nowMs = Date.now()): DeliveryOutcome {
  const json = answerJson(answer);
  const code = property(json, "code");
  const message = detailOf(property(json, "message"));
  return outcomeOf(
    "Discord",
    answer,
    { detail: message && typeof code === "number" ? `${message} (${code})` : message, retryAfterMs: secondsToMs(property(json, "retry_after")) },
    nowMs,
  );
}
