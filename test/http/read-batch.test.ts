// ReadBatch (src/db/read-batch.ts) maps rows itself, with each column's decoder resolved once per
// query: every shape a read can have (whole tables, nested selections, left joins that null a
// missing table, JSON and boolean columns, SQL expressions, relational queries) must come out
// exactly as drizzle's own db.batch() makes it. And withJoinedReads: a guard's reads share the
// loader's round trip, and the guard decides first.
import { describe, expect, it } from "vitest";
import { asc, count, eq, sql } from "drizzle-orm";
import { schema } from "../../src/db/client";
import { ReadBatch, withJoinedReads } from "../../src/db/read-batch";
import type { Statement } from "../../src/db/batch";
import { createCompany, insertAgent, insertIssue, insertProject, testDb } from "../helpers/fixtures";

async function bothWays(queries: (db: ReturnType<typeof testDb>) => Statement[]) {
  const db = testDb();
  const batch = new ReadBatch(db);
  const handles = queries(db).map((q) => batch.add(q));
  await batch.run();
  const drizzle = await db.batch(queries(db) as unknown as [Statement, ...Statement[]]);
  return { ours: handles.map((h) => h.value), drizzle };
}

describe("ReadBatch maps rows as drizzle does", () => {
  it("whole tables, nested selections, left joins, JSON and boolean columns, SQL expressions, relational queries", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const project = await insertProject(company.id);
    const assigned = await insertIssue(company.id, { assigneeAgentId: agent.id, projectId: project.id, executionPolicy: { mode: "x", n: 2 } });
    const unassigned = await insertIssue(company.id);
    const i = schema.issues;
    const a = schema.agents;
    const { ours, drizzle } = await bothWays((db) => [
      db.select().from(i).where(eq(i.companyId, company.id)).orderBy(asc(i.number)),
      db
        .select({ issue: { id: i.id, policy: i.executionPolicy }, agent: { role: a.role, config: a.adapterConfig, name: a.name } })
        .from(i)
        .leftJoin(a, eq(a.id, i.assigneeAgentId))
        .where(eq(i.companyId, company.id))
        .orderBy(asc(i.number)),
      // A whole table and a left-joined one (D1 batches key rows by column name: no name twice).
      db
        .select({ issue: i, agentName: a.name, agentConfig: a.adapterConfig })
        .from(i)
        .leftJoin(a, eq(a.id, i.assigneeAgentId))
        .where(eq(i.companyId, company.id))
        .orderBy(asc(i.number)),
      db
        .select({ n: count(), twice: sql<number>`count(*) * 2`.mapWith(Number), label: sql<string>`'x'`.as("label") })
        .from(i)
        .where(eq(i.companyId, company.id)),
      db.select({ requiresApproval: schema.companies.requireBoardApprovalForNewAgents }).from(schema.companies).where(eq(schema.companies.id, company.id)),
      db.select().from(i).where(eq(i.id, "missing")),
      db.query.issues.findFirst({ where: eq(i.id, assigned.id) }),
    ]);
    expect(ours).toEqual(drizzle);
    // The shapes are the ones the test means: a joined agent, a nulled one, decoded JSON.
    const joined = ours[1] as Array<{ issue: { id: string; policy: unknown }; agent: { name: string } | null }>;
    expect(joined.map((r) => [r.issue.id, r.agent?.name ?? null])).toEqual([
      [assigned.id, agent.name],
      [unassigned.id, null],
    ]);
    expect(joined[0].issue.policy).toEqual({ mode: "x", n: 2 });
  });
});

describe("withJoinedReads", () => {
  const companyRead = (companyId: string, seen: string[]) => (batch: ReadBatch) => {
    const row = batch.add(batch.db.select({ id: schema.companies.id }).from(schema.companies).where(eq(schema.companies.id, companyId)));
    return () => {
      seen.push("guard");
      if (!row.value[0]) throw new Error("guard: no such company");
    };
  };

  it("runs the guard's reads in the loader's batch and checks them before the loader reads its rows", async () => {
    const company = await createCompany();
    const seen: string[] = [];
    const db = testDb();
    const loaded = await withJoinedReads(db, companyRead(company.id, seen), async () => {
      const batch = new ReadBatch(db);
      const issues = batch.add(db.select({ n: count() }).from(schema.issues).where(eq(schema.issues.companyId, company.id)));
      expect(batch.size).toBe(1);
      await batch.run();
      seen.push("loader");
      return issues.value[0].n;
    });
    expect(loaded).toBe(0);
    expect(seen).toEqual(["guard", "loader"]);
  });

  it("the guard's error comes first, whether the loader reads, fails before reading, or reads nothing", async () => {
    const db = testDb();
    const missing = crypto.randomUUID();
    const readsAfterGuard: string[] = [];
    await expect(
      withJoinedReads(db, companyRead(missing, []), async () => {
        const batch = new ReadBatch(db);
        batch.add(db.select({ id: schema.issues.id }).from(schema.issues).where(eq(schema.issues.id, missing)));
        await batch.run();
        readsAfterGuard.push("loader");
      }),
    ).rejects.toThrow("guard: no such company");
    expect(readsAfterGuard).toEqual([]);
    await expect(
      withJoinedReads(db, companyRead(missing, []), async () => {
        throw new Error("loader: bad input");
      }),
    ).rejects.toThrow("guard: no such company");
    await expect(withJoinedReads(db, companyRead(missing, []), async () => "no reads")).rejects.toThrow("guard: no such company");

    const company = await createCompany();
    const seen: string[] = [];
    await expect(
      withJoinedReads(db, companyRead(company.id, seen), async () => {
        throw new Error("loader: bad input");
      }),
    ).rejects.toThrow("loader: bad input");
    expect(seen).toEqual(["guard"]);
    expect(await withJoinedReads(db, companyRead(company.id, seen), async () => "no reads")).toBe("no reads");
    expect(seen).toEqual(["guard", "guard"]);
  });
});
