// Routine logic straight at the modules: templates and variables, schedule slots, signatures.
import { describe, expect, it } from "vitest";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { referencedVariables, requiredWithoutDefault, resolveVariables, validateVariables } from "../../src/domain/routines/templates";
import { renderTemplate } from "../../src/domain/templates/render";
import { dueSlots, nextSlot, parseSchedule } from "../../src/domain/routines/schedule";
import { constantTimeEqual, verifyWebhookSignature } from "../../src/domain/routines/webhook-signature";

const bytes = (text: string) => new TextEncoder().encode(text);

const sign = (secret: string, message: string) => bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(message)));

describe("templates", () => {
  it("finds references, renders values and leaves unset optional ones empty", () => {
    expect(referencedVariables("{{ a }} and {{b}}", "{{a}} {{c_1}} {{ not valid }}")).toEqual(["a", "b", "c_1"]);
    expect(renderTemplate("Hi {{ who }}, {{n}} left{{missing}}", { who: "Ada", n: 3 })).toBe("Hi Ada, 3 left");
  });

  it("resolves typed values with defaults and refuses missing, unknown and mistyped ones", () => {
    const vars = [
      { name: "who", type: "text", required: true },
      { name: "n", type: "number", required: false, defaultValue: 2 },
      { name: "flag", type: "boolean", required: false },
    ];
    expect(resolveVariables(vars, { who: "x", n: "5", flag: "true" })).toEqual({ who: "x", n: 5, flag: true });
    expect(resolveVariables(vars, { who: "x" })).toEqual({ who: "x", n: 2 });
    expect(() => resolveVariables(vars, {})).toThrow(/Missing required variables: who/);
    expect(() => resolveVariables(vars, { who: "x", extra: 1 })).toThrow(/Unknown variables: extra/);
    expect(() => resolveVariables(vars, { who: "x", n: "five" })).toThrow(/n must be a number/);
    expect(() => resolveVariables(vars, { who: "x", flag: "yes" })).toThrow(/flag must be true or false/);
    expect(requiredWithoutDefault(vars)).toEqual(["who"]);
    expect(() => validateVariables(vars, "{{who}} {{other}}", null)).toThrow(/undeclared variables: other/);
  });
});

describe("schedules", () => {
  it("computes slots in the zone across DST and keeps only the newest when catching up", () => {
    const ny = parseSchedule("0 9 * * *", "America/New_York");
    expect(nextSlot(ny, new Date("2020-10-31T13:00:00Z"))).toBe("2020-11-01T14:00:00.000Z");
    const hourly = parseSchedule("0 * * * *", "UTC");
    expect(dueSlots(hourly, "2020-01-01T00:00:00.000Z", new Date("2020-01-01T05:30:00Z"), 3)).toEqual([
      "2020-01-01T03:00:00.000Z",
      "2020-01-01T04:00:00.000Z",
      "2020-01-01T05:00:00.000Z",
    ]);
    expect(dueSlots(hourly, "2020-01-01T06:00:00.000Z", new Date("2020-01-01T05:30:00Z"), 3)).toEqual([]);
    expect(dueSlots(hourly, "2020-01-01T04:00:00.000Z", new Date("2020-01-01T05:00:00Z"), 25)).toEqual([
      "2020-01-01T04:00:00.000Z",
      "2020-01-01T05:00:00.000Z",
    ]);
    // A minute schedule due for six years: the newest slot, without walking the ones in between.
    const minutely = parseSchedule("* * * * *", "UTC");
    expect(dueSlots(minutely, "2020-01-01T00:00:00.000Z", new Date("2026-01-01T00:00:30Z"), 1)).toEqual(["2026-01-01T00:00:00.000Z"]);
    expect(() => parseSchedule("0 0 30 2 *")).toThrow(/never fires/);
    expect(() => parseSchedule("* * *")).toThrow(/Invalid cron expression/);
    expect(() => parseSchedule("* * * * *", "Not/AZone")).toThrow(/Unknown time zone/);
  });
});

describe("webhook signatures", () => {
  const secret = "whsec_test";
  const now = 1_700_000_000_000;

  it("compares in constant time and by value", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("", "a")).toBe(false);
  });

  it("bearer and hmac_sha256", () => {
    expect(verifyWebhookSignature("bearer", secret, { authorization: `Bearer ${secret}`, rawBody: bytes("") }, 300, now)).toEqual({});
    expect(() => verifyWebhookSignature("bearer", secret, { authorization: "Bearer nope", rawBody: bytes("") }, 300, now)).toThrow(/Invalid webhook secret/);
    expect(() => verifyWebhookSignature("bearer", secret, { rawBody: bytes("") }, 300, now)).toThrow(/Missing webhook secret/);
    const body = '{"a":1}';
    expect(verifyWebhookSignature("hmac_sha256", secret, { hubSignature: `sha256=${sign(secret, body)}`, rawBody: bytes(body) }, 300, now)).toEqual({});
    expect(verifyWebhookSignature("hmac_sha256", secret, { serviceSignature: sign(secret, body).toUpperCase(), rawBody: bytes(body) }, 300, now)).toEqual({});
    expect(() => verifyWebhookSignature("hmac_sha256", secret, { serviceSignature: sign(secret, "{}"), rawBody: bytes(body) }, 300, now)).toThrow(/Invalid/);
    expect(verifyWebhookSignature("none", secret, { rawBody: bytes(body) }, 300, now)).toEqual({});
  });

  it("vendor_hmac: seconds or milliseconds, the replay window on both sides, and a replay key that expires with the window", () => {
    const body = "payload";
    const seconds = String(now / 1000);
    const ok = verifyWebhookSignature(
      "vendor_hmac",
      secret,
      { timestamp: seconds, serviceSignature: sign(secret, `${seconds}.${body}`), rawBody: bytes(body) },
      300,
      now + 10_000,
    );
    expect(ok.replayKey).toEqual({ signature: sign(secret, `${seconds}.${body}`), expiresAt: now + 300_000 });
    const ms = String(now);
    expect(
      verifyWebhookSignature("vendor_hmac", secret, { timestamp: ms, serviceSignature: sign(secret, `${ms}.${body}`), rawBody: bytes(body) }, 300, now)
        .replayKey,
    ).toBeDefined();
    const late = String(now / 1000 - 301);
    expect(() =>
      verifyWebhookSignature("vendor_hmac", secret, { timestamp: late, serviceSignature: sign(secret, `${late}.${body}`), rawBody: bytes(body) }, 300, now),
    ).toThrow(/replay window/);
    const early = String(now / 1000 + 301);
    expect(() =>
      verifyWebhookSignature("vendor_hmac", secret, { timestamp: early, serviceSignature: sign(secret, `${early}.${body}`), rawBody: bytes(body) }, 300, now),
    ).toThrow(/replay window/);
    expect(() => verifyWebhookSignature("vendor_hmac", secret, { timestamp: "soon", serviceSignature: "x", rawBody: bytes(body) }, 300, now)).toThrow(
      /X-Service-Timestamp/,
    );
    expect(() => verifyWebhookSignature("vendor_hmac", secret, { serviceSignature: "x", rawBody: bytes(body) }, 300, now)).toThrow(
      /Missing X-Service-Timestamp/,
    );
  });
});
