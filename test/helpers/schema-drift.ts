// Schema drift: the drizzle tables (src/db/schema) and the SQL migrations are written separately;
// this compares the migrated database (PRAGMA table_info / index_list / index_info) with the
// drizzle definitions and lists every difference. test/http/schema-drift.test.ts fails on any.
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { Column, SQL, StringChunk, is } from "drizzle-orm";

export interface ColumnShape {
  name: string;
  type: string;
  notNull: boolean;
  primaryKey: boolean;
}
export interface IndexShape {
  name: string;
  unique: boolean;
  columns: string[];
}
export interface TableShape {
  columns: ColumnShape[];
  indexes: IndexShape[];
}

/** The shape the drizzle definitions promise, per table name. */
export function drizzleShapes(tables: Record<string, unknown>): Map<string, TableShape> {
  const shapes = new Map<string, TableShape>();
  for (const value of Object.values(tables)) {
    if (!is(value, SQLiteTable)) continue;
    const config = getTableConfig(value);
    const compositePk = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c: SQLiteColumn) => c.name)));
    const columns = config.columns.map((c) => ({
      name: c.name,
      type: c.getSQLType().toLowerCase(),
      notNull: c.notNull || c.primary || compositePk.has(c.name),
      primaryKey: c.primary || compositePk.has(c.name),
    }));
    const indexes = config.indexes.map((i) => ({
      name: i.config.name,
      unique: i.config.unique,
      columns: i.config.columns.map(indexedColumnName),
    }));
    // Column-level `.unique()` becomes a unique index named <table>_<column>_unique.
    for (const c of config.columns) {
      if (c.isUnique) indexes.push({ name: c.uniqueName ?? `${config.name}_${c.name}_unique`, unique: true, columns: [c.name] });
    }
    shapes.set(config.name, { columns, indexes });
  }
  return shapes;
}

/** A plain column (also `desc(column)`) by name; anything else is an expression. */
function indexedColumnName(part: unknown): string {
  if (is(part, Column)) return part.name;
  if (is(part, SQL)) {
    const columns = part.queryChunks.filter((chunk) => is(chunk, Column)) as Column[];
    const others = part.queryChunks.filter((chunk) => !is(chunk, Column) && !(is(chunk, StringChunk) && /^\s*(desc|asc)?\s*$/i.test(chunk.value.join(""))));
    if (columns.length === 1 && !others.length) return columns[0].name;
  }
  return "<expr>";
}

const IGNORED_TABLES = /^(sqlite_|_cf_|d1_migrations$)/;

/** The shape of the migrated database, per table name. */
export async function databaseShapes(db: D1Database): Promise<Map<string, TableShape>> {
  const tables = await db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string; sql: string }>();
  // FTS5 virtual tables (and their shadow tables) are search indexes kept by triggers, not drizzle tables.
  const virtual = tables.results.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const shapes = new Map<string, TableShape>();
  for (const { name } of tables.results) {
    if (IGNORED_TABLES.test(name) || virtual.some((v) => name === v || name.startsWith(`${v}_`))) continue;
    const info = await db.prepare(`PRAGMA table_info("${name}")`).all<{ name: string; type: string; notnull: number; pk: number }>();
    const list = await db.prepare(`PRAGMA index_list("${name}")`).all<{ name: string; unique: number; origin: string }>();
    const indexes: IndexShape[] = [];
    for (const index of list.results) {
      if (index.origin === "pk") continue;
      const cols = await db.prepare(`PRAGMA index_info("${index.name}")`).all<{ name: string | null }>();
      const columns = cols.results.map((c) => c.name ?? "<expr>");
      // An inline UNIQUE constraint's automatic index gets the name drizzle gives a column's `.unique()`.
      const indexName = index.origin === "u" ? `${name}_${columns.join("_")}_unique` : index.name;
      indexes.push({ name: indexName, unique: index.unique === 1, columns });
    }
    shapes.set(name, {
      columns: info.results.map((c) => ({ name: c.name, type: c.type.toLowerCase(), notNull: c.notnull === 1 || c.pk > 0, primaryKey: c.pk > 0 })),
      indexes,
    });
  }
  return shapes;
}

/** Every difference between the two, one readable line each (empty when they agree). */
export function schemaDrift(expected: Map<string, TableShape>, actual: Map<string, TableShape>): string[] {
  const problems: string[] = [];
  for (const name of expected.keys()) if (!actual.has(name)) problems.push(`table ${name}: in drizzle, missing from the migrations`);
  for (const name of actual.keys()) if (!expected.has(name)) problems.push(`table ${name}: in the migrations, missing from drizzle`);
  for (const [name, want] of expected) {
    const have = actual.get(name);
    if (!have) continue;
    const haveCols = new Map(have.columns.map((c) => [c.name, c]));
    const wantCols = new Map(want.columns.map((c) => [c.name, c]));
    for (const c of want.columns) {
      const h = haveCols.get(c.name);
      if (!h) problems.push(`${name}.${c.name}: in drizzle, missing from the migrations`);
      else {
        if (h.type !== c.type) problems.push(`${name}.${c.name}: type ${c.type} in drizzle, ${h.type} in the migrations`);
        if (h.notNull !== c.notNull)
          problems.push(`${name}.${c.name}: ${c.notNull ? "NOT NULL" : "nullable"} in drizzle, ${h.notNull ? "NOT NULL" : "nullable"} in the migrations`);
        if (h.primaryKey !== c.primaryKey) problems.push(`${name}.${c.name}: primary key ${c.primaryKey} in drizzle, ${h.primaryKey} in the migrations`);
      }
    }
    for (const c of have.columns) if (!wantCols.has(c.name)) problems.push(`${name}.${c.name}: in the migrations, missing from drizzle`);
    const haveIdx = new Map(have.indexes.map((i) => [i.name, i]));
    const wantIdx = new Map(want.indexes.map((i) => [i.name, i]));
    for (const i of want.indexes) {
      const h = haveIdx.get(i.name);
      if (!h) problems.push(`index ${i.name} on ${name}: in drizzle, missing from the migrations`);
      else {
        if (h.unique !== i.unique)
          problems.push(`index ${i.name}: ${i.unique ? "unique" : "not unique"} in drizzle, ${h.unique ? "unique" : "not unique"} in the migrations`);
        if (h.columns.join(",") !== i.columns.join(",")) problems.push(`index ${i.name}: (${i.columns}) in drizzle, (${h.columns}) in the migrations`);
      }
    }
    for (const i of have.indexes) if (!wantIdx.has(i.name)) problems.push(`index ${i.name} on ${name}: in the migrations, missing from drizzle`);
  }
  return problems;
}
