// Unit tests: @mention parsing, whole-word project mentions, run staleness.
import { describe, expect, it } from "vitest";
import { mentionedNames, mentionsWord } from "../../src/domain/issues/mentions";
import { effectiveRunStatus, runIsStale, runLeaseMs } from "../../src/domain/runs/lease";

const agents = [{ name: "Ada" }, { name: "Ada Lovelace" }, { name: "Bob" }, { name: "QA-Bot" }];
const names = (text: string) =>
  mentionedNames(text, agents)
    .map((a) => a.name)
    .sort();

describe("mentionedNames", () => {
  it("matches exact names case-insensitively, longest first, at word boundaries", () => {
    expect(names("hi @ada")).toEqual(["Ada"]);
    expect(names("hi @ADA LOVELACE!")).toEqual(["Ada Lovelace"]);
    expect(names("@Ada Lovelace and @ada, @bob.")).toEqual(["Ada", "Ada Lovelace", "Bob"]);
    expect(names("@qa-bot run tests")).toEqual(["QA-Bot"]);
    expect(names("@Adam is not Ada")).toEqual([]);
    expect(names("mail ada@bob.com")).toEqual([]);
    expect(names("no mentions")).toEqual([]);
    expect(names("@")).toEqual([]);
  });
});

describe("mentionsWord", () => {
  it("needs whole words", () => {
    expect(mentionsWord("Ship the Apollo launch", "apollo")).toBe(true);
    expect(mentionsWord("Apollonia", "apollo")).toBe(false);
    expect(mentionsWord("see web-app now", "web-app")).toBe(true);
    expect(mentionsWord("anything", "")).toBe(false);
  });
});

describe("run leases", () => {
  const base = {
    id: "r",
    companyId: "c",
    agentId: "a",
    status: "running" as const,
    adapterType: "process",
    invocationSource: "external",
    wakeupRequestId: null,
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: null,
    lastActivityAt: "2026-01-01T00:00:00.000Z",
    usageJson: null,
    resultJson: null,
    error: null,
    logBytes: 0,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
  it("live runs are stale only past the lease; finished or missing runs always", () => {
    const lease = runLeaseMs({});
    expect(lease).toBe(3600_000);
    expect(runLeaseMs({ RUN_LEASE_SECONDS: "60" })).toBe(60_000);
    expect(runLeaseMs({ RUN_LEASE_SECONDS: "junk" })).toBe(3600_000);
    expect(runIsStale(base, "2026-01-01T00:30:00.000Z", lease)).toBe(false);
    expect(runIsStale(base, "2026-01-01T01:00:01.000Z", lease)).toBe(true);
    expect(effectiveRunStatus(base, "2026-01-01T01:00:01.000Z", lease)).toBe("timed_out");
    for (const status of ["succeeded", "failed", "cancelled", "timed_out"] as const) {
      expect(runIsStale({ ...base, status }, "2026-01-01T00:00:01.000Z", lease)).toBe(true);
    }
    expect(runIsStale(undefined, "2026-01-01T00:00:01.000Z", lease)).toBe(true);
  });
});
