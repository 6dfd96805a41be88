import { describe, expect, it } from "vitest";
import { get, patch, post, unique } from "../helpers/api";
import {
  boardUser,
  createCompany,
  insertAgent,
  insertAgentKey,
  insertIssue as issueFixture,
  insertProject as projectFixture,
  insertWakeup as wakeupFixture,
  testD1,
} from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };
const MISSING_COMPANY = "00000000-0000-4000-8000-000000000000";

const report = (companyId: string, agentId: string, costCents: number, extra: Record<string, unknown> = {}) =>
  post(`/api/companies/${companyId}/cost-events`, {
    agentId,
    provider: "anthropic",
    model: "claude",
    costCents,
    occurredAt: new Date().toISOString(),
    ...extra,
  });

const upsertPolicy = (companyId: string, body: Record<string, unknown>, o?: { token?: string }) =>
  post(`/api/companies/${companyId}/budgets/policies`, body, o);

const insertProject = (companyId: string) => projectFixture(companyId, unique("Proj"), { status: "backlog" });
const insertIssue = (companyId: string, projectId: string | null) => issueFixture(companyId, { title: "Work", projectId });
const insertWakeup = (companyId: string, agentId: string, issueId: string | null = null) =>
  wakeupFixture(companyId, agentId, { reason: "assignment", source: "manual", issueId });

const wakeupStatus = async (id: string) => (await testD1.prepare("SELECT status FROM agent_wakeup_requests WHERE id = ?").bind(id).first<any>())?.status;
const agentRow = (id: string) => testD1.prepare("SELECT * FROM agents WHERE id = ?").bind(id).first<any>();
const incidentsOf = async (companyId: string) =>
  (await testD1.prepare("SELECT * FROM budget_incidents WHERE company_id = ? ORDER BY created_at").bind(companyId).all<any>()).results;

describe("POST /api/companies/{companyId}/budgets/policies", () => {
  it("creates with defaults (201), updates on the natural key (200) keeping omitted fields, and syncs budgetMonthlyCents", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const created = await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 1000, warnPercent: 50 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      created: true,
      scopeType: "agent",
      scopeId: agent.id,
      metric: "billed_cents",
      windowKind: "calendar_month_utc",
      amountCents: 1000,
      warnPercent: 50,
      hardStopEnabled: true,
      notifyEnabled: true,
      isActive: true,
      observedCents: 0,
      status: "ok",
      windowKey: new Date().toISOString().slice(0, 7),
    });
    expect((await agentRow(agent.id)).budget_monthly_cents).toBe(1000);

    const updated = await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 2000, hardStopEnabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, created: false, amountCents: 2000, warnPercent: 50, hardStopEnabled: false });
    expect((await agentRow(agent.id)).budget_monthly_cents).toBe(2000);

    const project = await insertProject(company.id);
    const projectPolicy = await upsertPolicy(company.id, { scopeType: "project", scopeId: project.id, amountCents: 500 });
    expect(projectPolicy.status).toBe(201);
    expect(projectPolicy.body).toMatchObject({ windowKind: "lifetime", windowKey: "lifetime" });

    const companyPolicy = await upsertPolicy(company.id, { scopeType: "company", amountCents: 7000 });
    expect(companyPolicy.status).toBe(201);
    expect(companyPolicy.body.scopeId).toBe(company.id);
    expect((await get(`/api/companies/${company.id}`)).body.budgetMonthlyCents).toBe(7000);

    const log = await testD1.prepare("SELECT action FROM activity_log WHERE company_id = ? AND action LIKE 'budget_policy.%'").bind(company.id).all<any>();
    expect(log.results.map((r) => r.action).sort()).toEqual([
      "budget_policy.created",
      "budget_policy.created",
      "budget_policy.created",
      "budget_policy.updated",
    ]);
  });

  it("rejects an amount not above the observed spend in the window (422)", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    await report(company.id, agent.id, 300);
    const res = await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 300 });
    expect(res.status).toBe(422);
    expect(res.body.details).toMatchObject({ observedCents: 300 });
    expect((await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 301 })).status).toBe(201);
    // 0 means "no budget" and is always allowed.
    expect((await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 0 })).status).toBe(200);
  });

  it("opens a soft incident at once when the warn threshold is already reached", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    await report(company.id, agent.id, 90);
    const res = await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 100 });
    expect(res.body.status).toBe("warning");
    const incidents = await incidentsOf(company.id);
    expect(incidents.map((i) => [i.kind, i.threshold_cents, i.observed_cents])).toEqual([["soft", 80, 90]]);
  });

  it("validates: 400 shape, 422 scope outside the company, 401, 403, 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const foreignAgent = await insertAgent(other.id);
    for (const body of [
      { scopeType: "team", scopeId: "x", amountCents: 1 },
      { scopeType: "company", amountCents: -1 },
      { scopeType: "company", amountCents: 10, warnPercent: 0 },
      { scopeType: "company", amountCents: 10, warnPercent: 101 },
      { scopeType: "company", amountCents: 10, metric: "tokens" },
      { scopeType: "company", amountCents: 10, windowKind: "weekly" },
    ]) {
      expect((await upsertPolicy(company.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await upsertPolicy(company.id, { scopeType: "agent", scopeId: foreignAgent.id, amountCents: 10 })).status).toBe(422);
    expect((await upsertPolicy(company.id, { scopeType: "agent", amountCents: 10 })).status).toBe(422);
    expect((await upsertPolicy(company.id, { scopeType: "project", scopeId: crypto.randomUUID(), amountCents: 10 })).status).toBe(422);
    expect((await upsertPolicy(company.id, { scopeType: "company", scopeId: other.id, amountCents: 10 })).status).toBe(422);

    const ok = { scopeType: "company", amountCents: 10 };
    expect((await upsertPolicy(company.id, ok, BOGUS)).status).toBe(401);
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await upsertPolicy(company.id, ok, { token })).status).toBe(403);
    const outsider = await boardUser(other.id);
    expect((await upsertPolicy(company.id, ok, { token: outsider.token })).status).toBe(403);
    const member = await boardUser(company.id, "member");
    expect((await upsertPolicy(company.id, ok, { token: member.token })).status).toBe(403);
    expect((await upsertPolicy(MISSING_COMPANY, ok)).status).toBe(404);
    expect((await get(`/api/companies/${company.id}/budgets/overview`)).body.policies).toEqual([]);
  });
});

describe("PATCH /api/companies/{companyId}/budgets", () => {
  it("sets the company budget and its monthly policy; 0 deactivates; not above spend is 422", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const res = await patch(`/api/companies/${company.id}/budgets`, { budgetMonthlyCents: 5000 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: company.id, budgetMonthlyCents: 5000 });
    let overview = await get(`/api/companies/${company.id}/budgets/overview`);
    expect(overview.body.policies).toEqual([
      expect.objectContaining({ scopeType: "company", scopeId: company.id, amountCents: 5000, isActive: true, windowKind: "calendar_month_utc" }),
    ]);

    await report(company.id, agent.id, 700);
    const tooLow = await patch(`/api/companies/${company.id}/budgets`, { budgetMonthlyCents: 700 });
    expect(tooLow.status).toBe(422);
    expect((await get(`/api/companies/${company.id}`)).body.budgetMonthlyCents).toBe(5000);

    const off = await patch(`/api/companies/${company.id}/budgets`, { budgetMonthlyCents: 0 });
    expect(off.status).toBe(200);
    overview = await get(`/api/companies/${company.id}/budgets/overview`);
    expect(overview.body.policies[0]).toMatchObject({ amountCents: 0, isActive: false, status: "inactive" });

    const log = await testD1
      .prepare("SELECT COUNT(*) AS n FROM activity_log WHERE company_id = ? AND action = 'company.budget_updated'")
      .bind(company.id)
      .first<any>();
    expect(log.n).toBe(2);
  });

  it("400, 401, 403, 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const path = `/api/companies/${company.id}/budgets`;
    expect((await patch(path, { budgetMonthlyCents: -5 })).status).toBe(400);
    expect((await patch(path, {})).status).toBe(400);
    expect((await patch(path, { budgetMonthlyCents: 1.5 })).status).toBe(400);
    expect((await patch(path, { budgetMonthlyCents: 5 }, BOGUS)).status).toBe(401);
    const outsider = await boardUser(other.id);
    expect((await patch(path, { budgetMonthlyCents: 5 }, { token: outsider.token })).status).toBe(403);
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await patch(path, { budgetMonthlyCents: 5 }, { token })).status).toBe(403);
    expect((await patch(`/api/companies/${MISSING_COMPANY}/budgets`, { budgetMonthlyCents: 5 })).status).toBe(404);
  });
});

describe("budget incidents", () => {
  it("agent hard stop: soft at the warn threshold, hard at 100 % pauses the agent, cancels its wake-ups, opens an override approval", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const bystander = await insertAgent(company.id);
    await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 100 });
    const wake = await insertWakeup(company.id, agent.id);
    const otherWake = await insertWakeup(company.id, bystander.id);

    await report(company.id, agent.id, 79);
    expect(await incidentsOf(company.id)).toEqual([]);
    await report(company.id, agent.id, 1);
    let incidents = await incidentsOf(company.id);
    expect(incidents.map((i) => [i.kind, i.threshold_cents, i.observed_cents, i.status])).toEqual([["soft", 80, 80, "open"]]);
    expect((await agentRow(agent.id)).status).toBe("idle");

    await report(company.id, agent.id, 25);
    incidents = await incidentsOf(company.id);
    const hard = incidents.find((i) => i.kind === "hard");
    expect(hard).toMatchObject({ scope_type: "agent", scope_id: agent.id, threshold_cents: 100, observed_cents: 105, status: "open" });
    const row = await agentRow(agent.id);
    expect(row).toMatchObject({ status: "paused", pause_reason: "budget", spent_monthly_cents: 105 });
    expect(await wakeupStatus(wake)).toBe("cancelled");
    expect(await wakeupStatus(otherWake)).toBe("queued");

    const approval = await testD1.prepare("SELECT * FROM approvals WHERE id = ?").bind(hard.approval_id).first<any>();
    expect(approval).toMatchObject({ type: "budget_override_required", status: "pending" });
    expect(JSON.parse(approval.payload)).toEqual({
      scopeType: "agent",
      scopeId: agent.id,
      amountCents: 100,
      observedCents: 105,
      windowKind: "calendar_month_utc",
      windowKey: new Date().toISOString().slice(0, 7),
      incidentId: hard.id,
    });

    // Further spend opens nothing new.
    await report(company.id, agent.id, 10);
    expect(await incidentsOf(company.id)).toHaveLength(2);
    const actions = await testD1.prepare("SELECT action FROM activity_log WHERE company_id = ? AND action LIKE 'budget.%'").bind(company.id).all<any>();
    expect(actions.results.map((a) => a.action).sort()).toEqual(["budget.hard_stop", "budget.soft_threshold_reached"]);

    const overview = await get(`/api/companies/${company.id}/budgets/overview`);
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ pausedAgentCount: 1, pausedProjectCount: 0, pendingApprovalCount: 1 });
    expect(overview.body.activeIncidents).toHaveLength(2);
    expect(overview.body.policies[0]).toMatchObject({ observedCents: 115, status: "exceeded", remainingCents: 0, utilizationPercent: 115 });
  });

  it("resolve keep_paused leaves the agent paused, rejects the approval, and cannot resolve twice (409)", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 50, notifyEnabled: false });
    await report(company.id, agent.id, 60);
    const [hard] = await incidentsOf(company.id);
    expect(hard.kind).toBe("hard");
    const path = `/api/companies/${company.id}/budget-incidents/${hard.id}/resolve`;
    const res = await post(path, { action: "keep_paused" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hard.id, status: "resolved", resolution: "keep_paused" });
    expect((await agentRow(agent.id)).status).toBe("paused");
    const approval = await testD1.prepare("SELECT status FROM approvals WHERE id = ?").bind(hard.approval_id).first<any>();
    expect(approval.status).toBe("rejected");
    const again = await post(path, { action: "raise_budget_and_resume", amountCents: 1000 });
    expect(again.status).toBe(409);
    expect((await agentRow(agent.id)).status).toBe("paused");
    // Resolved incidents are listed (board), with how they were resolved; open ones apart.
    const list = (query = "") => get(`/api/companies/${company.id}/budget-incidents${query}`);
    expect((await list("?status=resolved")).body).toMatchObject([{ id: hard.id, status: "resolved", resolution: "keep_paused" }]);
    expect((await list("?status=open")).body.map((i: { id: string }) => i.id)).not.toContain(hard.id);
    expect((await list()).body.map((i: { id: string }) => i.id)).toContain(hard.id);
    expect((await list("?status=closed")).status).toBe(400);
    const agentKey = await insertAgentKey(agent.id, company.id);
    expect((await list("")).status).toBe(200);
    expect((await get(`/api/companies/${company.id}/budget-incidents`, { token: agentKey.token })).status).toBe(403);
    const stranger = await boardUser((await createCompany()).id);
    expect([403, 404]).toContain((await get(`/api/companies/${company.id}/budget-incidents`, { token: stranger.token })).status);
  });

  it("resolve raise_budget_and_resume: amount must exceed spend (422), then updates policy and budget and resumes the agent", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 100 });
    await report(company.id, agent.id, 120);
    const incidents = await incidentsOf(company.id);
    const hard = incidents.find((i) => i.kind === "hard");
    const path = `/api/companies/${company.id}/budget-incidents/${hard.id}/resolve`;

    const tooLow = await post(path, { action: "raise_budget_and_resume", amountCents: 120 });
    expect(tooLow.status).toBe(422);
    expect(tooLow.body.details).toMatchObject({ observedCents: 120 });
    expect((await post(path, { action: "raise_budget_and_resume" })).status).toBe(400);
    expect((await post(path, { action: "resume" })).status).toBe(400);

    const res = await post(path, { action: "raise_budget_and_resume", amountCents: 500 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "resolved", resolution: "raise_budget_and_resume" });
    expect(await agentRow(agent.id)).toMatchObject({ status: "idle", pause_reason: null, budget_monthly_cents: 500 });
    const approval = await testD1.prepare("SELECT status FROM approvals WHERE id = ?").bind(hard.approval_id).first<any>();
    expect(approval.status).toBe("approved");
    const overview = await get(`/api/companies/${company.id}/budgets/overview`);
    expect(overview.body.activeIncidents).toEqual([]);
    expect(overview.body.policies[0]).toMatchObject({ amountCents: 500, observedCents: 120, status: "ok" });
    expect(overview.body).toMatchObject({ pausedAgentCount: 0, pendingApprovalCount: 0 });

    // The raised budget has its own thresholds: crossing it stops the agent again.
    await report(company.id, agent.id, 400);
    expect((await agentRow(agent.id)).status).toBe("paused");
    const after = await incidentsOf(company.id);
    expect(
      after
        .filter((i) => i.kind === "hard")
        .map((i) => i.threshold_cents)
        .sort(),
    ).toEqual([100, 500]);
  });

  it("resolve raise_budget_and_resume accepts the amount as `amount` (the incumbent's clients) as well as amountCents", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 100 });
    await report(company.id, agent.id, 120);
    const hard = (await incidentsOf(company.id)).find((i) => i.kind === "hard");
    const path = `/api/companies/${company.id}/budget-incidents/${hard.id}/resolve`;

    const disagree = await post(path, { action: "raise_budget_and_resume", amount: 500, amountCents: 600 });
    expect(disagree.status).toBe(400);
    expect(disagree.body.error).toBeTruthy();
    expect((await post(path, { action: "raise_budget_and_resume", amount: 110 })).status).toBe(422);
    expect((await agentRow(agent.id)).status).toBe("paused");

    const res = await post(path, { action: "raise_budget_and_resume", amount: 700 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "resolved", resolution: "raise_budget_and_resume" });
    expect(await agentRow(agent.id)).toMatchObject({ status: "idle", budget_monthly_cents: 700 });
  });

  it("company hard stop pauses the company and cancels every wake-up; raise resumes it", async () => {
    const company = await createCompany({ budgetMonthlyCents: 100 });
    const agent = await insertAgent(company.id);
    const other = await insertAgent(company.id);
    const w1 = await insertWakeup(company.id, agent.id);
    const w2 = await insertWakeup(company.id, other.id);
    await report(company.id, agent.id, 100);
    const companyRes = await get(`/api/companies/${company.id}`);
    expect(companyRes.body).toMatchObject({ status: "paused", pauseReason: "budget", spentMonthlyCents: 100 });
    expect(await wakeupStatus(w1)).toBe("cancelled");
    expect(await wakeupStatus(w2)).toBe("cancelled");
    const hard = (await incidentsOf(company.id)).find((i) => i.kind === "hard");
    expect(hard).toMatchObject({ scope_type: "company", scope_id: company.id });

    const res = await post(`/api/companies/${company.id}/budget-incidents/${hard.id}/resolve`, { action: "raise_budget_and_resume", amountCents: 1000 });
    expect(res.status).toBe(200);
    expect((await get(`/api/companies/${company.id}`)).body).toMatchObject({ status: "active", pauseReason: null, budgetMonthlyCents: 1000 });
    // The soft incident of the same policy is settled by the raise too.
    expect((await incidentsOf(company.id)).every((i) => i.status === "resolved")).toBe(true);
  });

  it("project hard stop (lifetime) pauses the project and cancels wake-ups of its issues", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const project = await insertProject(company.id);
    const inProject = await insertIssue(company.id, project.id);
    const elsewhere = await insertIssue(company.id, null);
    const w1 = await insertWakeup(company.id, agent.id, inProject.id);
    const w2 = await insertWakeup(company.id, agent.id, elsewhere.id);
    await upsertPolicy(company.id, { scopeType: "project", scopeId: project.id, amountCents: 40 });
    await report(company.id, agent.id, 32, { projectId: project.id });
    await report(company.id, agent.id, 100);
    expect((await incidentsOf(company.id)).map((i) => i.kind)).toEqual(["soft"]);
    await report(company.id, agent.id, 10, { issueId: inProject.id });

    const projectRow = await testD1.prepare("SELECT paused_at, pause_reason FROM projects WHERE id = ?").bind(project.id).first<any>();
    expect(projectRow.pause_reason).toBe("budget");
    expect(projectRow.paused_at).toBeTruthy();
    expect(await wakeupStatus(w1)).toBe("cancelled");
    expect(await wakeupStatus(w2)).toBe("queued");
    expect((await agentRow(agent.id)).status).toBe("idle");
    const overview = await get(`/api/companies/${company.id}/budgets/overview`);
    expect(overview.body.pausedProjectCount).toBe(1);
    expect(overview.body.policies[0]).toMatchObject({ windowKey: "lifetime", observedCents: 42 });

    const hard = (await incidentsOf(company.id)).find((i) => i.kind === "hard");
    expect(
      (await post(`/api/companies/${company.id}/budget-incidents/${hard.id}/resolve`, { action: "raise_budget_and_resume", amountCents: 42 })).status,
    ).toBe(422);
    expect(
      (await post(`/api/companies/${company.id}/budget-incidents/${hard.id}/resolve`, { action: "raise_budget_and_resume", amountCents: 43 })).status,
    ).toBe(200);
    const resumed = await testD1.prepare("SELECT paused_at, pause_reason FROM projects WHERE id = ?").bind(project.id).first<any>();
    expect(resumed).toEqual({ paused_at: null, pause_reason: null });
  });

  it("resolve: 401, 403, 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await insertAgent(company.id);
    await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 10 });
    await report(company.id, agent.id, 10);
    const hard = (await incidentsOf(company.id)).find((i) => i.kind === "hard");
    const path = `/api/companies/${company.id}/budget-incidents/${hard.id}/resolve`;
    const body = { action: "keep_paused" };
    expect((await post(path, body, BOGUS)).status).toBe(401);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await post(path, body, { token })).status).toBe(403);
    const outsider = await boardUser(other.id);
    expect((await post(path, body, { token: outsider.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/budget-incidents/${crypto.randomUUID()}/resolve`, body)).status).toBe(404);
    // Another company's incident id is not found here.
    expect((await post(`/api/companies/${other.id}/budget-incidents/${hard.id}/resolve`, body)).status).toBe(404);
    expect((await post(`/api/companies/${MISSING_COMPANY}/budget-incidents/${hard.id}/resolve`, body)).status).toBe(404);
    expect((await incidentsOf(company.id)).find((i) => i.kind === "hard").status).toBe("open");
  });

  it("overview: 401, 403, 404; readable by the company's agents", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const path = `/api/companies/${company.id}/budgets/overview`;
    expect((await get(path, BOGUS)).status).toBe(401);
    const outsider = await boardUser(other.id);
    expect((await get(path, { token: outsider.token })).status).toBe(403);
    expect((await get(`/api/companies/${MISSING_COMPANY}/budgets/overview`)).status).toBe(404);
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const res = await get(path, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ policies: [], activeIncidents: [], pausedAgentCount: 0, pausedProjectCount: 0, pendingApprovalCount: 0 });
  });
});

describe("RACE: concurrent cost events against a hard-stop budget", () => {
  it("200 concurrent 1-cent events on a 100-cent agent policy: spend 200, one soft and one hard incident, agent paused", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    expect((await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 100 })).status).toBe(201);

    const results = await Promise.all(Array.from({ length: 200 }, () => report(company.id, agent.id, 1)));
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);

    const row = await agentRow(agent.id);
    expect(row.spent_monthly_cents).toBe(200);
    expect(row.status).toBe("paused");
    expect(row.pause_reason).toBe("budget");
    expect((await get(`/api/companies/${company.id}`)).body.spentMonthlyCents).toBe(200);
    const sum = await testD1.prepare("SELECT SUM(cost_cents) AS s, COUNT(*) AS n FROM cost_events WHERE company_id = ?").bind(company.id).first<any>();
    expect(sum).toEqual({ s: 200, n: 200 });

    const incidents = await incidentsOf(company.id);
    expect(incidents.filter((i) => i.kind === "hard")).toHaveLength(1);
    expect(incidents.filter((i) => i.kind === "soft")).toHaveLength(1);
    expect(incidents.find((i) => i.kind === "hard").observed_cents).toBe(100);
    expect(incidents.find((i) => i.kind === "soft").observed_cents).toBe(80);
    const approvals = await testD1
      .prepare("SELECT COUNT(*) AS n FROM approvals WHERE company_id = ? AND type = 'budget_override_required'")
      .bind(company.id)
      .first<any>();
    expect(approvals.n).toBe(1);
  });
});

describe("budget override approvals decided through the approvals routes", () => {
  async function hardStopped() {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    await upsertPolicy(company.id, { scopeType: "agent", scopeId: agent.id, amountCents: 100 });
    await report(company.id, agent.id, 120);
    const hard = (await incidentsOf(company.id)).find((i) => i.kind === "hard");
    return { company, agent, hard, approvalId: hard.approval_id as string };
  }

  it("approve needs a new amount above observed spend, then raises the budget and resumes the agent", async () => {
    const { agent, hard, approvalId } = await hardStopped();
    const noAmount = await post(`/api/approvals/${approvalId}/approve`, { decisionNote: "ok" });
    expect(noAmount.status).toBe(422);
    expect(noAmount.body.error).toMatch(/amountCents/);
    const tooLow = await post(`/api/approvals/${approvalId}/approve`, { amountCents: 120 });
    expect(tooLow.status).toBe(422);
    expect((await agentRow(agent.id)).status).toBe("paused");
    expect((await get(`/api/approvals/${approvalId}`)).body.status).toBe("pending");

    const approved = await post(`/api/approvals/${approvalId}/approve`, { amountCents: 500, decisionNote: "raise it" });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", decisionNote: "raise it" });
    expect(await agentRow(agent.id)).toMatchObject({ status: "idle", budget_monthly_cents: 500 });
    const incident = await testD1.prepare("SELECT status, resolution FROM budget_incidents WHERE id = ?").bind(hard.id).first();
    expect(incident).toEqual({ status: "resolved", resolution: "raise_budget_and_resume" });
  });

  it("reject keeps the scope paused and resolves the incident", async () => {
    const { agent, hard, approvalId } = await hardStopped();
    const rejected = await post(`/api/approvals/${approvalId}/reject`, { decisionNote: "no more money" });
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe("rejected");
    expect((await agentRow(agent.id)).status).toBe("paused");
    const incident = await testD1.prepare("SELECT status, resolution FROM budget_incidents WHERE id = ?").bind(hard.id).first();
    expect(incident).toEqual({ status: "resolved", resolution: "keep_paused" });
  });
});
