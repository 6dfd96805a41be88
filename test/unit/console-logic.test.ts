// The board console's pure decisions: the 14-day spend chart's buckets (and which days it must ask
// for), event patterns as the stream reads them, how the inbox groups budget incidents and hides
// their override approvals, and where signing in may send the user.
import { describe, expect, it } from "vitest";
import { matchesEventPatterns } from "../../src/domain/events/catalogue";

const matches = (patterns: string[], type: string) => matchesEventPatterns(type, patterns);
import { type Approval, type BudgetIncident, groupIncidents, standaloneApprovals } from "../../src/console/lib/inbox-items";
import { safeNext } from "../../src/console/lib/next";
import { bucketSpend, dayBounds, windowDays } from "../../src/console/lib/spend";

const NOW = new Date("2026-11-25T15:00:00Z");

describe("daily spend", () => {
  it("the window is the last 14 UTC days, oldest first, ending today", () => {
    const days = windowDays(14, NOW);
    expect(days).toHaveLength(14);
    expect(days[0]).toBe("2026-11-12");
    expect(days[13]).toBe("2026-11-25");
  });

  it("sums events per UTC day and leaves out events outside the window", () => {
    const events = [
      { occurredAt: "2026-11-25T14:00:00Z", costCents: 100 },
      { occurredAt: "2026-11-25T00:00:00Z", costCents: 20 },
      { occurredAt: "2026-11-24T23:59:59.999Z", costCents: 3 },
      { occurredAt: "2026-11-01T10:00:00Z", costCents: 999 },
    ];
    const { days, incomplete } = bucketSpend(events, false, 14, NOW);
    expect(days.find((d) => d.day === "2026-11-25")?.cents).toBe(120);
    expect(days.find((d) => d.day === "2026-11-24")?.cents).toBe(3);
    expect(days.reduce((sum, d) => sum + d.cents, 0)).toBe(123);
    expect(incomplete).toEqual([]);
  });

  it("a full page that ends inside the window marks its oldest day and every earlier day as incomplete", () => {
    const events = [
      { occurredAt: "2026-11-25T10:00:00Z", costCents: 1 },
      { occurredAt: "2026-11-23T10:00:00Z", costCents: 1 },
    ];
    const { incomplete } = bucketSpend(events, true, 14, NOW);
    expect(incomplete[0]).toBe("2026-11-12");
    expect(incomplete.at(-1)).toBe("2026-11-23");
    expect(incomplete).toHaveLength(12);
  });

  it("a full page that reaches past the window leaves nothing to ask for", () => {
    const events = [
      { occurredAt: "2026-11-25T10:00:00Z", costCents: 1 },
      { occurredAt: "2026-10-01T10:00:00Z", costCents: 1 },
    ];
    expect(bucketSpend(events, true, 14, NOW).incomplete).toEqual([]);
  });

  it("a day's bounds are inclusive, in UTC", () => {
    expect(dayBounds("2026-11-24")).toEqual({ from: "2026-11-24T00:00:00.000Z", to: "2026-11-24T23:59:59.999Z" });
  });
});

describe("event patterns", () => {
  it("match exact types, prefix.* and *", () => {
    expect(matches(["issue.*"], "issue.created")).toBe(true);
    expect(matches(["issue.*"], "issues.created")).toBe(false);
    expect(matches(["approval.resolved"], "approval.created")).toBe(false);
    expect(matches(["run.finished", "cost.*"], "cost.recorded")).toBe(true);
    expect(matches(["*"], "ping")).toBe(true);
    expect(matches([], "issue.created")).toBe(false);
  });
});

const incident = (id: string, policyId: string, kind: "soft" | "hard", createdAt: string, approvalId: string | null = null) =>
  ({ id, policyId, kind, createdAt, approvalId, scopeType: "agent", scopeId: "a1", status: "open" }) as BudgetIncident;

describe("inbox", () => {
  it("groups a policy's incidents with the hard stop first, the latest warning otherwise", () => {
    const groups = groupIncidents([
      incident("s1", "p1", "soft", "2026-11-25T10:00:00Z"),
      incident("h1", "p1", "hard", "2026-11-25T10:00:01Z", "ap1"),
      incident("s2", "p2", "soft", "2026-11-24T10:00:00Z"),
      incident("s3", "p2", "soft", "2026-11-25T09:00:00Z"),
    ]);
    expect(groups.map((g) => [g.policyId, g.primary.id, g.incidents.length])).toEqual([
      ["p1", "h1", 2],
      ["p2", "s3", 2],
    ]);
  });

  it("an incident's override approval is not listed again on its own", () => {
    const approvals = [{ id: "ap1" }, { id: "ap2" }] as Approval[];
    const shown = standaloneApprovals(approvals, [incident("h1", "p1", "hard", "2026-11-25T10:00:00Z", "ap1")]);
    expect(shown.map((a) => a.id)).toEqual(["ap2"]);
  });
});

describe("after signing in", () => {
  it("goes only to a path of this site", () => {
    expect(safeNext("/ACME/issues?view=board")).toBe("/ACME/issues?view=board");
    expect(safeNext("/cli-auth/abc")).toBe("/cli-auth/abc");
    expect(safeNext(undefined)).toBe("/");
    expect(safeNext("https://evil.example/")).toBe("/");
    expect(safeNext("//evil.example/")).toBe("/");
    expect(safeNext("/\\evil.example/")).toBe("/");
  });
});
