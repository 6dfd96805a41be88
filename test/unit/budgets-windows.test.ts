// Unit tests for the budget maths: UTC month windows, thresholds, utilisation rounding.
import { describe, expect, it } from "vitest";
import { currentWindow, inWindow, thresholds, utcMonthBounds, utilizationPercent } from "../../src/domain/budgets/windows";

describe("budget windows", () => {
  it("UTC month bounds roll over the year and ignore local offsets", () => {
    expect(utcMonthBounds("2026-12-31T23:59:59.999Z")).toEqual({ start: "2026-12-01T00:00:00.000Z", end: "2027-01-01T00:00:00.000Z" });
    expect(utcMonthBounds("2028-02-29T12:00:00.000Z")).toEqual({ start: "2028-02-01T00:00:00.000Z", end: "2028-03-01T00:00:00.000Z" });
    const w = currentWindow("calendar_month_utc", "2026-05-10T00:00:00.000Z");
    expect(w.key).toBe("2026-05");
    expect(inWindow(w, "2026-05-01T00:00:00.000Z")).toBe(true);
    expect(inWindow(w, "2026-04-30T23:59:59.999Z")).toBe(false);
    expect(inWindow(w, "2026-06-01T00:00:00.000Z")).toBe(false);
    const life = currentWindow("lifetime", "2026-05-10T00:00:00.000Z");
    expect(life).toEqual({ kind: "lifetime", key: "lifetime", start: null, end: null });
    expect(inWindow(life, "1999-01-01T00:00:00.000Z")).toBe(true);
  });

  it("soft threshold is ceil(amount × warnPercent / 100); hard is the amount", () => {
    expect(thresholds(100, 80)).toEqual({ soft: 80, hard: 100 });
    expect(thresholds(101, 80)).toEqual({ soft: 81, hard: 101 });
    expect(thresholds(3, 50)).toEqual({ soft: 2, hard: 3 });
    expect(thresholds(7, 100)).toEqual({ soft: 7, hard: 7 });
  });

  it("utilisation is a percentage with two decimals, 0 without a budget", () => {
    expect(utilizationPercent(1, 3)).toBe(33.33);
    expect(utilizationPercent(2, 3)).toBe(66.67);
    expect(utilizationPercent(250, 100)).toBe(250);
    expect(utilizationPercent(5, 0)).toBe(0);
  });
});
