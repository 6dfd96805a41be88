// Web push (src/crypto/web-push.ts, src/domain/notifications/formats/push.ts): the encryption gives
// RFC 8291's own example byte for byte, a message decrypts with the subscriber's keys, the VAPID
// JWT is what a push service verifies, and the push service's answers mean what they say.
import { base64url, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { decryptPushPayload, encryptPushPayload, generateVapidKeys, PUSH_MAX_PAYLOAD, VAPID_MAX_LIFETIME_SEC, vapidHeaders } from "../../src/crypto/web-push";
import type { Notification } from "../../src/domain/notifications/message";
import { classifyPushAnswer, isSubscriptionGone, pushNotificationRequest, pushPayload, pushRequest } from "../../src/domain/notifications/formats/push";

// RFC 8291, section 5 and appendix A.
const RFC8291 = {
  plaintext: "When I grow up, I want to be a watermelon",
  asPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  asPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  uaPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  uaPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  auth: "BTBZMqHH6r4Tts7J_aSIgg",
  message:
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const utf8 = (value: string) => new TextEncoder().encode(value);

/** A browser's subscription keys and its private key (what the test decrypts with). */
async function newSubscriber() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const p256dh = base64url.encode(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const { d } = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return { p256dh, auth: base64url.encode(crypto.getRandomValues(new Uint8Array(16))), privateKey: d! };
}

/** What a push service does with the Authorization header: the JWT verifies with `k`, and says who for how long. */
async function verifyVapid(authorization: string) {
  const match = /^vapid t=([^,\s]+), k=([A-Za-z0-9_-]+)$/.exec(authorization);
  expect(match).not.toBeNull();
  const [, token, k] = match!;
  const publicKey = await crypto.subtle.importKey("raw", base64url.decode(k), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const { payload } = await jwtVerify(token, publicKey, { algorithms: ["ES256"] });
  return { header: decodeProtectedHeader(token), payload, k };
}

const notification: Notification = {
  eventType: "approval.created",
  title: "Approval waiting: Buy a domain",
  body: "Ada asks to spend $12 on <acme.dev>.",
  actor: "Ada (agent)",
  fields: [{ label: "Cost", value: "$12.00" }],
  link: { url: "https://acp.example/c/acme/approvals/1", label: "Review the approval" },
  level: "warning",
  company: { id: "co_1", name: "Acme" },
};

describe("web push encryption (RFC 8291)", () => {
  it("reproduces the RFC's example message from its keys, salt and plaintext, byte for byte", async () => {
    const { body, headers } = await encryptPushPayload({ p256dh: RFC8291.uaPublic, auth: RFC8291.auth }, utf8(RFC8291.plaintext), {
      salt: base64url.decode(RFC8291.salt),
      serverKeys: { publicKey: RFC8291.asPublic, privateKey: RFC8291.asPrivate },
    });
    expect(base64url.encode(body)).toBe(RFC8291.message);
    expect(headers).toEqual({ "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream", TTL: "86400" });
  });

  it("decrypts the RFC's example message with the user agent's private key", async () => {
    const plaintext = await decryptPushPayload(base64url.decode(RFC8291.message), {
      p256dh: RFC8291.uaPublic,
      auth: RFC8291.auth,
      privateKey: RFC8291.uaPrivate,
    });
    expect(text(plaintext)).toBe(RFC8291.plaintext);
  });

  it("writes the aes128gcm header: the salt, record size 4096, and a fresh 65-byte sender key per message", async () => {
    const subscriber = await newSubscriber();
    const first = await encryptPushPayload(subscriber, utf8("one"));
    const second = await encryptPushPayload(subscriber, utf8("one"));
    expect(new DataView(first.body.buffer).getUint32(16)).toBe(4096);
    expect(first.body[20]).toBe(65);
    expect(first.body[21]).toBe(0x04);
    expect(first.body.length).toBe(86 + 3 + 1 + 16);
    expect(base64url.encode(first.body.subarray(0, 86))).not.toBe(base64url.encode(second.body.subarray(0, 86)));
  });

  it("round-trips a payload through the subscriber's keys, and a wrong auth secret does not decrypt", async () => {
    const subscriber = await newSubscriber();
    const payload = utf8(JSON.stringify({ title: "Hello ☃", body: "x".repeat(3000) }));
    const { body } = await encryptPushPayload(subscriber, payload, { ttlSec: 60 });
    expect(text(await decryptPushPayload(body, subscriber))).toBe(text(payload));
    const other = base64url.encode(crypto.getRandomValues(new Uint8Array(16)));
    await expect(decryptPushPayload(body, { ...subscriber, auth: other })).rejects.toThrow();
  });

  it("refuses a payload larger than a push service must carry, and malformed subscription keys", async () => {
    const subscriber = await newSubscriber();
    await expect(encryptPushPayload(subscriber, new Uint8Array(PUSH_MAX_PAYLOAD))).resolves.toBeDefined();
    await expect(encryptPushPayload(subscriber, new Uint8Array(PUSH_MAX_PAYLOAD + 1))).rejects.toThrow(/at most 3993/);
    await expect(encryptPushPayload({ ...subscriber, p256dh: base64url.encode(new Uint8Array(33)) }, utf8("x"))).rejects.toThrow(/p256dh/);
    await expect(encryptPushPayload({ ...subscriber, auth: "AAAA" }, utf8("x"))).rejects.toThrow(/auth/);
  });
});

describe("VAPID (RFC 8292)", () => {
  it("generates a P-256 key pair: the public key as the browser's applicationServerKey (65 bytes, uncompressed), the private key as a JWK", async () => {
    const keys = await generateVapidKeys();
    const raw = base64url.decode(keys.publicKey);
    expect(raw.length).toBe(65);
    expect(raw[0]).toBe(0x04);
    expect(Object.keys(keys.privateKey).sort()).toEqual(["crv", "d", "kty", "x", "y"]);
    expect(keys.privateKey).toMatchObject({ kty: "EC", crv: "P-256" });
    expect(base64url.encode(raw.subarray(1, 33))).toBe(keys.privateKey.x);
  });

  it("signs an ES256 JWT for the endpoint's origin that verifies with the public key it sends as k", async () => {
    const keys = await generateVapidKeys();
    const { Authorization } = await vapidHeaders("https://push.example.net:8443/wpush/v2/abc?x=1", keys, "mailto:ops@acp.example");
    const { header, payload, k } = await verifyVapid(Authorization);
    expect(header).toEqual({ typ: "JWT", alg: "ES256" });
    expect(k).toBe(keys.publicKey);
    expect(payload.aud).toBe("https://push.example.net:8443");
    expect(payload.sub).toBe("mailto:ops@acp.example");
    const now = Date.now() / 1000;
    expect(payload.exp).toBeGreaterThan(now);
    expect(payload.exp).toBeLessThanOrEqual(now + VAPID_MAX_LIFETIME_SEC);
  });

  it("takes a chosen expiry up to 24 hours ahead and refuses a later one or a subject that is not mailto:/https:", async () => {
    const keys = await generateVapidKeys();
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const { payload } = await verifyVapid((await vapidHeaders("https://push.example.net/x", keys, "https://acp.example", exp)).Authorization);
    expect(payload.exp).toBe(exp);
    await expect(vapidHeaders("https://push.example.net/x", keys, "https://acp.example", exp + VAPID_MAX_LIFETIME_SEC)).rejects.toThrow(/24 hours/);
    await expect(vapidHeaders("https://push.example.net/x", keys, "ops@acp.example")).rejects.toThrow(/mailto/);
  });

  it("a JWT signed with other keys does not verify with this public key", async () => {
    const [keys, other] = [await generateVapidKeys(), await generateVapidKeys()];
    const { Authorization } = await vapidHeaders("https://push.example.net/x", other, "mailto:ops@acp.example");
    await expect(verifyVapid(Authorization.replace(/k=.*$/, `k=${keys.publicKey}`))).rejects.toThrow();
  });
});

describe("push requests", () => {
  it("sends the encrypted payload to the endpoint with VAPID, aes128gcm, TTL and Urgency; the subscriber reads the notification", async () => {
    const subscriber = await newSubscriber();
    const vapid = await generateVapidKeys();
    const subscription = { endpoint: "https://push.example.net/wpush/v2/abc", keys: { p256dh: subscriber.p256dh, auth: subscriber.auth } };
    const request = await pushNotificationRequest({ ...notification, level: "error" }, { subscription, vapid, subject: "mailto:ops@acp.example" });
    expect(request.url).toBe(subscription.endpoint);
    expect(request.method).toBe("POST");
    expect(request.headers).toMatchObject({ "content-encoding": "aes128gcm", "content-type": "application/octet-stream", ttl: "86400", urgency: "high" });
    expect((await verifyVapid(request.headers.authorization)).payload.aud).toBe("https://push.example.net");
    const shown = JSON.parse(text(await decryptPushPayload(request.body as Uint8Array, subscriber)));
    expect(shown).toEqual({
      title: "Approval waiting: Buy a domain",
      body: "Ada asks to spend $12 on <acme.dev>.\nCost: $12.00\nAda (agent) · Acme",
      url: "https://acp.example/c/acme/approvals/1",
      tag: "https://acp.example/c/acme/approvals/1",
      level: "error",
      eventType: "approval.created",
      companyId: "co_1",
    });
  });

  it("keeps a long notification's payload within what one push message carries", async () => {
    const long = {
      ...notification,
      title: "t".repeat(5000),
      body: "é".repeat(10_000),
      fields: Array.from({ length: 40 }, (_, i) => ({ label: `F${i}`, value: "v".repeat(900) })),
    };
    expect(pushPayload(long).length).toBeLessThanOrEqual(PUSH_MAX_PAYLOAD);
    const subscriber = await newSubscriber();
    const request = await pushRequest(
      { endpoint: "https://push.example.net/a", keys: subscriber },
      pushPayload(long),
      await generateVapidKeys(),
      "mailto:ops@acp.example",
      {
        ttlSec: 60,
      },
    );
    expect(request.headers.ttl).toBe("60");
    expect(request.headers.urgency).toBeUndefined();
  });

  it("classifies the push service's answers: 201 delivered, 404/410 gone, 413 failed, 429 after Retry-After, 5xx retried", () => {
    const answer = (status: number, headers: Record<string, string> = {}) => classifyPushAnswer({ status, headers, body: "" }, 0);
    expect(answer(201)).toEqual({ kind: "delivered", status: 201 });
    expect(answer(410)).toEqual({ kind: "failed", status: 410, error: "Web push: HTTP 410 subscription gone" });
    expect(isSubscriptionGone(answer(404))).toBe(true);
    expect(isSubscriptionGone(answer(413))).toBe(false);
    expect(answer(413)).toEqual({ kind: "failed", status: 413, error: "Web push: HTTP 413 payload too large" });
    expect(answer(403).kind).toBe("failed");
    expect(answer(429, { "Retry-After": "7" })).toEqual({ kind: "retry", status: 429, retryAfterMs: 7000, error: "Web push: HTTP 429" });
    expect(answer(503)).toEqual({ kind: "retry", status: 503, retryAfterMs: null, error: "Web push: HTTP 503" });
  });
});
