// One schema source: the migrated D1 database and the drizzle tables must agree.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import * as schema from "../../src/db/schema";
import { databaseShapes, drizzleShapes, schemaDrift } from "../helpers/schema-drift";
import { shardNames } from "../../src/db/shards";

describe("schema drift", () => {
  // The directory and every company shard run the same migrations (src/db/shards.ts).
  for (const name of new Set(["DB", ...shardNames(env)])) {
    it(`the migrations and the drizzle tables describe the same tables, columns and indexes (${name})`, async () => {
      const drift = schemaDrift(drizzleShapes(schema), await databaseShapes((env as unknown as Record<string, D1Database>)[name]));
      expect(drift).toEqual([]);
    });
  }

  it("a deliberate mismatch is reported", async () => {
    // companies as drizzle would see it with one extra column, one nullable flip and an extra index.
    const drifted = sqliteTable("companies", { id: text("id").primaryKey(), name: text("name"), surprise: integer("surprise").notNull() }, (t) => [
      index("companies_surprise_idx").on(t.surprise),
    ]);
    const actual = await databaseShapes(env.DB);
    const drift = schemaDrift(drizzleShapes({ drifted }), new Map([["companies", actual.get("companies")!]]));
    expect(drift).toEqual(
      expect.arrayContaining([
        "companies.surprise: in drizzle, missing from the migrations",
        "companies.name: nullable in drizzle, NOT NULL in the migrations",
        "index companies_surprise_idx on companies: in drizzle, missing from the migrations",
        expect.stringMatching(/^companies\.issue_prefix: in the migrations, missing from drizzle$/),
      ]),
    );
  });
});
