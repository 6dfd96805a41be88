// The company object's own SQLite (ctx.storage.sql): every table it keeps is created here, in
// versioned steps recorded in `schema_version`; commands use the typed helpers, never raw SQL.
// Synchronous and transactional with the object, so hot state read on every command (counters,
// the fence) costs no D1 round trip.
import { isWrite } from "../db/faults";
import { migrateObjectStorage } from "./object-scaffolding";
import { currentFaults } from "../db/round-trips";

/** Ordered schema steps; append only (a deployed object has applied the earlier ones). */
const STEPS: readonly string[][] = [
  // 1: the fence and named counters (the issue counter used to live in its own table).
  [
    "CREATE TABLE IF NOT EXISTS fence (id INTEGER PRIMARY KEY CHECK (id = 1), epoch INTEGER NOT NULL)",
    "INSERT OR IGNORE INTO fence (id, epoch) VALUES (1, 0)",
    "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS issue_counter (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)",
    "INSERT OR IGNORE INTO counters (name, value) SELECT 'issue', value FROM issue_counter WHERE id = 1",
    "DROP TABLE issue_counter",
  ],
  // 2: hot company facts the rules read on every command (issue prefix, default goal); a missing
  //    row means "not known yet" (read from D1 once), a NULL value means "known to be none".
  ["CREATE TABLE IF NOT EXISTS company_facts (name TEXT PRIMARY KEY, value TEXT)"],
  // 3: when each agent's timer heartbeat is next due (ms since epoch).
  ["CREATE TABLE IF NOT EXISTS agent_timers (agent_id TEXT PRIMARY KEY, next_at INTEGER NOT NULL)"],
  // 4: webhook signatures seen within their trigger's replay window (timestamped HMAC mode).
  [
    "CREATE TABLE IF NOT EXISTS webhook_signatures (trigger_id TEXT NOT NULL, signature TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (trigger_id, signature))",
  ],
  // 5: runs handed to a remote gateway (a GatewayRunObject) or to a connected runner, until they
  //    end; a runner's run whose socket closed carries lost_at (ms) until it is reclaimed or lost.
  [
    "CREATE TABLE IF NOT EXISTS remote_runs (run_id TEXT PRIMARY KEY, kind TEXT NOT NULL, agent_id TEXT NOT NULL, runner_id TEXT, lost_at INTEGER, started_at INTEGER NOT NULL)",
  ],
  // 6: a runner's acknowledgement of run.start (start_sent_at: the last unacknowledged run.start, ms;
  //    start_sends: how often it went to the bound runner), and runs a dispatch started but has not
  //    handed out yet (a dispatch cut short — the object evicted — hands them out on the next one).
  [
    "ALTER TABLE remote_runs ADD COLUMN start_sent_at INTEGER",
    "ALTER TABLE remote_runs ADD COLUMN start_sends INTEGER NOT NULL DEFAULT 0",
    "CREATE TABLE IF NOT EXISTS starting_runs (run_id TEXT PRIMARY KEY, since INTEGER NOT NULL)",
  ],
];

export const COMPANY_STORAGE_VERSION = STEPS.length;

/** Brings the object's tables up to the current version (idempotent; run at construction). */
export const migrateCompanyStorage = (sql: SqlStorage): number => migrateObjectStorage(sql, STEPS);

/** `sql` whose writes fail when a test fault names them (src/db/faults.ts); used only with TEST_FAULTS = "1". */
export function failableSql(sql: SqlStorage): SqlStorage {
  return new Proxy(sql, {
    get(target, property) {
      if (property === "exec") {
        return (query: string, ...bindings: unknown[]) => {
          if (isWrite(query)) currentFaults()?.hit(["storage-write"], [query]);
          return target.exec(query, ...(bindings as []));
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Named monotonic counters (issue numbers, ...). */
export class Counters {
  constructor(private readonly sql: SqlStorage) {}

  get(name: string): number {
    const row = this.sql.exec<{ value: number }>("SELECT value FROM counters WHERE name = ?", name).toArray()[0];
    return row ? Number(row.value) : 0;
  }

  /** Raises the counter to at least `value` (never lowers it). */
  raise(name: string, value: number): void {
    this.sql.exec("INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = MAX(value, excluded.value)", name, value);
  }
}

/** `shard`: the D1 binding holding the company's rows; `fencedAt`: set while a move copies the company (src/db/shards.ts). */
export type CompanyFact = "issuePrefix" | "defaultGoalId" | "companyId" | "shard" | "fencedAt";

/** Company facts cached in the object; every command that changes one runs here and updates it. */
export class CompanyFacts {
  constructor(private readonly sql: SqlStorage) {}

  /** `undefined` when not known yet; `null` when known to be none. */
  get(name: CompanyFact): string | null | undefined {
    const row = this.sql.exec<{ value: string | null }>("SELECT value FROM company_facts WHERE name = ?", name).toArray()[0];
    return row ? row.value : undefined;
  }

  set(name: CompanyFact, value: string | null): void {
    this.sql.exec("INSERT INTO company_facts (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value", name, value);
  }

  forget(name: CompanyFact): void {
    this.sql.exec("DELETE FROM company_facts WHERE name = ?", name);
  }
}

/** Timer heartbeats: when each agent with `runtimeConfig.heartbeat.enabled` is next due. */
export class AgentTimers {
  constructor(private readonly sql: SqlStorage) {}

  all(): Map<string, number> {
    return new Map(
      this.sql
        .exec<{ agent_id: string; next_at: number }>("SELECT agent_id, next_at FROM agent_timers")
        .toArray()
        .map((r) => [r.agent_id, Number(r.next_at)]),
    );
  }

  set(agentId: string, nextAt: number): void {
    this.sql.exec("INSERT INTO agent_timers (agent_id, next_at) VALUES (?, ?) ON CONFLICT(agent_id) DO UPDATE SET next_at = excluded.next_at", agentId, nextAt);
  }

  forget(agentId: string): void {
    this.sql.exec("DELETE FROM agent_timers WHERE agent_id = ?", agentId);
  }

  /** The earliest due time, or null. */
  earliest(): number | null {
    const row = this.sql.exec<{ at: number | null }>("SELECT MIN(next_at) AS at FROM agent_timers").toArray()[0];
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }
}

/** Signatures of timestamped webhook calls, remembered until their replay window has passed. */
export class SeenSignatures {
  constructor(private readonly sql: SqlStorage) {}

  /** Records `signature` for `triggerId` until `expiresAt` (ms); false when it was already seen and has not expired. */
  remember(triggerId: string, signature: string, now: number, expiresAt: number): boolean {
    this.sql.exec("DELETE FROM webhook_signatures WHERE expires_at <= ?", now);
    const seen = this.sql.exec("SELECT 1 FROM webhook_signatures WHERE trigger_id = ? AND signature = ?", triggerId, signature).toArray().length > 0;
    if (seen) return false;
    this.sql.exec("INSERT INTO webhook_signatures (trigger_id, signature, expires_at) VALUES (?, ?, ?)", triggerId, signature, expiresAt);
    return true;
  }

  /** Forgets a remembered signature (the fire it belonged to did not happen). */
  forget(triggerId: string, signature: string): void {
    this.sql.exec("DELETE FROM webhook_signatures WHERE trigger_id = ? AND signature = ?", triggerId, signature);
  }
}

export interface RemoteRun {
  runId: string;
  kind: "gateway" | "loop" | "runner";
  agentId: string;
  runnerId: string | null;
  lostAt: number | null;
  startedAt: number;
  /** When the last run.start went to the bound runner without an acknowledgement yet (ms), or null. */
  startSentAt: number | null;
  /** How many run.start messages the bound runner was sent for this attempt. */
  startSends: number;
}

type RemoteRunRow = {
  run_id: string;
  kind: string;
  agent_id: string;
  runner_id: string | null;
  lost_at: number | null;
  started_at: number;
  start_sent_at: number | null;
  start_sends: number;
};
const remoteRun = (r: RemoteRunRow): RemoteRun => ({
  runId: r.run_id,
  kind: r.kind as RemoteRun["kind"],
  agentId: r.agent_id,
  runnerId: r.runner_id,
  lostAt: r.lost_at === null ? null : Number(r.lost_at),
  startedAt: Number(r.started_at),
  startSentAt: r.start_sent_at === null ? null : Number(r.start_sent_at),
  startSends: Number(r.start_sends ?? 0),
});

/** Runs executing outside the object (remote gateway, runner): what to stop when they end early. */
export class RemoteRuns {
  constructor(private readonly sql: SqlStorage) {}

  all(): RemoteRun[] {
    return this.sql.exec<RemoteRunRow>("SELECT * FROM remote_runs").toArray().map(remoteRun);
  }

  get(runId: string): RemoteRun | null {
    const row = this.sql.exec<RemoteRunRow>("SELECT * FROM remote_runs WHERE run_id = ?", runId).toArray()[0];
    return row ? remoteRun(row) : null;
  }

  /** A new attempt handed out (to `runnerId`, or to a gateway): not lost, no run.start sent yet. */
  add(run: Omit<RemoteRun, "lostAt" | "startSentAt" | "startSends">): void {
    this.sql.exec(
      "INSERT INTO remote_runs (run_id, kind, agent_id, runner_id, lost_at, started_at) VALUES (?, ?, ?, ?, NULL, ?) ON CONFLICT(run_id) DO UPDATE SET runner_id = excluded.runner_id, lost_at = NULL, start_sent_at = NULL, start_sends = 0",
      run.runId,
      run.kind,
      run.agentId,
      run.runnerId,
      run.startedAt,
    );
  }

  /** The runner serving `runId` is now `runnerId` (a reconnected runner reclaimed it: it has the run). */
  bind(runId: string, runnerId: string): void {
    this.sql.exec("UPDATE remote_runs SET runner_id = ?, lost_at = NULL, start_sent_at = NULL WHERE run_id = ?", runnerId, runId);
  }

  /** run.start went to the bound runner at `at` (ms); it is acknowledged by run.started (or any report on the run). */
  startSent(runId: string, at: number): void {
    this.sql.exec("UPDATE remote_runs SET start_sent_at = ?, start_sends = start_sends + 1 WHERE run_id = ?", at, runId);
  }

  /** The bound runner acknowledged run.start. */
  acknowledge(runId: string): void {
    this.sql.exec("UPDATE remote_runs SET start_sent_at = NULL WHERE run_id = ?", runId);
  }

  /** Runner runs whose run.start is unacknowledged since `before` (ms) or earlier, and not lost. */
  unacknowledged(before: number): RemoteRun[] {
    return this.sql
      .exec<RemoteRunRow>("SELECT * FROM remote_runs WHERE kind = 'runner' AND lost_at IS NULL AND start_sent_at <= ?", before)
      .toArray()
      .map(remoteRun);
  }

  /** The earliest unacknowledged run.start (ms), or null. */
  earliestUnacknowledged(): number | null {
    const row = this.sql.exec<{ at: number | null }>("SELECT MIN(start_sent_at) AS at FROM remote_runs WHERE lost_at IS NULL").toArray()[0];
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }

  /** The runner's socket closed: its runs are lost unless reclaimed before the grace period ends. */
  markLost(runnerId: string, at: number): number {
    return this.sql.exec("UPDATE remote_runs SET lost_at = ? WHERE runner_id = ? AND lost_at IS NULL", at, runnerId).rowsWritten;
  }

  /** One run is lost (its runner could not be reached). */
  markRunLost(runId: string, at: number): void {
    this.sql.exec("UPDATE remote_runs SET lost_at = ? WHERE run_id = ?", at, runId);
  }

  countFor(runnerId: string): number {
    return Number(this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM remote_runs WHERE runner_id = ?", runnerId).toArray()[0]?.n ?? 0);
  }

  /** The earliest lost_at, or null. */
  earliestLost(): number | null {
    const row = this.sql.exec<{ at: number | null }>("SELECT MIN(lost_at) AS at FROM remote_runs").toArray()[0];
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }

  /** Forgets the run (and its event-message counter). */
  forget(runId: string): void {
    this.sql.exec("DELETE FROM remote_runs WHERE run_id = ?", runId);
    this.sql.exec("DELETE FROM counters WHERE name = ?", `run_events:${runId}`);
  }
}

/**
 * Runs a dispatch decided to start (or retry) and has not handed out yet: written before the
 * dispatch's D1 batch, forgotten once the attempt is recorded. An entry left behind by a dispatch
 * cut short (the object evicted, a write failed) is handed out by the next dispatch.
 */
export class StartingRuns {
  constructor(private readonly sql: SqlStorage) {}

  add(runIds: readonly string[], at: number): void {
    for (const runId of runIds) this.sql.exec("INSERT INTO starting_runs (run_id, since) VALUES (?, ?) ON CONFLICT(run_id) DO NOTHING", runId, at);
  }

  all(): string[] {
    return this.sql
      .exec<{ run_id: string }>("SELECT run_id FROM starting_runs ORDER BY since")
      .toArray()
      .map((r) => r.run_id);
  }

  forget(runId: string): void {
    this.sql.exec("DELETE FROM starting_runs WHERE run_id = ?", runId);
  }
}

/** The typed face of the object's storage that commands see. */
export class CompanyStorage {
  readonly counters: Counters;
  readonly facts: CompanyFacts;
  readonly timers: AgentTimers;
  readonly signatures: SeenSignatures;
  readonly remoteRuns: RemoteRuns;
  readonly startingRuns: StartingRuns;

  constructor(readonly sql: SqlStorage) {
    this.remoteRuns = new RemoteRuns(sql);
    this.startingRuns = new StartingRuns(sql);
    this.signatures = new SeenSignatures(sql);
    this.counters = new Counters(sql);
    this.facts = new CompanyFacts(sql);
    this.timers = new AgentTimers(sql);
  }

  /** Fencing write: a stale duplicate instance fails here instead of racing. */
  advanceFence(): number {
    const row = this.sql.exec<{ epoch: number }>("UPDATE fence SET epoch = epoch + 1 WHERE id = 1 RETURNING epoch").toArray()[0];
    return Number(row?.epoch ?? 0);
  }
}
