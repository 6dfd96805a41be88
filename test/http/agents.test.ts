// Agents through HTTP: create/hire, reads (redaction, shortnames, chain, access), updates,
// permissions, lifecycle table, delete, budgets, keys, skills, adapters, company archive.
import { describe, expect, it } from "vitest";
import { del, get, patch, post, unique } from "../helpers/api";
import {
  boardUser,
  createCompany,
  insertAgent,
  insertGrant,
  insertIssue,
  insertRun,
  insertWakeup,
  schema,
  updateRow,
  agentWithKey,
  testD1,
} from "../helpers/fixtures";
import type { AgentStatus } from "../../src/db/schema/agents";
import { createDb } from "../../src/db/client";
import { decideTaskAssignment } from "../../src/domain/authorization/assignment";

const BOGUS = { token: "svc_agent_bogus" };
const processConfig = { command: "/bin/echo", args: ["hi"] };

async function createAgent(companyId: string, body: Record<string, unknown> = {}, options = {}) {
  const res = await post(
    `/api/companies/${companyId}/agents`,
    { name: unique("Agent"), adapterType: "process", adapterConfig: processConfig, ...body },
    options,
  );
  if (res.status !== 201) throw new Error(`createAgent failed: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string; urlKey: string; [k: string]: any };
}

async function dbAgent(id: string) {
  return testD1.prepare("SELECT * FROM agents WHERE id = ?1").bind(id).first<Record<string, any>>();
}

describe("create", () => {
  it("creates an idle agent with derived url key, defaults and activity", async () => {
    const company = await createCompany();
    const res = await post(`/api/companies/${company.id}/agents`, {
      name: "Chief Builder",
      role: "engineer",
      title: "Builder",
      icon: "code",
      adapterType: "process",
      adapterConfig: processConfig,
      metadata: { team: "core" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Chief Builder",
      urlKey: "chief-builder",
      status: "idle",
      role: "engineer",
      icon: "code",
      adapterType: "process",
      adapterConfig: { command: "/bin/echo", args: ["hi"] },
      runtimeConfig: { heartbeat: { enabled: false } },
      permissions: { canCreateAgents: false },
      chainOfCommand: [],
      access: { canAssignTasks: false, taskAssignSource: "none", membership: null, grants: [] },
      configRedacted: false,
      companyId: company.id,
    });
    const activity = await get(`/api/companies/${company.id}/activity`);
    expect(activity.body.some((a: any) => a.action === "agent.created" && a.entityId === res.body.id)).toBe(true);
  });

  it("suffixes duplicate names and derives distinct url keys", async () => {
    const company = await createCompany();
    const [a, b] = await Promise.all([createAgent(company.id, { name: "Scout" }), createAgent(company.id, { name: "Scout" })]);
    const names = [a.name, b.name].sort();
    expect(names).toEqual(["Scout", "Scout 2"]);
    expect(new Set([a.urlKey, b.urlKey])).toEqual(new Set(["scout", "scout-2"]));
  });

  it("gives the CEO canCreateAgents and builds chain of command", async () => {
    const company = await createCompany();
    const ceo = await createAgent(company.id, { name: "Boss", role: "ceo" });
    expect(ceo.permissions).toEqual({ canCreateAgents: true });
    expect(ceo.access).toMatchObject({ canAssignTasks: true, taskAssignSource: "ceo_role" });
    const cto = await createAgent(company.id, { role: "cto", title: "CTO", reportsTo: ceo.id });
    const dev = await createAgent(company.id, { reportsTo: cto.id });
    expect(dev.chainOfCommand).toEqual([
      { id: cto.id, name: cto.name, role: "cto", title: "CTO" },
      { id: ceo.id, name: "Boss", role: "ceo", title: null },
    ]);
  });

  it("creates a monthly agent budget policy when budget > 0", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id, { budgetMonthlyCents: 5000 });
    const policy = await testD1.prepare("SELECT * FROM budget_policies WHERE scope_type = 'agent' AND scope_id = ?1").bind(agent.id).first<any>();
    expect(policy).toMatchObject({ amount_cents: 5000, window_kind: "calendar_month_utc", is_active: 1 });
    const none = await createAgent(company.id);
    expect(await testD1.prepare("SELECT * FROM budget_policies WHERE scope_id = ?1").bind(none.id).first()).toBeNull();
  });

  it("rejects bad input, bad reportsTo, wrong actors and wrong companies", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const path = `/api/companies/${company.id}/agents`;
    expect((await post(path, { adapterType: "process", adapterConfig: processConfig })).status).toBe(400);
    expect((await post(path, { name: "X", adapterType: "teleport" })).status).toBe(400);
    expect((await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig, icon: "unicorn" })).status).toBe(400);
    const foreign = await createAgent(other.id);
    const r = await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig, reportsTo: foreign.id });
    expect(r.status).toBe(422);
    expect((await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig, reportsTo: crypto.randomUUID() })).status).toBe(422);
    expect((await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig }, BOGUS)).status).toBe(401);
    const agent = await agentWithKey(company.id, { role: "ceo" });
    expect((await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig }, { token: agent.token })).status).toBe(403);
    const stranger = await boardUser(other.id);
    expect((await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig }, { token: stranger.token })).status).toBe(403);
    const viewer = await boardUser(company.id, "viewer");
    expect((await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig }, { token: viewer.token })).status).toBe(403);
    const owner = await boardUser(company.id, "owner");
    expect((await post(path, { name: "X", adapterType: "process", adapterConfig: processConfig }, { token: owner.token })).status).toBe(201);
    expect((await post(`/api/companies/${crypto.randomUUID()}/agents`, { name: "X", adapterType: "process", adapterConfig: processConfig })).status).toBe(404);
    // Nothing was written by the rejected calls.
    const list = await get(path);
    expect(list.body.map((a: any) => a.name).filter((n: string) => n.startsWith("X"))).toEqual(["X"]);
  });
});

describe("adapters", () => {
  it("validates config per adapter type and fills defaults", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/agents`;
    const missing = await post(path, { name: "P", adapterType: "process", adapterConfig: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toContain("command");
    expect((await post(path, { name: "H", adapterType: "http", adapterConfig: { url: "ftp://x" } })).status).toBe(422);
    const http = await post(path, { name: "H", adapterType: "http", adapterConfig: { url: "https://example.com/wake", method: "POST" } });
    expect(http.status).toBe(201);
    const claude = await post(path, { name: "C", adapterType: "claude_local", adapterConfig: { cwd: "/srv" } });
    expect(claude.status).toBe(201);
    expect(claude.body.adapterConfig.model).toBe("claude-sonnet-4-5");
    const codex = await post(path, { name: "D", adapterType: "codex_local", adapterConfig: { model: "o3" } });
    expect(codex.body.adapterConfig.model).toBe("o3");
  });

  it("normalises the remote gateway config and stores the api key as a secret reference", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/agents`;
    const res = await post(path, {
      name: "Remote",
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "https://gw.example.com/chat/abc?x=1", apiKey: "sk-live-123456" },
    });
    expect(res.status).toBe(201);
    expect(res.body.adapterConfig).toMatchObject({
      apiBaseUrl: "https://gw.example.com/api",
      sessionKeyStrategy: "issue",
      timeoutSec: 600,
      eventReconnectMs: 2000,
      dangerouslyAllowInsecureRemoteHttp: false,
      apiKey: { type: "secret_ref", version: "latest" },
    });
    expect(res.text).not.toContain("sk-live-123456");
    const row = await dbAgent(res.body.id);
    expect(row!.adapter_config).not.toContain("sk-live-123456");
    const secret = await testD1.prepare("SELECT company_id FROM company_secrets WHERE id = ?1").bind(res.body.adapterConfig.apiKey.secretId).first<any>();
    expect(secret.company_id).toBe(company.id);

    const root = await post(path, {
      name: "Root",
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "https://gw.example.com/", apiKey: "k-1234567890" },
    });
    expect(root.body.adapterConfig.apiBaseUrl).toBe("https://gw.example.com/api");
    const loop = await post(path, {
      name: "Loop",
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "http://127.0.0.1:8080/api", apiKey: "k-1234567890" },
    });
    expect(loop.status).toBe(201);
    const insecure = await post(path, {
      name: "Ins",
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "http://gw.example.com", apiKey: "k-1234567890" },
    });
    expect(insecure.status).toBe(422);
    const allowed = await post(path, {
      name: "Ins2",
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "http://gw.example.com", apiKey: "k-1234567890", dangerouslyAllowInsecureRemoteHttp: true },
    });
    expect(allowed.status).toBe(201);
    const header = await post(path, {
      name: "Hdr",
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "https://gw.example.com", apiKey: "k-1234567890", headers: { Authorization: "x", "X-Team": "a" } },
    });
    expect(header.status).toBe(422);
    expect(header.body.error).toContain("Authorization");
    expect((await post(path, { name: "NoKey", adapterType: "remote_gateway", adapterConfig: { apiBaseUrl: "https://gw.example.com" } })).status).toBe(422);
  });

  it("binds env secret references of the company only", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const secret = await post(`/api/companies/${other.id}/secrets`, { name: unique("KEY").replace(/-/g, "_"), value: "s3cr3t-value" });
    expect(secret.status).toBe(201);
    const path = `/api/companies/${company.id}/agents`;
    const foreign = await post(path, {
      name: "E",
      adapterType: "process",
      adapterConfig: { ...processConfig, env: { TOKEN: { type: "secret_ref", secretId: secret.body.id, version: "latest" } } },
    });
    expect(foreign.status).toBe(422);
    const own = await post(`/api/companies/${company.id}/secrets`, { name: unique("KEY").replace(/-/g, "_"), value: "mine-value" });
    const ok = await post(path, {
      name: "E",
      adapterType: "process",
      adapterConfig: { ...processConfig, env: { TOKEN: { type: "secret_ref", secretId: own.body.id, version: "latest" }, MODE: "fast" } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.adapterConfig.env).toEqual({ TOKEN: { type: "secret_ref", secretId: own.body.id, version: "latest" }, MODE: "fast" });
  });
});

describe("reads", () => {
  it("lists live agents, redacting configuration for agents without agents:create", async () => {
    const company = await createCompany();
    const a = await createAgent(company.id, { adapterConfig: { ...processConfig, env: { MODE: "x" } }, metadata: { k: 1 } });
    const gone = await createAgent(company.id);
    expect((await post(`/api/agents/${gone.id}/terminate`)).status).toBe(200);

    const board = await get(`/api/companies/${company.id}/agents`);
    expect(board.status).toBe(200);
    expect(board.body.map((x: any) => x.id)).toEqual([a.id]);
    expect(board.body[0]).toMatchObject({ configRedacted: false, adapterConfig: { env: { MODE: "x" } } });

    const peer = await agentWithKey(company.id);
    const asPeer = await get(`/api/companies/${company.id}/agents`, { token: peer.token });
    const seenA = asPeer.body.find((x: any) => x.id === a.id);
    expect(seenA).toMatchObject({ configRedacted: true, metadata: null });
    expect(seenA.adapterConfig).toBeUndefined();
    expect(asPeer.body.find((x: any) => x.id === peer.id).configRedacted).toBe(false);

    const creator = await agentWithKey(company.id, { permissions: { canCreateAgents: true } });
    const asCreator = await get(`/api/companies/${company.id}/agents`, { token: creator.token });
    expect(asCreator.body.find((x: any) => x.id === a.id).configRedacted).toBe(false);

    const viewer = await boardUser(company.id, "viewer");
    expect((await get(`/api/companies/${company.id}/agents`, { token: viewer.token })).body[0].configRedacted).toBe(false);
  });

  it("list rejects wrong company and unauthenticated callers", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const outsider = await agentWithKey(other.id);
    expect((await get(`/api/companies/${company.id}/agents`, { token: outsider.token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/agents`, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}/agents`)).status).toBe(404);
  });

  it("gets by id or shortname, terminated included, peers redacted, other tenants 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await createAgent(company.id, { name: "Data Wrangler" });
    expect((await get(`/api/agents/${agent.id}`)).body).toMatchObject({ id: agent.id, configRedacted: false });
    expect((await get(`/api/agents/data-wrangler?companyId=${company.id}`)).body.id).toBe(agent.id);
    expect((await get(`/api/agents/data-wrangler`)).status).toBe(400);
    const peer = await agentWithKey(company.id);
    const asPeer = await get(`/api/agents/data-wrangler`, { token: peer.token });
    expect(asPeer.status).toBe(200);
    expect(asPeer.body).toMatchObject({ id: agent.id, configRedacted: true });
    expect((await get(`/api/agents/${peer.id}`, { token: peer.token })).body.configRedacted).toBe(false);

    const outsider = await agentWithKey(other.id);
    expect((await get(`/api/agents/${agent.id}`, { token: outsider.token })).status).toBe(404);
    expect((await get(`/api/agents/data-wrangler?companyId=${company.id}`, { token: outsider.token })).status).toBe(404);
    const stranger = await boardUser(other.id);
    expect((await get(`/api/agents/${agent.id}`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/api/agents/${agent.id}`, BOGUS)).status).toBe(401);
    expect((await get(`/api/agents/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await get(`/api/agents/${agent.id}?companyId=${other.id}`)).status).toBe(404);

    await post(`/api/agents/${agent.id}/terminate`);
    const terminated = await get(`/api/agents/${agent.id}`);
    expect(terminated.body.status).toBe("terminated");
    // A new agent may take the terminated agent's shortname; the live one wins the lookup.
    const again = await createAgent(company.id, { name: "Data Wrangler" });
    expect(again.urlKey).toBe("data-wrangler");
    expect((await get(`/api/agents/data-wrangler?companyId=${company.id}`)).body.id).toBe(again.id);
  });

  it("GET /api/agents/me is agent-only", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id, { name: unique("Me") });
    const me = await get("/api/agents/me", { token: agent.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: agent.id, companyId: company.id, configRedacted: false });
    expect((await get("/api/agents/me")).status).toBe(403);
    expect((await get("/api/agents/me", BOGUS)).status).toBe(401);
  });
});

describe("hire", () => {
  it("creates an idle agent without approval when the company does not require it", async () => {
    const company = await createCompany();
    const res = await post(`/api/companies/${company.id}/agent-hires`, { name: "Hire", adapterType: "process", adapterConfig: processConfig });
    expect(res.status).toBe(201);
    expect(res.body.agent.status).toBe("idle");
    expect(res.body.approval).toBeNull();
  });

  it("creates a pending agent and a hire_agent approval with linked issues when approval is required", async () => {
    const company = await createCompany({ requireBoardApprovalForNewAgents: true });
    const ceo = await agentWithKey(company.id, { role: "ceo" });
    const issueId = (await insertIssue(company.id, { title: "Need help" })).id;
    const res = await post(
      `/api/companies/${company.id}/agent-hires`,
      {
        name: "Gateway Hire",
        role: "engineer",
        adapterType: "remote_gateway",
        adapterConfig: { apiBaseUrl: "https://gw.example.com", apiKey: "sk-hire-secret-1" },
        budgetMonthlyCents: 1000,
        sourceIssueIds: [issueId, issueId],
      },
      { token: ceo.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.agent.status).toBe("pending_approval");
    expect(res.body.approval).toMatchObject({
      type: "hire_agent",
      status: "pending",
      requestedByAgentId: ceo.id,
      payload: { agentId: res.body.agent.id, role: "engineer", adapterType: "remote_gateway", budgetMonthlyCents: 1000, sourceIssueIds: [issueId] },
    });
    expect(res.text).not.toContain("sk-hire-secret-1");
    const links = await testD1.prepare("SELECT * FROM approval_issues WHERE approval_id = ?1").bind(res.body.approval.id).all();
    expect(links.results.map((l: any) => l.issue_id)).toEqual([issueId]);
    // The budget policy waits for the approval.
    expect(await testD1.prepare("SELECT * FROM budget_policies WHERE scope_id = ?1").bind(res.body.agent.id).first()).toBeNull();
    // Keys cannot be minted for a pending agent, nor can it be resumed or activated.
    expect((await post(`/api/agents/${res.body.agent.id}/keys`, {})).status).toBe(409);
    expect((await post(`/api/agents/${res.body.agent.id}/resume`)).status).toBe(409);
    expect((await patch(`/api/agents/${res.body.agent.id}`, { status: "active" })).status).toBe(409);
  });

  it("rejects missing or foreign source issues and callers without agents:create", async () => {
    const company = await createCompany({ requireBoardApprovalForNewAgents: true });
    const body = { name: "H", adapterType: "process", adapterConfig: processConfig };
    expect((await post(`/api/companies/${company.id}/agent-hires`, { ...body, sourceIssueId: crypto.randomUUID() })).status).toBe(404);
    const worker = await agentWithKey(company.id);
    expect((await post(`/api/companies/${company.id}/agent-hires`, body, { token: worker.token })).status).toBe(403);
    const other = await createCompany();
    const outsider = await agentWithKey(other.id, { role: "ceo" });
    expect((await post(`/api/companies/${company.id}/agent-hires`, body, { token: outsider.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/agent-hires`, body, BOGUS)).status).toBe(401);
    expect((await post(`/api/companies/${company.id}/agent-hires`, { name: "" })).status).toBe(400);
    const approvals = await testD1.prepare("SELECT COUNT(*) AS n FROM approvals WHERE company_id = ?1").bind(company.id).first<any>();
    expect(approvals.n).toBe(0);
  });
});

describe("update", () => {
  it("merges adapterConfig unless replaceAdapterConfig, and rejects permissions", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id, { adapterConfig: { ...processConfig, cwd: "/a" } });
    const merged = await patch(`/api/agents/${agent.id}`, { adapterConfig: { cwd: "/b", timeoutSec: 30 } });
    expect(merged.status).toBe(200);
    expect(merged.body.adapterConfig).toMatchObject({ command: "/bin/echo", args: ["hi"], cwd: "/b", timeoutSec: 30 });
    const replaced = await patch(`/api/agents/${agent.id}`, { adapterConfig: { command: "/bin/true" }, replaceAdapterConfig: true });
    expect(replaced.body.adapterConfig).toEqual({ command: "/bin/true" });
    expect((await patch(`/api/agents/${agent.id}`, { adapterConfig: { command: "" } })).status).toBe(422);
    expect((await patch(`/api/agents/${agent.id}`, { permissions: { canCreateAgents: true } })).status).toBe(400);
    expect((await patch(`/api/agents/${agent.id}`, { adapterType: "http" })).status).toBe(422);
    const switched = await patch(`/api/agents/${agent.id}`, { adapterType: "gemini_local", adapterConfig: {}, replaceAdapterConfig: true });
    expect(switched.body.adapterConfig).toEqual({ model: "gemini-2.5-pro" });
  });

  it("renames with a new url key; a collision with a live agent is 409", async () => {
    const company = await createCompany();
    const a = await createAgent(company.id, { name: "Alpha" });
    await createAgent(company.id, { name: "Beta" });
    expect((await patch(`/api/agents/${a.id}`, { name: "beta" })).status).toBe(409);
    const renamed = await patch(`/api/agents/${a.id}`, { name: "Gamma Ray" });
    expect(renamed.body).toMatchObject({ name: "Gamma Ray", urlKey: "gamma-ray" });
  });

  it("keeps reportsTo acyclic and in-company", async () => {
    const company = await createCompany();
    const top = await createAgent(company.id);
    const mid = await createAgent(company.id, { reportsTo: top.id });
    const low = await createAgent(company.id, { reportsTo: mid.id });
    expect((await patch(`/api/agents/${top.id}`, { reportsTo: low.id })).status).toBe(422);
    expect((await patch(`/api/agents/${top.id}`, { reportsTo: top.id })).status).toBe(422);
    const other = await createCompany();
    const foreign = await createAgent(other.id);
    expect((await patch(`/api/agents/${top.id}`, { reportsTo: foreign.id })).status).toBe(422);
    expect((await patch(`/api/agents/${low.id}`, { reportsTo: top.id })).body.chainOfCommand.map((c: any) => c.id)).toEqual([top.id]);
  });

  it("lets an agent update itself but not peers without agents:create", async () => {
    const company = await createCompany();
    const self = await agentWithKey(company.id);
    const peer = await createAgent(company.id);
    expect((await patch(`/api/agents/${self.id}`, { title: "Me", adapterConfig: processConfig }, { token: self.token })).status).toBe(200);
    expect((await patch(`/api/agents/${peer.id}`, { title: "You" }, { token: self.token })).status).toBe(403);
    for (const body of [{ role: "ceo" }, { status: "active" }, { reportsTo: peer.id }, { budgetMonthlyCents: 5 }]) {
      expect((await patch(`/api/agents/${self.id}`, body, { token: self.token })).status).toBe(403);
    }
    const ceo = await agentWithKey(company.id, { role: "ceo" });
    expect((await patch(`/api/agents/${peer.id}`, { role: "engineer", title: "Dev" }, { token: ceo.token })).status).toBe(200);
    expect((await patch(`/api/agents/${peer.id}`, { budgetMonthlyCents: 5 }, { token: ceo.token })).status).toBe(403);
    const other = await createCompany();
    const outsider = await agentWithKey(other.id, { role: "ceo" });
    expect((await patch(`/api/agents/${peer.id}`, { title: "X" }, { token: outsider.token })).status).toBe(404);
    expect((await patch(`/api/agents/${peer.id}`, { title: "X" }, BOGUS)).status).toBe(401);
    expect((await patch(`/api/agents/${crypto.randomUUID()}`, { title: "X" })).status).toBe(404);
    expect((await patch(`/api/agents/${peer.id}`, { name: 5 })).status).toBe(400);
  });
});

describe("permissions", () => {
  it("sets canCreateAgents and canAssignTasks (membership + grant), board or CEO only", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id);
    const on = await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true, canCreateAgents: true });
    expect(on.status).toBe(200);
    expect(on.body.permissions).toEqual({ canCreateAgents: true });
    expect(on.body.access).toMatchObject({
      canAssignTasks: true,
      taskAssignSource: "agent_creator",
      membership: { principalType: "agent", principalId: agent.id, membershipRole: "member", status: "active" },
    });
    expect(on.body.access.grants.map((g: any) => g.permissionKey)).toEqual(["tasks:assign"]);
    const again = await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true, canCreateAgents: false });
    expect(again.body.access).toMatchObject({ canAssignTasks: true, taskAssignSource: "explicit_grant" });
    expect(again.body.access.grants).toHaveLength(1);
    const off = await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: false });
    expect(off.body.access).toMatchObject({ canAssignTasks: false, taskAssignSource: "none", grants: [] });
    expect(off.body.access.membership.status).toBe("active");

    const ceo = await agentWithKey(company.id, { role: "ceo" });
    expect((await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true }, { token: ceo.token })).status).toBe(200);
    const creator = await agentWithKey(company.id, { permissions: { canCreateAgents: true } });
    expect((await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true }, { token: creator.token })).status).toBe(403);
    const member = await boardUser(company.id, "member");
    expect((await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true }, { token: member.token })).status).toBe(403);
    const other = await createCompany();
    const otherCeo = await agentWithKey(other.id, { role: "ceo" });
    expect((await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true }, { token: otherCeo.token })).status).toBe(404);
    expect((await patch(`/api/agents/${agent.id}/permissions`, {})).status).toBe(400);
    expect((await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true }, BOGUS)).status).toBe(401);
  });
});

describe("assignment policy on an agent", () => {
  it("stores authorizationPolicy blocks that the assignment rule honours; unknown modes 422", async () => {
    const company = await createCompany();
    const target = await createAgent(company.id);
    const assigner = await createAgent(company.id, { role: "ceo" });
    const actor = { type: "agent" as const, source: "agent_key" as const, agentId: assigner.id, companyId: company.id, keyId: null, runId: null };
    const db = createDb(testD1);
    expect((await decideTaskAssignment(db, { actor, companyId: company.id, assigneeAgentId: target.id })).reason).toBe("allow_legacy_agent_creator");
    const set = await patch(`/api/agents/${target.id}/permissions`, { authorizationPolicy: { assignmentPolicy: { mode: "protected" } } });
    expect(set.status).toBe(200);
    expect(set.body.permissions).toEqual({ canCreateAgents: false, authorizationPolicy: { assignmentPolicy: { mode: "protected" } } });
    expect((await decideTaskAssignment(db, { actor, companyId: company.id, assigneeAgentId: target.id })).reason).toBe("deny_policy_restricted");
    expect((await patch(`/api/agents/${target.id}/permissions`, { authorizationPolicy: { assignmentPolicy: { mode: "vault" } } })).status).toBe(422);
    const cleared = await patch(`/api/agents/${target.id}/permissions`, { authorizationPolicy: null });
    expect(cleared.body.permissions).toEqual({ canCreateAgents: false });
    expect((await decideTaskAssignment(db, { actor, companyId: company.id, assigneeAgentId: target.id })).allowed).toBe(true);
  });
});

describe("lifecycle state table", () => {
  async function agentIn(companyId: string, status: AgentStatus, pauseReason: string | null = null) {
    const agent = await insertAgent(companyId, { status });
    if (pauseReason) await updateRow(schema.agents, agent.id, { pauseReason });
    return agent;
  }

  // [from, action, expected HTTP status, resulting status]
  const table: Array<[AgentStatus, "pause" | "resume" | "terminate", number, string]> = [
    ["idle", "pause", 200, "paused"],
    ["active", "pause", 200, "paused"],
    ["running", "pause", 200, "paused"],
    ["error", "pause", 200, "paused"],
    ["paused", "pause", 200, "paused"],
    ["pending_approval", "pause", 200, "paused"],
    ["terminated", "pause", 409, "terminated"],
    ["paused", "resume", 200, "idle"],
    ["error", "resume", 200, "idle"],
    ["idle", "resume", 200, "idle"],
    ["active", "resume", 200, "active"],
    ["running", "resume", 200, "running"],
    ["pending_approval", "resume", 409, "pending_approval"],
    ["terminated", "resume", 409, "terminated"],
    ["idle", "terminate", 200, "terminated"],
    ["active", "terminate", 200, "terminated"],
    ["running", "terminate", 200, "terminated"],
    ["error", "terminate", 200, "terminated"],
    ["paused", "terminate", 200, "terminated"],
    ["pending_approval", "terminate", 200, "terminated"],
    ["terminated", "terminate", 200, "terminated"],
  ];

  it.each(table)("%s --%s--> %i %s", async (from, action, httpStatus, to) => {
    const company = await createCompany();
    const agent = await agentIn(company.id, from);
    const res = await post(`/api/agents/${agent.id}/${action}`);
    expect(res.status).toBe(httpStatus);
    if (httpStatus !== 200) expect(res.body.error).toMatch(new RegExp(`Cannot ${action} agent`));
    expect((await dbAgent(agent.id))!.status).toBe(to);
  });

  it("a pause taken while pending approval resumes back to pending_approval", async () => {
    const company = await createCompany();
    const agent = await agentIn(company.id, "pending_approval");
    expect((await post(`/api/agents/${agent.id}/pause`)).body).toMatchObject({ status: "paused", pauseReason: "pending_approval" });
    expect((await post(`/api/agents/${agent.id}/resume`)).body).toMatchObject({ status: "pending_approval", pauseReason: null });
  });

  const patchTable: Array<[AgentStatus, string, number]> = [
    ["terminated", "active", 409],
    ["terminated", "paused", 409],
    ["terminated", "idle", 409],
    ["pending_approval", "active", 409],
    ["pending_approval", "idle", 409],
    ["pending_approval", "paused", 200],
    ["paused", "idle", 200],
    ["idle", "paused", 200],
    ["error", "active", 200],
  ];
  it.each(patchTable)("status patch %s -> %s gives %i", async (from, to, httpStatus) => {
    const company = await createCompany();
    const agent = await agentIn(company.id, from);
    const res = await patch(`/api/agents/${agent.id}`, { status: to });
    expect(res.status).toBe(httpStatus);
    expect((await dbAgent(agent.id))!.status).toBe(httpStatus === 200 ? to : from);
  });

  it("rejects a patch to terminated or pending_approval (use the lifecycle routes)", async () => {
    const company = await createCompany();
    const agent = await agentIn(company.id, "idle");
    expect((await patch(`/api/agents/${agent.id}`, { status: "terminated" })).status).toBe(400);
    expect((await patch(`/api/agents/${agent.id}`, { status: "pending_approval" })).status).toBe(400);
  });

  it("terminate revokes every key and cancels waiting wake-ups; pause cancels wake-ups", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id);
    const k1 = await post(`/api/agents/${agent.id}/keys`, { name: "one" });
    const k2 = await post(`/api/agents/${agent.id}/keys`);
    expect(k1.status).toBe(201);
    expect(k2.status).toBe(201);
    expect((await get("/api/agents/me", { token: k1.body.token })).status).toBe(200);
    await insertWakeup(company.id, agent.id, { reason: "manual", source: "manual" });
    const paused = await post(`/api/agents/${agent.id}/pause`);
    expect(paused.body).toMatchObject({ status: "paused", pauseReason: "manual" });
    const wake = await testD1.prepare("SELECT status FROM agent_wakeup_requests WHERE agent_id = ?1").bind(agent.id).first<any>();
    expect(wake.status).toBe("cancelled");
    const term = await post(`/api/agents/${agent.id}/terminate`);
    expect(term.body.status).toBe("terminated");
    expect(term.body.terminatedAt).toBeTruthy();
    const keys = await testD1.prepare("SELECT revoked_at FROM agent_api_keys WHERE agent_id = ?1").bind(agent.id).all<any>();
    expect(keys.results).toHaveLength(2);
    expect(keys.results.every((k) => k.revoked_at)).toBe(true);
    expect((await get("/api/agents/me", { token: k1.body.token })).status).toBe(401);
    expect((await post(`/api/agents/${agent.id}/keys`, {})).status).toBe(409);
  });

  it("lifecycle routes: agents need agents:create; other tenants 404; unauthenticated 401", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id);
    const worker = await agentWithKey(company.id);
    expect((await post(`/api/agents/${agent.id}/pause`, undefined, { token: worker.token })).status).toBe(403);
    const ceo = await agentWithKey(company.id, { role: "ceo" });
    expect((await post(`/api/agents/${agent.id}/pause`, undefined, { token: ceo.token })).status).toBe(200);
    const other = await createCompany();
    const outsider = await agentWithKey(other.id, { role: "ceo" });
    expect((await post(`/api/agents/${agent.id}/resume`, undefined, { token: outsider.token })).status).toBe(404);
    expect((await post(`/api/agents/${agent.id}/terminate`, undefined, BOGUS)).status).toBe(401);
    expect((await post(`/api/agents/${crypto.randomUUID()}/pause`)).status).toBe(404);
  });
});

describe("races", () => {
  it("keys minted concurrently with a termination never survive it", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id);
    const results = await Promise.all([
      post(`/api/agents/${agent.id}/keys`, {}),
      post(`/api/agents/${agent.id}/keys`, {}),
      post(`/api/agents/${agent.id}/terminate`),
      post(`/api/agents/${agent.id}/keys`, {}),
    ]);
    for (const r of results) expect([200, 201, 409]).toContain(r.status);
    const live = await testD1.prepare("SELECT COUNT(*) AS n FROM agent_api_keys WHERE agent_id = ?1 AND revoked_at IS NULL").bind(agent.id).first<any>();
    expect(live.n).toBe(0);
  });

  it("concurrent renames onto one shortname: exactly one wins", async () => {
    const company = await createCompany();
    const a = await createAgent(company.id);
    const b = await createAgent(company.id);
    const [ra, rb] = await Promise.all([patch(`/api/agents/${a.id}`, { name: "Unique One" }), patch(`/api/agents/${b.id}`, { name: "unique one" })]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
  });
});

describe("delete", () => {
  it("hard-deletes the agent with runs, wake-ups, keys, grants, membership; unassigns its issues", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id, { budgetMonthlyCents: 100 });
    const report = await createAgent(company.id, { reportsTo: agent.id });
    await patch(`/api/agents/${agent.id}/permissions`, { canAssignTasks: true });
    await post(`/api/agents/${agent.id}/keys`, {});
    await insertRun(company.id, agent.id, { status: "succeeded", invocationSource: "timer" });
    await insertWakeup(company.id, agent.id, { reason: "manual", source: "manual" });
    await insertIssue(company.id, { title: "Work", status: "in_progress", assigneeAgentId: agent.id });
    const other = await createCompany();
    const outsider = await boardUser(other.id);
    expect((await del(`/api/agents/${agent.id}`, { token: outsider.token })).status).toBe(404);
    const ceo = await agentWithKey(company.id, { role: "ceo" });
    expect((await del(`/api/agents/${agent.id}`, { token: ceo.token })).status).toBe(403);
    expect((await del(`/api/agents/${agent.id}`, BOGUS)).status).toBe(401);

    const res = await del(`/api/agents/${agent.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: agent.id });
    for (const table of [
      "agents WHERE id",
      "agent_api_keys WHERE agent_id",
      "heartbeat_runs WHERE agent_id",
      "agent_wakeup_requests WHERE agent_id",
      "principal_permission_grants WHERE principal_id",
      "company_memberships WHERE principal_id",
      "budget_policies WHERE scope_id",
    ]) {
      const row = await testD1.prepare(`SELECT COUNT(*) AS n FROM ${table} = ?1`).bind(agent.id).first<any>();
      expect(row.n, table).toBe(0);
    }
    const issue = await testD1.prepare("SELECT status, assignee_agent_id FROM issues WHERE company_id = ?1").bind(company.id).first<any>();
    expect(issue).toEqual({ status: "todo", assignee_agent_id: null });
    expect((await get(`/api/agents/${report.id}`)).body.reportsTo).toBeNull();
    expect((await get(`/api/agents/${agent.id}`)).status).toBe(404);
    expect((await del(`/api/agents/${agent.id}`)).status).toBe(404);
  });
});

describe("budgets", () => {
  it("syncs the agent budget policy and refuses an amount not above observed spend", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id);
    const res = await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 2500 });
    expect(res.status).toBe(200);
    expect(res.body.budgetMonthlyCents).toBe(2500);
    const policy = await testD1
      .prepare("SELECT amount_cents, is_active FROM budget_policies WHERE scope_type = 'agent' AND scope_id = ?1")
      .bind(agent.id)
      .first<any>();
    expect(policy).toEqual({ amount_cents: 2500, is_active: 1 });
    await updateRow(schema.agents, agent.id, { spentMonthlyCents: 3000, spentMonth: new Date().toISOString().slice(0, 7) });
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 3000 })).status).toBe(422);
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 2000 })).status).toBe(422);
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 3001 })).status).toBe(200);
    const zero = await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 0 });
    expect(zero.status).toBe(200);
    expect((await testD1.prepare("SELECT is_active FROM budget_policies WHERE scope_id = ?1").bind(agent.id).first<any>()).is_active).toBe(0);
    // Last month's spend does not count.
    await updateRow(schema.agents, agent.id, { spentMonth: "2000-01" });
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 10 })).status).toBe(200);

    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: -1 })).status).toBe(400);
    const ceo = await agentWithKey(company.id, { role: "ceo" });
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 10 }, { token: ceo.token })).status).toBe(403);
    const other = await createCompany();
    const outsider = await boardUser(other.id);
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 10 }, { token: outsider.token })).status).toBe(404);
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 10 }, BOGUS)).status).toBe(401);
  });
});

describe("keys", () => {
  it("returns the token once and stores only its hash", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id);
    const res = await post(`/api/agents/${agent.id}/keys`, { name: "ci" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ agentId: agent.id, name: "ci" });
    expect(res.body.token).toMatch(/^svc_agent_/);
    const row = await testD1.prepare("SELECT key_hash FROM agent_api_keys WHERE id = ?1").bind(res.body.id).first<any>();
    expect(row.key_hash).not.toContain(res.body.token);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const me = await get("/api/agents/me", { token: res.body.token });
    expect(me.body.id).toBe(agent.id);
    const worker = await agentWithKey(company.id);
    expect((await post(`/api/agents/${agent.id}/keys`, {}, { token: worker.token })).status).toBe(403);
    const other = await createCompany();
    const outsider = await agentWithKey(other.id, { role: "ceo" });
    expect((await post(`/api/agents/${agent.id}/keys`, {}, { token: outsider.token })).status).toBe(404);
    expect((await post(`/api/agents/${agent.id}/keys`, {}, BOGUS)).status).toBe(401);
    expect((await post(`/api/agents/${agent.id}/keys`, { name: 3 })).status).toBe(400);
  });
});

describe("skills", () => {
  it("stores desiredSkills canonically and reports a snapshot", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id, {
      adapterType: "claude_local",
      adapterConfig: {},
      desiredSkills: ["heartbeat", "service/issues", "heartbeat"],
    });
    expect(agent.desiredSkills).toEqual(["service/heartbeat", "service/issues"]);
    expect(agent.adapterConfig.paperclipSkillSync).toEqual({ desiredSkills: ["service/heartbeat", "service/issues"] });
    const snap = await get(`/api/agents/${agent.id}/skills`);
    expect(snap.status).toBe(200);
    expect(snap.body).toMatchObject({
      adapterType: "claude_local",
      supported: true,
      mode: "persistent",
      desiredSkills: ["service/heartbeat", "service/issues"],
      warnings: [],
    });
    expect(snap.body.entries).toContainEqual({
      key: "service/heartbeat",
      runtimeName: "heartbeat",
      desired: true,
      managed: true,
      state: "installed",
      origin: "bundled",
    });
    expect(snap.body.entries).toContainEqual({
      key: "service/approvals",
      runtimeName: "approvals",
      desired: false,
      managed: true,
      state: "available",
      origin: "bundled",
    });

    const synced = await post(`/api/agents/${agent.id}/skills/sync`, { desiredSkills: ["approvals"] });
    expect(synced.status).toBe(200);
    expect(synced.body.desiredSkills).toEqual(["service/approvals"]);
    const empty = await post(`/api/agents/${agent.id}/skills/sync`, { desiredSkills: [] });
    expect(empty.body.desiredSkills).toEqual([]);
    const bad = await post(`/api/agents/${agent.id}/skills/sync`, { desiredSkills: ["heartbeat", "nope", "service/x"] });
    expect(bad.status).toBe(422);
    expect(bad.body.details.unknown).toEqual(["nope", "service/x"]);
    expect(bad.body.error).toContain("nope");
    expect(
      (await post(`/api/companies/${company.id}/agents`, { name: "S", adapterType: "process", adapterConfig: processConfig, desiredSkills: ["ghost"] })).status,
    ).toBe(422);
    expect((await post(`/api/agents/${agent.id}/skills/sync`, {})).status).toBe(400);
  });

  it("reports unsupported mode for adapters that cannot receive skill files", async () => {
    const company = await createCompany();
    // process agents run on a runner that does not receive skill files yet (http agents get them in the run's body).
    const agent = await createAgent(company.id, { adapterType: "process", adapterConfig: { command: "echo" }, desiredSkills: ["issues"] });
    const snap = await get(`/api/agents/${agent.id}/skills`);
    expect(snap.body).toMatchObject({ adapterType: "process", supported: false, mode: "unsupported", desiredSkills: ["service/issues"] });
    expect(snap.body.entries.find((e: any) => e.key === "service/issues").state).toBe("unsupported");
    expect(snap.body.warnings.length).toBe(1);
  });

  it("guards skills routes", async () => {
    const company = await createCompany();
    const agent = await createAgent(company.id);
    const self = await agentWithKey(company.id);
    const peer = await agentWithKey(company.id);
    expect((await get(`/api/agents/${self.id}/skills`, { token: self.token })).status).toBe(200);
    expect((await get(`/api/agents/${agent.id}/skills`, { token: peer.token })).status).toBe(403);
    expect((await post(`/api/agents/${agent.id}/skills/sync`, { desiredSkills: [] }, { token: peer.token })).status).toBe(403);
    const other = await createCompany();
    const outsider = await agentWithKey(other.id, { role: "ceo" });
    expect((await get(`/api/agents/${agent.id}/skills`, { token: outsider.token })).status).toBe(404);
    expect((await post(`/api/agents/${agent.id}/skills/sync`, { desiredSkills: [] }, { token: outsider.token })).status).toBe(404);
    expect((await get(`/api/agents/${agent.id}/skills`, BOGUS)).status).toBe(401);
    expect((await get(`/api/agents/${crypto.randomUUID()}/skills`)).status).toBe(404);
  });
});

describe("llms guides", () => {
  it("serves plain-text guides to the board and agent creators", async () => {
    const all = await get("/api/llms/agent-configuration.txt");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toContain("text/plain");
    for (const type of ["process", "http", "claude_local", "remote_gateway"]) expect(all.text).toContain(type);
    const one = await get("/api/llms/agent-configuration/remote_gateway.txt");
    expect(one.status).toBe(200);
    expect(one.text).toContain("apiBaseUrl");
    expect(one.text).toContain("eventReconnectMs");
    expect((await get("/api/llms/agent-configuration/teleport.txt")).status).toBe(404);
    const icons = await get("/api/llms/agent-icons.txt");
    expect(icons.status).toBe(200);
    expect(icons.text).toContain("crown");

    const company = await createCompany();
    const worker = await agentWithKey(company.id);
    const ceo = await agentWithKey(company.id, { role: "ceo" });
    const creator = await agentWithKey(company.id, { permissions: { canCreateAgents: true } });
    expect((await get("/api/llms/agent-configuration.txt", { token: worker.token })).status).toBe(403);
    expect((await get("/api/llms/agent-icons.txt", { token: worker.token })).status).toBe(403);
    expect((await get("/api/llms/agent-configuration/http.txt", { token: worker.token })).status).toBe(403);
    expect((await get("/api/llms/agent-configuration.txt", { token: ceo.token })).status).toBe(200);
    expect((await get("/api/llms/agent-icons.txt", { token: creator.token })).status).toBe(200);
    await insertGrant(company.id, "agent", worker.id, "agents:create");
    expect((await get("/api/llms/agent-configuration.txt", { token: worker.token })).status).toBe(200);
    expect((await get("/api/llms/agent-configuration.txt", BOGUS)).status).toBe(401);
    const user = await boardUser(company.id, "viewer");
    expect((await get("/api/llms/agent-icons.txt", { token: user.token })).status).toBe(200);
  });

  it("documents every agent and llms route in OpenAPI", async () => {
    const doc = await get("/api/openapi.json");
    const paths = doc.body.paths;
    const expected: Array<[string, string]> = [
      ["/api/companies/{companyId}/agents", "get"],
      ["/api/companies/{companyId}/agents", "post"],
      ["/api/companies/{companyId}/agent-hires", "post"],
      ["/api/agents/me", "get"],
      ["/api/agents/{agentId}", "get"],
      ["/api/agents/{agentId}", "patch"],
      ["/api/agents/{agentId}", "delete"],
      ["/api/agents/{agentId}/permissions", "patch"],
      ["/api/agents/{agentId}/pause", "post"],
      ["/api/agents/{agentId}/resume", "post"],
      ["/api/agents/{agentId}/terminate", "post"],
      ["/api/agents/{agentId}/keys", "post"],
      ["/api/agents/{agentId}/budgets", "patch"],
      ["/api/agents/{agentId}/skills", "get"],
      ["/api/agents/{agentId}/skills/sync", "post"],
      ["/api/llms/agent-configuration.txt", "get"],
      ["/api/llms/agent-configuration/{adapterType}.txt", "get"],
      ["/api/llms/agent-icons.txt", "get"],
    ];
    for (const [path, method] of expected) expect(paths[path]?.[method], `${method} ${path}`).toBeTruthy();
    expect(paths["/api/llms/agent-icons.txt"].get.responses["200"].content["text/plain"]).toBeTruthy();
  });
});

describe("company archive", () => {
  it("pauses the company's working agents and cancels their wake-ups", async () => {
    const company = await createCompany();
    const idle = await createAgent(company.id);
    const pending = await insertAgent(company.id, { status: "pending_approval" });
    await insertWakeup(company.id, idle.id, { reason: "manual", source: "manual" });
    expect((await post(`/api/companies/${company.id}/archive`)).status).toBe(200);
    expect((await get(`/api/agents/${idle.id}`)).body).toMatchObject({ status: "paused", pauseReason: "company_archived" });
    expect((await get(`/api/agents/${pending.id}`)).body.status).toBe("pending_approval");
    const wake = await testD1.prepare("SELECT status FROM agent_wakeup_requests WHERE agent_id = ?1").bind(idle.id).first<any>();
    expect(wake.status).toBe("cancelled");
    expect((await post(`/api/companies/${company.id}/agents`, { name: "Late", adapterType: "process", adapterConfig: processConfig })).status).toBe(409);
  });
});

describe("empty agent PATCH", () => {
  it("is refused with 400", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    expect((await patch(`/api/agents/${agent.id}`, {})).status).toBe(400);
  });
});
