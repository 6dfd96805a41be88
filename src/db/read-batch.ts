// Many reads, one D1 round trip: queries are added first (each returns a handle), run together in
// one batch, then read through their handles. Checks written as "add the query, then interpret
// the rows" can share a batch with every other read a request needs.
import { AsyncLocalStorage } from "node:async_hooks";
import { Column, getTableName, is } from "drizzle-orm";
import { decoderOf, decodesAsRead, preparedOf, type PreparedQuery } from "./drizzle-internals";
import type { BatchResponse } from "drizzle-orm/batch";
import type { Db } from "./client";
import type { Statement } from "./batch";

export type ResultOf<Q extends Statement> = BatchResponse<[Q]>[0];

export class Pending<T> {
  private settled = false;
  private result: T | undefined;

  /** The query's result (only after the batch has run). */
  get value(): T {
    if (!this.settled) throw new Error("ReadBatch: read a result before the batch ran");
    return this.result as T;
  }

  settle(result: T) {
    this.result = result;
    this.settled = true;
  }
}

export class ReadBatch {
  private readonly queries: Statement[] = [];
  private readonly pending: Pending<unknown>[] = [];

  constructor(readonly db: Db) {}

  add<Q extends Statement>(query: Q): Pending<ResultOf<Q>> {
    const handle = new Pending<ResultOf<Q>>();
    this.queries.push(query);
    this.pending.push(handle as Pending<unknown>);
    return handle;
  }

  get size() {
    return this.queries.length;
  }

  /** Runs every added query in one round trip (none when nothing was added). */
  async run(): Promise<void> {
    const check = joinReads(this);
    if (!this.queries.length) return;
    const queries = this.queries.splice(0);
    const handles = this.pending.splice(0);
    // What drizzle's db.batch() does, with rows mapped by mapRows (below) instead of per row and column.
    const prepared = queries.map(preparedOf);
    const statements = prepared.map((p) => {
      const { params } = p.getQuery();
      return params.length ? p.stmt.bind(...params) : p.stmt;
    });
    const results = await this.db.$client.batch(statements);
    results.forEach((result, i) => handles[i].settle(mapRows(prepared[i], result)));
    check?.();
  }
}

/** Reads a caller asked to join the next read batch (withJoinedReads), and whether they have. */
interface JoinedReads {
  add: (batch: ReadBatch) => () => void;
  joined: boolean;
}

const joining = new AsyncLocalStorage<JoinedReads>();

/** Adds the joined reads (if any are waiting) to `batch`; their check, to run once it has. */
function joinReads(batch: ReadBatch): (() => void) | null {
  const reads = joining.getStore();
  if (!reads || reads.joined) return null;
  reads.joined = true;
  return reads.add(batch);
}

/**
 * Runs `fn` with the reads `add` puts in a batch joining the first read batch `fn` runs: one round
 * trip for both. The check `add` returns runs as soon as that batch has, before `fn` sees its rows,
 * so a caller's guard (an access check) still decides first. When `fn` runs no read batch, or
 * fails before it does, the reads run on their own (and their check's error comes first).
 */
export async function withJoinedReads<T>(db: Db, add: (batch: ReadBatch) => () => void, fn: () => Promise<T>): Promise<T> {
  const reads: JoinedReads = { add, joined: false };
  const alone = async () => {
    if (reads.joined) return;
    reads.joined = true;
    const batch = new ReadBatch(db);
    const check = add(batch);
    await batch.run();
    check();
  };
  let result: T;
  try {
    result = await joining.run(reads, fn);
  } catch (err) {
    await alone();
    throw err;
  }
  await alone();
  return result;
}

/**
 * A select's rows as drizzle's mapResultRow makes them (nested paths, decoded values, a left-joined
 * table whose columns are all null becomes null), with each column's decoder resolved once per
 * query instead of once per row and column (drizzle's `is()` checks dominated reading lists).
 * Anything but a plain select (`get`, `run`, relational queries) is mapped by drizzle itself.
 */
function mapRows(prepared: PreparedQuery, result: D1Result): unknown {
  const { fields, joinsNotNullableMap } = prepared;
  if (prepared.executeMethod !== "all" || !fields || prepared.customResultMapper) return prepared.mapResult(result, true);
  const columns = fields.map(({ path, field }) => {
    // Left joins: a table is nulled when every column selected from it as `{ table: { column } }` is null.
    const table = joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : null;
    return { path, last: path[path.length - 1], decoder: decoderOf(field), table };
  });
  const rows = (result.results ?? []) as Record<string, unknown>[];
  // Flat selections (every path one name, no joined table to null): one loop, no decoder call for a
  // column stored as read (most are text and plain integers).
  if (columns.every((c) => c.path.length === 1)) {
    const names = columns.map((c) => c.last);
    const decoders = columns.map((c) => (decodesAsRead(c.decoder) ? null : c.decoder));
    return rows.map((row) => {
      const mapped: Record<string, unknown> = {};
      let c = 0;
      for (const key in row) {
        if (c === names.length) break;
        const raw = row[key];
        const decoder = decoders[c];
        mapped[names[c++]] = raw === null || decoder === null ? raw : decoder.mapFromDriverValue(raw);
      }
      // A row with fewer values than columns (two selected under one name): drizzle decodes undefined.
      for (; c < names.length; c++) mapped[names[c]] = decoders[c] === null ? undefined : decoders[c]!.mapFromDriverValue(undefined);
      return mapped;
    });
  }
  return rows.map((row) => {
    // D1 batches return objects keyed by column name; their values in order are the row (as drizzle reads them).
    const values = Object.values(row);
    const mapped: Record<string, unknown> = {};
    const nullify: Record<string, string | false> = {};
    for (let c = 0; c < columns.length; c++) {
      const { path, last, decoder, table } = columns[c];
      let node = mapped;
      for (let p = 0; p < path.length - 1; p++) {
        if (!(path[p] in node)) node[path[p]] = {};
        node = node[path[p]] as Record<string, unknown>;
      }
      const raw = values[c];
      const value = (node[last] = raw === null ? null : decoder.mapFromDriverValue(raw));
      if (table !== null) {
        const objectName = path[0];
        if (!(objectName in nullify)) nullify[objectName] = value === null ? table : false;
        else if (typeof nullify[objectName] === "string" && nullify[objectName] !== table) nullify[objectName] = false;
      }
    }
    if (joinsNotNullableMap)
      for (const [objectName, table] of Object.entries(nullify)) if (typeof table === "string" && !joinsNotNullableMap[table]) mapped[objectName] = null;
    return mapped;
  });
}
