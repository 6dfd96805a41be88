// Redaction of secret-looking values in responses, activity details and approval payloads.
import { isSensitiveKey } from "./sensitive-keys";

export const REDACTED = "***REDACTED***";

const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const SERVICE_KEY_SHAPE = /^svc_(board|agent)_[A-Za-z0-9_-]{16,}$/;

const looksLikeCredential = (value: string) => JWT_SHAPE.test(value) || SERVICE_KEY_SHAPE.test(value);

/**
 * Deep copy with string values under secret-like keys, and any JWT- or
 * API-key-shaped string, replaced by `***REDACTED***`. Objects under
 * sensitive keys (for example secret reference bindings) are kept.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (depth > 32) return value;
  if (typeof value === "string") return (looksLikeCredential(value) ? REDACTED : value) as T;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = typeof v === "string" && isSensitiveKey(k) && v.length > 0 ? REDACTED : redactSecrets(v, depth + 1);
    }
    return out as T;
  }
  return value;
}
