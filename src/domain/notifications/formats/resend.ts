// Email through Resend: `POST /emails` with a bearer key. Answers 200 `{ id }`; errors are
// `{ statusCode, name, message }` (401 missing_api_key, 403 invalid_api_key, 422 validation_error,
// 429 rate_limit_exceeded with Retry-After).
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import { answerJson, detailOf, outcomeOf, property, type ServiceAnswer } from "./answer";
import { type EmailSettings, emailContent } from "./email";

export const RESEND_API_BASE_URL = "https://api.resend.com";

export function resendRequest(n: Notification, settings: EmailSettings): OutboundRequest {
  const { subject, text, html } = emailContent(n);
  return {
    url: `${(settings.apiBaseUrl || RESEND_API_BASE_URL).replace(/\/+$/, "")}/emails`,
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${settings.apiKey}` },
    body: JSON.stringify({ from: settings.from, to: settings.to, subject, text, html }),
  };
}

/** 2xx delivered; 429 (Retry-After) and 5xx retried; 401/403 (the key), 422 (a bad address or unverified domain) and other 4xx failed. */
export function classifyResendAnswer(answer: ServiceAnswer, nowMs = Date.now()): DeliveryOutcome {
  const json = answerJson(answer);
  const name = detailOf(property(json, "name"));
  const message = detailOf(property(json, "message"));
  return outcomeOf("Resend", answer, { detail: name && message ? `${name}: ${message}` : (name ?? message) }, nowMs);
}
