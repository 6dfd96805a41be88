// Webhook trigger credentials: the secret (generated, stored encrypted, bound to its trigger) and
// the signature check of each signing mode, in constant time.
//   bearer       Authorization: Bearer <secret>
//   hmac_sha256  hex HMAC-SHA256(secret, rawBody) in X-Service-Signature or X-Hub-Signature-256 (`sha256=` prefix accepted)
//   vendor_hmac  the same over "<timestamp>." + rawBody, timestamp in X-Service-Timestamp (seconds,
//                or milliseconds above 1e12) within the replay window; replays are refused by the caller
//   none         no signature
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { decryptSecretValue, encryptSecretValue, importMasterKey } from "../../crypto/secret-encryption";
import { randomToken } from "../../crypto/random";
import { constantTimeEqual } from "../../crypto/hash";

export { constantTimeEqual };
import { HttpError } from "../errors";
import type { SigningMode } from "../../db/schema/routines";

export const newWebhookSecret = () => `whsec_${randomToken(32)}`;
export const newPublicId = () => randomToken(24);

/** The stored (encrypted) form of a trigger's secret; the trigger id and secret version are authenticated with it. */
export async function sealWebhookSecret(env: Env, triggerId: string, version: number, secret: string): Promise<string> {
  const key = await importMasterKey(env.SECRETS_MASTER_KEY);
  return JSON.stringify(await encryptSecretValue(key, secret, `routine-trigger:${triggerId}:${version}`));
}

export async function openWebhookSecret(env: Env, triggerId: string, version: number, sealed: string): Promise<string> {
  const key = await importMasterKey(env.SECRETS_MASTER_KEY);
  return decryptSecretValue(key, JSON.parse(sealed), `routine-trigger:${triggerId}:${version}`);
}

/** Hex HMAC-SHA256 over the exact bytes (never a decoded and re-encoded copy). */
const hmacHex = (secret: string, message: Uint8Array) => bytesToHex(hmac(sha256, utf8ToBytes(secret), message));

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export interface SignedRequest {
  authorization?: string | null;
  serviceSignature?: string | null;
  hubSignature?: string | null;
  timestamp?: string | null;
  /** The request body's exact bytes. */
  rawBody: Uint8Array;
}

export interface VerifiedSignature {
  /** vendor_hmac: the signature, to be remembered until `expiresAt` (ms) so a replay is refused. */
  replayKey?: { signature: string; expiresAt: number };
}

const refused = (message: string) => new HttpError(401, message);

/** Checks the request's credential for `mode`; throws 401 naming what is missing or wrong. */
export function verifyWebhookSignature(mode: SigningMode, secret: string, request: SignedRequest, replayWindowSec: number, now: number): VerifiedSignature {
  if (mode === "none") return {};
  if (mode === "bearer") {
    const match = /^Bearer\s+(.+)$/i.exec(request.authorization?.trim() ?? "");
    if (!match) throw refused("Missing webhook secret: send Authorization: Bearer <secret>");
    if (!constantTimeEqual(match[1].trim(), secret)) throw refused("Invalid webhook secret");
    return {};
  }
  const header = request.serviceSignature ?? request.hubSignature;
  if (!header) throw refused("Missing webhook signature: send X-Service-Signature or X-Hub-Signature-256");
  const given = header
    .trim()
    .replace(/^sha256=/i, "")
    .toLowerCase();
  if (mode === "hmac_sha256") {
    if (!constantTimeEqual(given, hmacHex(secret, request.rawBody))) throw refused("Invalid webhook signature");
    return {};
  }
  const rawTimestamp = request.timestamp?.trim();
  if (!rawTimestamp) throw refused("Missing X-Service-Timestamp for a timestamped signature");
  if (!/^\d{1,16}$/.test(rawTimestamp)) throw refused("X-Service-Timestamp must be seconds (or milliseconds) since the epoch");
  const value = Number(rawTimestamp);
  const sentAt = value > 1e12 ? value : value * 1000;
  if (!constantTimeEqual(given, hmacHex(secret, concat(utf8ToBytes(`${rawTimestamp}.`), request.rawBody)))) throw refused("Invalid webhook signature");
  const windowMs = replayWindowSec * 1000;
  if (Math.abs(now - sentAt) > windowMs) throw refused(`Webhook timestamp is outside the replay window of ${replayWindowSec} seconds`);
  return { replayKey: { signature: given, expiresAt: sentAt + windowMs } };
}
