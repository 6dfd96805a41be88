// Webhook delivery decisions, pure: what an attempt's outcome means for the delivery (done, retry
// when, or failed) and for its subscription (still failing since when, or disabled), and the
// signed request. At least once, in event order per subscription: a 2xx acknowledges; network
// errors, timeouts, 5xx and 429 are retried with exponential back-off and jitter (about 10 s,
// doubling, Retry-After honoured as a minimum) for about 24 h; any other 4xx fails at once.
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { timestampedSignature } from "../../crypto/webhook-signature";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const FIRST_RETRY_MS = 10_000;
export const MAX_RETRY_MS = 60 * 60_000;
/** A delivery is given up this long after its event. */
export const DELIVERY_GIVE_UP_MS = 24 * 3600_000;
/** A subscription whose every attempt has failed this long is disabled. */
export const SUBSCRIPTION_DISABLE_MS = 24 * 3600_000;
/** Response bodies kept with a delivery (characters). */
export const RESPONSE_BODY_KEEP = 1_000;

export type AttemptOutcome = { kind: "response"; status: number; retryAfterSec?: number | null } | { kind: "network"; error: string };

export type DeliveryDecision = { status: "succeeded" } | { status: "failed"; reason: string } | { status: "pending"; nextAttemptAt: string };

/** Parses Retry-After (seconds, or an HTTP date) into seconds from `nowMs`; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null | undefined, nowMs: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** What happens to a delivery after its `attempts`-th attempt (1-based) ended with `outcome`. */
export function decideDelivery(outcome: AttemptOutcome, attempts: number, eventAt: string, nowMs: number, random = Math.random): DeliveryDecision {
  if (outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300) return { status: "succeeded" };
  const retryable = outcome.kind === "network" || outcome.status >= 500 || outcome.status === 429 || outcome.status === 408;
  if (!retryable) return { status: "failed", reason: `HTTP ${outcome.kind === "response" ? outcome.status : "?"}: not retried` };
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS) * (0.8 + random() * 0.4);
  const retryAfterMs = outcome.kind === "response" && outcome.retryAfterSec ? outcome.retryAfterSec * 1000 : 0;
  const next = nowMs + Math.max(backoff, retryAfterMs);
  if (next - Date.parse(eventAt) > DELIVERY_GIVE_UP_MS) return { status: "failed", reason: "Gave up after 24 h of failed attempts" };
  return { status: "pending", nextAttemptAt: new Date(next).toISOString() };
}

/** A subscription after an attempt: when it started failing (null after a success), and whether it is now disabled. */
export function decideSubscription(failingSince: string | null, succeeded: boolean, nowMs: number): { failingSince: string | null; disable: boolean } {
  if (succeeded) return { failingSince: null, disable: false };
  const since = failingSince ?? new Date(nowMs).toISOString();
  return { failingSince: since, disable: nowMs - Date.parse(since) >= SUBSCRIPTION_DISABLE_MS };
}

/** The request a delivery sends: the event as JSON, signed over "<timestamp>." + these exact bytes. */
export function signedDelivery(event: { id: string; type: string }, secret: string, nowMs: number): { body: Uint8Array; headers: Record<string, string> } {
  const body = utf8ToBytes(JSON.stringify(event));
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": "agent-control-plane-webhooks/1",
      "x-service-event-id": event.id,
      "x-service-event-type": event.type,
      "x-service-timestamp": timestamp,
      "x-service-signature": `sha256=${timestampedSignature(secret, timestamp, body)}`,
    },
  };
}
