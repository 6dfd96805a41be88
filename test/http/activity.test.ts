// Company activity log: filters, newest first, hidden issues, board-written entries with sanitised details.
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertIssue, testD1 } from "../helpers/fixtures";

const entry = (companyId: string, extra: Record<string, unknown> = {}) => ({
  actorId: "ops-bot",
  action: "ops.checked",
  entityType: "company",
  entityId: companyId,
  ...extra,
});

describe("POST /api/companies/{companyId}/activity", () => {
  it("appends a record with defaults and redacts secret-looking details", async () => {
    const company = await createCompany();
    const jwtLike = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
    const res = await post(
      `/api/companies/${company.id}/activity`,
      entry(company.id, { details: { apiKey: "sk-live-123", nested: { password: "hunter2", note: "fine", token: jwtLike }, inputTokens: 5, bearer: jwtLike } }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      companyId: company.id,
      actorType: "system",
      actorId: "ops-bot",
      action: "ops.checked",
      agentId: null,
      details: {
        apiKey: "***REDACTED***",
        nested: { password: "***REDACTED***", note: "fine", token: "***REDACTED***" },
        inputTokens: 5,
        bearer: "***REDACTED***",
      },
    });
    const stored = await testD1.prepare("SELECT details FROM activity_log WHERE id = ?").bind(res.body.id).first<any>();
    expect(stored.details).not.toContain("hunter2");
    expect(stored.details).not.toContain("sk-live-123");
  });

  it("rejects bad input, agents, other companies and unauthenticated callers", async () => {
    const company = await createCompany();
    for (const body of [
      {},
      entry(company.id, { actorId: "" }),
      entry(company.id, { actorType: "robot" }),
      entry(company.id, { details: "text" }),
      entry(company.id, { agentId: "not-a-uuid" }),
    ]) {
      expect((await post(`/api/companies/${company.id}/activity`, body)).status, JSON.stringify(body)).toBe(400);
    }
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    expect((await post(`/api/companies/${company.id}/activity`, entry(company.id), { token: key.token })).status).toBe(403);
    const outsider = await boardUser();
    expect((await post(`/api/companies/${company.id}/activity`, entry(company.id), { token: outsider.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/activity`, entry(company.id), { token: "svc_agent_bogus" })).status).toBe(401);
    expect((await post(`/api/companies/${crypto.randomUUID()}/activity`, entry(company.id))).status).toBe(404);
    const count = await testD1.prepare("SELECT COUNT(*) AS n FROM activity_log WHERE company_id = ? AND action = 'ops.checked'").bind(company.id).first<any>();
    expect(count.n).toBe(0);
  });
});

describe("GET /api/companies/{companyId}/activity", () => {
  it("lists newest first with exact-match filters", async () => {
    const company = await createCompany();
    const agentId = crypto.randomUUID();
    await post(`/api/companies/${company.id}/activity`, entry(company.id, { action: "a.first", entityType: "widget", entityId: "w1" }));
    await post(`/api/companies/${company.id}/activity`, entry(company.id, { action: "a.second", entityType: "widget", entityId: "w2", agentId }));
    await post(`/api/companies/${company.id}/activity`, entry(company.id, { action: "a.third", entityType: "gadget", entityId: "w1" }));
    const all = await get(`/api/companies/${company.id}/activity`);
    expect(all.status).toBe(200);
    expect(all.body.slice(0, 3).map((a: any) => a.action)).toEqual(["a.third", "a.second", "a.first"]);
    expect((await get(`/api/companies/${company.id}/activity?entityType=widget`)).body.map((a: any) => a.action)).toEqual(["a.second", "a.first"]);
    expect((await get(`/api/companies/${company.id}/activity?entityId=w1&entityType=gadget`)).body.map((a: any) => a.action)).toEqual(["a.third"]);
    expect((await get(`/api/companies/${company.id}/activity?agentId=${agentId}`)).body.map((a: any) => a.action)).toEqual(["a.second"]);
    expect((await get(`/api/companies/${company.id}/activity?entityType=widge`)).body).toEqual([]);
  });

  it("pages with limit and cursor as arrays, the next cursor in X-Next-Cursor (the whole array without them); a foreign cursor is a 400", async () => {
    const company = await createCompany();
    for (let i = 0; i < 7; i++)
      expect(
        (await post(`/api/companies/${company.id}/activity`, { actorId: "pager", action: `page.test_${i}`, entityType: "thing", entityId: `t${i}` })).status,
      ).toBe(201);
    const all = (await get(`/api/companies/${company.id}/activity?entityType=thing`)).body;
    expect(Array.isArray(all)).toBe(true);
    expect(all).toHaveLength(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any; headers: Headers } = await get(
        `/api/companies/${company.id}/activity?entityType=thing&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.map((a: { id: string }) => a.id));
      cursor = res.headers.get("x-next-cursor");
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((a: { id: string }) => a.id));
    expect((await get(`/api/companies/${company.id}/activity?cursor=nope`)).status).toBe(400);
    expect((await get(`/api/companies/${company.id}/activity?limit=0`)).status).toBe(400);
    // As the incumbent answers it: the newest `limit` entries, an array.
    const newest = await get(`/api/companies/${company.id}/activity?entityType=thing&limit=2`);
    expect(newest.body.map((a: { id: string }) => a.id)).toEqual(all.slice(0, 2).map((a: { id: string }) => a.id));
    expect(newest.headers.get("x-next-cursor")).toBeTruthy();
    expect((await get(`/api/companies/${company.id}/activity?entityType=thing&limit=7`)).headers.get("x-next-cursor")).toBeNull();
  });

  it("leaves out entries of hidden issues", async () => {
    const company = await createCompany();
    const now = new Date().toISOString();
    const visible = (await insertIssue(company.id, { title: "t" })).id;
    const hidden = (await insertIssue(company.id, { title: "t", hiddenAt: now })).id;
    for (const id of [visible, hidden]) {
      await post(`/api/companies/${company.id}/activity`, entry(company.id, { action: "issue.touched", entityType: "issue", entityId: id }));
    }
    const res = await get(`/api/companies/${company.id}/activity?entityType=issue`);
    expect(res.body.map((a: any) => a.entityId)).toEqual([visible]);
  });

  it("is readable by the company's agents and members, not by others", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    const viewer = await boardUser(company.id, "viewer");
    expect((await get(`/api/companies/${company.id}/activity`, { token: key.token })).status).toBe(200);
    expect((await get(`/api/companies/${company.id}/activity`, { token: viewer.token })).status).toBe(200);
    const other = await createCompany();
    const foreign = await insertAgent(other.id);
    const foreignKey = await insertAgentKey(foreign.id, other.id);
    expect((await get(`/api/companies/${company.id}/activity`, { token: foreignKey.token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/activity`, { token: "svc_agent_bogus" })).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}/activity`)).status).toBe(404);
  });
});
