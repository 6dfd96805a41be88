import { describe, expect, it } from "vitest";
import { get, post, unique } from "../helpers/api";
import {
  boardUser,
  createCompany,
  insertAgent,
  insertAgentKey,
  insertIssue as issueFixture,
  insertProject as projectFixture,
  schema,
  updateRow,
  testD1,
} from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };
const MISSING_COMPANY = "00000000-0000-4000-8000-000000000000";

const costBody = (agentId: string, extra: Record<string, unknown> = {}) => ({
  agentId,
  provider: "anthropic",
  model: "claude-sonnet",
  costCents: 12,
  occurredAt: new Date().toISOString(),
  ...extra,
});

async function setup() {
  const company = await createCompany({ budgetMonthlyCents: 10_000 });
  const agent = await insertAgent(company.id);
  return { company, agent };
}

const insertProject = (companyId: string) => projectFixture(companyId, unique("Proj"), { status: "backlog" });
const insertIssue = (companyId: string, projectId: string | null) => issueFixture(companyId, { title: "Work", projectId });

describe("POST /api/companies/{companyId}/cost-events", () => {
  it("stores the event with defaults, updates month spend and logs cost.reported", async () => {
    const { company, agent } = await setup();
    const res = await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { inputTokens: 100, outputTokens: 50 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      companyId: company.id,
      agentId: agent.id,
      provider: "anthropic",
      biller: "anthropic",
      billingType: "unknown",
      costCents: 12,
      inputTokens: 100,
      cachedInputTokens: 0,
      outputTokens: 50,
      projectId: null,
    });
    await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { costCents: 30, biller: "openrouter", billingType: "credits" }));

    const companyRes = await get(`/api/companies/${company.id}`);
    expect(companyRes.body.spentMonthlyCents).toBe(42);
    const agentRow = await testD1.prepare("SELECT spent_monthly_cents, spent_month FROM agents WHERE id = ?").bind(agent.id).first<any>();
    expect(agentRow.spent_monthly_cents).toBe(42);
    expect(agentRow.spent_month).toBe(new Date().toISOString().slice(0, 7));

    const activity = await testD1
      .prepare("SELECT action, entity_id, agent_id FROM activity_log WHERE company_id = ? AND action = 'cost.reported'")
      .bind(company.id)
      .all<any>();
    expect(activity.results).toHaveLength(2);
    expect(activity.results.map((a) => a.entity_id)).toContain(res.body.id);
    expect(activity.results[0].agent_id).toBe(agent.id);
  });

  it("does not count events of another month in the month spend, but keeps them for all-time summaries", async () => {
    const { company, agent } = await setup();
    const lastYear = new Date(Date.now() - 400 * 86_400_000).toISOString();
    expect((await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { costCents: 500, occurredAt: lastYear }))).status).toBe(201);
    expect((await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { costCents: 7 }))).status).toBe(201);
    expect((await get(`/api/companies/${company.id}`)).body.spentMonthlyCents).toBe(7);
    const summary = await get(`/api/companies/${company.id}/costs/summary`);
    expect(summary.body.spendCents).toBe(507);
  });

  it("recomputes a counter left from an earlier month from the events of this month", async () => {
    const { company, agent } = await setup();
    await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { costCents: 40 }));
    // As if the month had turned since the counters were written.
    await updateRow(schema.agents, agent.id, { spentMonthlyCents: 999, spentMonth: "2000-01" });
    await updateRow(schema.companies, company.id, { spentMonthlyCents: 999, spentMonth: "2000-01" });
    await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { costCents: 2 }));
    const agentRow = await testD1.prepare("SELECT spent_monthly_cents FROM agents WHERE id = ?").bind(agent.id).first<any>();
    expect(agentRow.spent_monthly_cents).toBe(42);
    expect((await get(`/api/companies/${company.id}`)).body.spentMonthlyCents).toBe(42);
  });

  it("accepts an offset datetime and normalises it to UTC", async () => {
    const { company, agent } = await setup();
    const res = await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { occurredAt: "2026-01-15T10:00:00+02:00" }));
    expect(res.status).toBe(201);
    expect(res.body.occurredAt).toBe("2026-01-15T08:00:00.000Z");
  });

  it("attributes an event to its issue's project when no projectId is given", async () => {
    const { company, agent } = await setup();
    const project = await insertProject(company.id);
    const issue = await insertIssue(company.id, project.id);
    const res = await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id, { issueId: issue.id }));
    expect(res.status).toBe(201);
    expect(res.body.projectId).toBe(project.id);
  });

  it("lets an agent report its own costs but not another agent's (403)", async () => {
    const { company, agent } = await setup();
    const other = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id), { token })).status).toBe(201);
    const res = await post(`/api/companies/${company.id}/cost-events`, costBody(other.id), { token });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/own costs/);
  });

  it("rejects bad input with 400", async () => {
    const { company, agent } = await setup();
    const path = `/api/companies/${company.id}/cost-events`;
    for (const body of [
      { provider: "x", model: "y", costCents: 1, occurredAt: new Date().toISOString() },
      costBody(agent.id, { costCents: -1 }),
      costBody(agent.id, { costCents: 1.5 }),
      costBody(agent.id, { occurredAt: "yesterday" }),
      costBody(agent.id, { billingType: "free" }),
      costBody(agent.id, { inputTokens: -3 }),
      costBody(agent.id, { provider: "" }),
    ]) {
      const res = await post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBeTypeOf("string");
    }
    expect((await get(`/api/companies/${company.id}/costs/summary`)).body.spendCents).toBe(0);
  });

  it("rejects references outside the company with 422", async () => {
    const { company, agent } = await setup();
    const elsewhere = await setup();
    const path = `/api/companies/${company.id}/cost-events`;
    const foreignAgent = await post(path, costBody(elsewhere.agent.id));
    expect(foreignAgent.status).toBe(422);
    expect(foreignAgent.body.error).toMatch(/agentId/);
    expect((await post(path, costBody(crypto.randomUUID()))).status).toBe(422);
    expect((await post(path, costBody(agent.id, { issueId: crypto.randomUUID() }))).status).toBe(422);
    expect((await post(path, costBody(agent.id, { projectId: crypto.randomUUID() }))).status).toBe(422);
    expect((await post(path, costBody(agent.id, { goalId: crypto.randomUUID() }))).status).toBe(422);
    expect((await get(`/api/companies/${company.id}/costs/summary`)).body.spendCents).toBe(0);
  });

  it("401 for an invalid bearer, 403 for another company's caller, 404 for a missing company", async () => {
    const { company, agent } = await setup();
    const other = await setup();
    const path = `/api/companies/${company.id}/cost-events`;
    expect((await post(path, costBody(agent.id), BOGUS)).status).toBe(401);
    const outsider = await boardUser(other.company.id);
    expect((await post(path, costBody(agent.id), { token: outsider.token })).status).toBe(403);
    const otherAgentKey = await insertAgentKey(other.agent.id, other.company.id);
    expect((await post(path, costBody(other.agent.id), { token: otherAgentKey.token })).status).toBe(403);
    expect((await post(`/api/companies/${MISSING_COMPANY}/cost-events`, costBody(agent.id))).status).toBe(404);
  });
});

describe("cost reads", () => {
  async function seeded() {
    const { company, agent } = await setup();
    const second = await insertAgent(company.id);
    const project = await insertProject(company.id);
    const path = `/api/companies/${company.id}/cost-events`;
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
    const events = [
      costBody(agent.id, { costCents: 100, occurredAt: at(1), inputTokens: 10, outputTokens: 5, billingType: "metered_api" }),
      costBody(agent.id, { costCents: 50, occurredAt: at(10), model: "claude-haiku", projectId: project.id, inputTokens: 4 }),
      costBody(second.id, { costCents: 25, occurredAt: at(48), provider: "openai", model: "gpt", biller: "azure", billingType: "subscription_included" }),
      costBody(second.id, { costCents: 5, occurredAt: at(24 * 30), provider: "openai", model: "gpt", cachedInputTokens: 9 }),
    ];
    for (const e of events) expect((await post(path, e)).status).toBe(201);
    return { company, agent, second, project, at };
  }

  it("summary: spend against the monthly budget, with an optional range", async () => {
    const { company, at } = await seeded();
    const all = await get(`/api/companies/${company.id}/costs/summary`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ spendCents: 180, budgetCents: 10_000, utilizationPercent: 1.8 });
    const ranged = await get(`/api/companies/${company.id}/costs/summary?from=${encodeURIComponent(at(24))}&to=${encodeURIComponent(at(0))}`);
    expect(ranged.body.spendCents).toBe(150);
    expect((await get(`/api/companies/${company.id}/costs/summary?from=${encodeURIComponent(at(1))}&to=${encodeURIComponent(at(5))}`)).status).toBe(400);
    expect((await get(`/api/companies/${company.id}/costs/summary?from=notadate`)).status).toBe(400);

    const noBudget = await createCompany();
    const zero = await get(`/api/companies/${noBudget.id}/costs/summary`);
    expect(zero.body).toMatchObject({ spendCents: 0, budgetCents: 0, utilizationPercent: 0 });
  });

  it("breakdowns by agent, agent+model, provider, biller and project", async () => {
    const { company, agent, second, project, at } = await seeded();
    const base = `/api/companies/${company.id}/costs`;

    const byAgent = await get(`${base}/by-agent`);
    expect(byAgent.status).toBe(200);
    expect(byAgent.body).toEqual([
      expect.objectContaining({ agentId: agent.id, agentName: agent.name, costCents: 150, inputTokens: 14, outputTokens: 5, eventCount: 2 }),
      expect.objectContaining({ agentId: second.id, costCents: 30, cachedInputTokens: 9, eventCount: 2 }),
    ]);

    const byModel = await get(`${base}/by-agent-model`);
    expect(byModel.body).toHaveLength(3);
    expect(byModel.body[0]).toMatchObject({ agentId: agent.id, provider: "anthropic", model: "claude-sonnet", costCents: 100, eventCount: 1 });

    const byProvider = await get(`${base}/by-provider`);
    expect(byProvider.body).toEqual([
      expect.objectContaining({ provider: "anthropic", costCents: 150, eventCount: 2 }),
      expect.objectContaining({ provider: "openai", costCents: 30, eventCount: 2 }),
    ]);

    const byBiller = await get(`${base}/by-biller`);
    expect(byBiller.body.map((r: any) => [r.biller, r.costCents])).toEqual([
      ["anthropic", 150],
      ["azure", 25],
      ["openai", 5],
    ]);

    const byProject = await get(`${base}/by-project`);
    expect(byProject.body).toEqual([expect.objectContaining({ projectId: project.id, projectName: project.name, costCents: 50, eventCount: 1 })]);

    const ranged = await get(`${base}/by-agent?from=${encodeURIComponent(at(5))}`);
    expect(ranged.body).toEqual([expect.objectContaining({ agentId: agent.id, costCents: 100, eventCount: 1 })]);
    expect((await get(`${base}/by-provider?to=bad`)).status).toBe(400);
  });

  it("window-spend: rolling 5h, 24h and 7d", async () => {
    const { company } = await seeded();
    const res = await get(`/api/companies/${company.id}/costs/window-spend`);
    expect(res.status).toBe(200);
    expect(res.body.windows.map((w: any) => [w.window, w.spendCents, w.eventCount])).toEqual([
      ["5h", 100, 1],
      ["24h", 150, 2],
      ["7d", 175, 3],
    ]);
    expect(res.body.windows[0].totalTokens).toBe(15);
  });

  it("quota-windows: board-only diagnostic per provider and biller with the billing-type mix", async () => {
    const { company, agent } = await seeded();
    const res = await get(`/api/companies/${company.id}/costs/quota-windows`);
    expect(res.status).toBe(200);
    const anthropic = res.body.providers.find((p: any) => p.provider === "anthropic");
    expect(anthropic).toMatchObject({ biller: "anthropic", monthEventCount: expect.any(Number) });
    expect(anthropic.windows.map((w: any) => w.spendCents)).toEqual([100, 150, 150]);
    const azure = res.body.providers.find((p: any) => p.biller === "azure");
    expect(azure.windows[2].spendCents).toBe(25);
    const mix = anthropic.billingTypes.map((b: any) => b.billingType).sort();
    expect(mix.length).toBeGreaterThan(0);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await get(`/api/companies/${company.id}/costs/quota-windows`, { token })).status).toBe(403);
  });

  it("reads need company access: 401, 403, 404", async () => {
    const { company } = await setup();
    const other = await setup();
    const outsider = await boardUser(other.company.id);
    for (const route of [
      "summary",
      "by-agent",
      "by-agent-model",
      "by-provider",
      "by-biller",
      "by-project",
      "window-spend",
      "quota-windows",
      "finance-events",
      "finance-summary",
      "finance-by-biller",
      "finance-by-kind",
    ]) {
      expect((await get(`/api/companies/${company.id}/costs/${route}`, BOGUS)).status, route).toBe(401);
      expect((await get(`/api/companies/${company.id}/costs/${route}`, { token: outsider.token })).status, route).toBe(403);
      expect((await get(`/api/companies/${MISSING_COMPANY}/costs/${route}`)).status, route).toBe(404);
    }
  });

  it("agents of the company can read cost breakdowns", async () => {
    const { company, agent } = await seeded();
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await get(`/api/companies/${company.id}/costs/by-agent`, { token })).status).toBe(200);
    expect((await get(`/api/companies/${company.id}/costs/summary`, { token })).body.spendCents).toBe(180);
  });
});

describe("finance events", () => {
  it("records events with defaults and lists them newest first", async () => {
    const { company, agent } = await setup();
    const cost = await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id));
    const path = `/api/companies/${company.id}/finance-events`;
    const first = await post(path, {
      kind: "inference_charge",
      direction: "debit",
      amountCents: 1200,
      costEventId: cost.body.id,
      occurredAt: "2026-03-01T00:00:00Z",
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ currency: "USD", estimated: false, costEventId: cost.body.id, occurredAt: "2026-03-01T00:00:00.000Z" });
    const second = await post(path, {
      kind: "credit_refund",
      direction: "credit",
      amountCents: 200,
      currency: "eur",
      estimated: true,
      biller: "anthropic",
      description: "refund",
      metadata: { ticket: 42 },
      occurredAt: "2026-03-02T00:00:00Z",
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ currency: "EUR", estimated: true, metadata: { ticket: 42 } });
    const third = await post(path, { kind: "platform_fee", direction: "debit", amountCents: 300 });
    expect(third.status).toBe(201);
    expect(Date.parse(third.body.occurredAt)).toBeGreaterThan(Date.now() - 60_000);

    const list = await get(`/api/companies/${company.id}/costs/finance-events`);
    expect(list.status).toBe(200);
    expect(list.body.map((e: any) => e.id)).toEqual([third.body.id, second.body.id, first.body.id]);
    const limited = await get(`/api/companies/${company.id}/costs/finance-events?limit=1&to=2026-03-05T00:00:00Z`);
    expect(limited.body.map((e: any) => e.id)).toEqual([second.body.id]);
    for (const bad of ["limit=0", "limit=501", "limit=abc", "from=nope"]) {
      expect((await get(`/api/companies/${company.id}/costs/finance-events?${bad}`)).status, bad).toBe(400);
    }
    expect((await get(`/api/companies/${company.id}/costs/finance-events?limit=500`)).status).toBe(200);

    const activity = await testD1
      .prepare("SELECT COUNT(*) AS n FROM activity_log WHERE company_id = ? AND action = 'finance_event.recorded'")
      .bind(company.id)
      .first<any>();
    expect(activity.n).toBe(3);
  });

  it("summaries: totals, per currency, per biller and per kind", async () => {
    const { company } = await setup();
    const path = `/api/companies/${company.id}/finance-events`;
    const events = [
      { kind: "inference_charge", direction: "debit", amountCents: 1000, biller: "anthropic" },
      { kind: "inference_charge", direction: "debit", amountCents: 500, biller: "anthropic", estimated: true },
      { kind: "credit_refund", direction: "credit", amountCents: 200, biller: "anthropic" },
      { kind: "platform_fee", direction: "debit", amountCents: 90, currency: "EUR", biller: "cloud" },
    ];
    for (const e of events) expect((await post(path, e)).status).toBe(201);

    const summary = await get(`/api/companies/${company.id}/costs/finance-summary`);
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({
      debitCents: 1590,
      creditCents: 200,
      netCents: 1390,
      estimatedDebitCents: 500,
      eventCount: 4,
      currencies: ["EUR", "USD"],
    });
    expect(summary.body.byCurrency).toEqual([
      expect.objectContaining({ currency: "EUR", debitCents: 90, creditCents: 0, netCents: 90 }),
      expect.objectContaining({ currency: "USD", debitCents: 1500, creditCents: 200, netCents: 1300, eventCount: 3 }),
    ]);

    const byBiller = await get(`/api/companies/${company.id}/costs/finance-by-biller`);
    expect(byBiller.body).toEqual([
      expect.objectContaining({ biller: "anthropic", currency: "USD", netCents: 1300 }),
      expect.objectContaining({ biller: "cloud", currency: "EUR", netCents: 90 }),
    ]);
    const byKind = await get(`/api/companies/${company.id}/costs/finance-by-kind`);
    expect(byKind.body.map((k: any) => [k.kind, k.currency, k.netCents])).toEqual([
      ["credit_refund", "USD", -200],
      ["inference_charge", "USD", 1500],
      ["platform_fee", "EUR", 90],
    ]);
    const future = await get(`/api/companies/${company.id}/costs/finance-summary?from=2999-01-01T00:00:00Z`);
    expect(future.body).toMatchObject({ debitCents: 0, creditCents: 0, netCents: 0, eventCount: 0, byCurrency: [] });
  });

  it("creation is board-only and validated: 400, 401, 403, 404, 422", async () => {
    const { company, agent } = await setup();
    const other = await setup();
    const path = `/api/companies/${company.id}/finance-events`;
    const ok = { kind: "manual_adjustment", direction: "credit", amountCents: 5 };
    for (const body of [
      { ...ok, amountCents: 0 },
      { ...ok, amountCents: -5 },
      { ...ok, kind: "gift" },
      { ...ok, direction: "sideways" },
      { ...ok, currency: "US" },
      { ...ok, currency: "US1" },
      { ...ok, metadata: "x" },
      { kind: "platform_fee", direction: "debit" },
    ]) {
      expect((await post(path, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await post(path, ok, BOGUS)).status).toBe(401);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await post(path, ok, { token })).status).toBe(403);
    const outsider = await boardUser(other.company.id);
    expect((await post(path, ok, { token: outsider.token })).status).toBe(403);
    const viewer = await boardUser(company.id, "viewer");
    expect((await post(path, ok, { token: viewer.token })).status).toBe(403);
    const owner = await boardUser(company.id, "owner");
    expect((await post(path, ok, { token: owner.token })).status).toBe(201);
    expect((await post(`/api/companies/${MISSING_COMPANY}/finance-events`, ok)).status).toBe(404);

    const foreignCost = await post(`/api/companies/${other.company.id}/cost-events`, costBody(other.agent.id));
    const res = await post(path, { ...ok, costEventId: foreignCost.body.id });
    expect(res.status).toBe(422);
    expect((await get(`/api/companies/${company.id}/costs/finance-summary`)).body.eventCount).toBe(1);
  });
});

describe("OpenAPI", () => {
  it("documents every cost and budget route with its error statuses", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    const c = "/api/companies/{companyId}";
    for (const [path, method, statuses] of [
      [`${c}/cost-events`, "post", ["201", "400", "401", "403", "404", "422"]],
      [`${c}/costs/summary`, "get", ["200", "400", "401", "403", "404"]],
      [`${c}/costs/by-agent`, "get", ["200"]],
      [`${c}/costs/by-agent-model`, "get", ["200"]],
      [`${c}/costs/by-provider`, "get", ["200"]],
      [`${c}/costs/by-biller`, "get", ["200"]],
      [`${c}/costs/by-project`, "get", ["200"]],
      [`${c}/costs/window-spend`, "get", ["200", "401", "403", "404"]],
      [`${c}/costs/quota-windows`, "get", ["200", "401", "403", "404"]],
      [`${c}/finance-events`, "post", ["201", "400", "401", "403", "404", "422"]],
      [`${c}/costs/finance-events`, "get", ["200", "400"]],
      [`${c}/costs/finance-summary`, "get", ["200"]],
      [`${c}/costs/finance-by-biller`, "get", ["200"]],
      [`${c}/costs/finance-by-kind`, "get", ["200"]],
      [`${c}/budgets`, "patch", ["200", "400", "401", "403", "404", "422"]],
      [`${c}/budgets/overview`, "get", ["200", "401", "403", "404"]],
      [`${c}/budgets/policies`, "post", ["200", "201", "400", "401", "403", "404", "422"]],
      [`${c}/budget-incidents/{incidentId}/resolve`, "post", ["200", "400", "401", "403", "404", "409", "422"]],
    ] as const) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      for (const s of statuses) expect(op.responses[s], `${method} ${path} ${s}`).toBeDefined();
    }
    const params = (path: string) => paths[path].get.parameters.map((p: any) => p.name).sort();
    expect(params(`${c}/costs/summary`)).toEqual(["companyId", "from", "to"]);
    expect(params(`${c}/costs/finance-events`)).toEqual(["companyId", "from", "limit", "to"]);
  });
});
