// Microsoft Teams through a workflow ("Post to a channel when a webhook request is received"): a
// message with one Adaptive Card 1.4 (title, body, facts, who and which company, an Open URL
// action). The workflow answers 202 (or 200) when it accepts the request; 429 carries Retry-After.
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import { answerJson, detailOf, outcomeOf, property, type ServiceAnswer } from "./answer";
import { cut, oneLine } from "./text";

export interface TeamsSettings {
  /** The workflow's webhook URL (a secret: it carries the signature that lets anyone post). */
  webhookUrl: string;
}

/** Teams takes messages up to about 28 KB; these keep a card well below it. */
export const TEAMS_LIMITS = { title: 300, body: 6000, facts: 20, factTitle: 100, factValue: 500, context: 300, actionTitle: 100 };

const TITLE_COLOR = { info: "Default", warning: "Warning", error: "Attention" } as const;

/** The Adaptive Card (texts are plain JSON strings; the card is built by structure, never by concatenating markup). */
export function teamsCard(n: Notification) {
  const body: unknown[] = [
    { type: "TextBlock", text: cut(oneLine(n.title), TEAMS_LIMITS.title), size: "Large", weight: "Bolder", color: TITLE_COLOR[n.level], wrap: true },
  ];
  if (n.body.trim()) body.push({ type: "TextBlock", text: cut(n.body.trim(), TEAMS_LIMITS.body), wrap: true });
  if (n.fields.length)
    body.push({
      type: "FactSet",
      facts: n.fields
        .slice(0, TEAMS_LIMITS.facts)
        .map((f) => ({ title: cut(oneLine(f.label), TEAMS_LIMITS.factTitle), value: cut(f.value, TEAMS_LIMITS.factValue) || "—" })),
    });
  const who = [n.actor, n.company.name].filter((part): part is string => !!part).map(oneLine);
  body.push({ type: "TextBlock", text: cut(who.join(" · "), TEAMS_LIMITS.context), isSubtle: true, size: "Small", wrap: true });
  return {
    type: "AdaptiveCard",
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    version: "1.4",
    body,
    actions: [{ type: "Action.OpenUrl", title: cut(oneLine(n.link.label), TEAMS_LIMITS.actionTitle), url: n.link.url }],
    msteams: { width: "Full" },
  };
}

/** The message the workflow is sent (the request body). */
export const teamsMessage = (n: Notification) => ({
  type: "message",
  attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: teamsCard(n) }],
});

export function teamsRequest(n: Notification, settings: TeamsSettings): OutboundRequest {
  return { url: settings.webhookUrl, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(teamsMessage(n)) };
}

/** 200/202 delivered; 429 (Retry-After) and 5xx retried; other 4xx (the workflow deleted or off, a bad card) failed. */
export function classifyTeamsAnswer(answer: ServiceAnswer, nowMs = Date.now()): DeliveryOutcome {
  const error = property(answerJson(answer), "error");
  const code = detailOf(property(error, "code"));
  const message = detailOf(property(error, "message"));
  return outcomeOf("Teams", answer, { detail: code && message ? `${code}: ${message}` : (code ?? message) }, nowMs);
}
