// Web push to a member's installed console: the payload the service worker shows (JSON), encrypted
// for the subscription (src/crypto/web-push.ts) and sent to its push service with the instance's
// VAPID identification. Push services answer 201 Created; 404/410 mean the subscription is gone
// (remove it), 413 the payload is too large, 429 carries Retry-After.
import {
  encryptPushPayload,
  type EncryptOptions,
  PUSH_DEFAULT_TTL_SEC,
  type PushSubscriptionKeys,
  type VapidKeys,
  vapidHeaders,
} from "../../../crypto/web-push";
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import { outcomeOf, type ServiceAnswer } from "./answer";
import { cut, oneLine } from "./text";

/** A browser's subscription, as `PushSubscription.toJSON()` gives it. */
export interface PushSubscription {
  endpoint: string;
  keys: PushSubscriptionKeys;
}

export interface PushSettings {
  subscription: PushSubscription;
  vapid: VapidKeys;
  /** The VAPID contact: `mailto:` an operator's address, or an https: URL of the service. */
  subject: string;
}

/** What the console's service worker receives (JSON): enough for `showNotification` and the click. */
export interface PushPayload {
  title: string;
  body: string;
  /** The console page the notification opens. */
  url: string;
  /** Notifications with the same tag replace each other: the page they open (a second message about the same approval replaces the first). */
  tag: string;
  level: Notification["level"];
  eventType: string;
  companyId: string;
}

export const PUSH_LIMITS = { title: 200, body: 1000 };

/** The payload's JSON, UTF-8 (well under the 3993 bytes a push message can carry). */
export function pushPayload(n: Notification): Uint8Array {
  const who = [n.actor, n.company.name]
    .filter((part): part is string => !!part)
    .map(oneLine)
    .join(" · ");
  const lines = [n.body.trim(), ...n.fields.slice(0, 5).map((f) => `${oneLine(f.label)}: ${oneLine(f.value)}`), who].filter(Boolean);
  const payload: PushPayload = {
    title: cut(oneLine(n.title), PUSH_LIMITS.title),
    body: cut(lines.join("\n"), PUSH_LIMITS.body),
    url: n.link.url,
    tag: n.link.url,
    level: n.level,
    eventType: n.eventType,
    companyId: n.company.id,
  };
  return new TextEncoder().encode(JSON.stringify(payload));
}

export interface PushRequestOptions {
  /** Seconds the push service keeps the message for an offline browser. */
  ttlSec?: number;
  /** RFC 8030 Urgency; "high" for errors by default in `pushNotificationRequest`. */
  urgency?: "very-low" | "low" | "normal" | "high";
  /** Encryption inputs fixed for a test (salt, sender keys). */
  encryption?: Omit<EncryptOptions, "ttlSec">;
}

/** The request to the subscription's push service: the encrypted payload, its headers and the VAPID Authorization. */
export async function pushRequest(
  subscription: PushSubscription,
  payload: Uint8Array,
  vapid: VapidKeys,
  subject: string,
  options: PushRequestOptions = {},
): Promise<OutboundRequest> {
  const encrypted = await encryptPushPayload(subscription.keys, payload, { ...options.encryption, ttlSec: options.ttlSec ?? PUSH_DEFAULT_TTL_SEC });
  const { Authorization } = await vapidHeaders(subscription.endpoint, vapid, subject);
  return {
    url: subscription.endpoint,
    method: "POST",
    headers: {
      authorization: Authorization,
      "content-encoding": encrypted.headers["Content-Encoding"],
      "content-type": encrypted.headers["Content-Type"],
      ttl: encrypted.headers.TTL,
      ...(options.urgency ? { urgency: options.urgency } : {}),
    },
    body: encrypted.body,
  };
}

/** A notification as a push request (what the delivery engine calls, like the other formats' requests). */
export function pushNotificationRequest(n: Notification, settings: PushSettings, options: PushRequestOptions = {}): Promise<OutboundRequest> {
  return pushRequest(settings.subscription, pushPayload(n), settings.vapid, settings.subject, {
    urgency: n.level === "error" ? "high" : "normal",
    ...options,
  });
}

export const PUSH_SUBSCRIPTION_GONE = "subscription gone";

/** 2xx (201) delivered; 404/410 failed ("subscription gone": remove it); 413 failed; 429 (Retry-After) and 5xx retried; other 4xx (VAPID refused, a bad request) failed. */
export function classifyPushAnswer(answer: ServiceAnswer, nowMs = Date.now()): DeliveryOutcome {
  const detail =
    answer.status === 404 || answer.status === 410
      ? PUSH_SUBSCRIPTION_GONE
      : answer.status === 413
        ? "payload too large"
        : answer.status === 401 || answer.status === 403
          ? "VAPID identification refused"
          : null;
  return outcomeOf("Web push", answer, { detail }, nowMs);
}

/** Whether a push delivery's outcome means its subscription no longer exists (the engine deletes it). */
export const isSubscriptionGone = (outcome: DeliveryOutcome) => outcome.kind === "failed" && (outcome.status === 404 || outcome.status === 410);
