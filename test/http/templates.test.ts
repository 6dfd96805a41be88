// Statement templates (src/db/templates.ts): built once, each use binds its own values and reads
// exactly what the same query built anew reads — in a ReadBatch, in drizzle's db.batch and in a
// write batch — and the issue snapshot built from them matches the issue.
import { describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import { schema } from "../../src/db/client";
import { ReadBatch } from "../../src/db/read-batch";
import { runBatch } from "../../src/db/batch";
import { template } from "../../src/db/templates";
import { addCompanyAgentsRead, addIssueSnapshotReads } from "../../src/domain/issues/snapshot";
import { activityInsert } from "../../src/domain/activity/record";
import type { Actor } from "../../src/domain/actor";
import { onShardOf } from "../../src/db/placement";
import { createCompany, insertAgent, insertIssue, testD1, testDb } from "../helpers/fixtures";
import { get, post } from "../helpers/api";

const issuesOf = template(["company"], (db, slot) =>
  db.select().from(schema.issues).where(eq(schema.issues.companyId, slot.company)).orderBy(asc(schema.issues.number)),
);
const retitle = template(["id", "title"], (db, slot) =>
  db
    .update(schema.issues)
    .set({ title: sql`${slot.title}` })
    .where(eq(schema.issues.id, slot.id)),
);

describe("statement templates", () => {
  it("bind each use's values and read what the query built anew reads", async () => {
    const db = testDb();
    const [a, b] = [await createCompany(), await createCompany()];
    await insertIssue(a.id, { executionPolicy: { mode: "review" } });
    await insertIssue(a.id);
    await insertIssue(b.id);
    const fresh = (companyId: string) => db.select().from(schema.issues).where(eq(schema.issues.companyId, companyId)).orderBy(asc(schema.issues.number));

    const batch = new ReadBatch(db);
    const fromTemplate = [batch.add(issuesOf(db, { company: a.id })), batch.add(issuesOf(db, { company: b.id }))];
    await batch.run();
    const [rowsA, rowsB] = await db.batch([fresh(a.id), fresh(b.id)]);
    expect(fromTemplate[0].value).toEqual(rowsA);
    expect(fromTemplate[1].value).toEqual(rowsB);
    expect(rowsA).toHaveLength(2);
    expect(rowsA[0].executionPolicy).toEqual({ mode: "review" });
    expect(await db.batch([issuesOf(db, { company: b.id })])).toEqual([rowsB]);

    await runBatch(db, [retitle(db, { id: rowsA[0].id, title: "First" }), retitle(db, { id: rowsA[1].id, title: "Second" })]);
    expect((await fresh(a.id)).map((r) => r.title)).toEqual(["First", "Second"]);
  });

  it("activity entries and their events are stored as before: details NULL when there are none, JSON otherwise", async () => {
    const db = testDb();
    const company = await createCompany();
    const actor: Actor = { type: "board", source: "local_implicit", userId: "local-board", isInstanceAdmin: true, companyIds: [], keyId: null, runId: null };
    const entry = (details: Record<string, unknown> | null) => ({
      companyId: company.id,
      actor,
      action: "issue.created",
      entityType: "issue",
      entityId: crypto.randomUUID(),
      details,
      now: new Date().toISOString(),
    });
    const bare = entry(null);
    const full = entry({ identifier: "X-1", title: "t", status: "todo" });
    await onShardOf(db, company.id, () => runBatch(db, [activityInsert(db, bare), activityInsert(db, full)]));
    const raw = (entityId: string) =>
      testD1
        .prepare("SELECT details, typeof(details) AS kind FROM activity_log WHERE entity_id = ?")
        .bind(entityId)
        .first<{ details: string | null; kind: string }>();
    expect(await raw(bare.entityId)).toEqual({ details: null, kind: "null" });
    expect(JSON.parse((await raw(full.entityId))!.details!)).toEqual(full.details);
    const event = await testD1
      .prepare("SELECT type, data FROM company_events WHERE subject_id = ?")
      .bind(full.entityId)
      .first<{ type: string; data: string }>();
    expect(event?.type).toBe("issue.created");
    expect(JSON.parse(event!.data)).toMatchObject({ identifier: "X-1", title: "t", status: "todo" });
  });

  it("a new issue's templated insert stores what drizzle's own insert stores: NULL for null JSON, JSON otherwise", async () => {
    const company = await createCompany();
    const bare = await post(`/api/companies/${company.id}/issues`, { title: "bare" });
    const full = await post(`/api/companies/${company.id}/issues`, {
      title: "full",
      status: "todo",
      executionPolicy: { mode: "normal", commentRequired: true, stages: [] },
    });
    expect([bare.status, full.status]).toEqual([201, 201]);
    const raw = (id: string) =>
      testD1
        .prepare(
          "SELECT typeof(execution_policy) AS policy, typeof(execution_workspace_settings) AS settings, typeof(hidden_at) AS hidden, title, status, version FROM issues WHERE id = ?",
        )
        .bind(id)
        .first();
    expect(await raw(bare.body.id)).toEqual({ policy: "null", settings: "null", hidden: "null", title: "bare", status: "backlog", version: 0 });
    expect(await raw(full.body.id)).toMatchObject({ policy: "text", settings: "null", title: "full", status: "todo" });
    // Read back through the API, the two are what was sent.
    expect((await get(`/api/issues/${full.body.id}`)).body.executionPolicy).toMatchObject({ mode: "normal", commentRequired: true });
    expect((await get(`/api/issues/${bare.body.id}`)).body.executionPolicy).toBeNull();
  });

  it("lists of one filter shape share a template and each use lists its own company, statuses and limit", async () => {
    const [a, b] = [await createCompany(), await createCompany()];
    for (const [company, status] of [
      [a, "todo"],
      [a, "blocked"],
      [a, "done"],
      [b, "todo"],
      [b, "in_review"],
    ] as const)
      expect((await post(`/api/companies/${company.id}/issues`, { title: `${status} issue`, status })).status).toBe(201);
    const titles = async (companyId: string, query: string) =>
      ((await get(`/api/companies/${companyId}/issues?${query}`)).body as Array<{ title: string }>).map((i) => i.title).sort();
    // The same shape (two statuses, a limit) four times with different values.
    expect(await titles(a.id, "status=todo,blocked&limit=10")).toEqual(["blocked issue", "todo issue"]);
    expect(await titles(b.id, "status=todo,in_review&limit=10")).toEqual(["in_review issue", "todo issue"]);
    expect(await titles(a.id, "status=done,in_review&limit=10")).toEqual(["done issue"]);
    expect(await titles(b.id, "status=todo,in_review&limit=1")).toHaveLength(1);
    // Another shape (no filter) beside it.
    expect(await titles(b.id, "")).toEqual(["in_review issue", "todo issue"]);
  });

  it("the issue snapshot and company reads find the issue by id or identifier, and its company's agents", async () => {
    const db = testDb();
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const issue = await insertIssue(company.id, { assigneeAgentId: agent.id });
    for (const ref of [issue.id, issue.identifier.toLowerCase()]) {
      const batch = new ReadBatch(db);
      const snapshot = addIssueSnapshotReads(batch, ref);
      const agents = addCompanyAgentsRead(batch, { issueRef: ref });
      const byId = addCompanyAgentsRead(batch, company.id);
      await batch.run();
      expect(snapshot()?.issue.id, ref).toBe(issue.id);
      expect(agents().agents.map((a) => a.id)).toEqual([agent.id]);
      expect(byId()).toEqual(agents());
    }
    const missing = new ReadBatch(db);
    const none = addIssueSnapshotReads(missing, crypto.randomUUID());
    await missing.run();
    expect(none()).toBeNull();
  });
});
