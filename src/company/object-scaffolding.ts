// What every Durable Object of the service shares: its own SQLite brought up to date in versioned,
// append-only steps (recorded in `schema_version`), and test-only fault injection (TEST_FAULTS =
// "1": rules armed on the object, or carried by a request, fail the matching D1 batches or storage
// writes once; src/db/faults.ts). The company object, the events hub and the gateway-run object use
// these; none creates a table or keeps fault rules of its own.
import { Faults, faultsEnabled, parseFaults, type FaultRule } from "../db/faults";
import { RoundTrips, withRoundTrips } from "../db/round-trips";

/** Brings an object's tables up to the last of `steps` (idempotent; run at construction); returns the version. */
export function migrateObjectStorage(sql: SqlStorage, steps: readonly (readonly string[])[]): number {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
  const row = sql.exec<{ version: number }>("SELECT version FROM schema_version WHERE id = 1").toArray()[0];
  const from = row ? Number(row.version) : 0;
  for (let version = from; version < steps.length; version++) {
    for (const statement of steps[version]) sql.exec(statement);
    sql.exec("INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version", version + 1);
  }
  return steps.length;
}

/** An object's test-only fault rules (all no-ops unless TEST_FAULTS is set). */
export class ObjectFaults {
  readonly enabled: boolean;
  /** Rules armed on this object (arm), until each has fired. */
  private armed: FaultRule[] = [];

  constructor(env: Env) {
    this.enabled = faultsEnabled(env);
  }

  /** Arms rules (`<kind>[/<match>]:<n>`, src/db/faults.ts) for everything the object does until each fired. */
  arm(spec: string): void {
    if (!this.enabled) throw new Error("Fault injection is off (TEST_FAULTS is not set)");
    this.armed = [...this.armed.filter((rule) => !rule.fired), ...parseFaults(spec)];
  }

  /** The rules a request carried and the ones armed here; undefined (no cost) when off or none. */
  rules(carried?: FaultRule[]): Faults | undefined {
    if (!this.enabled) return undefined;
    const rules = [...(carried ?? []), ...this.armed.filter((rule) => !rule.fired)];
    return rules.length ? new Faults(rules) : undefined;
  }

  /** Runs `fn` with the armed rules (alarms and socket messages have no request to carry any). */
  around<T>(fn: () => Promise<T>): Promise<T> {
    const faults = this.rules();
    if (!faults) return fn();
    const roundTrips = new RoundTrips();
    roundTrips.phase = "command";
    roundTrips.faults = faults;
    return withRoundTrips(roundTrips, fn);
  }
}
