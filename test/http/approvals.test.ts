import { describe, expect, it } from "vitest";
import { get, post, unique } from "../helpers/api";
import {
  boardUser,
  createCompany,
  insertAgent,
  insertAgentKey,
  insertApproval as approvalFixture,
  insertIssue as issueFixture,
  testD1,
} from "../helpers/fixtures";
import type { APPROVAL_STATUSES, APPROVAL_TYPES } from "../../src/db/schema/approvals";
import { APPROVAL_TRANSITIONS } from "../../src/domain/approvals/state-machine";

const BOGUS = { token: "svc_agent_bogus" };
const STATES = ["pending", "revision_requested", "approved", "rejected"] as const;
const ACTIONS = ["approve", "reject", "request-revision", "resubmit"] as const;

const insertApproval = (
  companyId: string,
  fields: { status?: (typeof APPROVAL_STATUSES)[number]; type?: (typeof APPROVAL_TYPES)[number]; payload?: unknown; requestedByAgentId?: string | null } = {},
) => approvalFixture(companyId, { ...fields, payload: (fields.payload ?? { title: "t" }) as Record<string, unknown> });

const insertIssue = async (companyId: string) => (await issueFixture(companyId, { title: "Issue" })).id;

async function wakeups(agentId: string) {
  return (await testD1.prepare("SELECT * FROM agent_wakeup_requests WHERE agent_id = ? ORDER BY created_at, rowid").bind(agentId).all<any>()).results;
}

describe("approval state table", () => {
  for (const state of STATES) {
    for (const action of ACTIONS) {
      const allowed = APPROVAL_TRANSITIONS[state][action];
      it(`${state} × ${action} → ${allowed ? allowed.next : "422"}`, async () => {
        const company = await createCompany();
        const agent = await insertAgent(company.id);
        const id = await insertApproval(company.id, { status: state, requestedByAgentId: agent.id });
        const res = await post(`/api/approvals/${id}/${action}`, action === "resubmit" ? {} : { decisionNote: "note" });
        if (!allowed) {
          expect(res.status).toBe(422);
          expect(res.body.error).toMatch(new RegExp(state));
          expect((await get(`/api/approvals/${id}`)).body.status).toBe(state);
          return;
        }
        expect(res.status, res.text).toBe(200);
        expect(res.body.status).toBe(allowed.next);
        if (action !== "resubmit") expect(res.body).toMatchObject({ decisionNote: "note", decidedByUserId: "local-board" });
      });
    }
  }

  it("matches the spec's table exactly", () => {
    const table = Object.fromEntries(STATES.map((s) => [s, Object.fromEntries(Object.entries(APPROVAL_TRANSITIONS[s]).map(([a, t]) => [a, t!.next]))]));
    expect(table).toEqual({
      pending: { approve: "approved", reject: "rejected", "request-revision": "revision_requested" },
      revision_requested: { approve: "approved", reject: "rejected", resubmit: "pending" },
      approved: {},
      rejected: {},
    });
  });
});

describe("approvals", () => {
  it("creates as board or agent, lists with a status filter, gets, and redacts payloads", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const board = await post(`/api/companies/${company.id}/approvals`, {
      type: "request_board_approval",
      payload: { title: "Buy GPUs", summary: "s", recommendedAction: "approve", risks: ["cost"], apiKey: "sk-live-very-secret" },
    });
    expect(board.status).toBe(201);
    expect(board.body).toMatchObject({ status: "pending", requestedByUserId: "local-board", requestedByAgentId: null });
    expect(board.body.payload.apiKey).toBe("***REDACTED***");
    expect(board.body.payload.title).toBe("Buy GPUs");

    const byAgent = await post(`/api/companies/${company.id}/approvals`, { type: "request_board_approval", payload: { title: "x" } }, { token });
    expect(byAgent.status).toBe(201);
    expect(byAgent.body).toMatchObject({ requestedByAgentId: agent.id, requestedByUserId: null });

    await post(`/api/approvals/${byAgent.body.id}/reject`, {});
    const list = await get(`/api/companies/${company.id}/approvals`);
    expect(list.body.map((a: any) => a.id)).toEqual([byAgent.body.id, board.body.id]);
    expect(list.body[1].payload.apiKey).toBe("***REDACTED***");
    const pending = await get(`/api/companies/${company.id}/approvals?status=pending`);
    expect(pending.body.map((a: any) => a.id)).toEqual([board.body.id]);
    expect((await get(`/api/companies/${company.id}/approvals?status=nope`)).status).toBe(400);
    const one = await get(`/api/approvals/${board.body.id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.payload.apiKey).toBe("***REDACTED***");
    const activity = (await get(`/api/companies/${company.id}/activity?entityType=approval`)).body.map((a: any) => a.action);
    expect(activity).toEqual(expect.arrayContaining(["approval.created", "approval.rejected"]));
  });

  it("lets agents request only as themselves; board may name an agent of the company", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const a = await insertAgent(company.id);
    const b = await insertAgent(company.id);
    const foreign = await insertAgent(other.id);
    const { token } = await insertAgentKey(a.id, company.id);
    const base = `/api/companies/${company.id}/approvals`;
    expect((await post(base, { type: "request_board_approval", payload: {}, requestedByAgentId: b.id }, { token })).status).toBe(403);
    expect((await post(base, { type: "request_board_approval", payload: {}, requestedByAgentId: a.id }, { token })).status).toBe(201);
    expect((await post(base, { type: "request_board_approval", payload: {}, requestedByAgentId: b.id })).body.requestedByAgentId).toBe(b.id);
    expect((await post(base, { type: "request_board_approval", payload: {}, requestedByAgentId: foreign.id })).status).toBe(422);
  });

  it("links issues: duplicates ignored, other company 422, missing 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const i1 = await insertIssue(company.id);
    const i2 = await insertIssue(company.id);
    const foreign = await insertIssue(other.id);
    const base = `/api/companies/${company.id}/approvals`;
    const res = await post(base, { type: "request_board_approval", payload: { title: "t" }, issueIds: [i1, i2, i1] });
    expect(res.status).toBe(201);
    const linked = await get(`/api/approvals/${res.body.id}/issues`);
    expect(linked.status).toBe(200);
    expect(linked.body.map((i: any) => i.id).sort()).toEqual([i1, i2].sort());
    expect(linked.body[0]).toHaveProperty("identifier");
    expect((await post(base, { type: "request_board_approval", payload: {}, issueIds: [i1, foreign] })).status).toBe(422);
    expect((await post(base, { type: "request_board_approval", payload: {}, issueIds: [crypto.randomUUID()] })).status).toBe(404);
    const count = await testD1.prepare("SELECT COUNT(*) AS n FROM approvals WHERE company_id = ?").bind(company.id).first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("validates input with 400", async () => {
    const company = await createCompany();
    const base = `/api/companies/${company.id}/approvals`;
    expect((await post(base, { payload: {} })).status).toBe(400);
    expect((await post(base, { type: "hire_agent" })).status).toBe(400);
    expect((await post(base, { type: "hire_agent", payload: "x" })).status).toBe(400);
    expect((await post(base, { type: "buy_boat", payload: {} })).status).toBe(400);
    const id = await insertApproval(company.id);
    expect((await post(`/api/approvals/${id}/approve`, { decisionNote: 5 })).status).toBe(400);
    expect((await post(`/api/approvals/${id}/comments`, { body: "" })).status).toBe(400);
    expect((await post(`/api/approvals/${id}/comments`, {})).status).toBe(400);
    expect((await get(`/api/approvals/${id}`)).body.status).toBe("pending");
  });

  it("keeps decisions board-only and resubmission to the requester or board", async () => {
    const company = await createCompany();
    const requester = await insertAgent(company.id);
    const peer = await insertAgent(company.id);
    const req = await insertAgentKey(requester.id, company.id);
    const peerKey = await insertAgentKey(peer.id, company.id);
    const id = await insertApproval(company.id, { requestedByAgentId: requester.id });
    for (const action of ["approve", "reject", "request-revision"]) {
      expect((await post(`/api/approvals/${id}/${action}`, {}, { token: req.token })).status).toBe(403);
    }
    const revision = await post(`/api/approvals/${id}/request-revision`, { decisionNote: "add numbers" });
    expect(revision.body).toMatchObject({ status: "revision_requested", decisionNote: "add numbers" });
    expect((await post(`/api/approvals/${id}/resubmit`, {}, { token: peerKey.token })).status).toBe(403);
    const resubmitted = await post(`/api/approvals/${id}/resubmit`, { payload: { title: "v2" } }, { token: req.token });
    expect(resubmitted.status).toBe(200);
    expect(resubmitted.body).toMatchObject({ status: "pending", payload: { title: "v2" } });
    // Board resubmission without payload keeps it.
    await post(`/api/approvals/${id}/request-revision`, {});
    const kept = await post(`/api/approvals/${id}/resubmit`);
    expect(kept.body).toMatchObject({ status: "pending", payload: { title: "v2" } });
    // A board member (non-local) can decide too.
    const member = await boardUser(company.id, "member");
    expect((await post(`/api/approvals/${id}/approve`, {}, { token: member.token })).body).toMatchObject({ status: "approved", decidedByUserId: member.id });
  });

  it("concurrent decisions: exactly one wins, the others get 422", async () => {
    const company = await createCompany();
    const id = await insertApproval(company.id);
    const results = await Promise.all([
      post(`/api/approvals/${id}/approve`, {}),
      post(`/api/approvals/${id}/reject`, {}),
      post(`/api/approvals/${id}/approve`, {}),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
  });

  it("wakes the requester on approve, reject and revision request with the approval env", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    for (const [action, status] of [
      ["approve", "approved"],
      ["reject", "rejected"],
      ["request-revision", "revision_requested"],
    ]) {
      const id = await insertApproval(company.id, { requestedByAgentId: agent.id });
      expect((await post(`/api/approvals/${id}/${action}`, {})).status).toBe(200);
      const rows = (await wakeups(agent.id)).filter((w) => JSON.parse(w.context).approvalId === id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: "queued", reason: "approval_resolved", source: "approval", company_id: company.id });
      expect(JSON.parse(rows[0].context).env).toEqual({ SERVICE_APPROVAL_ID: id, SERVICE_APPROVAL_STATUS: status });
    }
    // Resubmission does not wake anyone.
    const before = (await wakeups(agent.id)).length;
    const id = await insertApproval(company.id, { status: "revision_requested", requestedByAgentId: agent.id });
    await post(`/api/approvals/${id}/resubmit`);
    expect((await wakeups(agent.id)).length).toBe(before);
  });

  it("hire_agent approval activates the pending agent and creates its budget policy; rejection terminates the draft", async () => {
    const company = await createCompany();
    const manager = await insertAgent(company.id, { role: "ceo" });
    const pending = await insertAgent(company.id, { status: "pending_approval" });
    const id = await insertApproval(company.id, {
      type: "hire_agent",
      requestedByAgentId: manager.id,
      payload: { agentId: pending.id, budgetMonthlyCents: 5000 },
    });
    expect((await post(`/api/approvals/${id}/approve`, {})).status).toBe(200);
    const agent = await testD1.prepare("SELECT status, budget_monthly_cents FROM agents WHERE id = ?").bind(pending.id).first<any>();
    expect(agent).toEqual({ status: "idle", budget_monthly_cents: 5000 });
    const policy = await testD1
      .prepare("SELECT amount_cents, window_kind, is_active FROM budget_policies WHERE scope_type = 'agent' AND scope_id = ?")
      .bind(pending.id)
      .first<any>();
    expect(policy).toEqual({ amount_cents: 5000, window_kind: "calendar_month_utc", is_active: 1 });
    expect((await wakeups(manager.id)).length).toBe(1);

    const draft = await insertAgent(company.id, { status: "pending_approval" });
    const key = await insertAgentKey(draft.id, company.id);
    const rejectId = await insertApproval(company.id, { type: "hire_agent", payload: { agentId: draft.id } });
    expect((await post(`/api/approvals/${rejectId}/reject`, {})).status).toBe(200);
    expect((await testD1.prepare("SELECT status FROM agents WHERE id = ?").bind(draft.id).first<any>()).status).toBe("terminated");
    expect((await testD1.prepare("SELECT revoked_at FROM agent_api_keys WHERE id = ?").bind(key.id).first<any>()).revoked_at).not.toBeNull();
  });

  it("hire_agent approval without a pending agent creates the agent from the payload", async () => {
    const company = await createCompany();
    const boss = await insertAgent(company.id, { role: "ceo", name: "Boss" });
    await insertAgent(company.id, { name: "Coder" });
    const id = await insertApproval(company.id, {
      type: "hire_agent",
      requestedByAgentId: boss.id,
      payload: {
        name: "Coder",
        role: "engineer",
        title: "Backend",
        adapterType: "http",
        adapterConfig: { url: "https://x.example" },
        reportsTo: boss.id,
        budgetMonthlyCents: 1200,
      },
    });
    const res = await post(`/api/approvals/${id}/approve`, {});
    expect(res.status).toBe(200);
    const newId = res.body.payload.agentId;
    expect(newId).toBeTruthy();
    const row = await testD1.prepare("SELECT * FROM agents WHERE id = ?").bind(newId).first<any>();
    expect(row).toMatchObject({
      name: "Coder 2",
      url_key: "coder-2",
      role: "engineer",
      title: "Backend",
      adapter_type: "http",
      reports_to: boss.id,
      status: "idle",
      budget_monthly_cents: 1200,
    });
    expect(await testD1.prepare("SELECT COUNT(*) AS n FROM budget_policies WHERE scope_id = ?").bind(newId).first<any>()).toEqual({ n: 1 });

    const bad = await insertApproval(company.id, { type: "hire_agent", payload: { role: "engineer" } });
    expect((await post(`/api/approvals/${bad}/approve`, {})).status).toBe(422);
    expect((await get(`/api/approvals/${bad}`)).body.status).toBe("pending");
    // The payload goes through the agents' adapter validation: an http agent needs a url.
    const invalidConfig = await insertApproval(company.id, { type: "hire_agent", payload: { name: "Broken", adapterType: "http", adapterConfig: {} } });
    expect((await post(`/api/approvals/${invalidConfig}/approve`, {})).status).toBe(422);
    expect((await testD1.prepare("SELECT COUNT(*) AS n FROM agents WHERE company_id = ? AND name = 'Broken'").bind(company.id).first<any>()).n).toBe(0);
  });

  it("approving approve_ceo_strategy marks the goal active", async () => {
    const company = await createCompany();
    const ceo = await insertAgent(company.id, { role: "ceo" });
    const { token } = await insertAgentKey(ceo.id, company.id);
    const goal = (await post(`/api/companies/${company.id}/goals`, { title: "Strategy", level: "company" }, { token })).body;
    const approvals = (await get(`/api/companies/${company.id}/approvals?type=approve_ceo_strategy`)).body;
    expect(approvals).toHaveLength(1);
    expect(approvals[0].payload).toMatchObject({ goalId: goal.id, summary: "Strategy" });
    await post(`/api/approvals/${approvals[0].id}/approve`, {});
    expect((await get(`/api/goals/${goal.id}`)).body.status).toBe("active");
  });

  it("comments in chronological order", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const id = await insertApproval(company.id);
    expect((await post(`/api/approvals/${id}/comments`, { body: "first" })).status).toBe(201);
    const second = await post(`/api/approvals/${id}/comments`, { body: "**second**" }, { token });
    expect(second.body).toMatchObject({ authorAgentId: agent.id, authorUserId: null, body: "**second**" });
    await post(`/api/approvals/${id}/comments`, { body: "third" });
    const list = await get(`/api/approvals/${id}/comments`, { token });
    expect(list.body.map((c: any) => c.body)).toEqual(["first", "**second**", "third"]);
  });

  it("answers 401, 403 and 404 for the wrong callers", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const id = await insertApproval(company.id);
    const outsider = await insertAgent(other.id);
    const { token } = await insertAgentKey(outsider.id, other.id);
    const member = await boardUser(other.id);
    expect((await get(`/api/companies/${company.id}/approvals`, BOGUS)).status).toBe(401);
    expect((await post(`/api/companies/${company.id}/approvals`, { type: "hire_agent", payload: {} }, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${company.id}/approvals`, { token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/approvals`, { type: "hire_agent", payload: {} }, { token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/approvals`, { token: member.token })).status).toBe(403);
    for (const path of [`/api/approvals/${id}`, `/api/approvals/${id}/issues`, `/api/approvals/${id}/comments`]) {
      expect((await get(path, BOGUS)).status).toBe(401);
      expect((await get(path, { token })).status).toBe(404);
      expect((await get(path, { token: member.token })).status).toBe(404);
      expect((await get(path.replace(id, crypto.randomUUID()))).status).toBe(404);
    }
    for (const action of ["approve", "reject", "request-revision", "resubmit"]) {
      expect((await post(`/api/approvals/${id}/${action}`, {}, BOGUS)).status).toBe(401);
      expect((await post(`/api/approvals/${id}/${action}`, {}, { token })).status).toBe(404);
      expect((await post(`/api/approvals/${id}/${action}`, {}, { token: member.token })).status).toBe(404);
      expect((await post(`/api/approvals/${crypto.randomUUID()}/${action}`, {})).status).toBe(404);
    }
    expect((await post(`/api/approvals/${id}/comments`, { body: "x" }, BOGUS)).status).toBe(401);
    expect((await post(`/api/approvals/${id}/comments`, { body: "x" }, { token })).status).toBe(404);
    expect((await get(`/api/companies/${crypto.randomUUID()}/approvals`)).status).toBe(404);
    expect((await get(`/api/approvals/${id}`)).body.status).toBe("pending");
    expect(unique()).toBeTruthy();
  });
});
