import { describe, expect, it } from "vitest";
import { get, post, put } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertApproval, insertIssue } from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };
const DEFAULTS = { collapsed: false, collapsedSections: [], hiddenItems: [], itemOrder: [], pinnedItems: [] };

describe("sidebar preferences", () => {
  it("global preferences per user: defaults, replace, isolation", async () => {
    const a = await boardUser();
    const b = await boardUser();
    const initial = await get("/api/sidebar-preferences/me", { token: a.token });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ scope: "global", companyId: null, preferences: DEFAULTS, updatedAt: null });
    const saved = await put("/api/sidebar-preferences/me", { collapsed: true, itemOrder: ["issues", "agents"] }, { token: a.token });
    expect(saved.status).toBe(200);
    expect(saved.body.preferences).toEqual({ ...DEFAULTS, collapsed: true, itemOrder: ["issues", "agents"] });
    expect((await get("/api/sidebar-preferences/me", { token: a.token })).body.preferences.collapsed).toBe(true);
    expect((await get("/api/sidebar-preferences/me", { token: b.token })).body.preferences.collapsed).toBe(false);
    expect((await put("/api/sidebar-preferences/me", { collapsed: "yes" }, { token: a.token })).status).toBe(400);
    expect((await put("/api/sidebar-preferences/me", { other: 1 }, { token: a.token })).status).toBe(400);
    const agent = await insertAgent((await createCompany()).id);
    const { token } = await insertAgentKey(agent.id, agent.companyId);
    expect((await get("/api/sidebar-preferences/me", { token })).status).toBe(403);
    expect((await put("/api/sidebar-preferences/me", {}, { token })).status).toBe(403);
    expect((await get("/api/sidebar-preferences/me", BOGUS)).status).toBe(401);
    expect((await put("/api/sidebar-preferences/me", {}, BOGUS)).status).toBe(401);
  });

  it("per-company preferences with company guards", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const user = await boardUser(company.id, "member");
    const outsider = await boardUser(other.id, "owner");
    const path = `/api/companies/${company.id}/sidebar-preferences/me`;
    expect((await get(path, { token: user.token })).body).toEqual({ scope: "company", companyId: company.id, preferences: DEFAULTS, updatedAt: null });
    const saved = await put(path, { pinnedItems: ["project:1"] }, { token: user.token });
    expect(saved.status).toBe(200);
    expect((await get(path, { token: user.token })).body.preferences.pinnedItems).toEqual(["project:1"]);
    expect((await get("/api/sidebar-preferences/me", { token: user.token })).body.preferences.pinnedItems).toEqual([]);
    expect((await put(path, { pinnedItems: "x" }, { token: user.token })).status).toBe(400);
    expect((await get(path, { token: outsider.token })).status).toBe(403);
    expect((await put(path, {}, { token: outsider.token })).status).toBe(403);
    expect((await get(path, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}/sidebar-preferences/me`)).status).toBe(404);
    const agent = await insertAgent(company.id);
    expect((await put(path, {}, { token: (await insertAgentKey(agent.id, company.id)).token })).status).toBe(403);
  });
});

describe("sidebar badges and inbox dismissals", () => {
  it("counts pending approvals, join requests, my open issues; dismissals lower the inbox count", async () => {
    const company = await createCompany();
    const user = await boardUser(company.id, "owner");
    const approvalId = await insertApproval(company.id, { status: "pending", payload: {} });
    await insertApproval(company.id, { status: "approved", payload: {} });
    const invite = await post(`/api/companies/${company.id}/invites`, { inviteType: "agent" });
    await post(`/api/invites/${invite.body.token}/accept`, {});
    for (const status of ["todo", "done"] as const) await insertIssue(company.id, { title: "Mine", status, priority: "low", assigneeUserId: user.id });
    const badges = await get(`/api/companies/${company.id}/sidebar-badges`, { token: user.token });
    expect(badges.status).toBe(200);
    expect(badges.body).toEqual({ pendingApprovals: 1, pendingJoinRequests: 1, myOpenIssues: 1, inbox: 3 });
    // The local board has no issues of its own.
    expect((await get(`/api/companies/${company.id}/sidebar-badges`)).body).toMatchObject({ myOpenIssues: 0, inbox: 2 });

    const first = await post(`/api/companies/${company.id}/inbox-dismissals`, { itemKey: `approval:${approvalId}` }, { token: user.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ itemKey: `approval:${approvalId}`, created: true });
    const second = await post(`/api/companies/${company.id}/inbox-dismissals`, { itemKey: `approval:${approvalId}` }, { token: user.token });
    expect(second.body).toMatchObject({ created: false, dismissedAt: first.body.dismissedAt });
    const list = await get(`/api/companies/${company.id}/inbox-dismissals`, { token: user.token });
    expect(list.body).toEqual([{ itemKey: `approval:${approvalId}`, dismissedAt: first.body.dismissedAt }]);
    expect((await get(`/api/companies/${company.id}/inbox-dismissals`)).body).toEqual([]);
    expect((await get(`/api/companies/${company.id}/sidebar-badges`, { token: user.token })).body).toEqual({
      pendingApprovals: 1,
      pendingJoinRequests: 1,
      myOpenIssues: 1,
      inbox: 2,
    });
  });

  it("guards and validation", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    const agent = await insertAgent(company.id);
    const { token: agentToken } = await insertAgentKey(agent.id, company.id);
    const dismissals = `/api/companies/${company.id}/inbox-dismissals`;
    for (const body of [{}, { itemKey: "" }, { itemKey: "whatever" }, { itemKey: "approval:" }, { itemKey: "approval:x", more: 1 }]) {
      expect((await post(dismissals, body)).status, JSON.stringify(body)).toBe(400);
    }
    for (const path of [`/api/companies/${company.id}/sidebar-badges`, dismissals]) {
      expect((await get(path, BOGUS)).status).toBe(401);
      expect((await get(path, { token: outsider.token })).status).toBe(403);
      expect((await get(path, { token: agentToken })).status).toBe(403);
    }
    expect((await post(dismissals, { itemKey: "issue:1" }, { token: outsider.token })).status).toBe(403);
    expect((await post(dismissals, { itemKey: "issue:1" }, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}/sidebar-badges`)).status).toBe(404);
    expect((await post(`/api/companies/${crypto.randomUUID()}/inbox-dismissals`, { itemKey: "issue:1" })).status).toBe(404);
  });
});
