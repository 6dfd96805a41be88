// A notification as every channel renders it (src/domain/notifications/formats/): what happened in
// one line, a few plain-text facts, who did it and one link back into the console. Built from an
// event (already redacted) and names read from the company; never a secret, never another
// company's data. The formats turn it into each service's own request.

export type NotificationLevel = "info" | "warning" | "error";

export interface Notification {
  /** The event it announces (`approval.created`, `question.asked`, …) or `digest`. */
  eventType: string;
  /** What happened, one line without markup: "Approval waiting: Buy a domain". */
  title: string;
  /** Detail in plain text (may have several lines; no markup: each format escapes it). */
  body: string;
  /** Who did it: "Ada (agent)", "Sam Lee", "The service"; null when no one in particular. */
  actor: string | null;
  /** Facts shown as label/value pairs: Issue, Agent, Status, Spend… (plain text). */
  fields: Array<{ label: string; value: string }>;
  /** The one console link: an absolute URL and what it opens. */
  link: { url: string; label: string };
  level: NotificationLevel;
  company: { id: string; name: string };
}

/** One HTTP request a channel makes to its service. */
export interface OutboundRequest {
  url: string;
  method: "POST";
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/**
 * What a service's answer means for the delivery: delivered, try again later (after `retryAfterMs`
 * when the service said so: a 429's Retry-After, Discord's retry_after, Telegram's
 * parameters.retry_after), or never (a permanent refusal: the target is gone, the token revoked).
 */
export type DeliveryOutcome =
  | { kind: "delivered"; status: number }
  | { kind: "retry"; status: number | null; retryAfterMs: number | null; error: string }
  | { kind: "failed"; status: number; error: string };
