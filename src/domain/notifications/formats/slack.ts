// Slack incoming webhook: a Block Kit message (header, body, fields, who and which company, the
// console link) with a mrkdwn `text` fallback for notifications and old clients. Slack answers
// 200 `ok`; errors are a status with a code as the body text (`no_service`, `channel_not_found`,
// `invalid_token`, `invalid_payload`); 429 carries Retry-After.
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import { outcomeOf, type ServiceAnswer } from "./answer";
import { cut, escapeSlack, fitEscaped, oneLine, urlForMarkup } from "./text";

export interface SlackSettings {
  /** The incoming webhook URL (a secret: anyone holding it can post). */
  webhookUrl: string;
}

/** Block Kit limits (characters). */
export const SLACK_LIMITS = { header: 150, sectionText: 3000, fieldText: 2000, fieldsPerSection: 10, maxFields: 20, contextText: 3000 };

const LEVEL_MARK = { info: "", warning: "⚠️ ", error: "🔴 " } as const;

const mrkdwn = (text: string) => ({ type: "mrkdwn", text });
const link = (n: Notification) => `<${escapeSlack(urlForMarkup(n.link.url))}|${fitEscaped(oneLine(n.link.label), 200, escapeSlack)}>`;

/** The message Slack is sent (the request body). */
export function slackMessage(n: Notification) {
  const title = oneLine(n.title);
  const blocks: unknown[] = [{ type: "header", text: { type: "plain_text", text: cut(LEVEL_MARK[n.level] + title, SLACK_LIMITS.header), emoji: true } }];
  if (n.body.trim()) blocks.push({ type: "section", text: mrkdwn(fitEscaped(n.body, SLACK_LIMITS.sectionText, escapeSlack)) });
  const fields = n.fields.slice(0, SLACK_LIMITS.maxFields).map((f) => {
    const label = `*${fitEscaped(oneLine(f.label), 100, escapeSlack)}*\n`;
    return mrkdwn(label + (fitEscaped(f.value, SLACK_LIMITS.fieldText - label.length, escapeSlack) || "—"));
  });
  for (let i = 0; i < fields.length; i += SLACK_LIMITS.fieldsPerSection)
    blocks.push({ type: "section", fields: fields.slice(i, i + SLACK_LIMITS.fieldsPerSection) });
  const who = [n.actor, n.company.name].filter((part): part is string => !!part).map(oneLine);
  blocks.push({ type: "context", elements: [mrkdwn(fitEscaped(who.join(" · "), SLACK_LIMITS.contextText, escapeSlack))] });
  // A link rather than a button: a button posted by an incoming webhook (no app behind it) shows a
  // warning when clicked, since Slack expects an app to acknowledge the interaction.
  blocks.push({ type: "section", text: mrkdwn(link(n)) });
  const text = `${fitEscaped(`${title} (${n.company.name})`, SLACK_LIMITS.sectionText - 300, escapeSlack)} — ${link(n)}`;
  return { text, blocks };
}

export function slackRequest(n: Notification, settings: SlackSettings): OutboundRequest {
  return { url: settings.webhookUrl, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(slackMessage(n)) };
}

/** 200 `ok` delivered; 429 (Retry-After) and 5xx retried; 403/404/410 (`invalid_token`, `no_service`, `channel_not_found`, …) and other 4xx failed. */
export function classifySlackAnswer(answer: ServiceAnswer, nowMs = Date.now()): DeliveryOutcome {
  // Slack's error bodies are a bare code (`no_service`); anything else (a proxy's page) is left out.
  return outcomeOf("Slack", answer, { detail: /^[a-z_]{1,60}$/.test(answer.body.trim()) ? answer.body.trim() : null }, nowMs);
}
