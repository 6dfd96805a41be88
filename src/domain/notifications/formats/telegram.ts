// Telegram Bot API `sendMessage` with the HTML parse mode: every text escaped (&, <, >), only tags
// Telegram supports (<b>, <i>, <a href>), no link preview. The bot token is part of the URL's path:
// never log the request's URL, and no error text here carries it (`redactBotToken` for the
// engine's own network errors). Answers are `{ ok, result }` or `{ ok: false, error_code,
// description, parameters: { retry_after, migrate_to_chat_id } }`.
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import { answerJson, detailOf, outcomeOf, property, secondsToMs, type ServiceAnswer } from "./answer";
import { cut, escapeTelegram, escapeTelegramAttribute, fitEscaped, oneLine } from "./text";

export const TELEGRAM_API_BASE_URL = "https://api.telegram.org";

export interface TelegramSettings {
  /** The bot token (a secret). */
  botToken: string;
  /** A numeric chat id ("-1001234567890") or a public channel's "@name". */
  chatId: string;
  /** The Bot API server; the public one when null or absent (set for a self-hosted server or a test). */
  apiBaseUrl?: string | null;
}

/** A message's text, at most (Telegram counts it after parsing the entities; the markup is counted here too, to be safe). */
export const TELEGRAM_TEXT_LIMIT = 4096;

const LEVEL_MARK = { info: "", warning: "⚠️ ", error: "🔴 " } as const;

/** What the body leaves the fields at least (when they need it). */
const FIELDS_RESERVE = 1200;

/** The message's HTML text: title in bold, the body, the fields, who and which company, the link. */
export function telegramText(n: Notification): string {
  const title = `<b>${escapeTelegram(cut(LEVEL_MARK[n.level] + oneLine(n.title), 300))}</b>`;
  const who = [n.actor, n.company.name].filter((part): part is string => !!part).map(oneLine);
  const footer = [
    who.length ? `<i>${escapeTelegram(cut(who.join(" · "), 300))}</i>` : "",
    `<a href="${escapeTelegramAttribute(n.link.url)}">${escapeTelegram(cut(oneLine(n.link.label), 200))}</a>`,
  ]
    .filter(Boolean)
    .join("\n");
  const wanted = n.fields.slice(0, 20).map((f) => ({ label: `<b>${escapeTelegram(cut(oneLine(f.label), 100))}:</b> `, plain: oneLine(f.value) }));
  const lines = wanted.map((f) => f.label + fitEscaped(f.plain, 500, escapeTelegram));
  // One budget for the message (4096 characters with the blank lines between the parts): the body first, leaving the fields some room; then the fields while it lasts.
  const fixed = title.length + footer.length + 6;
  const fieldsNeed = lines.reduce((sum, line) => sum + line.length + 1, 0);
  const bodyRoom = TELEGRAM_TEXT_LIMIT - fixed - Math.min(fieldsNeed, FIELDS_RESERVE);
  const body = n.body.trim() ? fitEscaped(n.body.trim(), Math.max(0, bodyRoom), escapeTelegram) : "";
  let left = TELEGRAM_TEXT_LIMIT - fixed - body.length;
  const fields: string[] = [];
  for (const [i, f] of wanted.entries()) {
    const line = lines[i].length + 1 <= left ? lines[i] : f.label + fitEscaped(f.plain, left - f.label.length - 1, escapeTelegram);
    if (line.length === f.label.length) break;
    fields.push(line);
    left -= line.length + 1;
  }
  return [body ? `${title}\n${body}` : title, fields.join("\n"), footer].filter(Boolean).join("\n\n");
}

export function telegramRequest(n: Notification, settings: TelegramSettings): OutboundRequest {
  const base = (settings.apiBaseUrl || TELEGRAM_API_BASE_URL).replace(/\/+$/, "");
  return {
    url: `${base}/bot${settings.botToken}/sendMessage`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chat_id: settings.chatId, text: telegramText(n), parse_mode: "HTML", link_preview_options: { is_disabled: true } }),
  };
}

/** A bot token (`<bot id>:<secret>`) anywhere in `text` replaced by `bot[redacted]`: for network errors that may quote the URL. */
export const redactBotToken = (text: string) => text.replace(/(bot)?\d{5,}:[A-Za-z0-9_-]{20,}/g, "bot[redacted]");

/** `{ ok: true }` delivered; 429 retried after `parameters.retry_after`; 5xx retried; 400 (chat not found), 401/404 (bad token), 403 (bot blocked or kicked) failed. */
export function classifyTelegramAnswer(answer: ServiceAnswer, nowMs = Date.now()): DeliveryOutcome {
  const json = answerJson(answer);
  const parameters = property(json, "parameters");
  const migratedTo = property(parameters, "migrate_to_chat_id");
  const description = detailOf(property(json, "description"));
  const detail = description && migratedTo !== undefined ? `${description} (the group is now chat ${migratedTo})` : description;
  if (answer.status >= 200 && answer.status < 300 && property(json, "ok") === false)
    return { kind: "failed", status: answer.status, error: redactBotToken(`Telegram: ${detail ?? "ok: false"}`) };
  const outcome = outcomeOf("Telegram", answer, { detail, retryAfterMs: secondsToMs(property(parameters, "retry_after")) }, nowMs);
  return outcome.kind === "delivered" ? outcome : { ...outcome, error: redactBotToken(outcome.error) };
}
