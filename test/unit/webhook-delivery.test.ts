// Webhook delivery decisions (src/domain/events/delivery.ts), pure.
import { describe, expect, it } from "vitest";
import { decideDelivery, decideSubscription, retryAfterSeconds, DELIVERY_GIVE_UP_MS, SUBSCRIPTION_DISABLE_MS } from "../../src/domain/events/delivery";
import { isEventPattern, matchesEventPatterns } from "../../src/domain/events/catalogue";

const T0 = Date.parse("2026-11-25T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const mid = () => 0.5;

describe("decideDelivery", () => {
  it("2xx succeeds; 4xx other than 408/429 fails at once", () => {
    expect(decideDelivery({ kind: "response", status: 204 }, 1, at(0), T0)).toEqual({ status: "succeeded" });
    expect(decideDelivery({ kind: "response", status: 404 }, 1, at(0), T0)).toMatchObject({ status: "failed" });
    expect(decideDelivery({ kind: "response", status: 410 }, 3, at(0), T0)).toMatchObject({ status: "failed" });
  });

  it("5xx, 408, 429 and network errors retry from about 10 s, doubling, within jitter", () => {
    const waits = [1, 2, 3, 4].map((n) => Date.parse((decideDelivery({ kind: "response", status: 503 }, n, at(0), T0, mid) as any).nextAttemptAt) - T0);
    expect(waits).toEqual([10_000, 20_000, 40_000, 80_000]);
    const low = Date.parse((decideDelivery({ kind: "network", error: "x" }, 1, at(0), T0, () => 0) as any).nextAttemptAt) - T0;
    const high = Date.parse((decideDelivery({ kind: "response", status: 408 }, 1, at(0), T0, () => 0.999) as any).nextAttemptAt) - T0;
    expect(low).toBe(8_000);
    expect(high).toBeGreaterThan(11_900);
  });

  it("Retry-After is a minimum; after 24 h the delivery fails", () => {
    const withHeader = decideDelivery({ kind: "response", status: 429, retryAfterSec: 120 }, 1, at(0), T0, mid) as any;
    expect(Date.parse(withHeader.nextAttemptAt) - T0).toBe(120_000);
    const shortHeader = decideDelivery({ kind: "response", status: 429, retryAfterSec: 1 }, 1, at(0), T0, mid) as any;
    expect(Date.parse(shortHeader.nextAttemptAt) - T0).toBe(10_000);
    expect(decideDelivery({ kind: "response", status: 500 }, 20, at(-DELIVERY_GIVE_UP_MS + 1000), T0, mid)).toMatchObject({ status: "failed" });
    expect(retryAfterSeconds("30", T0)).toBe(30);
    expect(retryAfterSeconds(new Date(T0 + 90_000).toUTCString(), T0)).toBe(90);
    expect(retryAfterSeconds("soon", T0)).toBeNull();
  });
});

describe("decideSubscription", () => {
  it("remembers since when it fails, clears on success, disables after 24 h of failures", () => {
    expect(decideSubscription(null, false, T0)).toEqual({ failingSince: at(0), disable: false });
    expect(decideSubscription(at(-1000), true, T0)).toEqual({ failingSince: null, disable: false });
    expect(decideSubscription(at(-SUBSCRIPTION_DISABLE_MS), false, T0)).toEqual({ failingSince: at(-SUBSCRIPTION_DISABLE_MS), disable: true });
  });
});

describe("event patterns", () => {
  it("exact types, catalogue prefixes with .*, and *", () => {
    expect(["issue.created", "issue.*", "run.*", "*", "ping"].every(isEventPattern)).toBe(true);
    expect(["issue", "issue.exploded", "nothing.*", "issue.created.*", ""].some(isEventPattern)).toBe(false);
    expect(matchesEventPatterns("issue.created", ["issue.*"])).toBe(true);
    expect(matchesEventPatterns("issues.created", ["issue.*"])).toBe(false);
    expect(matchesEventPatterns("run.finished", ["issue.*", "run.finished"])).toBe(true);
    expect(matchesEventPatterns("run.started", null)).toBe(true);
  });
});
