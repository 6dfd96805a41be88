// The one event-type matcher (src/domain/events/catalogue.ts) and its SQL twin agree: on a matrix of
// patterns and types the database answers what the JavaScript does, and the delivery trigger (last
// defined in migrations/0024_run_event_stream.sql) holds exactly the generated SQL.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES, eventPatternMatchSql, matchesEventPatterns } from "../../src/domain/events/catalogue";
// @ts-expect-error Vite's raw import of the migration text
import migration from "../../migrations/0024_run_event_stream.sql?raw";

describe("event patterns", () => {
  it("the SQL twin answers what the matcher answers", async () => {
    const patterns = ["*", "issue.*", "issue.created", "run.*", "ru.*", "issue.created.*", "x", "", ".*"];
    const types = [...EVENT_TYPES.slice(0, 12), "run.event", "issues.created", "issue", "run"];
    const cases = patterns.flatMap((pattern) => types.map((type) => ({ pattern, type })));
    const statements = cases.map(({ pattern, type }) => env.DB.prepare(`SELECT (${eventPatternMatchSql("?1", "?2")}) AS m`).bind(pattern, type));
    const results = await env.DB.batch<{ m: number }>(statements);
    const mismatches = cases.filter(({ pattern, type }, i) => Boolean(results[i].results[0].m) !== matchesEventPatterns(type, [pattern]));
    expect(mismatches).toEqual([]);
    expect(cases.some(({ pattern, type }) => matchesEventPatterns(type, [pattern]))).toBe(true);
    expect(cases.some(({ pattern, type }) => !matchesEventPatterns(type, [pattern]))).toBe(true);
  });

  it("the delivery trigger holds the generated SQL; no filter matches everything but a run's log lines, an empty list nothing", () => {
    expect(String(migration)).toContain(eventPatternMatchSql("p.value", "NEW.`type`"));
    expect(matchesEventPatterns("issue.created", null)).toBe(true);
    expect(matchesEventPatterns("issue.created", [])).toBe(false);
    expect(matchesEventPatterns("run.event", null)).toBe(false);
    expect(matchesEventPatterns("run.event", ["*", "run.*"])).toBe(false);
    expect(matchesEventPatterns("run.event", ["run.event"])).toBe(true);
  });
});
