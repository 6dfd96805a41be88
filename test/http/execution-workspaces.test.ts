import { describe, expect, it } from "vitest";
import { call, get, patch, post, unique } from "../helpers/api";
import { createCompany, insertAgent, insertAgentKey, insertIssue as issueFixture, schema, updateRow, testD1 } from "../helpers/fixtures";
import type { ISSUE_STATUSES } from "../../src/db/schema/issues";
import { executionWorkspaceBlocksCheckout } from "../../src/domain/execution-workspaces/checkout-guard";
import { createDb } from "../../src/db/client";

const BOGUS = { token: "svc_agent_bogus" };

const insertIssue = (companyId: string, fields: { executionWorkspaceId?: string; checkoutRunId?: string; status?: (typeof ISSUE_STATUSES)[number] } = {}) =>
  issueFixture(companyId, {
    title: "Issue",
    status: fields.status ?? "in_progress",
    executionWorkspaceId: fields.executionWorkspaceId ?? null,
    checkoutRunId: fields.checkoutRunId ?? null,
  });

async function projectWithWorkspace(companyId: string) {
  const res = await post(`/api/companies/${companyId}/projects`, {
    name: unique("P"),
    executionWorkspacePolicy: { defaultMode: "isolated" },
    workspace: {
      cwd: "/srv/app",
      repoUrl: "https://git.example.com/app",
      repoRef: "main",
      runtimeConfig: {
        services: [
          { name: "web", command: "npm start", port: 8080 },
          { name: "worker", command: "npm run worker" },
        ],
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function open(companyId: string, body: Record<string, unknown> = {}, options = {}) {
  const res = await post(`/api/companies/${companyId}/execution-workspaces`, body, options);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("execution workspaces", () => {
  it("opens from a project workspace, lists with filters and gets", async () => {
    const company = await createCompany();
    const p = await projectWithWorkspace(company.id);
    const issue = await insertIssue(company.id, { status: "todo" });
    const ws = await open(company.id, { projectWorkspaceId: p.primaryWorkspace.id, issueId: issue.id, branch: "feature/x" });
    expect(ws).toMatchObject({
      projectId: p.id,
      projectWorkspaceId: p.primaryWorkspace.id,
      issueId: issue.id,
      mode: "isolated",
      status: "open",
      cwd: "/srv/app",
      branch: "feature/x",
      baseRef: "main",
      desiredState: "stopped",
      lease: null,
      closedAt: null,
    });
    expect(ws.runtimeServices.map((s: any) => [s.name, s.status])).toEqual([
      ["web", "stopped"],
      ["worker", "stopped"],
    ]);
    const linked = await testD1.prepare("SELECT execution_workspace_id FROM issues WHERE id = ?").bind(issue.id).first<any>();
    expect(linked.execution_workspace_id).toBe(ws.id);

    const shared = await open(company.id, { cwd: "/tmp/shared" });
    expect(shared.mode).toBe("shared");
    const all = await get(`/api/companies/${company.id}/execution-workspaces`);
    expect(all.body.map((w: any) => w.id).sort()).toEqual([ws.id, shared.id].sort());
    expect((await get(`/api/companies/${company.id}/execution-workspaces?issueId=${issue.id}`)).body.map((w: any) => w.id)).toEqual([ws.id]);
    expect((await get(`/api/companies/${company.id}/execution-workspaces?projectId=${p.id}`)).body.map((w: any) => w.id)).toEqual([ws.id]);
    expect((await get(`/api/companies/${company.id}/execution-workspaces?status=closed`)).body).toEqual([]);
    expect((await get(`/api/companies/${company.id}/execution-workspaces?status=weird`)).status).toBe(400);
    expect((await get(`/api/execution-workspaces/${ws.id}`)).body.id).toBe(ws.id);
  });

  it("rejects references outside the company with 422 and bad input with 400", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const foreignProject = await projectWithWorkspace(other.id);
    const base = `/api/companies/${company.id}/execution-workspaces`;
    expect((await post(base, { projectId: foreignProject.id })).status).toBe(422);
    expect((await post(base, { projectWorkspaceId: foreignProject.primaryWorkspace.id })).status).toBe(422);
    expect((await post(base, { issueId: (await insertIssue(other.id)).id })).status).toBe(422);
    expect((await post(base, { environmentId: crypto.randomUUID() })).status).toBe(422);
    expect((await post(base, { mode: "exclusive" })).status).toBe(400);
    expect((await post(base, { leaseTtlSec: 1 })).status).toBe(400);
    const ws = await open(company.id, { cwd: "/w" });
    expect((await patch(`/api/execution-workspaces/${ws.id}`, {})).status).toBe(400);
    expect((await patch(`/api/execution-workspaces/${ws.id}`, { status: "gone" })).status).toBe(400);
    expect((await post(`/api/execution-workspaces/${ws.id}/runtime-services/start`, { args: "x" })).status).toBe(400);
  });

  it("runs runtime services and commands through one handler, recording operations newest first", async () => {
    const company = await createCompany();
    const p = await projectWithWorkspace(company.id);
    const ws = await open(company.id, { projectWorkspaceId: p.primaryWorkspace.id });
    const base = `/api/execution-workspaces/${ws.id}`;

    const startWeb = await post(`${base}/runtime-services/start`, { serviceName: "web", env: { API_TOKEN: "tok-123", MODE: "dev" } });
    expect(startWeb.status).toBe(200);
    expect(startWeb.body.workspace.desiredState).toBe("running");
    expect(startWeb.body.workspace.runtimeServices.map((s: any) => [s.name, s.status])).toEqual([
      ["web", "running"],
      ["worker", "stopped"],
    ]);
    expect(startWeb.body.operation).toMatchObject({
      kind: "runtime_service",
      action: "start",
      target: "web",
      status: "applied",
      env: { API_TOKEN: "***REDACTED***", MODE: "dev" },
    });

    const all = await post(`${base}/runtime-services/restart`);
    expect(all.body.workspace.runtimeServices.every((s: any) => s.status === "running")).toBe(true);
    const adhoc = await post(`${base}/runtime-services/start`, { serviceName: "docs", command: "npm run docs" });
    expect(adhoc.body.workspace.runtimeServices.map((s: any) => s.name)).toEqual(["web", "worker", "docs"]);
    expect((await post(`${base}/runtime-services/start`, { serviceName: "ghost" })).status).toBe(422);
    const stopped = await post(`${base}/runtime-services/stop`);
    expect(stopped.body.workspace.desiredState).toBe("stopped");

    const run = await post(`${base}/runtime-commands/run`, { command: "npm test", args: ["--watch=false"] });
    expect(run.status).toBe(200);
    expect(run.body.operation).toMatchObject({ kind: "runtime_command", action: "run", target: "npm test", args: ["--watch=false"], status: "queued" });
    await post(`${base}/runtime-commands/run`, { command: "npm run lint" });
    expect((await post(`${base}/runtime-commands/run`, {})).status).toBe(422);
    const cancel = await post(`${base}/runtime-commands/cancel`, { command: "npm test" });
    expect(cancel.body.operation.result.cancelledOperationIds).toEqual([run.body.operation.id]);
    expect((await post(`${base}/runtime-commands/start`)).status).toBe(400);
    expect((await post(`${base}/runtime-services/run`)).status).toBe(400);

    const ops = await get(`${base}/workspace-operations`);
    expect(ops.status).toBe(200);
    expect(ops.body.map((o: any) => `${o.action}:${o.status}`)).toEqual([
      "cancel:applied",
      "run:queued",
      "run:cancelled",
      "stop:applied",
      "start:applied",
      "restart:applied",
      "start:applied",
    ]);
  });

  it("refuses to start services without cwd or services, and in a closed workspace", async () => {
    const company = await createCompany();
    const bare = await open(company.id, {});
    expect((await post(`/api/execution-workspaces/${bare.id}/runtime-services/start`, { serviceName: "a", command: "x" })).status).toBe(422);
    const noServices = await open(company.id, { cwd: "/w" });
    expect((await post(`/api/execution-workspaces/${noServices.id}/runtime-services/start`)).status).toBe(422);
    expect((await patch(`/api/execution-workspaces/${noServices.id}`, { status: "closed" })).status).toBe(200);
    expect((await post(`/api/execution-workspaces/${noServices.id}/runtime-commands/run`, { command: "ls" })).status).toBe(422);
    expect((await post(`/api/execution-workspaces/${noServices.id}/runtime-services/stop`)).status).toBe(200);
  });

  it("reports close readiness and enforces it; closing stops services and releases leases", async () => {
    const company = await createCompany();
    const p = await projectWithWorkspace(company.id);
    const secretId = (await post(`/api/companies/${company.id}/secrets`, { name: unique("K").replace(/-/g, "_"), value: "k" })).body.id;
    const environment = (
      await post(`/api/companies/${company.id}/environments`, {
        name: unique("box"),
        kind: "ssh",
        config: { host: "box.example.com", username: "u", privateKey: { type: "secret_ref", secretId } },
      })
    ).body;
    const ws = await open(company.id, { projectWorkspaceId: p.primaryWorkspace.id, environmentId: environment.id });
    expect(ws.lease).toMatchObject({ environmentId: environment.id, executionWorkspaceId: ws.id, status: "active" });
    const issue = await insertIssue(company.id, { executionWorkspaceId: ws.id, checkoutRunId: crypto.randomUUID() });
    await insertIssue(company.id, { executionWorkspaceId: ws.id, checkoutRunId: crypto.randomUUID(), status: "done" });
    await post(`/api/execution-workspaces/${ws.id}/runtime-services/start`, { serviceName: "web" });

    const readiness = await get(`/api/execution-workspaces/${ws.id}/close-readiness`);
    expect(readiness.status).toBe(200);
    expect(readiness.body.ready).toBe(false);
    expect(readiness.body.blockers.map((b: any) => b.kind)).toEqual(["checked_out_issue", "running_runtime_service", "active_lease"]);
    expect(readiness.body.blockers[0]).toMatchObject({ issueId: issue.id, identifier: issue.identifier });

    const refused = await patch(`/api/execution-workspaces/${ws.id}`, { status: "closed" });
    expect(refused.status).toBe(422);
    expect(refused.body.details.blockers).toHaveLength(3);

    const closing = await patch(`/api/execution-workspaces/${ws.id}`, { status: "closing" });
    expect(closing.status).toBe(200);
    expect(closing.body).toMatchObject({ status: "closing", desiredState: "stopped" });
    expect((await get(`/api/environment-leases/${ws.lease.id}`)).body).toMatchObject({ status: "released" });
    expect((await post(`/api/execution-workspaces/${ws.id}/runtime-services/start`)).status).toBe(422);
    expect((await get(`/api/execution-workspaces/${ws.id}/close-readiness`)).body.blockers.map((b: any) => b.kind)).toEqual(["checked_out_issue"]);

    await updateRow(schema.issues, issue.id, { checkoutRunId: null });
    expect((await get(`/api/execution-workspaces/${ws.id}/close-readiness`)).body).toMatchObject({ ready: true, blockers: [] });
    const closed = await patch(`/api/execution-workspaces/${ws.id}`, { status: "closed" });
    expect(closed.status).toBe(200);
    expect(closed.body.closedAt).not.toBeNull();
    expect((await patch(`/api/execution-workspaces/${ws.id}`, { status: "open" })).status).toBe(422);
    expect((await patch(`/api/execution-workspaces/${ws.id}`, { metadata: { a: 1 } })).status).toBe(422);
  });

  it("patches desiredState and metadata, and reopens a closing workspace", async () => {
    const company = await createCompany();
    const p = await projectWithWorkspace(company.id);
    const ws = await open(company.id, { projectWorkspaceId: p.primaryWorkspace.id });
    const running = await patch(`/api/execution-workspaces/${ws.id}`, { desiredState: "running", metadata: { note: "hi", password: "hunter2" } });
    expect(running.body.desiredState).toBe("running");
    expect(running.body.runtimeServices.every((s: any) => s.status === "running")).toBe(true);
    expect(running.body.metadata).toEqual({ note: "hi", password: "***REDACTED***" });
    expect((await patch(`/api/execution-workspaces/${ws.id}`, { desiredState: "stopped" })).body.desiredState).toBe("stopped");
    await patch(`/api/execution-workspaces/${ws.id}`, { status: "closing" });
    expect((await patch(`/api/execution-workspaces/${ws.id}`, { desiredState: "running" })).status).toBe(422);
    expect((await patch(`/api/execution-workspaces/${ws.id}`, { status: "open" })).body.status).toBe("open");
  });

  it("a closed isolated workspace blocks checkout; shared or open ones do not", async () => {
    const company = await createCompany();
    const db = createDb(testD1);
    const isolated = await open(company.id, { mode: "isolated", cwd: "/w" });
    const shared = await open(company.id, { mode: "shared", cwd: "/w" });
    expect(await executionWorkspaceBlocksCheckout(db, isolated.id)).toBe(false);
    await patch(`/api/execution-workspaces/${isolated.id}`, { status: "closed" });
    await patch(`/api/execution-workspaces/${shared.id}`, { status: "closed" });
    expect(await executionWorkspaceBlocksCheckout(db, isolated.id)).toBe(true);
    expect(await executionWorkspaceBlocksCheckout(db, shared.id)).toBe(false);
    expect(await executionWorkspaceBlocksCheckout(db, crypto.randomUUID())).toBe(false);
    expect(await executionWorkspaceBlocksCheckout(db, null)).toBe(false);
  });

  it("lets agents open and act on workspaces of their company", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const ws = await open(company.id, { cwd: "/w" }, { token, runId: crypto.randomUUID() });
    expect(ws.openedByAgentId).toBe(agent.id);
    const op = await post(`/api/execution-workspaces/${ws.id}/runtime-commands/run`, { command: "make" }, { token });
    expect(op.body.operation).toMatchObject({ requestedByActorType: "agent", requestedByActorId: agent.id });
  });

  it("answers 401, 403 and 404 for the wrong callers", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const ws = await open(company.id, { cwd: "/w" });
    const outsider = await insertAgent(other.id);
    const { token } = await insertAgentKey(outsider.id, other.id);
    const companyPaths: Array<[string, string, unknown?]> = [
      ["GET", `/api/companies/${company.id}/execution-workspaces`],
      ["POST", `/api/companies/${company.id}/execution-workspaces`, {}],
    ];
    const entityPaths: Array<[string, string, unknown?]> = [
      ["GET", `/api/execution-workspaces/${ws.id}`],
      ["PATCH", `/api/execution-workspaces/${ws.id}`, { metadata: {} }],
      ["GET", `/api/execution-workspaces/${ws.id}/close-readiness`],
      ["GET", `/api/execution-workspaces/${ws.id}/workspace-operations`],
      ["POST", `/api/execution-workspaces/${ws.id}/runtime-services/stop`, {}],
      ["POST", `/api/execution-workspaces/${ws.id}/runtime-commands/cancel`, {}],
    ];
    for (const [m, p, b] of [...companyPaths, ...entityPaths]) expect((await call(m, p, { body: b, ...BOGUS })).status, `${m} ${p}`).toBe(401);
    for (const [m, p, b] of companyPaths) expect((await call(m, p, { body: b, token })).status, `${m} ${p}`).toBe(403);
    for (const [m, p, b] of entityPaths) {
      expect((await call(m, p, { body: b, token })).status, `${m} ${p}`).toBe(404);
      expect((await call(m, p.replace(ws.id, crypto.randomUUID()), { body: b })).status, `${m} ${p}`).toBe(404);
    }
    expect((await get(`/api/companies/${crypto.randomUUID()}/execution-workspaces`)).status).toBe(404);
  });
});
