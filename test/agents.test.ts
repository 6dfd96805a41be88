// Agents through HTTP: create/hire, reads (redaction, shortnames, chain, access), updates,
// permissions, lifecycle table, delete, budgets, keys, skills, adapters, company archive.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { del, get, patch, post, unique } from "./helpers/api";
import { addMembership, boardUser, createCompany, insertAgent, insertAgentKey, insertUser } from "./helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };
const processConfig = { command: "/bin/echo", args: ["hi"] };

async function createAgent(companyId: string, body: Record<string, unknown> = {}, options = {}) {
  const res = await post(`/api/companies/${companyId}/agents`, { name: unique("Agent"), adapterType: "process", adapterConfig: processConfig, ...body }, options);
  if (res.status !== 201) throw new Error(`createAgent failed: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string; urlKey: string; [k: string]: any };
}

async function agentWithKey(companyId: string, fields: Parameters<typeof insertAgent>[1] = {}) {
  const agent = await insertAgent(companyId, fields);
  const key = await insertAgentKey(agent.id, companyId);
  return { ...agent, token: key.token };
}

async function dbAgent(id: string) {
  return env.DB.prepare("SELECT * FROM agents WHERE id = ?1").bind(id).first<Record<string, any>>();
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
    const policy = await env.DB.prepare("SELECT * FROM budget_policies WHERE scope_type = 'agent' AND scope_id = ?1").bind(agent.id).first<any>();
    expect(policy).toMatchObject({ amount_cents: 5000, window_kind: "calendar_month_utc", is_active: 1 });
    const none = await createAgent(company.id);
    expect(await env.DB.prepare("SELECT * FROM budget_policies WHERE scope_id = ?1").bind(none.id).first()).toBeNull();
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
    const res = await post(path, { name: "Remote", adapterType: "remote_gateway", adapterConfig: { apiBaseUrl: "https://gw.example.com/chat/abc?x=1", apiKey: "sk-live-123456" } });
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
    const secret = await env.DB.prepare("SELECT company_id FROM company_secrets WHERE id = ?1").bind(res.body.adapterConfig.apiKey.secretId).first<any>();
    expect(secret.company_id).toBe(company.id);

    const root = await post(path, { name: "Root", adapterType: "remote_gateway", adapterConfig: { apiBaseUrl: "https://gw.example.com/", apiKey: "k-1234567890" } });
    expect(root.body.adapterConfig.apiBaseUrl).toBe("https://gw.example.com/api");
    const loop = await post(path, { name: "Loop", adapterType: "remote_gateway", adapterConfig: { apiBaseUrl: "http://127.0.0.1:8080/api", apiKey: "k-1234567890" } });
    expect(loop.status).toBe(201);
    const insecure = await post(path, { name: "Ins", adapterType: "remote_gateway", adapterConfig: { apiBaseUrl: "http://gw.example.com", apiKey: "k-1234567890" } });
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
