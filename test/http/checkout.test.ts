// Checkout, release and run ownership over HTTP: who may check out, expected statuses, paused
// projects, idempotency, stale-lock adoption (finished, missing, lease-expired runs), ownership
// conflicts on updates and comments, release rules, run listings, and races.
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../helpers/api";
import { eq } from "drizzle-orm";
import {
  agentJwt,
  boardUser,
  createCompany,
  insertAgent,
  insertProject,
  insertRow,
  schema,
  testDb,
  updateRow,
  agentWithKey,
  createIssue,
  testD1,
} from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };

const issue = (companyId: string, body: Record<string, unknown> = {}) => createIssue(companyId, { status: "todo", ...body });
const runId = () => crypto.randomUUID();
const checkout = (issueId: string, agent: { id: string; token: string }, run: string | undefined, expectedStatuses: string[] = ["todo"]) =>
  post(`/api/issues/${issueId}/checkout`, { agentId: agent.id, expectedStatuses }, { token: agent.token, runId: run });

async function runRow(id: string) {
  return testD1.prepare("SELECT * FROM heartbeat_runs WHERE id = ?").bind(id).first<any>();
}

describe("POST /api/issues/{issueId}/checkout", () => {
  it("checks out as the agent itself and records an external run", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const i = await issue(company.id);
    const run = runId();
    const res = await checkout(i.identifier, agent, run);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "in_progress", assigneeAgentId: agent.id, checkoutRunId: run });
    expect(res.body.startedAt).toBeTruthy();
    expect(res.body.checkedOutAt).toBeTruthy();
    const stored = await runRow(run);
    expect(stored).toMatchObject({ agent_id: agent.id, company_id: company.id, status: "running", invocation_source: "external" });
    // idempotent for the same owner
    const again = await checkout(i.id, agent, run, ["todo"]);
    expect(again.status).toBe(200);
    expect(again.body.checkoutRunId).toBe(run);
    const activity = await get(`/api/issues/${i.id}/activity`);
    expect(activity.body.filter((a: any) => a.action === "issue.checked_out")).toHaveLength(1);
    expect(activity.body[0].runId).toBe(run);
  });

  it("refuses other callers and bad input", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await agentWithKey(company.id);
    const peer = await agentWithKey(company.id);
    const stranger = await agentWithKey(other.id);
    const i = await issue(company.id);
    expect((await post(`/api/issues/${i.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] })).status).toBe(403);
    expect((await checkout(i.id, { id: agent.id, token: peer.token }, runId())).status).toBe(403);
    const noRun = await checkout(i.id, agent, undefined);
    expect(noRun.status).toBe(401);
    expect(noRun.body.error).toMatch(/run id/i);
    expect((await checkout(i.id, agent, runId(), [])).status).toBe(400);
    expect((await checkout(i.id, agent, runId(), ["nope"])).status).toBe(400);
    expect((await post(`/api/issues/${i.id}/checkout`, { expectedStatuses: ["todo"] }, { token: agent.token, runId: runId() })).status).toBe(400);
    expect((await checkout(i.id, { id: agent.id, token: "svc_agent_bogus" }, runId())).status).toBe(401);
    expect((await checkout(i.id, stranger, runId())).status).toBe(404);
    expect((await checkout(crypto.randomUUID(), agent, runId())).status).toBe(404);
    // a run id of another agent
    const peerRun = runId();
    expect((await checkout((await issue(company.id)).id, peer, peerRun)).status).toBe(200);
    const stolen = await checkout(i.id, agent, peerRun);
    expect(stolen.status).toBe(403);
    const status = await get(`/api/issues/${i.id}`);
    expect(status.body).toMatchObject({ status: "todo", assigneeAgentId: null, checkoutRunId: null });
  });

  it("409 when the status is not expected, the project is paused, or another run holds it", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const peer = await agentWithKey(company.id);
    const backlog = await issue(company.id, { status: "backlog" });
    const res = await checkout(backlog.id, agent, runId(), ["todo"]);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("Issue checkout conflict");
    expect(res.body.details).toEqual({ issueId: backlog.id, status: "backlog", assigneeAgentId: null, checkoutRunId: null });
    const projectId = (await insertProject(company.id, "P", { pausedAt: new Date().toISOString(), pauseReason: "budget" })).id;
    const inPaused = await issue(company.id, { projectId });
    const paused = await checkout(inPaused.id, agent, runId());
    expect(paused.status).toBe(409);
    expect(paused.body.error).toMatch(/paused/i);
    const held = await issue(company.id);
    const firstRun = runId();
    expect((await checkout(held.id, agent, firstRun)).status).toBe(200);
    const byPeer = await checkout(held.id, peer, runId(), ["todo", "in_progress"]);
    expect(byPeer.status).toBe(409);
    expect(byPeer.body.details).toEqual({ issueId: held.id, status: "in_progress", assigneeAgentId: agent.id, checkoutRunId: firstRun });
    // same agent, second live run: still a conflict
    expect((await checkout(held.id, agent, runId(), ["in_progress"])).status).toBe(409);
    // assigned to someone else (not checked out)
    const assigned = await issue(company.id, { assigneeAgentId: peer.id });
    expect((await checkout(assigned.id, agent, runId())).status).toBe(409);
  });

  it("adopts stale locks: finished, missing and lease-expired runs, same agent, in_progress expected", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const peer = await agentWithKey(company.id);
    for (const stale of ["succeeded", "failed", "cancelled", "timed_out", "missing", "lease"]) {
      const i = await issue(company.id);
      const old = runId();
      expect((await checkout(i.id, agent, old)).status).toBe(200);
      if (stale === "missing") await testDb().delete(schema.heartbeatRuns).where(eq(schema.heartbeatRuns.id, old));
      else if (stale === "lease") await updateRow(schema.heartbeatRuns, old, { lastActivityAt: new Date(Date.now() - 2 * 3600_000).toISOString() });
      else await updateRow(schema.heartbeatRuns, old, { status: stale as "failed" });
      const next = runId();
      expect((await checkout(i.id, agent, next, ["todo"])).status, stale).toBe(409);
      expect((await checkout(i.id, peer, next.replace(/.$/, "0"), ["in_progress"])).status, stale).toBe(409);
      const adopted = await checkout(i.id, agent, next, ["in_progress"]);
      expect(adopted.status, stale).toBe(200);
      expect(adopted.body.checkoutRunId).toBe(next);
      if (stale === "lease") expect((await runRow(old)).status).toBe("timed_out");
      const activity = await get(`/api/issues/${i.id}/activity`);
      expect(activity.body[0].details.adoptedFromRunId).toBe(old);
    }
  });

  it("accepts the run id from an agent JWT", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const run = runId();
    const token = await agentJwt(agent.id, company.id, { runId: run });
    const i = await issue(company.id);
    const res = await post(`/api/issues/${i.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, { token });
    expect(res.status).toBe(200);
    expect(res.body.checkoutRunId).toBe(run);
  });

  it("20 agents racing: exactly one wins", async () => {
    const company = await createCompany();
    const agents = await Promise.all(Array.from({ length: 20 }, () => agentWithKey(company.id)));
    const i = await issue(company.id);
    const results = await Promise.all(agents.map((a) => checkout(i.id, a, runId(), ["todo"])));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const winner = agents[results.findIndex((r) => r.status === 200)];
    const stored = await get(`/api/issues/${i.id}`);
    expect(stored.body).toMatchObject({ status: "in_progress", assigneeAgentId: winner.id, checkoutRunId: winners[0].body.checkoutRunId });
    const activity = await get(`/api/issues/${i.id}/activity`);
    expect(activity.body.filter((a: any) => a.action === "issue.checked_out")).toHaveLength(1);
  });
});

describe("run ownership on updates and comments", () => {
  it("only the holding run may update; the assignee comments from it; other agents may comment", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const peer = await agentWithKey(company.id);
    const i = await issue(company.id);
    const run = runId();
    await checkout(i.id, agent, run);
    const noRun = await patch(`/api/issues/${i.id}`, { title: "x" }, { token: agent.token });
    expect(noRun.status).toBe(401);
    expect(noRun.body.error).toMatch(/run id/i);
    const otherRun = await patch(`/api/issues/${i.id}`, { title: "x" }, { token: agent.token, runId: runId() });
    expect(otherRun.status).toBe(409);
    expect(otherRun.body.error).toBe("Issue run ownership conflict");
    const byPeer = await patch(`/api/issues/${i.id}`, { title: "x" }, { token: peer.token, runId: runId() });
    expect(byPeer.status).toBe(409);
    const ok = await patch(`/api/issues/${i.id}`, { title: "Renamed by owner" }, { token: agent.token, runId: run });
    expect(ok.status).toBe(200);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "hi" }, { token: agent.token, runId: runId() })).status).toBe(409);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "hi" }, { token: agent.token })).status).toBe(401);
    const own = await post(`/api/issues/${i.id}/comments`, { body: "progress" }, { token: agent.token, runId: run });
    expect(own.status).toBe(201);
    expect(own.body.runId).toBe(run);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "peer note" }, { token: peer.token })).status).toBe(401);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "peer note" }, { token: peer.token, runId: runId() })).status).toBe(201);
    // the board is not subject to run ownership
    expect((await patch(`/api/issues/${i.id}`, { priority: "high" })).status).toBe(200);
    // a cancelled holding run no longer owns the issue
    await updateRow(schema.heartbeatRuns, run, { status: "cancelled" });
    expect((await patch(`/api/issues/${i.id}`, { title: "late" }, { token: agent.token, runId: run })).status).toBe(409);
  });

  it("leaving in_progress ends the checkout", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const i = await issue(company.id);
    const run = runId();
    await checkout(i.id, agent, run);
    const done = await patch(`/api/issues/${i.id}`, { status: "in_review" }, { token: agent.token, runId: run });
    expect(done.body).toMatchObject({ status: "in_review", checkoutRunId: null, checkedOutAt: null, assigneeAgentId: agent.id });
  });
});

describe("POST /api/issues/{issueId}/release", () => {
  it("board release clears the agent and every lock field, keeps the user assignee", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const i = await issue(company.id, { assigneeUserId: "local-board" });
    await checkout(i.id, agent, runId());
    await updateRow(schema.issues, i.id, { executionLockedAt: new Date().toISOString() });
    const res = await post(`/api/issues/${i.id}/release`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "todo", assigneeAgentId: null, checkoutRunId: null, checkedOutAt: null, assigneeUserId: "local-board" });
    const row = await testD1.prepare("SELECT * FROM issues WHERE id = ?").bind(i.id).first<any>();
    expect(row).toMatchObject({ checkout_run_id: null, checked_out_at: null, execution_locked_at: null, assignee_agent_id: null });
    expect((await post(`/api/issues/${i.id}/release`)).status).toBe(409);
  });

  it("the assignee's checkout run may release; other runs, agents and strangers may not", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await agentWithKey(company.id);
    const peer = await agentWithKey(company.id);
    const stranger = await boardUser(other.id);
    const i = await issue(company.id);
    const run = runId();
    await checkout(i.id, agent, run);
    expect((await post(`/api/issues/${i.id}/release`, undefined, { token: agent.token })).status).toBe(401);
    const wrongRun = await post(`/api/issues/${i.id}/release`, undefined, { token: agent.token, runId: runId() });
    expect(wrongRun.status).toBe(409);
    expect(wrongRun.body.error).toBe("Issue run ownership conflict");
    expect((await post(`/api/issues/${i.id}/release`, undefined, { token: peer.token, runId: runId() })).status).toBe(403);
    expect((await post(`/api/issues/${i.id}/release`, undefined, BOGUS)).status).toBe(401);
    expect((await post(`/api/issues/${i.id}/release`, undefined, { token: stranger.token })).status).toBe(404);
    expect((await post(`/api/issues/${crypto.randomUUID()}/release`)).status).toBe(404);
    const ok = await post(`/api/issues/${i.id}/release`, undefined, { token: agent.token, runId: run });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("todo");
  });

  it("concurrent release and checkouts leave a consistent row", async () => {
    const company = await createCompany();
    const holder = await agentWithKey(company.id);
    const contenders = await Promise.all(Array.from({ length: 5 }, () => agentWithKey(company.id)));
    for (let round = 0; round < 3; round++) {
      const i = await issue(company.id);
      await checkout(i.id, holder, runId());
      await Promise.all([post(`/api/issues/${i.id}/release`), ...contenders.map((a) => checkout(i.id, a, runId(), ["todo"]))]);
      const row = await testD1.prepare("SELECT * FROM issues WHERE id = ?").bind(i.id).first<any>();
      if (row.status === "in_progress") {
        expect(row.checkout_run_id).toBeTruthy();
        expect(contenders.map((c) => c.id)).toContain(row.assignee_agent_id);
        const run = await runRow(row.checkout_run_id);
        expect(run.agent_id).toBe(row.assignee_agent_id);
      } else {
        expect(row).toMatchObject({ status: "todo", checkout_run_id: null, assignee_agent_id: null, checked_out_at: null });
      }
    }
  });
});

describe("runs of an issue and issues of a run", () => {
  it("lists runs touching an issue and issues touched by a run", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await agentWithKey(company.id);
    const stranger = await agentWithKey(other.id);
    const a = await issue(company.id);
    const b = await issue(company.id);
    const run1 = runId();
    const run2 = runId();
    await checkout(a.id, agent, run1);
    await post(`/api/issues/${b.id}/comments`, { body: "note" }, { token: agent.token, runId: run1 });
    await patch(`/api/issues/${b.id}`, { priority: "high" }, { token: agent.token, runId: run2 });
    const runs = await get(`/api/issues/${b.id}/runs`);
    expect(runs.status).toBe(200);
    expect(runs.body.map((r: any) => r.runId).sort()).toEqual([run1, run2].sort());
    expect(runs.body[0]).toMatchObject({
      agentId: agent.id,
      status: "running",
      invocationSource: "external",
      adapterType: "process",
      logBytes: 0,
      usageJson: null,
      resultJson: null,
      finishedAt: null,
    });
    expect(Object.keys(runs.body[0]).sort()).toEqual(
      ["runId", "status", "agentId", "adapterType", "startedAt", "finishedAt", "createdAt", "invocationSource", "usageJson", "resultJson", "logBytes"].sort(),
    );
    const issues = await get(`/api/heartbeat-runs/${run1}/issues`);
    expect(issues.status).toBe(200);
    expect(issues.body.map((i: any) => i.id)).toEqual([a.id, b.id]);
    expect(issues.body[0]).toMatchObject({ identifier: a.identifier, status: "in_progress" });
    expect((await get(`/api/heartbeat-runs/${runId()}/issues`)).body).toEqual([]);
    expect((await get(`/api/heartbeat-runs/${run1}/issues`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/api/heartbeat-runs/${run1}/issues`, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${a.id}/runs`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/api/issues/${a.id}/runs`, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${crypto.randomUUID()}/runs`)).status).toBe(404);
  });
});

describe("execution workspaces", () => {
  it("a closed isolated execution workspace blocks checkout; the detail shows the current workspace", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const now = new Date().toISOString();
    const insert = async (mode: string, status: string) => {
      const id = crypto.randomUUID();
      await insertRow(schema.executionWorkspaces, {
        id,
        companyId: company.id,
        mode: mode as never,
        status: status as never,
        desiredState: "stopped",
        runtimeServices: [],
        openedAt: now,
        closedAt: status === "closed" ? now : null,
        createdAt: now,
        updatedAt: now,
      });
      return id;
    };
    const closed = await issue(company.id, { executionWorkspaceId: await insert("isolated", "closed") });
    const res = await checkout(closed.id, agent, runId());
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/workspace/i);
    const openWs = await insert("isolated", "open");
    const open = await issue(company.id, { executionWorkspaceId: openWs });
    expect((await checkout(open.id, agent, runId())).status).toBe(200);
    const detail = await get(`/api/issues/${open.id}`);
    expect(detail.body.currentExecutionWorkspace).toMatchObject({ id: openWs, mode: "isolated", status: "open" });
  });
});
