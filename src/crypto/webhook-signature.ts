// The timestamped webhook signature, both ways: hex HMAC-SHA256 keyed with the secret's UTF-8 bytes
// over "<timestamp>." followed by the exact body bytes. Outbound deliveries send it as
// `X-Service-Signature: sha256=<hex>` with `X-Service-Timestamp`; inbound routine webhooks
// (vendor_hmac) verify the same scheme.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** Hex HMAC-SHA256 over the exact bytes (never a decoded and re-encoded copy). */
export const hmacSha256Hex = (secret: string, message: Uint8Array) => bytesToHex(hmac(sha256, utf8ToBytes(secret), message));

/** The signature of `body` sent at `timestamp` (as written in the header). */
export function timestampedSignature(secret: string, timestamp: string, body: Uint8Array): string {
  const prefix = utf8ToBytes(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  return hmacSha256Hex(secret, message);
}
