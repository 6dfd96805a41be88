// A service's HTTP answer and the rule every format's classifier starts from: 2xx delivered; 408,
// 429 and 5xx retried (after the wait the service asked for, when it said); any other status a
// permanent refusal. Each service adds how it says why and how long to wait.
import { retryAfterSeconds } from "../../events/delivery";
import type { DeliveryOutcome } from "../message";

/** What the delivery engine read from the service: status, headers and the body as text. */
export interface ServiceAnswer {
  status: number;
  headers: Headers | Record<string, string>;
  body: string;
}

/** Error texts kept from a service's answer (characters). */
const DETAIL_KEEP = 200;

/** A header of the answer, case-insensitively; null when absent. */
export function answerHeader(answer: ServiceAnswer, name: string): string | null {
  if (answer.headers instanceof Headers) return answer.headers.get(name);
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(answer.headers)) if (key.toLowerCase() === wanted) return value;
  return null;
}

/** The body as JSON, or null when it is not JSON. */
export function answerJson(answer: ServiceAnswer): unknown {
  try {
    return JSON.parse(answer.body);
  } catch {
    return null;
  }
}

/** A JSON object's property, when the value is an object. */
export const property = (value: unknown, key: string): unknown =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;

/** Seconds (a whole or decimal number) as milliseconds, rounded up; null when not a non-negative number. */
export function secondsToMs(value: unknown): number | null {
  const seconds = typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : null;
}

/** The answer's Retry-After (seconds, decimal seconds or an HTTP date) in milliseconds from `nowMs`; null when absent or unreadable. */
export function retryAfterHeaderMs(answer: ServiceAnswer, nowMs: number): number | null {
  const header = answerHeader(answer, "retry-after");
  if (header === null) return null;
  const ms = secondsToMs(header);
  if (ms !== null) return ms;
  const seconds = retryAfterSeconds(header, nowMs);
  return seconds === null ? null : seconds * 1000;
}

/** A short, single-line detail from a service's error text (never the whole body). */
export const detailOf = (text: unknown): string | null =>
  typeof text === "string" && text.trim() ? text.replace(/\s+/g, " ").trim().slice(0, DETAIL_KEEP) : null;

/**
 * The common rule, given what the service's answer says: `detail` (its error code or message) and
 * `retryAfterMs` (the wait it asked for; the Retry-After header when the service has no other way).
 */
export function outcomeOf(
  service: string,
  answer: ServiceAnswer,
  said: { detail?: string | null; retryAfterMs?: number | null },
  nowMs: number,
): DeliveryOutcome {
  const { status } = answer;
  if (status >= 200 && status < 300) return { kind: "delivered", status };
  const error = `${service}: HTTP ${status}${said.detail ? ` ${said.detail}` : ""}`;
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = said.retryAfterMs ?? retryAfterHeaderMs(answer, nowMs);
    return { kind: "retry", status, retryAfterMs, error };
  }
  return { kind: "failed", status, error };
}
