// Email through Postmark: `POST /email` with the server token in X-Postmark-Server-Token, on the
// transactional ("outbound") message stream. Answers 200 `{ ErrorCode: 0, Message: "OK",
// MessageID }`; errors `{ ErrorCode, Message }` (401 a bad token, 422 an invalid or inactive
// recipient, 429 rate limited, 500).
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import { answerJson, detailOf, outcomeOf, property, type ServiceAnswer } from "./answer";
import { type EmailSettings, emailContent } from "./email";

export const POSTMARK_API_BASE_URL = "https://api.postmarkapp.com";

export function postmarkRequest(n: Notification, settings: EmailSettings): OutboundRequest {
  const { subject, text, html } = emailContent(n);
  return {
    url: `${(settings.apiBaseUrl || POSTMARK_API_BASE_URL).replace(/\/+$/, "")}/email`,
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-postmark-server-token": settings.apiKey },
    body: JSON.stringify({ From: settings.from, To: settings.to.join(", "), Subject: subject, TextBody: text, HtmlBody: html, MessageStream: "outbound" }),
  };
}

/** 200 with ErrorCode 0 delivered; 429 (Retry-After) and 5xx retried; 401 (the token), 422 (`ErrorCode` says why) and other 4xx failed. */
export function classifyPostmarkAnswer(answer: ServiceAnswer, nowMs = Date.now()): DeliveryOutcome {
  const json = answerJson(answer);
  const code = property(json, "ErrorCode");
  const message = detailOf(property(json, "Message"));
  const detail = typeof code === "number" && code !== 0 ? `ErrorCode ${code}${message ? `: ${message}` : ""}` : message;
  if (answer.status >= 200 && answer.status < 300 && typeof code === "number" && code !== 0)
    return { kind: "failed", status: answer.status, error: `Postmark: ${detail}` };
  return outcomeOf("Postmark", answer, { detail }, nowMs);
}
