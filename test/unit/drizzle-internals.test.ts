// The drizzle internals this project relies on (src/db/drizzle-internals.ts) are there, in the
// version they were written for: a new drizzle fails here, loudly, before a hot read maps rows wrong.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/d1";
import { eq, sql } from "drizzle-orm";
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { decoderOf, decodesAsRead, DRIZZLE_VERSION, preparedAs, preparedOf } from "../../src/db/drizzle-internals";

const things = sqliteTable("things", { id: text("id").primaryKey(), n: integer("n"), flag: integer("flag", { mode: "boolean" }) });

/** A D1 binding that only prepares (nothing runs). */
const fakeD1 = {
  prepare: (query: string) => ({ query, bind: (...values: unknown[]) => ({ query, values }) }),
} as unknown as D1Database;

describe("drizzle internals", () => {
  it("the installed drizzle-orm is the version they were written for", () => {
    const installed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../node_modules/drizzle-orm/package.json"), "utf8")).version;
    expect(installed, "src/db/drizzle-internals.ts was written for another drizzle-orm: check its internals and update DRIZZLE_VERSION").toBe(DRIZZLE_VERSION);
  });

  it("a select's prepared form has its statement, query, fields and result mapping", () => {
    const db = drizzle(fakeD1);
    const query = db
      .select({ id: things.id, n: things.n, twice: sql<number>`${things.n} * 2`.mapWith(Number) })
      .from(things)
      .where(eq(things.id, "x"));
    const prepared = preparedOf(query);
    expect(prepared.executeMethod).toBe("all");
    expect(prepared.stmt).toBeTruthy();
    expect(prepared.getQuery()).toMatchObject({ sql: expect.stringContaining('from "things"'), params: ["x"] });
    expect(prepared.query.sql).toBe(prepared.getQuery().sql);
    expect(prepared.fields?.map((f) => f.path)).toEqual([["id"], ["n"], ["twice"]]);
    expect(typeof prepared.mapResult).toBe("function");
    const copy = preparedOf(preparedAs(prepared, { sql: "select 1", params: [] }, () => prepared.stmt));
    expect(copy.query).toEqual({ sql: "select 1", params: [] });
    expect(copy.fields).toBe(prepared.fields);
  });

  it("a field's decoder: columns, SQL expressions and subqueries", () => {
    const db = drizzle(fakeD1);
    expect(decodesAsRead(decoderOf(things.n))).toBe(true);
    expect(decoderOf(things.flag).mapFromDriverValue(1)).toBe(true);
    expect(decoderOf(sql`1`.mapWith(Number)).mapFromDriverValue("7")).toBe(7);
    const sub = db
      .select({ total: sql<number>`count(*)`.mapWith(Number).as("total") })
      .from(things)
      .as("sub");
    expect(decoderOf(sub.total).mapFromDriverValue("3")).toBe(3);
  });
});
