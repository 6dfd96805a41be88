// Issue prefixes straight at the module: derived from the name, short and unique however many
// companies share a name.
import { describe, expect, it } from "vitest";
import { firstFreePrefix, issuePrefixCandidates, ISSUE_IDENTIFIER_PATTERN, ISSUE_PREFIX_MAX_LENGTH } from "../../src/domain/companies/issue-prefix";

/** Allocates `n` prefixes for `name` in turn, as n companies of that name would get them. */
function allocate(name: string, n: number, taken = new Set<string>()) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const prefix = firstFreePrefix(issuePrefixCandidates(name), taken);
    taken.add(prefix);
    out.push(prefix);
  }
  return out;
}

describe("issue prefixes", () => {
  it("take at most four letters of the name (accents dropped); CMP without letters", () => {
    expect(allocate("Acme Corp", 1)).toEqual(["ACME"]);
    expect(allocate("Zephyr Works", 1)).toEqual(["ZEPH"]);
    expect(allocate("Café Noir", 1)).toEqual(["CAFE"]);
    expect(allocate("Ab", 1)).toEqual(["AB"]);
    expect(allocate("1234 !!", 1)).toEqual(["CMP"]);
  });

  it("on a clash try the initials, the first three letters with a later letter, then a number", () => {
    expect(allocate("Acme Corp", 9)).toEqual(["ACME", "AC", "ACMC", "ACMO", "ACMR", "ACMP", "ACM2", "ACM3", "ACM4"]);
    expect(allocate("Bbox", 3)).toEqual(["BBOX", "BBO2", "BBO3"]);
    expect(allocate("1234", 3)).toEqual(["CMP", "CMP2", "CMP3"]);
    // Old-style prefixes (ABC, ABCA, …) already taken are simply skipped.
    expect(allocate("Abcd", 2, new Set(["ABC", "ABCA", "ABCD"]))).toEqual(["ABC2", "ABC3"]);
  });

  it("stay at most 10 characters and unique for thousands of like-named companies", () => {
    const prefixes = allocate("Bbox Labs", 5000);
    expect(new Set(prefixes).size).toBe(5000);
    expect(Math.max(...prefixes.map((p) => p.length))).toBeLessThanOrEqual(ISSUE_PREFIX_MAX_LENGTH);
    expect(prefixes.at(-1)).toBe(`BBO${5000 - 6 + 1}`);
    for (const p of prefixes) expect(`${p}-12`).toMatch(ISSUE_IDENTIFIER_PATTERN);
    // A legacy 1,611-character prefix in the taken set changes nothing.
    expect(allocate("Bbox Labs", 1, new Set([`BBO${"A".repeat(1608)}`]))).toEqual(["BBOX"]);
  });

  it("refuse (rather than grow past 10 characters) once every numbered prefix is taken", () => {
    const everyShortOne = { has: (p: string) => p.length <= ISSUE_PREFIX_MAX_LENGTH } as Set<string>;
    expect(() => firstFreePrefix(issuePrefixCandidates("Qqq"), everyShortOne)).toThrow(/every issue prefix for QQQ is taken/);
  });
});
