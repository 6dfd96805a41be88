// Statements built once per isolate. Drizzle builds a query's SQL from its parts on every call (a
// select of a wide table escapes and joins each column's name); profiles of issue mutations showed
// that building as a fifth of their JavaScript. A template is built once, with placeholders where
// its values go; each use fills them and prepares the SQL on the current binding, so D1 sessions
// and shard routing (src/db/sessions.ts, src/db/shards.ts) still decide per request. A template's
// statement is run by batches only (ReadBatch, runBatch, db.batch), as every hot read and write is.
import { fillPlaceholders, sql, type Placeholder } from "drizzle-orm";
import type { Db } from "./client";

/** The placeholder for each value a template takes. */
export type Slots<K extends string> = { readonly [P in K]: Placeholder<P> };

/** What a batch uses of a prepared drizzle query (src/db/read-batch.ts, drizzle's D1 session). */
interface Prepared {
  query: { sql: string; params: unknown[] };
}

/**
 * A statement whose shape never varies: `build(db, slot)` makes it with `slot.<name>` where each
 * value goes (once per database handle); the returned function gives the statement for `values`.
 */
export function template<K extends string, S extends object>(names: readonly K[], build: (db: Db, slot: Slots<K>) => S) {
  const slots = Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as unknown as Slots<K>;
  const built = new WeakMap<Db, Prepared>();
  return (db: Db, values: Record<K, unknown>): S => {
    let prepared = built.get(db);
    if (!prepared) built.set(db, (prepared = (build(db, slots) as unknown as { _prepare(): Prepared })._prepare()));
    const query = { sql: prepared.query.sql, params: fillPlaceholders(prepared.query.params, values) };
    const template = prepared;
    // The prepared query with this use's parameters and a statement on the current binding; its
    // result mapping (fields, joins, decoders) is the template's.
    return { _prepare: () => Object.assign(Object.create(template), { query, stmt: db.$client.prepare(query.sql) }) } as unknown as S;
  };
}
