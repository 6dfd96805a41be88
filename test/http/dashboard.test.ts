import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertApproval, insertIssue, insertRow, schema, updateRow } from "../helpers/fixtures";
import type { ISSUE_STATUSES } from "../../src/db/schema/issues";
import type { APPROVAL_STATUSES, APPROVAL_TYPES } from "../../src/db/schema/approvals";
import { utilizationPercent, utcMonthBounds as utcMonthRange } from "../../src/domain/budgets/windows";

const BOGUS = { token: "svc_agent_bogus" };

async function issue(companyId: string, status: (typeof ISSUE_STATUSES)[number]) {
  await insertIssue(companyId, { title: "i", status });
}

async function cost(companyId: string, agentId: string, cents: number, occurredAt: string) {
  await insertRow(schema.costEvents, {
    id: crypto.randomUUID(),
    companyId,
    agentId,
    provider: "openai",
    biller: "openai",
    billingType: "metered_api",
    model: "gpt",
    costCents: cents,
    occurredAt,
    createdAt: occurredAt,
  });
}

async function approval(companyId: string, type: (typeof APPROVAL_TYPES)[number], status: (typeof APPROVAL_STATUSES)[number]) {
  await insertApproval(companyId, { type, status, payload: {} });
}

async function incident(companyId: string, status: string, threshold: number) {
  const now = new Date().toISOString();
  await insertRow(schema.budgetIncidents, {
    id: crypto.randomUUID(),
    companyId,
    policyId: "p",
    scopeType: "company",
    scopeId: companyId,
    kind: "soft",
    windowKind: "calendar_month_utc",
    windowKey: "2026-11",
    amountCents: 100,
    thresholdCents: threshold,
    observedCents: 90,
    status: status as never,
    createdAt: now,
    updatedAt: now,
  });
}

describe("dashboard", () => {
  it("counts a seeded company exactly", async () => {
    const company = await createCompany({ budgetMonthlyCents: 30_000 });
    const a = await insertAgent(company.id, { status: "active" });
    await insertAgent(company.id, { status: "idle" });
    await insertAgent(company.id, { status: "running" });
    await insertAgent(company.id, { status: "paused" });
    const budgetPaused = await insertAgent(company.id, { status: "paused" });
    await updateRow(schema.agents, budgetPaused.id, { pauseReason: "budget" });
    await insertAgent(company.id, { status: "error" });
    await insertAgent(company.id, { status: "terminated" });
    await insertAgent(company.id, { status: "pending_approval" });

    const statuses = ["backlog", "todo", "in_progress", "in_progress", "in_review", "blocked", "done", "done", "done", "cancelled"] as const;
    for (const s of statuses) await issue(company.id, s);

    const now = new Date();
    const { start } = utcMonthRange(now.toISOString());
    await cost(company.id, a.id, 1234, start);
    await cost(company.id, a.id, 766, now.toISOString());
    await cost(company.id, a.id, 9999, new Date(Date.parse(start) - 1).toISOString());

    await approval(company.id, "request_board_approval", "pending");
    await approval(company.id, "budget_override_required", "pending");
    await approval(company.id, "budget_override_required", "approved");
    await approval(company.id, "hire_agent", "revision_requested");

    await incident(company.id, "open", 80);
    await incident(company.id, "open", 100);
    await incident(company.id, "resolved", 50);

    const p1 = (await post(`/api/companies/${company.id}/projects`, { name: "P1" })).body;
    const p2 = (await post(`/api/companies/${company.id}/projects`, { name: "P2" })).body;
    await updateRow(schema.projects, p1.id, { pausedAt: now.toISOString(), pauseReason: "budget" });
    await updateRow(schema.projects, p2.id, { pausedAt: now.toISOString(), pauseReason: "manual" });

    const res = await get(`/api/companies/${company.id}/dashboard`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      companyId: company.id,
      agents: { active: 2, running: 1, paused: 2, error: 1 },
      tasks: { open: 6, inProgress: 2, blocked: 1, done: 3 },
      costs: { monthSpendCents: 2000, monthBudgetCents: 30_000, monthUtilizationPercent: 6.67 },
      pendingApprovals: 2,
      budgets: { activeIncidents: 2, pendingApprovals: 1, pausedAgents: 1, pausedProjects: 1 },
    });
  });

  it("reports zeros and 0% utilisation for an empty company without budget", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const res = await get(`/api/companies/${company.id}/dashboard`, { token });
    expect(res.status).toBe(200);
    expect(res.body.costs).toEqual({ monthSpendCents: 0, monthBudgetCents: 0, monthUtilizationPercent: 0 });
    expect(res.body.tasks).toEqual({ open: 0, inProgress: 0, blocked: 0, done: 0 });
  });

  it("rounds utilisation to two decimals", () => {
    expect(utilizationPercent(1, 3)).toBe(33.33);
    expect(utilizationPercent(2, 3)).toBe(66.67);
    expect(utilizationPercent(150, 100)).toBe(150);
    expect(utilizationPercent(5, 0)).toBe(0);
    expect(utcMonthRange("2026-12-15T10:00:00.000Z")).toEqual({ start: "2026-12-01T00:00:00.000Z", end: "2027-01-01T00:00:00.000Z" });
  });

  it("answers 401, 403 and 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const outsider = await insertAgent(other.id);
    const { token } = await insertAgentKey(outsider.id, other.id);
    const member = await boardUser(other.id);
    expect((await get(`/api/companies/${company.id}/dashboard`, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${company.id}/dashboard`, { token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/dashboard`, { token: member.token })).status).toBe(403);
    expect((await get(`/api/companies/${crypto.randomUUID()}/dashboard`)).status).toBe(404);
  });
});

describe("OpenAPI document", () => {
  it("lists every goals, projects, workspaces, approvals, environments, execution workspace and dashboard route", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, any>>;
    const expected: Array<[string, string[]]> = [
      ["/api/companies/{companyId}/goals", ["get", "post"]],
      ["/api/goals/{goalId}", ["get", "patch", "delete"]],
      ["/api/companies/{companyId}/projects", ["get", "post"]],
      ["/api/projects/{projectId}", ["get", "patch", "delete"]],
      ["/api/projects/{projectId}/workspaces", ["get", "post"]],
      ["/api/projects/{projectId}/workspaces/{workspaceId}", ["patch", "delete"]],
      ["/api/projects/{projectId}/workspaces/{workspaceId}/runtime-services/{action}", ["post"]],
      ["/api/companies/{companyId}/approvals", ["get", "post"]],
      ["/api/approvals/{approvalId}", ["get"]],
      ["/api/approvals/{approvalId}/issues", ["get"]],
      ["/api/approvals/{approvalId}/approve", ["post"]],
      ["/api/approvals/{approvalId}/reject", ["post"]],
      ["/api/approvals/{approvalId}/request-revision", ["post"]],
      ["/api/approvals/{approvalId}/resubmit", ["post"]],
      ["/api/approvals/{approvalId}/comments", ["get", "post"]],
      ["/api/companies/{companyId}/environments", ["get", "post"]],
      ["/api/companies/{companyId}/environments/capabilities", ["get"]],
      ["/api/companies/{companyId}/environments/probe-config", ["post"]],
      ["/api/environments/{id}", ["get", "patch", "delete"]],
      ["/api/environments/{id}/probe", ["post"]],
      ["/api/environments/{id}/leases", ["get"]],
      ["/api/environment-leases/{leaseId}", ["get"]],
      ["/api/companies/{companyId}/execution-workspaces", ["get", "post"]],
      ["/api/execution-workspaces/{id}", ["get", "patch"]],
      ["/api/execution-workspaces/{id}/close-readiness", ["get"]],
      ["/api/execution-workspaces/{id}/workspace-operations", ["get"]],
      ["/api/execution-workspaces/{id}/runtime-services/{action}", ["post"]],
      ["/api/execution-workspaces/{id}/runtime-commands/{action}", ["post"]],
      ["/api/companies/{companyId}/dashboard", ["get"]],
    ];
    for (const [path, methods] of expected) {
      expect(paths[path], path).toBeDefined();
      for (const m of methods) {
        expect(paths[path][m], `${m} ${path}`).toBeDefined();
        expect(paths[path][m].responses["401"], `${m} ${path} 401`).toBeDefined();
      }
    }
    const services = paths["/api/execution-workspaces/{id}/runtime-services/{action}"].post.requestBody.content["application/json"].schema;
    const commands = paths["/api/execution-workspaces/{id}/runtime-commands/{action}"].post.requestBody.content["application/json"].schema;
    expect(services).toEqual(commands);
  });
});
