// Copying one company's rows between two databases (src/domain/shards/move.ts), table by table in
// the order of src/domain/shards/tables.ts: pages read in rowid order (so rows keep their relative
// insertion order, which some lists use to break ties), written as `INSERT … SELECT … FROM
// json_each(?)` (one bound parameter carries many rows), one D1 batch — one transaction — per page.
// Every batch ends by deleting the company's `directory_outbox` rows: the directory-sync triggers
// (migrations/0020) announce what a copy inserts or a clean-up deletes, and neither is news to the
// directory; deleted in the same transaction, no reader ever sees them.
// Verification reads both sides the same way: the row count and a hash of the rows (the sum of
// each row's SHA-256 modulo 2^256: independent of rowid order, which differs between databases).
import { sha256Hex } from "../../crypto/hash";
import { companyTables, TRIGGER_WRITES, type CompanyTable, type CopyStep } from "./tables";

/** Offsets the renumbered columns get on the target (src/domain/shards/tables.ts). */
export type Offsets = Record<"eventSeq", number>;

export interface StepSummary {
  table: string;
  rows: number;
  hash: string;
}

const PAGE_ROWS = 100;
/** JSON carried by one INSERT's bound parameter (a row larger than this goes alone). */
const MAX_JSON_CHARS = 400_000;
const DELETE_CHUNK = 1000;

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const outboxClear = (db: D1Database, companyId: string) => db.prepare("DELETE FROM directory_outbox WHERE company_id = ?1").bind(companyId);

interface Page {
  /** Row values in the step's column order (search steps: the owner's id first). */
  rows: unknown[][];
  last: number | null;
}

/** One page of the company's rows after `afterRowid` (descending: before it), by rowid. */
async function readPage(db: D1Database, step: CopyStep, companyId: string, after: number | null, descending: boolean): Promise<Page> {
  const direction = descending ? "DESC" : "ASC";
  const bound = after === null ? "" : descending ? "AND r.rowid < ?2" : "AND r.rowid > ?2";
  const sql =
    step.kind === "rows"
      ? `SELECT r.rowid, ${step.columns.map((c) => `r.${q(c)}`).join(", ")} FROM ${q(step.name)} r WHERE r.${q(step.companyColumn)} = ?1 ${bound} ORDER BY r.rowid ${direction} LIMIT ${PAGE_ROWS}`
      : `SELECT r.rowid, r."id", ${step.columns.map((c) => `s.${q(c)}`).join(", ")} FROM ${q(step.owner)} r JOIN ${q(step.name)} s ON s.rowid = r.rowid WHERE r."company_id" = ?1 ${bound} ORDER BY r.rowid ${direction} LIMIT ${PAGE_ROWS}`;
  const statement = after === null ? db.prepare(sql).bind(companyId) : db.prepare(sql).bind(companyId, after);
  const raw = await statement.raw<unknown[]>();
  return { rows: raw.map((r) => r.slice(1)), last: raw.length === PAGE_ROWS ? (raw[raw.length - 1][0] as number) : null };
}

/** Every page of the company's rows of one step. */
async function* pages(db: D1Database, step: CopyStep, companyId: string, descending = false): AsyncGenerator<unknown[][]> {
  let after: number | null = null;
  for (;;) {
    const page = await readPage(db, step, companyId, after, descending);
    if (page.rows.length) yield page.rows;
    if (page.last === null) return;
    after = page.last;
  }
}

/** The column positions a side's values are shifted by (the source's, to the target's numbering). */
function shift(step: CopyStep, offsets: Offsets | null): (row: unknown[]) => unknown[] {
  if (step.kind !== "rows" || !offsets) return (row) => row;
  const shifts = Object.entries(step.renumbered).map(([column, offset]) => [step.columns.indexOf(column), offsets[offset]] as const);
  if (!shifts.some(([, by]) => by)) return (row) => row;
  return (row) => {
    const out = [...row];
    for (const [i, by] of shifts) if (typeof out[i] === "number") out[i] = (out[i] as number) + by;
    return out;
  };
}

function insertSql(step: CopyStep): string {
  const values = (from: number, n: number) => Array.from({ length: n }, (_, i) => `json_extract(j.value, '$[${from + i}]')`).join(", ");
  if (step.kind === "rows")
    return `INSERT INTO ${q(step.name)} (${step.columns.map(q).join(", ")}) SELECT ${values(0, step.columns.length)} FROM json_each(?1) j ORDER BY j.key`;
  return `INSERT INTO ${q(step.name)} (rowid, ${step.columns.map(q).join(", ")}) SELECT r.rowid, ${values(1, step.columns.length)} FROM json_each(?1) j JOIN ${q(step.owner)} r ON r."id" = json_extract(j.value, '$[0]') ORDER BY j.key`;
}

/** Rows as JSON arrays of at most MAX_JSON_CHARS (one INSERT each). */
function chunksOf(rows: unknown[][]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (current.length && size + json.length > MAX_JSON_CHARS) {
      out.push(`[${current.join(",")}]`);
      current = [];
      size = 0;
    }
    current.push(json);
    size += json.length + 1;
  }
  if (current.length) out.push(`[${current.join(",")}]`);
  return out;
}

/** Rows of a self-referencing table, each after the row it references (a manager before its reports). */
function referencedFirst(step: CompanyTable, rows: unknown[][]): unknown[][] {
  const key = step.columns.indexOf(step.selfReference!.references);
  const ref = step.columns.indexOf(step.selfReference!.column);
  const pending = new Map(rows.map((row) => [row[key], row]));
  const out: unknown[][] = [];
  const visit = (row: unknown[], depth: number) => {
    if (depth > rows.length) throw new Error(`${step.name}: rows reference each other in a cycle`);
    const parent = pending.get(row[ref]);
    if (parent && parent !== row) visit(parent, depth + 1);
    if (pending.delete(row[key])) out.push(row);
  };
  for (const row of rows) if (pending.has(row[key])) visit(row, 0);
  return out;
}

/** What the target holds of the company in a table its writers' triggers fill (TRIGGER_WRITES): cleared before the copy. */
const writtenByTriggers = new Set(Object.values(TRIGGER_WRITES).flat());

/**
 * Copies the company's rows of one step from `source` to `target` (which holds none of them
 * except rows its triggers wrote during this copy: cleared first). Returns the rows copied.
 */
export async function copyStep(source: D1Database, target: D1Database, step: CopyStep, companyId: string, offsets: Offsets): Promise<number> {
  const toTarget = shift(step, offsets);
  // An integer key kept (renumbered) on the target: the highest first, so the target's own counter
  // jumps past the whole copied range at once and its next rows cannot take a number of ours.
  const descending = step.kind === "rows" && "seq" in step.renumbered;
  const insert = insertSql(step);
  let pending: D1PreparedStatement[] = writtenByTriggers.has(step.name)
    ? [target.prepare(`DELETE FROM ${q(step.name)} WHERE "company_id" = ?1`).bind(companyId)]
    : [];
  let copied = 0;
  const write = async (rows: unknown[][]) => {
    const statements = [...pending, ...chunksOf(rows.map(toTarget)).map((json) => target.prepare(insert).bind(json)), outboxClear(target, companyId)];
    pending = [];
    await target.batch(statements);
    copied += rows.length;
  };
  if (step.kind === "rows" && step.selfReference) {
    const all: unknown[][] = [];
    for await (const page of pages(source, step, companyId)) all.push(...page);
    const ordered = referencedFirst(step, all);
    for (let i = 0; i < ordered.length; i += PAGE_ROWS) await write(ordered.slice(i, i + PAGE_ROWS));
  } else {
    for await (const page of pages(source, step, companyId, descending)) await write(page);
  }
  if (pending.length) await target.batch([...pending, outboxClear(target, companyId)]);
  return copied;
}

const MODULUS = 1n << 256n;

/** The company's rows of one step on one side: how many, and their hash (`offsets` shift the source's renumbered columns). */
export async function summarise(db: D1Database, step: CopyStep, companyId: string, offsets: Offsets | null): Promise<StepSummary> {
  const shifted = shift(step, offsets);
  const skipped = step.kind === "rows" ? new Set(step.unverified.map((c) => step.columns.indexOf(c))) : new Set<number>();
  let rows = 0;
  let sum = 0n;
  for await (const page of pages(db, step, companyId)) {
    for (const row of page) {
      const values = shifted(row).filter((_, i) => !skipped.has(i));
      sum = (sum + BigInt(`0x${sha256Hex(JSON.stringify(values))}`)) % MODULUS;
      rows++;
    }
  }
  return { table: step.name, rows, hash: sum.toString(16).padStart(64, "0") };
}

/** The offset that puts the company's events above every event the target holds. */
export async function eventSeqOffset(source: D1Database, target: D1Database, companyId: string): Promise<number> {
  const [lowest, highest] = await Promise.all([
    source.prepare("SELECT min(seq) AS seq FROM company_events WHERE company_id = ?1").bind(companyId).first<number>("seq"),
    target.prepare("SELECT max(seq) AS seq FROM company_events").first<number>("seq"),
  ]);
  if (lowest === null || highest === null) return 0;
  return Math.max(0, highest + 1 - lowest);
}

/**
 * Deletes every row of the company from `db`: children first, a chunk per table per batch, the
 * `companies` row last (search indexes follow through their delete triggers). Safe to repeat.
 * `keepCompanyRow`: the directory database keeps it (its own tables reference companies there).
 */
export async function deleteCompanyRows(db: D1Database, companyId: string, options: { keepCompanyRow?: boolean } = {}): Promise<void> {
  const tables = companyTables()
    .filter((t) => t.name !== "companies")
    .reverse();
  for (;;) {
    const results = await db.batch([
      ...tables.map((t) =>
        db.prepare(`DELETE FROM ${q(t.name)} WHERE rowid IN (SELECT rowid FROM ${q(t.name)} WHERE "company_id" = ?1 LIMIT ${DELETE_CHUNK})`).bind(companyId),
      ),
      outboxClear(db, companyId),
    ]);
    if (results.slice(0, tables.length).every((r) => (r.meta?.changes ?? 0) < DELETE_CHUNK)) break;
  }
  if (!options.keepCompanyRow) await db.batch([db.prepare("DELETE FROM companies WHERE id = ?1").bind(companyId), outboxClear(db, companyId)]);
}
