// Test-only fault injection: make the N-th D1 batch (or write) of a request, or the N-th write to
// the company object's own SQLite, fail — so tests can check that a failure half-way leaves
// nothing behind and is retried. Honoured only when the environment has TEST_FAULTS = "1" (set in
// test/vitest.config.ts, never in wrangler.toml); with it off, the Worker and the company object
// each do one check and nothing here runs.
//
// A spec is a comma-separated list of rules `<kind>[/<match>]:<n>`, each failing once:
//   d1-batch:2                    the 2nd D1 batch() round trip
//   d1-write:1                    the 1st D1 round trip that writes (a batch with an INSERT, UPDATE
//                                 or DELETE, or one such statement on its own)
//   storage-write:3               the 3rd write to the company object's SQLite (ctx.storage.sql)
//   storage-write/remote_runs:1   the 1st of those whose SQL mentions `remote_runs` (any kind takes a match)
// Rules are armed for one request (header `x-test-fault`; counted across the Worker and the company
// object's commands it runs) or on a company object (`armFaults`, for its alarms and runner messages).

export type FaultKind = "d1-batch" | "d1-write" | "storage-write";

/** One rule; `seen` counts the matching operations so far, `fired` once it has failed one. Plain data (crosses RPC). */
export interface FaultRule {
  kind: FaultKind;
  match: string | null;
  n: number;
  seen: number;
  fired: boolean;
}

/** The request header that arms faults for one request (when TEST_FAULTS = "1"). */
export const FAULT_HEADER = "x-test-fault";

export const faultsEnabled = (env: Env): boolean => env.TEST_FAULTS === "1";

/** The error an injected fault throws. */
export class InjectedFault extends Error {
  constructor(rule: FaultRule) {
    // The match is left out: callers may look at an error's text (e.g. for a table name).
    super(`Injected fault (test): ${rule.kind} #${rule.n}${rule.match ? " (matched)" : ""}`);
    this.name = "InjectedFault";
  }
}

const KINDS: readonly FaultKind[] = ["d1-batch", "d1-write", "storage-write"];

/** Parses a spec; throws a readable Error when it is malformed. */
export function parseFaults(spec: string): FaultRule[] {
  return spec
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const found = /^([a-z0-9-]+)(?:\/([^:]+))?:(\d+)$/i.exec(part);
      const kind = found?.[1]?.toLowerCase() as FaultKind | undefined;
      const n = Number(found?.[3]);
      if (!found || !kind || !KINDS.includes(kind) || !(n >= 1)) throw new Error(`Bad fault rule "${part}": expected <${KINDS.join("|")}>[/<match>]:<n ≥ 1>`);
      return { kind, match: found[2]?.toLowerCase() ?? null, n, seen: 0, fired: false };
    });
}

/** Whether a statement writes (INSERT, UPDATE, DELETE, REPLACE; also behind a WITH). */
export const isWrite = (sql: string): boolean => /^\s*(?:with\b[\s\S]*?\)\s*)?(?:insert|update|delete|replace)\b/i.test(sql);

/** Armed rules, shared by reference: counting on one Faults counts on every Faults holding the same rule. */
export class Faults {
  constructor(readonly rules: FaultRule[]) {}

  /** Counts one operation of `kinds` over statements `sql`; throws InjectedFault when a rule names it. */
  hit(kinds: readonly FaultKind[], sql: readonly string[]): void {
    let failed: FaultRule | null = null;
    for (const rule of this.rules) {
      if (rule.fired || !kinds.includes(rule.kind)) continue;
      if (rule.match !== null && !sql.some((s) => s.toLowerCase().includes(rule.match!))) continue;
      rule.seen += 1;
      if (rule.seen === rule.n) {
        rule.fired = true;
        failed ??= rule;
      }
    }
    if (failed) throw new InjectedFault(failed);
  }

  /** A D1 round trip: a batch (or exec) of `sql`, or one statement. */
  d1(batch: boolean, sql: readonly string[]): void {
    const writes = sql.some(isWrite);
    if (batch && writes) this.hit(["d1-batch", "d1-write"], sql);
    else if (batch) this.hit(["d1-batch"], sql);
    else if (writes) this.hit(["d1-write"], sql);
  }

  /** Takes back the counts an object reported for the same rules (after an RPC). */
  absorb(rules: readonly FaultRule[] | undefined): void {
    rules?.forEach((rule, i) => {
      if (this.rules[i]) Object.assign(this.rules[i], { seen: rule.seen, fired: rule.fired });
    });
  }
}
