// Companies: create, list, stats, get, patch, branding, archive, delete; membership-based access.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { del, get, patch, post } from "../helpers/api";
import { addMembership, boardUser, createCompany, insertAgent, insertAgentKey, insertRow, insertWakeup, schema, testD1 } from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };

describe("POST /api/companies", () => {
  it("creates a company with a derived issue prefix, owner membership, budget policy and activity", async () => {
    const owner = await boardUser();
    const res = await post("/api/companies", { name: "Zephyr Works", description: "wind", budgetMonthlyCents: 5000 }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Zephyr Works",
      description: "wind",
      status: "active",
      issuePrefix: "ZEPH",
      issueCounter: 0,
      budgetMonthlyCents: 5000,
      spentMonthlyCents: 0,
      requireBoardApprovalForNewAgents: false,
      logoAssetId: null,
      logoUrl: null,
    });
    const id = res.body.id;
    const membership = await testD1
      .prepare("SELECT membership_role, status FROM company_memberships WHERE company_id = ? AND principal_id = ?")
      .bind(id, owner.id)
      .first();
    expect(membership).toEqual({ membership_role: "owner", status: "active" });
    const policy = await testD1.prepare("SELECT scope_type, window_kind, amount_cents, is_active FROM budget_policies WHERE company_id = ?").bind(id).first();
    expect(policy).toEqual({ scope_type: "company", window_kind: "calendar_month_utc", amount_cents: 5000, is_active: 1 });
    const activity = await get(`/api/companies/${id}/activity`);
    expect(activity.body.map((a: any) => a.action)).toContain("company.created");
  });

  it("prefixes stay short on clashes: initials, the first three letters with a later letter, then a number; CMP without letters", async () => {
    // Storage is shared with other test files: pick three letters no company's prefix starts with yet.
    let base = "";
    do {
      base = Array.from({ length: 3 }, () => String.fromCharCode(66 + Math.floor(Math.random() * 25))).join("");
    } while (await testD1.prepare("SELECT 1 FROM companies WHERE issue_prefix LIKE ?1 OR issue_prefix = ?2").bind(`${base}%`, `${base[0]}Q`).first());
    const name = `${base.toLowerCase()}k quay`;
    const created: Array<{ id: string; issuePrefix: string }> = [];
    for (let i = 0; i < 30; i++) {
      const res = await post("/api/companies", { name });
      expect(res.status).toBe(201);
      created.push(res.body);
    }
    const prefixes = created.map((c) => c.issuePrefix);
    expect(prefixes.slice(0, 8)).toEqual([`${base}K`, `${base[0]}Q`, `${base}Q`, `${base}U`, `${base}A`, `${base}Y`, `${base}2`, `${base}3`]);
    expect(new Set(prefixes).size).toBe(30);
    expect(prefixes.every((p) => /^[A-Z][A-Z0-9]{0,9}$/.test(p))).toBe(true);
    // Issues of a numbered prefix are found by their identifier.
    const numbered = created.find((c) => c.issuePrefix === `${base}9`)!;
    const issue = (await post(`/api/companies/${numbered.id}/issues`, { title: "Numbered" })).body;
    expect(issue.identifier).toBe(`${base}9-1`);
    expect((await get(`/api/issues/${base.toLowerCase()}9-1`)).body.id).toBe(issue.id);
    const digits = await post("/api/companies", { name: "1234" });
    expect(digits.body.issuePrefix).toMatch(/^CMP\d*$/);
  });

  it("concurrent creates with the same name get distinct prefixes", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => post("/api/companies", { name: "Wombat Inc" })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const prefixes = results.map((r) => r.body.issuePrefix);
    expect(new Set(prefixes).size).toBe(6);
  });

  it("no budget: no active policy", async () => {
    const company = await createCompany();
    const policy = await testD1.prepare("SELECT COUNT(*) AS n FROM budget_policies WHERE company_id = ?").bind(company.id).first<any>();
    expect(policy.n).toBe(0);
  });

  it("rejects bad input, agents and unauthenticated callers", async () => {
    for (const body of [{}, { name: "" }, { name: "X", budgetMonthlyCents: -1 }, { name: "X", budgetMonthlyCents: 1.5 }, { name: "X", brandColor: "red" }]) {
      const res = await post("/api/companies", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBeTypeOf("string");
    }
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    expect((await post("/api/companies", { name: "Agent Co" }, { token: key.token })).status).toBe(403);
    expect((await post("/api/companies", { name: "Nobody Co" }, BOGUS)).status).toBe(401);
  });
});

describe("GET /api/companies and /stats", () => {
  it("lists the caller's companies; archived ones only on request", async () => {
    const user = await boardUser();
    const mine = await createCompany({}, { token: user.token });
    const archived = await createCompany({}, { token: user.token });
    const notMine = await createCompany();
    await post(`/api/companies/${archived.id}/archive`, undefined, { token: user.token });
    const list = await get("/api/companies", { token: user.token });
    expect(list.status).toBe(200);
    const ids = list.body.map((c: any) => c.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(archived.id);
    expect(ids).not.toContain(notMine.id);
    const all = await get("/api/companies?includeArchived=true", { token: user.token });
    expect(all.body.map((c: any) => c.id)).toContain(archived.id);
    // The local board sees every company.
    expect((await get("/api/companies")).body.map((c: any) => c.id)).toContain(notMine.id);
    expect((await get("/api/companies?includeArchived=maybe")).status).toBe(400);
  });

  it("stats are keyed by company id with agent and issue counts", async () => {
    const user = await boardUser();
    const company = await createCompany({}, { token: user.token });
    await insertAgent(company.id);
    await insertAgent(company.id);
    await insertAgent(company.id, { status: "terminated" });
    const stats = await get("/api/companies/stats", { token: user.token });
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({ [company.id]: { agentCount: 2, issueCount: 0 } });
  });

  it("agents and unauthenticated callers cannot list", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    expect((await get("/api/companies", { token: key.token })).status).toBe(403);
    expect((await get("/api/companies/stats", { token: key.token })).status).toBe(403);
    expect((await get("/api/companies", BOGUS)).status).toBe(401);
    expect((await get("/api/companies/stats", BOGUS)).status).toBe(401);
  });
});

describe("GET /api/companies/{companyId}", () => {
  it("member 200, non-member 403, own agent 200, foreign agent 403, nobody 401, missing 404", async () => {
    const member = await boardUser();
    const company = await createCompany({}, { token: member.token });
    const other = await createCompany();
    const outsider = await boardUser(other.id);
    const agent = await insertAgent(company.id);
    const foreignAgent = await insertAgent(other.id);
    const [agentKey, foreignKey] = await Promise.all([insertAgentKey(agent.id, company.id), insertAgentKey(foreignAgent.id, other.id)]);
    const path = `/api/companies/${company.id}`;
    expect((await get(path, { token: member.token })).status).toBe(200);
    expect((await get(path, { token: outsider.token })).status).toBe(403);
    expect((await get(path, { token: agentKey.token })).status).toBe(200);
    expect((await get(path, { token: foreignKey.token })).status).toBe(403);
    expect((await get(path, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe("PATCH /api/companies/{companyId}", () => {
  it("board owner updates every field and the change is logged", async () => {
    const owner = await boardUser();
    const company = await createCompany({}, { token: owner.token });
    const res = await patch(
      `/api/companies/${company.id}`,
      { name: "Renamed", budgetMonthlyCents: 1200, brandColor: "#abcdef", requireBoardApprovalForNewAgents: true, status: "paused" },
      { token: owner.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Renamed",
      budgetMonthlyCents: 1200,
      brandColor: "#abcdef",
      requireBoardApprovalForNewAgents: true,
      status: "paused",
    });
    expect(res.body.issuePrefix).toBe(company.issuePrefix);
    const policy = await testD1.prepare("SELECT amount_cents FROM budget_policies WHERE company_id = ? AND scope_type = 'company'").bind(company.id).first();
    expect(policy).toEqual({ amount_cents: 1200 });
    const activity = await get(`/api/companies/${company.id}/activity?action=x&entityType=company`);
    const updated = activity.body.find((a: any) => a.action === "company.updated");
    expect(updated.details.changes.name).toEqual({ from: company.name, to: "Renamed" });
  });

  it("rejects bad input with 400 and changes nothing", async () => {
    const company = await createCompany();
    for (const body of [{}, { budgetMonthlyCents: -5 }, { status: "deleted" }, { brandColor: "#12" }, { name: "" }]) {
      expect((await patch(`/api/companies/${company.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await get(`/api/companies/${company.id}`)).body.updatedAt).toBe(company.updatedAt);
  });

  it("viewer and plain members cannot change settings; other companies' users get 403; missing 404", async () => {
    const company = await createCompany();
    const member = await boardUser(company.id, "member");
    const outsider = await boardUser();
    expect((await patch(`/api/companies/${company.id}`, { name: "M" }, { token: member.token })).status).toBe(403);
    expect((await patch(`/api/companies/${company.id}`, { name: "O" }, { token: outsider.token })).status).toBe(403);
    expect((await patch(`/api/companies/${company.id}`, { name: "N" }, BOGUS)).status).toBe(401);
    expect((await patch(`/api/companies/${crypto.randomUUID()}`, { name: "N" })).status).toBe(404);
    const admin = await boardUser(company.id, "admin");
    expect((await patch(`/api/companies/${company.id}`, { name: "By admin" }, { token: admin.token })).status).toBe(200);
  });

  it("the CEO agent may change branding fields only; other agents none", async () => {
    const company = await createCompany();
    const ceo = await insertAgent(company.id, { role: "ceo" });
    const engineer = await insertAgent(company.id);
    const [ceoKey, engineerKey] = await Promise.all([insertAgentKey(ceo.id, company.id), insertAgentKey(engineer.id, company.id)]);
    const ok = await patch(`/api/companies/${company.id}`, { description: "by the CEO", brandColor: "#000000" }, { token: ceoKey.token });
    expect(ok.status).toBe(200);
    expect(ok.body.description).toBe("by the CEO");
    const budget = await patch(`/api/companies/${company.id}`, { budgetMonthlyCents: 1 }, { token: ceoKey.token });
    expect(budget.status).toBe(403);
    expect(budget.body.error).toMatch(/budgetMonthlyCents/);
    expect((await patch(`/api/companies/${company.id}`, { description: "x" }, { token: engineerKey.token })).status).toBe(403);
  });

  it("logoAssetId must belong to the same company (422)", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const assetId = crypto.randomUUID();
    await insertRow(schema.assets, {
      id: assetId,
      companyId: other.id,
      kind: "logo",
      contentType: "image/png",
      byteSize: 1,
      sha256: "x",
      objectKey: "k",
      createdAt: new Date().toISOString(),
    });
    const res = await patch(`/api/companies/${company.id}`, { logoAssetId: assetId });
    expect(res.status).toBe(422);
    expect((await patch(`/api/companies/${company.id}`, { logoAssetId: crypto.randomUUID() })).status).toBe(422);
    const own = await patch(`/api/companies/${other.id}`, { logoAssetId: assetId });
    expect(own.status).toBe(200);
    expect(own.body.logoUrl).toBe(`/api/assets/${assetId}/content`);
  });

  it("concurrent patches are serialised by the company's Durable Object: one activity row each, a gap-free chain", async () => {
    const company = await createCompany();
    const n = 20;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => patch(`/api/companies/${company.id}`, { description: `v${i}` })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const activity = await get(`/api/companies/${company.id}/activity?entityType=company`);
    const updates = activity.body.filter((a: any) => a.action === "company.updated").reverse();
    expect(updates).toHaveLength(n);
    // Serialised: each update saw the previous one's result, so the from→to values form one chain.
    let previous: unknown = null;
    for (const entry of updates) {
      expect(entry.details.changes.description.from).toBe(previous);
      previous = entry.details.changes.description.to;
    }
    expect((await get(`/api/companies/${company.id}`)).body.description).toBe(previous);
  });
});

describe("PATCH /api/companies/{companyId}/branding", () => {
  it("updates branding for board managers and the CEO agent; refuses others", async () => {
    const company = await createCompany();
    const res = await patch(`/api/companies/${company.id}/branding`, { brandColor: "#ff0000", name: "Brand New" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ brandColor: "#ff0000", name: "Brand New" });
    const ceo = await insertAgent(company.id, { role: "ceo" });
    const ceoKey = await insertAgentKey(ceo.id, company.id);
    expect((await patch(`/api/companies/${company.id}/branding`, { description: "d" }, { token: ceoKey.token })).status).toBe(200);
    const other = await createCompany();
    const foreignCeo = await insertAgent(other.id, { role: "ceo" });
    const foreignKey = await insertAgentKey(foreignCeo.id, other.id);
    expect((await patch(`/api/companies/${company.id}/branding`, { description: "d" }, { token: foreignKey.token })).status).toBe(403);
    expect((await patch(`/api/companies/${company.id}/branding`, {})).status).toBe(400);
    expect((await patch(`/api/companies/${company.id}/branding`, { brandColor: "blue" })).status).toBe(400);
    expect((await patch(`/api/companies/${company.id}/branding`, { description: "d" }, BOGUS)).status).toBe(401);
    expect((await patch(`/api/companies/${crypto.randomUUID()}/branding`, { description: "d" })).status).toBe(404);
  });
});

describe("POST /api/companies/{companyId}/archive", () => {
  it("archives, pauses active agents with company_archived and cancels their waiting wake-ups", async () => {
    const company = await createCompany();
    const idle = await insertAgent(company.id);
    const terminated = await insertAgent(company.id, { status: "terminated" });
    await insertWakeup(company.id, idle.id);
    const res = await post(`/api/companies/${company.id}/archive`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("archived");
    expect(res.body.archivedAt).toBeTruthy();
    const agents = await testD1.prepare("SELECT id, status, pause_reason FROM agents WHERE company_id = ? ORDER BY id").bind(company.id).all<any>();
    expect(agents.results.find((a) => a.id === idle.id)).toMatchObject({ status: "paused", pause_reason: "company_archived" });
    expect(agents.results.find((a) => a.id === terminated.id)).toMatchObject({ status: "terminated" });
    const wake = await testD1.prepare("SELECT status FROM agent_wakeup_requests WHERE agent_id = ?").bind(idle.id).first();
    expect(wake).toEqual({ status: "cancelled" });
    expect((await get("/api/companies")).body.map((c: any) => c.id)).not.toContain(company.id);
  });

  it("needs a board owner or admin", async () => {
    const company = await createCompany();
    const viewer = await boardUser(company.id, "viewer");
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    expect((await post(`/api/companies/${company.id}/archive`, undefined, { token: viewer.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/archive`, undefined, { token: key.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/archive`, undefined, BOGUS)).status).toBe(401);
    expect((await post(`/api/companies/${crypto.randomUUID()}/archive`)).status).toBe(404);
  });
});

describe("DELETE /api/companies/{companyId}", () => {
  it("removes the company and all its rows and files", async () => {
    const company = await createCompany({ budgetMonthlyCents: 100 });
    const agent = await insertAgent(company.id);
    await insertAgentKey(agent.id, company.id);
    await env.FILES.put(`companies/${company.id}/attachments/a1`, "bytes");
    const res = await del(`/api/companies/${company.id}/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: company.id });
    expect((await get(`/api/companies/${company.id}`)).status).toBe(404);
    for (const table of ["agents", "agent_api_keys", "activity_log", "company_memberships", "budget_policies"]) {
      const row = await testD1.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE company_id = ?`).bind(company.id).first<any>();
      expect(row.n, table).toBe(0);
    }
    expect(await env.FILES.get(`companies/${company.id}/attachments/a1`)).toBeNull();
  });

  it("needs the owner (or instance-wide trust)", async () => {
    const company = await createCompany();
    const admin = await boardUser(company.id, "admin");
    expect((await del(`/api/companies/${company.id}`, { token: admin.token })).status).toBe(403);
    expect((await del(`/api/companies/${company.id}`, BOGUS)).status).toBe(401);
    expect((await del(`/api/companies/${crypto.randomUUID()}`)).status).toBe(404);
    const owner = await boardUser();
    await addMembership(company.id, owner.id, "owner");
    expect((await del(`/api/companies/${company.id}`, { token: owner.token })).status).toBe(200);
  });
});

describe("company budget through PATCH", () => {
  it("must stay above this month's observed spend (422) and changes nothing then", async () => {
    const company = await createCompany({ budgetMonthlyCents: 1000 });
    const agent = await insertAgent(company.id);
    const cost = await post(`/api/companies/${company.id}/cost-events`, {
      agentId: agent.id,
      provider: "openai",
      model: "gpt",
      costCents: 300,
      occurredAt: new Date().toISOString(),
    });
    expect(cost.status).toBe(201);
    const refused = await patch(`/api/companies/${company.id}`, { budgetMonthlyCents: 300, description: "not applied" });
    expect(refused.status).toBe(422);
    const after = (await get(`/api/companies/${company.id}`)).body;
    expect(after).toMatchObject({ budgetMonthlyCents: 1000, description: null });
    const raised = await patch(`/api/companies/${company.id}`, { budgetMonthlyCents: 301 });
    expect(raised.status).toBe(200);
    expect(raised.body.budgetMonthlyCents).toBe(301);
    const policy = await testD1.prepare("SELECT amount_cents FROM budget_policies WHERE company_id = ? AND scope_type = 'company'").bind(company.id).first();
    expect(policy).toEqual({ amount_cents: 301 });
  });
});
