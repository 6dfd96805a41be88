import { describe, expect, it } from "vitest";
import { del, get, patch, post } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, testD1 } from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };

async function goal(companyId: string, body: Record<string, unknown> = {}, options = {}) {
  const res = await post(`/api/companies/${companyId}/goals`, { title: "Grow", ...body }, options);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("goals", () => {
  it("creates with defaults, lists, gets, patches and deletes", async () => {
    const company = await createCompany();
    const created = await goal(company.id, { description: "Grow revenue" });
    expect(created).toMatchObject({ companyId: company.id, title: "Grow", level: "task", status: "planned", parentId: null, isCompanyDefault: false });

    const list = await get(`/api/companies/${company.id}/goals`);
    expect(list.status).toBe(200);
    expect(list.body.map((g: any) => g.id)).toEqual([created.id]);

    expect((await get(`/api/goals/${created.id}`)).body.title).toBe("Grow");
    const patched = await patch(`/api/goals/${created.id}`, { status: "active", level: "company" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ status: "active", level: "company", title: "Grow", description: "Grow revenue" });

    const removed = await del(`/api/goals/${created.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.id).toBe(created.id);
    expect((await get(`/api/goals/${created.id}`)).status).toBe(404);
  });

  it("keeps the parent tree inside the company and acyclic", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const root = await goal(company.id, { level: "company" });
    const child = await goal(company.id, { parentId: root.id });
    const grandchild = await goal(company.id, { parentId: child.id });
    const foreign = await goal(other.id);

    const cross = await post(`/api/companies/${company.id}/goals`, { title: "x", parentId: foreign.id });
    expect(cross.status).toBe(422);
    expect(cross.body.error).toMatch(/parentId/);
    expect((await post(`/api/companies/${company.id}/goals`, { title: "x", parentId: "nope" })).status).toBe(400);

    const self = await patch(`/api/goals/${root.id}`, { parentId: root.id });
    expect(self.status).toBe(422);
    const cycle = await patch(`/api/goals/${root.id}`, { parentId: grandchild.id });
    expect(cycle.status).toBe(422);
    expect(cycle.body.error).toMatch(/cycle/);

    // Deleting the middle goal makes its child a root.
    const removed = await del(`/api/goals/${child.id}`);
    expect(removed.body.parentId).toBe(root.id);
    expect((await get(`/api/goals/${grandchild.id}`)).body.parentId).toBeNull();
  });

  it("checks the owner agent's company", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const mine = await insertAgent(company.id);
    const theirs = await insertAgent(other.id);
    expect((await goal(company.id, { ownerAgentId: mine.id })).ownerAgentId).toBe(mine.id);
    const bad = await post(`/api/companies/${company.id}/goals`, { title: "x", ownerAgentId: theirs.id });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/ownerAgentId/);
  });

  it("keeps at most one company default goal", async () => {
    const company = await createCompany();
    const a = await goal(company.id, { isCompanyDefault: true });
    const b = await goal(company.id, { isCompanyDefault: true });
    expect((await get(`/api/goals/${a.id}`)).body.isCompanyDefault).toBe(false);
    expect((await get(`/api/goals/${b.id}`)).body.isCompanyDefault).toBe(true);
    await patch(`/api/goals/${a.id}`, { isCompanyDefault: true });
    const list = (await get(`/api/companies/${company.id}/goals`)).body;
    expect(list.filter((g: any) => g.isCompanyDefault).map((g: any) => g.id)).toEqual([a.id]);
    // Concurrent claims still end with exactly one default.
    const racers = await Promise.all([1, 2, 3].map((i) => post(`/api/companies/${company.id}/goals`, { title: `r${i}`, isCompanyDefault: true })));
    expect(racers.every((r) => r.status === 201)).toBe(true);
    const after = (await get(`/api/companies/${company.id}/goals`)).body;
    expect(after.filter((g: any) => g.isCompanyDefault)).toHaveLength(1);
  });

  it("rejects bad input with 400 and records activity", async () => {
    const company = await createCompany();
    expect((await post(`/api/companies/${company.id}/goals`, { title: "" })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/goals`, { title: "x", level: "galaxy" })).status).toBe(400);
    const g = await goal(company.id);
    expect((await patch(`/api/goals/${g.id}`, {})).status).toBe(400);
    expect((await patch(`/api/goals/${g.id}`, { status: "done" })).status).toBe(400);
    const activity = (await get(`/api/companies/${company.id}/activity?entityType=goal`)).body;
    expect(activity.map((a: any) => a.action)).toContain("goal.created");
  });

  it("answers 401, 403 and 404 for the wrong callers", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const g = await goal(company.id);
    expect((await get(`/api/companies/${company.id}/goals`, BOGUS)).status).toBe(401);
    expect((await post(`/api/companies/${company.id}/goals`, { title: "x" }, BOGUS)).status).toBe(401);
    expect((await get(`/api/goals/${g.id}`, BOGUS)).status).toBe(401);
    expect((await patch(`/api/goals/${g.id}`, { title: "y" }, BOGUS)).status).toBe(401);
    expect((await del(`/api/goals/${g.id}`, BOGUS)).status).toBe(401);

    const outsider = await insertAgent(other.id);
    const { token } = await insertAgentKey(outsider.id, other.id);
    expect((await get(`/api/companies/${company.id}/goals`, { token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/goals`, { title: "x" }, { token })).status).toBe(403);
    expect((await get(`/api/goals/${g.id}`, { token })).status).toBe(404);
    expect((await patch(`/api/goals/${g.id}`, { title: "y" }, { token })).status).toBe(404);
    expect((await del(`/api/goals/${g.id}`, { token })).status).toBe(404);
    const member = await boardUser(other.id);
    expect((await get(`/api/companies/${company.id}/goals`, { token: member.token })).status).toBe(403);

    expect((await get(`/api/companies/${crypto.randomUUID()}/goals`)).status).toBe(404);
    expect((await get(`/api/goals/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await patch(`/api/goals/${crypto.randomUUID()}`, { title: "y" })).status).toBe(404);
    expect((await del(`/api/goals/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it("opens an approve_ceo_strategy approval when the CEO sets a company-level goal, once per goal", async () => {
    const company = await createCompany();
    const ceo = await insertAgent(company.id, { role: "ceo" });
    const { token } = await insertAgentKey(ceo.id, company.id);
    const g = await goal(company.id, { title: "Win the market", description: "Ship v1 by Q3", level: "company" }, { token });
    await patch(`/api/goals/${g.id}`, { description: "Ship v1 by Q2" }, { token });
    const rows = await testD1.prepare("SELECT * FROM approvals WHERE company_id = ? AND type = 'approve_ceo_strategy'").bind(company.id).all<any>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]).toMatchObject({ status: "pending", requested_by_agent_id: ceo.id });
    expect(JSON.parse(rows.results[0].payload)).toMatchObject({ goalId: g.id, summary: "Ship v1 by Q3" });

    // Other agents and task-level goals do not trigger it.
    const engineer = await insertAgent(company.id);
    const eng = await insertAgentKey(engineer.id, company.id);
    await goal(company.id, { level: "company" }, { token: eng.token });
    await goal(company.id, { level: "task" }, { token });
    const count = await testD1.prepare("SELECT COUNT(*) AS n FROM approvals WHERE company_id = ?").bind(company.id).first<{ n: number }>();
    expect(count!.n).toBe(1);
  });
});
