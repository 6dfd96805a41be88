// Every use of drizzle-orm's internals (not its public API) in one place, written for drizzle-orm
// 0.45.4 (DRIZZLE_VERSION): a query's prepared form (`_prepare()`, with its D1 statement `stmt`, its
// `fields` and result mapping), and how a selected field decodes its values (`decoder`, a subquery's
// `_.sql`). The read batch (read-batch.ts) and statement templates (templates.ts) use them to run
// hot reads and writes without drizzle rebuilding or remapping per row.
// test/unit/drizzle-internals.test.ts fails loudly when the installed drizzle differs or changes them.
import { Column, is, SQL, Subquery } from "drizzle-orm";

/** The drizzle-orm version these internals were read from (package.json pins it with ~). */
export const DRIZZLE_VERSION = "0.45.4";

/** drizzle's prepared D1 query, as far as a batch uses it. */
export interface PreparedQuery {
  executeMethod: string;
  stmt: D1PreparedStatement;
  query: { sql: string; params: unknown[] };
  getQuery(): { sql: string; params: unknown[] };
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
  mapResult(result: unknown, isFromBatch: boolean): unknown;
}

/** A query's prepared form (drizzle's `_prepare()`: what db.batch() runs). */
export const preparedOf = (query: unknown): PreparedQuery => (query as { _prepare(): PreparedQuery })._prepare();

/**
 * A query object whose prepared form is `template`'s (fields, joins, result mapping) with this
 * use's SQL and parameters on a statement prepared when the batch prepares it (`statement()`: on
 * the binding and shard scope current then): what a batch takes for a statement template.
 */
export const preparedAs = <S>(template: PreparedQuery, query: { sql: string; params: unknown[] }, statement: () => D1PreparedStatement): S =>
  ({ _prepare: () => Object.assign(Object.create(template), { query, stmt: statement() }) }) as unknown as S;

export interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** How drizzle decodes a selected field's values (a column, an SQL expression, a subquery or an alias). */
export function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field._.sql as unknown as { decoder: Decoder }).decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/** Whether a column stores values as read (drizzle's default mapping: no decoding needed). */
export const decodesAsRead = (decoder: Decoder) => decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue;
