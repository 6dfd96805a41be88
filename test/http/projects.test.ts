import { describe, expect, it } from "vitest";
import { del, get, patch, post, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertProject, schema, updateRow, testD1 } from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };

async function project(companyId: string, body: Record<string, unknown> = {}) {
  const res = await post(`/api/companies/${companyId}/projects`, { name: unique("Proj"), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
async function goal(companyId: string) {
  return (await post(`/api/companies/${companyId}/goals`, { title: unique("G") })).body;
}

describe("projects", () => {
  it("creates with defaults, urlKey, palette colour and returned extras", async () => {
    const company = await createCompany();
    const p = await project(company.id, { name: "Website Relaunch 2.0" });
    expect(p).toMatchObject({
      companyId: company.id,
      name: "Website Relaunch 2.0",
      urlKey: "website-relaunch-2-0",
      status: "backlog",
      goalId: null,
      goalIds: [],
      goals: [],
      codebase: null,
      workspaces: [],
      primaryWorkspace: null,
      pausedAt: null,
      pauseReason: null,
      archivedAt: null,
    });
    expect(p.color).toMatch(/^#[0-9a-f]{6}$/);
    const second = await project(company.id);
    expect(second.color).not.toBe(p.color);
    expect((await project(company.id, { color: "#123456" })).color).toBe("#123456");
    const list = await get(`/api/companies/${company.id}/projects`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
  });

  it("rejects a duplicate shortname with 409 (create and rename)", async () => {
    const company = await createCompany();
    await project(company.id, { name: "Alpha" });
    const dup = await post(`/api/companies/${company.id}/projects`, { name: "  alpha " });
    expect(dup.status).toBe(409);
    const beta = await project(company.id, { name: "Beta" });
    expect((await patch(`/api/projects/${beta.id}`, { name: "ALPHA" })).status).toBe(409);
    // Concurrent creates of the same name: exactly one wins.
    const racers = await Promise.all([1, 2, 3].map(() => post(`/api/companies/${company.id}/projects`, { name: "Gamma" })));
    expect(racers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it("looks projects up by UUID or shortname with company context", async () => {
    const company = await createCompany();
    const p = await project(company.id, { name: "Mobile App" });
    expect((await get(`/api/projects/${p.id}`)).body.id).toBe(p.id);
    expect((await get(`/api/projects/mobile-app?companyId=${company.id}`)).body.id).toBe(p.id);
    expect((await get(`/api/projects/Mobile%20App?companyId=${company.id}`)).body.id).toBe(p.id);
    expect((await get(`/api/projects/mobile-app`)).status).toBe(400);
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await get(`/api/projects/mobile-app`, { token })).body.id).toBe(p.id);
    expect((await get(`/api/projects/nothing-here?companyId=${company.id}`)).status).toBe(404);

    // A legacy duplicate makes the shortname ambiguous.
    await insertProject(company.id, "Mobile-App", { status: "backlog" });
    const ambiguous = await get(`/api/projects/mobile-app?companyId=${company.id}`);
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error).toMatch(/ambiguous/);
  });

  it("keeps goalIds and the legacy goalId in sync", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const [g1, g2, g3] = [await goal(company.id), await goal(company.id), await goal(company.id)];
    const p = await project(company.id, { goalIds: [g2.id, g1.id, g2.id] });
    expect(p.goalIds).toEqual([g2.id, g1.id]);
    expect(p.goalId).toBe(g2.id);
    expect(p.goals.map((g: any) => g.title)).toEqual([g2.title, g1.title]);
    const legacy = await project(company.id, { goalId: g3.id });
    expect(legacy.goalIds).toEqual([g3.id]);

    const viaLegacy = await patch(`/api/projects/${p.id}`, { goalId: g3.id });
    expect(viaLegacy.body).toMatchObject({ goalId: g3.id, goalIds: [g3.id] });
    const viaList = await patch(`/api/projects/${p.id}`, { goalIds: [g1.id, g3.id] });
    expect(viaList.body).toMatchObject({ goalId: g1.id, goalIds: [g1.id, g3.id] });
    const rows = await testD1.prepare("SELECT goal_id, position FROM project_goals WHERE project_id = ? ORDER BY position").bind(p.id).all();
    expect(rows.results).toEqual([
      { goal_id: g1.id, position: 0 },
      { goal_id: g3.id, position: 1 },
    ]);

    // Deleting the first goal moves the legacy goalId to the next one.
    await del(`/api/goals/${g1.id}`);
    expect((await get(`/api/projects/${p.id}`)).body).toMatchObject({ goalId: g3.id, goalIds: [g3.id] });
    expect((await patch(`/api/projects/${p.id}`, { goalIds: [] })).body).toMatchObject({ goalId: null, goalIds: [] });

    const foreign = await goal(other.id);
    const bad = await post(`/api/companies/${company.id}/projects`, { name: "x", goalIds: [foreign.id] });
    expect(bad.status).toBe(422);
    expect((await patch(`/api/projects/${p.id}`, { goalId: foreign.id })).status).toBe(422);
  });

  it("checks the lead agent, updates fields, archives and shows pause state", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const lead = await insertAgent(company.id);
    const foreign = await insertAgent(other.id);
    const p = await project(company.id, {
      leadAgentId: lead.id,
      targetDate: "2026-12-31",
      executionWorkspacePolicy: { enabled: true, defaultMode: "isolated" },
    });
    expect(p).toMatchObject({ leadAgentId: lead.id, targetDate: "2026-12-31", executionWorkspacePolicy: { enabled: true, defaultMode: "isolated" } });
    expect((await post(`/api/companies/${company.id}/projects`, { name: "y", leadAgentId: foreign.id })).status).toBe(422);

    const archivedAt = new Date().toISOString();
    const updated = await patch(`/api/projects/${p.id}`, { status: "in_progress", archivedAt, description: "d" });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ status: "in_progress", archivedAt, description: "d", leadAgentId: lead.id });
    expect((await patch(`/api/projects/${p.id}`, { archivedAt: null })).body.archivedAt).toBeNull();

    await updateRow(schema.projects, p.id, { pausedAt: archivedAt, pauseReason: "budget" });
    expect((await get(`/api/projects/${p.id}`)).body).toMatchObject({ pausedAt: archivedAt, pauseReason: "budget" });
  });

  it("normalises env bindings: secret refs of the company only, raw secrets stored as new secrets", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const secret = await post(`/api/companies/${company.id}/secrets`, { name: unique("S").replace(/-/g, "_"), value: "s3cret-value" });
    expect(secret.status, secret.text).toBe(201);
    const foreign = await post(`/api/companies/${other.id}/secrets`, { name: unique("F").replace(/-/g, "_"), value: "x" });

    const p = await project(company.id, {
      env: { NODE_ENV: "production", DB_URL: { type: "secret_ref", secretId: secret.body.id }, API_KEY: "raw-api-key-value" },
    });
    expect(p.env.NODE_ENV).toBe("production");
    expect(p.env.DB_URL).toEqual({ type: "secret_ref", secretId: secret.body.id, version: "latest" });
    expect(p.env.API_KEY.type).toBe("secret_ref");
    expect(JSON.stringify(p)).not.toContain("raw-api-key-value");
    const stored = await testD1.prepare("SELECT env FROM projects WHERE id = ?").bind(p.id).first<{ env: string }>();
    expect(stored!.env).not.toContain("raw-api-key-value");

    const bad = await post(`/api/companies/${company.id}/projects`, { name: "z", env: { X: { type: "secret_ref", secretId: foreign.body.id } } });
    expect(bad.status).toBe(422);
    expect((await get(`/api/companies/${company.id}/projects`)).body.some((x: any) => x.name === "z")).toBe(false);
    expect((await patch(`/api/projects/${p.id}`, { env: { X: { type: "secret_ref", secretId: foreign.body.id } } })).status).toBe(422);
  });

  it("creates the seed workspace in the same request, and rolls everything back when it is invalid", async () => {
    const company = await createCompany();
    const ok = await project(company.id, { workspace: { repoUrl: "https://git.example.com/acme/site.git", repoRef: "main" } });
    expect(ok.workspaces).toHaveLength(1);
    expect(ok.primaryWorkspace).toMatchObject({ name: "site", sourceType: "git_repo", isPrimary: true, desiredState: "stopped" });
    expect(ok.codebase).toEqual({ repoUrl: "https://git.example.com/acme/site.git", repoRef: "main", cwd: null });

    const name = unique("Broken");
    const bad = await post(`/api/companies/${company.id}/projects`, { name, workspace: { name: "nowhere" } });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/cwd or repoUrl/);
    const rows = await testD1.prepare("SELECT id FROM projects WHERE company_id = ? AND name = ?").bind(company.id, name).all();
    expect(rows.results).toHaveLength(0);
    const remote = await post(`/api/companies/${company.id}/projects`, { name, workspace: { sourceType: "remote_managed", cwd: "/srv" } });
    expect(remote.status).toBe(422);
    expect(remote.body.error).toMatch(/remoteWorkspaceRef/);
    const wsRows = await testD1.prepare("SELECT COUNT(*) AS n FROM project_workspaces WHERE company_id = ?").bind(company.id).first<{ n: number }>();
    expect(wsRows!.n).toBe(1);
    // The name is still free.
    expect((await post(`/api/companies/${company.id}/projects`, { name })).status).toBe(201);
  });

  it("deletes a project and returns the deleted row", async () => {
    const company = await createCompany();
    const p = await project(company.id, { workspace: { cwd: "/srv/app" } });
    const removed = await del(`/api/projects/${p.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: p.id, name: p.name });
    expect(removed.body.workspaces).toHaveLength(1);
    expect((await get(`/api/projects/${p.id}`)).status).toBe(404);
    const ws = await testD1.prepare("SELECT COUNT(*) AS n FROM project_workspaces WHERE project_id = ?").bind(p.id).first<{ n: number }>();
    expect(ws!.n).toBe(0);
  });

  it("validates input with 400", async () => {
    const company = await createCompany();
    const p = await project(company.id);
    expect((await post(`/api/companies/${company.id}/projects`, {})).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/projects`, { name: "x", status: "done" })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/projects`, { name: "x", color: "red" })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/projects`, { name: "x", workspace: { sourceType: "ftp" } })).status).toBe(400);
    expect((await patch(`/api/projects/${p.id}`, {})).status).toBe(400);
    expect((await patch(`/api/projects/${p.id}`, { archivedAt: "yesterday" })).status).toBe(400);
  });

  it("answers 401, 403 and 404 for the wrong callers", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const p = await project(company.id);
    for (const res of [
      await get(`/api/companies/${company.id}/projects`, BOGUS),
      await post(`/api/companies/${company.id}/projects`, { name: "x" }, BOGUS),
      await get(`/api/projects/${p.id}`, BOGUS),
      await patch(`/api/projects/${p.id}`, { name: "y" }, BOGUS),
      await del(`/api/projects/${p.id}`, BOGUS),
    ])
      expect(res.status).toBe(401);
    const outsider = await insertAgent(other.id);
    const { token } = await insertAgentKey(outsider.id, other.id);
    expect((await get(`/api/companies/${company.id}/projects`, { token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/projects`, { name: "x" }, { token })).status).toBe(403);
    expect((await get(`/api/projects/${p.id}`, { token })).status).toBe(404);
    expect((await get(`/api/projects/${p.urlKey}?companyId=${company.id}`, { token })).status).toBe(404);
    expect((await patch(`/api/projects/${p.id}`, { name: "y" }, { token })).status).toBe(404);
    expect((await del(`/api/projects/${p.id}`, { token })).status).toBe(404);
    const member = await boardUser(other.id);
    expect((await get(`/api/projects/${p.id}`, { token: member.token })).status).toBe(404);
    expect((await get(`/api/companies/${crypto.randomUUID()}/projects`)).status).toBe(404);
    expect((await get(`/api/projects/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe("project workspaces", () => {
  it("lists, creates, patches and deletes with primary rules", async () => {
    const company = await createCompany();
    const p = await project(company.id);
    const base = `/api/projects/${p.id}/workspaces`;
    const first = await post(base, { name: "main", cwd: "/srv/main" });
    expect(first.status).toBe(201);
    expect(first.body.isPrimary).toBe(true);
    const second = await post(base, { name: "docs", repoUrl: "https://git.example.com/docs" });
    expect(second.body.isPrimary).toBe(false);
    const third = await post(base, { name: "infra", cwd: "/srv/infra", isPrimary: true });
    expect(third.body.isPrimary).toBe(true);
    let list = (await get(base)).body;
    expect(list.map((w: any) => [w.name, w.isPrimary])).toEqual([
      ["main", false],
      ["docs", false],
      ["infra", true],
    ]);

    expect((await patch(`${base}/${first.body.id}`, { isPrimary: true })).body.isPrimary).toBe(true);
    list = (await get(base)).body;
    expect(list.filter((w: any) => w.isPrimary).map((w: any) => w.id)).toEqual([first.body.id]);
    expect((await get(`/api/projects/${p.id}`)).body.codebase).toEqual({ repoUrl: null, repoRef: null, cwd: "/srv/main" });

    // Invalid patch result → 422, nothing changes.
    const bad = await patch(`${base}/${first.body.id}`, { cwd: null });
    expect(bad.status).toBe(422);
    expect((await get(base)).body[0].cwd).toBe("/srv/main");

    // Deleting the primary promotes the oldest remaining one.
    const removed = await del(`${base}/${first.body.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: first.body.id, isPrimary: true });
    list = (await get(base)).body;
    expect(list.map((w: any) => [w.name, w.isPrimary])).toEqual([
      ["docs", true],
      ["infra", false],
    ]);
    expect((await del(`${base}/${first.body.id}`)).status).toBe(404);

    // Creating with the shortname works too.
    expect((await post(`/api/projects/${p.urlKey}/workspaces?companyId=${company.id}`, { cwd: "/tmp/x" })).status).toBe(201);
  });

  it("validates workspaces (422) and input (400)", async () => {
    const company = await createCompany();
    const p = await project(company.id);
    const base = `/api/projects/${p.id}/workspaces`;
    expect((await post(base, { name: "empty" })).status).toBe(422);
    expect((await post(base, { sourceType: "remote_managed", cwd: "/x" })).status).toBe(422);
    expect((await post(base, { sourceType: "remote_managed", remoteWorkspaceRef: "ws-123" })).status).toBe(201);
    expect((await post(base, { cwd: 5 })).status).toBe(400);
    expect((await post(base, { cwd: "/x", desiredState: "paused" })).status).toBe(400);
    const ws = (await post(base, { cwd: "/y" })).body;
    expect((await patch(`${base}/${ws.id}`, {})).status).toBe(400);
  });

  it("starts, stops and restarts runtime services with an operation record", async () => {
    const company = await createCompany();
    const p = await project(company.id);
    const base = `/api/projects/${p.id}/workspaces`;
    const ws = (await post(base, { cwd: "/srv/app", runtimeConfig: { services: [{ name: "web", command: "npm run dev", port: 3000 }] } })).body;
    const started = await post(`${base}/${ws.id}/runtime-services/start`);
    expect(started.status).toBe(200);
    expect(started.body.workspace.desiredState).toBe("running");
    expect(started.body.operation).toMatchObject({
      kind: "runtime_service",
      action: "start",
      status: "applied",
      projectWorkspaceId: ws.id,
      result: { desiredState: "running", services: ["web"] },
    });
    expect((await post(`${base}/${ws.id}/runtime-services/restart`)).body.workspace.desiredState).toBe("running");
    const stopped = await post(`${base}/${ws.id}/runtime-services/stop`);
    expect(stopped.body.workspace.desiredState).toBe("stopped");
    const ops = await testD1.prepare("SELECT action FROM workspace_operations WHERE project_workspace_id = ? ORDER BY created_at, rowid").bind(ws.id).all();
    expect(ops.results.map((r: any) => r.action)).toEqual(["start", "restart", "stop"]);

    const bare = (await post(base, { repoUrl: "https://git.example.com/x" })).body;
    const refused = await post(`${base}/${bare.id}/runtime-services/start`);
    expect(refused.status).toBe(422);
    expect(refused.body.details.missing).toEqual(["cwd", "runtimeConfig.services"]);
    expect((await post(`${base}/${bare.id}/runtime-services/restart`)).status).toBe(422);
    expect((await post(`${base}/${bare.id}/runtime-services/stop`)).status).toBe(200);
    expect((await post(`${base}/${bare.id}/runtime-services/explode`)).status).toBe(400);
  });

  it("answers 401 and 404 for the wrong callers", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const p = await project(company.id);
    const base = `/api/projects/${p.id}/workspaces`;
    const ws = (await post(base, { cwd: "/a" })).body;
    for (const res of [
      await get(base, BOGUS),
      await post(base, { cwd: "/b" }, BOGUS),
      await patch(`${base}/${ws.id}`, { name: "n" }, BOGUS),
      await del(`${base}/${ws.id}`, BOGUS),
      await post(`${base}/${ws.id}/runtime-services/stop`, undefined, BOGUS),
    ])
      expect(res.status).toBe(401);
    const outsider = await insertAgent(other.id);
    const { token } = await insertAgentKey(outsider.id, other.id);
    for (const res of [
      await get(base, { token }),
      await post(base, { cwd: "/b" }, { token }),
      await patch(`${base}/${ws.id}`, { name: "n" }, { token }),
      await del(`${base}/${ws.id}`, { token }),
      await post(`${base}/${ws.id}/runtime-services/stop`, undefined, { token }),
    ])
      expect(res.status).toBe(404);
    // A workspace of another project is not found under this one.
    const p2 = await project(company.id);
    expect((await patch(`/api/projects/${p2.id}/workspaces/${ws.id}`, { name: "n" })).status).toBe(404);
    expect((await get(`/api/projects/${crypto.randomUUID()}/workspaces`)).status).toBe(404);
  });
});
