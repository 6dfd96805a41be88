// The issue list answered as one JSON text made by SQLite (issueViewJson in src/domain/issues/view.ts)
// equals the views the Worker makes of the same rows (issueView): every kind of value — nulls, JSON
// columns, labels in name order, blockers, numbers, quotes, newlines and non-ASCII text — and the
// list's order and filters.
import { describe, expect, it } from "vitest";
import { onShardOf } from "../../src/db/placement";
import { ReadBatch } from "../../src/db/read-batch";
import { addIssueListJsonRead, addIssueListRead, type IssueListFilters } from "../../src/domain/issues/list";
import { get, post } from "../helpers/api";
import { createCompany, insertAgent, insertAgentKey, insertIssue, insertRow, schema, testDb } from "../helpers/fixtures";

async function both(companyId: string, filters: IssueListFilters) {
  const db = testDb();
  return onShardOf(db, companyId, async () => {
    const batch = new ReadBatch(db);
    const views = addIssueListRead(batch, companyId, filters);
    const json = addIssueListJsonRead(batch, companyId, filters);
    await batch.run();
    return { views: views(), fromSql: JSON.parse(json()) };
  });
}

describe("issue list as JSON made by SQLite", () => {
  it("equals the Worker's views of the same rows, field for field and in order", async () => {
    const company = await createCompany();
    const zebra = (await post(`/api/companies/${company.id}/labels`, { name: "zebra", color: "#000000" })).body;
    const alpha = (await post(`/api/companies/${company.id}/labels`, { name: "alpha" })).body;
    const blocker = await insertIssue(company.id, { title: "Blocker", priority: "low" });
    const rich = (
      await post(`/api/companies/${company.id}/issues`, {
        title: 'Quotes " and \\ backslash, newline\nand non-ASCII: café — 日本',
        description: "Line one\n\tLine two ✓",
        status: "todo",
        priority: "critical",
        labelIds: [zebra.id, alpha.id],
        blockedByIssueIds: [blocker.id],
        assigneeUserId: "local-board",
      })
    ).body;
    await insertIssue(company.id, {
      title: "Policy",
      description: null,
      priority: "high",
      executionPolicy: { mode: "review", reviewers: [{ type: "agent", id: "a" }], depth: 2, strict: true },
      executionWorkspaceSettings: { keep: false, paths: ["src", "test"] },
      executionWorkspacePreference: "shared",
    });
    await insertIssue(company.id, { title: "Hidden", hiddenAt: new Date().toISOString() });
    await insertIssue(company.id, { title: "Done", status: "done", completedAt: new Date().toISOString() });
    await insertRow(schema.issues, {
      id: crypto.randomUUID(),
      companyId: company.id,
      number: 999,
      identifier: `${company.issuePrefix}-999`,
      title: "Routine run",
      status: "todo",
      priority: "medium",
      originKind: "routine_execution",
      originId: "r1",
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });

    for (const filters of [
      {},
      { limit: 2 },
      { statuses: ["todo", "backlog"] },
      { labelId: alpha.id },
      { includeRoutineExecutions: true },
      { assigneeUserId: "local-board" },
      { statuses: ["cancelled"] },
    ] satisfies IssueListFilters[]) {
      const { views, fromSql } = await both(company.id, filters);
      expect(fromSql, JSON.stringify(filters)).toStrictEqual(JSON.parse(JSON.stringify(views)));
    }
    const { fromSql } = await both(company.id, {});
    expect(fromSql.map((i: { title: string }) => i.title)).toEqual([rich.title, "Policy", "Done", "Blocker"]);
    expect(fromSql[0]).toMatchObject({
      labels: [{ name: "alpha" }, { name: "zebra", color: "#000000" }],
      labelIds: [alpha.id, zebra.id],
      blockedByIssueIds: [blocker.id],
    });
    expect(fromSql[1].executionPolicy).toEqual({ mode: "review", reviewers: [{ type: "agent", id: "a" }], depth: 2, strict: true });

    // Through the route: a JSON content type, the views, and an empty list as [].
    const res = await get(`/api/companies/${company.id}/issues?status=todo`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body[0]).toMatchObject({ id: rich.id, title: rich.title, labelIds: [alpha.id, zebra.id], blockedByIssueIds: [blocker.id] });
    expect((await get(`/api/companies/${company.id}/issues?status=cancelled`)).body).toEqual([]);
  });

  it("subqueries about an issue's labels, blockers and comments name the listed issue, not their own table's id", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const label = (await post(`/api/companies/${company.id}/labels`, { name: "ops" })).body;
    const blocker = await insertIssue(company.id, { title: "First" });
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: "Labelled", labelIds: [label.id], blockedByIssueIds: [blocker.id] })).body;
    const discussed = await insertIssue(company.id, { title: "Discussed" });
    expect((await post(`/api/issues/${discussed.id}/comments`, { body: "by the agent" }, { token })).status).toBe(201);
    expect((await post(`/api/issues/${discussed.id}/comments`, { body: "by the board" })).status).toBe(201);
    const list = (await get(`/api/companies/${company.id}/issues`)).body as Array<{ id: string; labelIds: string[]; blockedByIssueIds: string[] }>;
    expect(list.find((i) => i.id === issue.id)).toMatchObject({ labelIds: [label.id], blockedByIssueIds: [blocker.id] });
    const titles = async (query: string) => ((await get(`/api/companies/${company.id}/issues?${query}`)).body as Array<{ title: string }>).map((i) => i.title);
    expect(await titles(`participantAgentId=${agent.id}`)).toEqual(["Discussed"]);
    expect(await titles("touchedByUserId=me")).toEqual(expect.arrayContaining(["Discussed", "Labelled"]));
    expect(await titles(`labelId=${label.id}`)).toEqual(["Labelled"]);
  });
});
