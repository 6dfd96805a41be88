// The company object's own SQLite (ctx.storage.sql): every table it keeps is created here, in
// versioned steps recorded in `schema_version`; commands use the typed helpers, never raw SQL.
// Synchronous and transactional with the object, so hot state read on every command (counters,
// the fence) costs no D1 round trip.

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
];

export const COMPANY_STORAGE_VERSION = STEPS.length;

/** Brings the object's tables up to the current version (idempotent; run at construction). */
export function migrateCompanyStorage(sql: SqlStorage): number {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
  const row = sql.exec<{ version: number }>("SELECT version FROM schema_version WHERE id = 1").toArray()[0];
  const from = row ? Number(row.version) : 0;
  for (let version = from; version < STEPS.length; version++) {
    for (const statement of STEPS[version]) sql.exec(statement);
    sql.exec("INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version", version + 1);
  }
  return STEPS.length;
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
    this.sql.exec(
      "INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = MAX(value, excluded.value)",
      name,
      value,
    );
  }
}

/** The typed face of the object's storage that commands see. */
export class CompanyStorage {
  readonly counters: Counters;

  constructor(readonly sql: SqlStorage) {
    this.counters = new Counters(sql);
  }

  /** Fencing write: a stale duplicate instance fails here instead of racing. */
  advanceFence(): number {
    const row = this.sql.exec<{ epoch: number }>("UPDATE fence SET epoch = epoch + 1 WHERE id = 1 RETURNING epoch").toArray()[0];
    return Number(row?.epoch ?? 0);
  }
}
