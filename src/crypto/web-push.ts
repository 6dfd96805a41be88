// Web Push with WebCrypto only (Workers; the `web-push` package needs Node's crypto): the
// instance's VAPID keys and the Authorization header that identifies it to a push service
// (RFC 8292), and the message encryption for one subscription (RFC 8291: the aes128gcm content
// coding of RFC 8188, as one record), with its reverse for tests (what the browser does).
import { base64url, SignJWT } from "jose";

/** The instance's VAPID key pair: the public key as the browser's `applicationServerKey` takes it, the private key as a JWK (kept encrypted). */
export interface VapidKeys {
  /** The uncompressed P-256 point (65 bytes), base64url. */
  publicKey: string;
  /** ECDSA P-256 private key: { kty, crv, x, y, d }. */
  privateKey: JsonWebKey;
}

/** A subscription's keys, as `PushSubscription.toJSON().keys` gives them (base64url). */
export interface PushSubscriptionKeys {
  /** The user agent's ECDH P-256 public key, uncompressed (65 bytes). */
  p256dh: string;
  /** The authentication secret (16 bytes). */
  auth: string;
}

/** A VAPID JWT may be valid this long at most (RFC 8292: no more than 24 hours). */
export const VAPID_MAX_LIFETIME_SEC = 24 * 3600;
const VAPID_DEFAULT_LIFETIME_SEC = 12 * 3600;

/** The record size written in the header; one record carries the whole message. */
const RECORD_SIZE = 4096;
const TAG_LENGTH = 16;
const KEY_LENGTH = 65;
/** salt (16) + rs (4) + idlen (1) + keyid (the sender's public key, 65). */
const HEADER_LENGTH = 16 + 4 + 1 + KEY_LENGTH;
/** The largest payload a push service must accept: 4096 bytes of body less the header, the padding delimiter and the tag (RFC 8291, section 4). */
export const PUSH_MAX_PAYLOAD = RECORD_SIZE - HEADER_LENGTH - 1 - TAG_LENGTH;
/** How long a push service keeps an undelivered message by default (seconds). */
export const PUSH_DEFAULT_TTL_SEC = 24 * 3600;

const ECDSA_P256 = { name: "ECDSA", namedCurve: "P-256" } as const;
const ECDH_P256 = { name: "ECDH", namedCurve: "P-256" } as const;
const utf8 = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

function decodeKey(value: string, length: number, what: string): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array;
  try {
    bytes = base64url.decode(value);
  } catch {
    throw new Error(`${what} is not base64url`);
  }
  if (bytes.length !== length || (length === KEY_LENGTH && bytes[0] !== 0x04))
    throw new Error(`${what} must be ${length === KEY_LENGTH ? "an uncompressed P-256 point (65 bytes)" : `${length} bytes`}`);
  return concat(bytes);
}

/** A P-256 private key from its scalar `d` (base64url) and its public point. */
const privateJwk = (d: string, publicPoint: Uint8Array): JsonWebKey => ({
  kty: "EC",
  crv: "P-256",
  x: base64url.encode(publicPoint.subarray(1, 33)),
  y: base64url.encode(publicPoint.subarray(33, 65)),
  d,
});

async function hkdf(
  salt: Uint8Array<ArrayBuffer>,
  ikm: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, length * 8));
}

/** A fresh VAPID key pair (ECDSA P-256), generated once per instance. */
export async function generateVapidKeys(): Promise<VapidKeys> {
  const pair = (await crypto.subtle.generateKey(ECDSA_P256, true, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const { kty, crv, x, y, d } = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return { publicKey: base64url.encode(raw), privateKey: { kty, crv, x, y, d } };
}

/**
 * The VAPID Authorization header for a request to `endpoint` (RFC 8292): an ES256 JWT whose `aud`
 * is the endpoint's origin, `sub` the contact (`mailto:` or `https:`) and `exp` the absolute
 * expiry in seconds (default 12 hours from now, at most 24), with the public key as `k`.
 */
export async function vapidHeaders(endpoint: string, keys: VapidKeys, subject: string, expSec?: number): Promise<{ Authorization: string }> {
  if (!/^(mailto:.+@.+|https:\/\/.+)$/.test(subject)) throw new Error("VAPID subject must be a mailto: address or an https: URL");
  const now = Math.floor(Date.now() / 1000);
  const exp = expSec ?? now + VAPID_DEFAULT_LIFETIME_SEC;
  if (exp > now + VAPID_MAX_LIFETIME_SEC) throw new RangeError("VAPID exp must be at most 24 hours ahead");
  const key = await crypto.subtle.importKey("jwk", keys.privateKey, ECDSA_P256, false, ["sign"]);
  const jwt = await new SignJWT({})
    .setProtectedHeader({ typ: "JWT", alg: "ES256" })
    .setAudience(new URL(endpoint).origin)
    .setExpirationTime(exp)
    .setSubject(subject)
    .sign(key);
  return { Authorization: `vapid t=${jwt}, k=${keys.publicKey}` };
}

export interface EncryptOptions {
  /** The 16-byte salt; random when absent (fixed only to reproduce a known message). */
  salt?: Uint8Array;
  /** The sender's ECDH key pair (base64url: the public point, the private scalar `d`); a fresh one per message when absent. */
  serverKeys?: { publicKey: string; privateKey: string };
  /** The TTL header: how long the push service keeps the message while the browser is offline (seconds). */
  ttlSec?: number;
}

export interface EncryptedPush {
  body: Uint8Array<ArrayBuffer>;
  headers: { "Content-Encoding": "aes128gcm"; "Content-Type": "application/octet-stream"; TTL: string };
}

/** The content encryption key and nonce of one message (RFC 8291, section 3.4). */
async function messageSecrets(
  ecdhSecret: Uint8Array<ArrayBuffer>,
  auth: Uint8Array<ArrayBuffer>,
  uaPublic: Uint8Array,
  asPublic: Uint8Array,
  salt: Uint8Array<ArrayBuffer>,
) {
  const keyInfo = concat(utf8("WebPush: info\0"), uaPublic, asPublic);
  const ikm = await hkdf(auth, ecdhSecret, keyInfo, 32);
  const cek = await hkdf(salt, ikm, utf8("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, utf8("Content-Encoding: nonce\0"), 12);
  return { key: await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt", "decrypt"]), nonce };
}

const ecdh = async (privateKey: CryptoKey, publicPoint: Uint8Array<ArrayBuffer>) => {
  const publicKey = await crypto.subtle.importKey("raw", publicPoint, ECDH_P256, false, []);
  // The standard member is `public`; the Workers types spell it `$public` (their generator's escape), hence the cast.
  const algorithm = { name: "ECDH", public: publicKey } as SubtleCryptoDeriveKeyAlgorithm;
  return new Uint8Array(await crypto.subtle.deriveBits(algorithm, privateKey, 256));
};

/**
 * `payload` encrypted for one subscription (RFC 8291): ECDH between a fresh sender key and the
 * subscription's p256dh, HKDF with its auth secret, AES-128-GCM over the payload and the 0x02
 * delimiter of the last (only) record, behind the RFC 8188 header (salt, rs 4096, the sender's key).
 */
export async function encryptPushPayload(subscription: PushSubscriptionKeys, payload: Uint8Array, options: EncryptOptions = {}): Promise<EncryptedPush> {
  if (payload.length > PUSH_MAX_PAYLOAD) throw new RangeError(`web push payload is ${payload.length} bytes; at most ${PUSH_MAX_PAYLOAD}`);
  const uaPublic = decodeKey(subscription.p256dh, KEY_LENGTH, "p256dh");
  const auth = decodeKey(subscription.auth, 16, "auth");
  const salt = concat(options.salt ?? crypto.getRandomValues(new Uint8Array(16)));
  if (salt.length !== 16) throw new Error("salt must be 16 bytes");
  let asPublic: Uint8Array<ArrayBuffer>;
  let asPrivate: CryptoKey;
  if (options.serverKeys) {
    asPublic = decodeKey(options.serverKeys.publicKey, KEY_LENGTH, "server public key");
    asPrivate = await crypto.subtle.importKey("jwk", privateJwk(options.serverKeys.privateKey, asPublic), ECDH_P256, false, ["deriveBits"]);
  } else {
    const pair = (await crypto.subtle.generateKey(ECDH_P256, false, ["deriveBits"])) as CryptoKeyPair;
    asPublic = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
    asPrivate = pair.privateKey;
  }
  const { key, nonce } = await messageSecrets(await ecdh(asPrivate, uaPublic), auth, uaPublic, asPublic, salt);
  const record = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, concat(payload, Uint8Array.of(0x02))));
  const header = new Uint8Array(HEADER_LENGTH);
  header.set(salt);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = KEY_LENGTH;
  header.set(asPublic, 21);
  return {
    body: concat(header, record),
    headers: { "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream", TTL: String(options.ttlSec ?? PUSH_DEFAULT_TTL_SEC) },
  };
}

/**
 * The browser's side, for tests: the payload of an aes128gcm push message, decrypted with the
 * subscription's keys and its private key (the scalar `d`, base64url). Throws when the message does
 * not decrypt or is not one final record.
 */
export async function decryptPushPayload(body: Uint8Array, subscriber: PushSubscriptionKeys & { privateKey: string }): Promise<Uint8Array> {
  if (body.length < 21) throw new Error("aes128gcm: message shorter than its header");
  const salt = concat(body.subarray(0, 16));
  const recordSize = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const asPublic = concat(body.subarray(21, 21 + body[20]));
  const ciphertext = concat(body.subarray(21 + body[20]));
  if (asPublic.length !== KEY_LENGTH || asPublic[0] !== 0x04) throw new Error("aes128gcm: keyid is not a P-256 public key");
  if (ciphertext.length > recordSize) throw new Error("aes128gcm: more than one record");
  const uaPublic = decodeKey(subscriber.p256dh, KEY_LENGTH, "p256dh");
  const uaPrivate = await crypto.subtle.importKey("jwk", privateJwk(subscriber.privateKey, uaPublic), ECDH_P256, false, ["deriveBits"]);
  const auth = decodeKey(subscriber.auth, 16, "auth");
  const { key, nonce } = await messageSecrets(await ecdh(uaPrivate, asPublic), auth, uaPublic, asPublic, salt);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 0x02) throw new Error("aes128gcm: the record does not end with the last-record delimiter");
  return padded.slice(0, end);
}
