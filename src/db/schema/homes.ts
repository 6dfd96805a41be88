// Where a table lives. Every database (the directory `DB` and each company shard) runs the same
// migrations, but a table's rows live in one kind of database: a directory table (users, sessions,
// keys, instance settings, plugins, the directory's own tables) is marked where it is defined with
// `inDirectory(sqliteTable(…))`; every other table is a company table, on its company's shard. The
// shard router (src/db/shards.ts) reads the marks from the drizzle objects.
import { is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";

const DIRECTORY_HOME = Symbol.for("acp.table.home.directory");

/** Marks `table` as living in the directory (DB), not on a company shard. */
export function inDirectory<T extends SQLiteTable>(table: T): T {
  Object.defineProperty(table, DIRECTORY_HOME, { value: true, enumerable: false });
  return table;
}

/** Whether `value` is a drizzle table marked as a directory table. */
export const isDirectoryTable = (value: unknown): value is SQLiteTable =>
  is(value, SQLiteTable) && (value as unknown as Record<symbol, unknown>)[DIRECTORY_HOME] === true;
