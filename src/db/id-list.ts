// Id lists of any length in one statement. D1 binds at most 100 parameters per statement, so a
// list is bound as ONE JSON parameter and expanded by SQLite's json_each.
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** `(SELECT value FROM json_each(?))`: the ids as a subquery bound as one parameter. */
export const idList = (ids: readonly string[]): SQL => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** `column IN (ids…)` for any number of ids (one bound parameter). */
export const inIds = (column: SQLiteColumn | SQL | SQL.Aliased, ids: readonly string[]): SQL => sql`${column} IN ${idList(ids)}`;
