// Statements built once per isolate. Drizzle builds a query's SQL from its parts on every call (a
// select of a wide table escapes and joins each column's name); profiles of issue mutations showed
// that building as a fifth of their JavaScript. A template is built once, with placeholders where
// its values go; each use fills them and prepares the SQL on the current binding, so D1 sessions
// and shard routing (src/db/sessions.ts, src/db/shards.ts) still decide per request. A template's
// statement is run by batches only (ReadBatch, runBatch, db.batch), as every hot read and write is.
import { is, Param, Placeholder, sql } from "drizzle-orm";
import type { Db } from "./client";
import { preparedAs, preparedOf, type PreparedQuery } from "./drizzle-internals";

/** The placeholder for each value a template takes. */
export type Slots<K extends string> = { readonly [P in K]: Placeholder<P> };

/**
 * A statement whose shape never varies: `build(db, slot)` makes it with `slot.<name>` where each
 * value goes (once per database handle); the returned function gives the statement for `values`.
 */
export function template<K extends string, S extends object>(names: readonly K[], build: (db: Db, slot: Slots<K>) => S) {
  const slots = Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as unknown as Slots<K>;
  const built = new WeakMap<Db, PreparedQuery & { fill: (values: Record<string, unknown>) => unknown[] }>();
  return (db: Db, values: Record<K, unknown>): S => {
    let prepared = built.get(db);
    if (!prepared) {
      const made = preparedOf(build(db, slots));
      built.set(db, (prepared = Object.assign(made, { fill: filler(made.query.params) })));
    }
    const query = { sql: prepared.query.sql, params: prepared.fill(values) };
    // The prepared query with this use's parameters and a statement on the current binding; its
    // result mapping (fields, joins, decoders) is the template's.
    return preparedAs<S>(prepared, query, () => db.$client.prepare(query.sql));
  };
}

/**
 * Fills a template's parameters (drizzle's fillPlaceholders, decided once per template instead of
 * per use). A null value is SQL NULL, as in drizzle's own statements: its column's encoder is not
 * asked (a JSON column would store the text `null`).
 */
function filler(params: unknown[]): (values: Record<string, unknown>) => unknown[] {
  const steps = params.map((p): ((values: Record<string, unknown>) => unknown) => {
    const named = (name: string, encode: (value: unknown) => unknown) => (values: Record<string, unknown>) => {
      if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
      const value = values[name];
      return value === null ? null : encode(value);
    };
    if (is(p, Placeholder)) return named(p.name, (value) => value);
    if (is(p, Param) && is(p.value, Placeholder)) {
      const encoder = p.encoder;
      return named(p.value.name, (value) => encoder.mapToDriverValue(value));
    }
    return () => p;
  });
  return (values) => steps.map((step) => step(values));
}
