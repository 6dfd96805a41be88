// Conditions a command's guarded batch re-checks (`ctx.guard`, src/company/command.ts), built from
// drizzle tables and columns, never SQL text with bare names: every table and column a guard names
// is one the schema-drift test (test/http/schema-drift.test.ts) compares with the migrations.
import { and, eq, getTableColumns, is, isNull, SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/** Column values a row must have, by the table's field names; `null` matches NULL. */
export type RowValues<T extends SQLiteTable> = { [K in keyof T["$inferSelect"]]?: T["$inferSelect"][K] };

/** SQL: the row's columns have `values` (`IS NULL` for null). */
export function rowMatches<T extends SQLiteTable>(table: T, values: RowValues<T>): SQL {
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  const entries = Object.entries(values);
  if (!entries.length) throw new Error("A row guard needs at least one column value");
  const conditions = entries.map(([field, value]) => {
    const column = columns[field];
    if (!column) throw new Error(`No column ${field} in the guarded table`);
    // An undefined value would silently drop the condition: it is a bug in the caller.
    if (value === undefined) throw new Error(`Guard value for ${field} is undefined`);
    return value === null ? isNull(column) : eq(column, value);
  });
  return and(...conditions)!;
}

/** SQL: some row of `table` has `where` (column values, or a drizzle condition on its columns). */
export const rowExists = <T extends SQLiteTable>(table: T, where: RowValues<T> | SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM ${table} WHERE ${is(where, SQL) ? where : rowMatches(table, where)})`;

/** SQL: no row of `table` has `where`. */
export const noRowExists = <T extends SQLiteTable>(table: T, where: RowValues<T> | SQL): SQL => sql`NOT ${rowExists(table, where)}`;

/** SQL: the row `id` of a versioned table is still at `version` (every change bumps it). */
export const sameVersion = <T extends SQLiteTable & { id: SQLiteColumn; version: SQLiteColumn }>(table: T, row: { id: string; version: number }): SQL =>
  rowExists(table, and(eq(table.id, row.id), eq(table.version, row.version))!);
