// Loaded on first use (src/lazy.ts): one load shared by concurrent callers; a failed load is
// forgotten, so the next call tries again.
import { describe, expect, it } from "vitest";
import { onFirstUse } from "../../src/lazy";

describe("onFirstUse", () => {
  it("loads once for concurrent callers and keeps the value", async () => {
    let loads = 0;
    const value = onFirstUse(async () => ++loads);
    expect(value.current()).toBeUndefined();
    expect(await Promise.all([value(), value(), value()])).toEqual([1, 1, 1]);
    expect(await value()).toBe(1);
    expect(value.current()).toBe(1);
    expect(loads).toBe(1);
  });

  it("a failed first load is retried by the next call", async () => {
    let calls = 0;
    const value = onFirstUse(async () => {
      calls++;
      if (calls === 1) throw new Error("the network blinked");
      return "loaded";
    });
    await expect(value()).rejects.toThrow("the network blinked");
    expect(value.current()).toBeUndefined();
    expect(await value()).toBe("loaded");
    expect(calls).toBe(2);
  });
});
