import { describe, expect, it } from "vitest";
import { del, get, patch, post, unique } from "../helpers/api";
import { eq } from "drizzle-orm";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertGrant, schema, testDb, testD1 } from "../helpers/fixtures";
import { classifyHost } from "../../src/net/hosts";

const BOGUS = { token: "svc_agent_bogus" };

async function secret(companyId: string) {
  const res = await post(`/api/companies/${companyId}/secrets`, { name: unique("KEY").replace(/-/g, "_"), value: "-----BEGIN KEY-----" });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function sshEnv(companyId: string, overrides: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
  const secretId = await secret(companyId);
  const res = await post(`/api/companies/${companyId}/environments`, {
    name: unique("ssh"),
    kind: "ssh",
    config: { host: "build.example.com", username: "runner", privateKey: { type: "secret_ref", secretId }, ...config },
    ...overrides,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("host classification", () => {
  it("classifies loopback, private, link-local, unspecified, public and invalid hosts", () => {
    expect(classifyHost("127.0.0.1")).toBe("loopback");
    expect(classifyHost("localhost")).toBe("loopback");
    expect(classifyHost("[::1]")).toBe("loopback");
    expect(classifyHost("10.1.2.3")).toBe("private");
    expect(classifyHost("172.20.0.1")).toBe("private");
    expect(classifyHost("192.168.1.10")).toBe("private");
    expect(classifyHost("fd00::1")).toBe("private");
    expect(classifyHost("buildbox")).toBe("private");
    expect(classifyHost("db.internal")).toBe("private");
    expect(classifyHost("169.254.169.254")).toBe("link_local");
    expect(classifyHost("0.0.0.0")).toBe("unspecified");
    expect(classifyHost("::ffff:127.0.0.1")).toBe("loopback");
    expect(classifyHost("8.8.8.8")).toBe("public");
    expect(classifyHost("build.example.com")).toBe("public");
    expect(classifyHost("not a host")).toBe("invalid");
    expect(classifyHost("999.1.1.1")).toBe("invalid");
  });
});

describe("environments", () => {
  it("creates, lists, gets, patches and deletes", async () => {
    const company = await createCompany();
    const created = await sshEnv(company.id, { labels: { region: "eu" }, maxConcurrentLeases: 2 });
    expect(created).toMatchObject({
      companyId: company.id,
      kind: "ssh",
      status: "active",
      labels: { region: "eu" },
      maxConcurrentLeases: 2,
      activeLeaseCount: 0,
      lastProbeAt: null,
      config: { host: "build.example.com", port: 22, username: "runner", allowPrivateNetwork: false },
      createdByUserId: "local-board",
    });
    expect(created.config.privateKey.type).toBe("secret_ref");
    const local = await post(`/api/companies/${company.id}/environments`, { name: "laptop", kind: "local", config: { workdir: "/home/me/work" } });
    expect(local.status).toBe(201);
    expect(local.body.maxConcurrentLeases).toBe(1);

    const list = await get(`/api/companies/${company.id}/environments`);
    expect(list.body.map((e: any) => e.id)).toEqual([created.id, local.body.id]);
    expect((await get(`/api/environments/${created.id}`)).body.name).toBe(created.name);

    const patched = await patch(`/api/environments/${created.id}`, {
      name: "renamed",
      status: "disabled",
      config: { ...created.config, host: "other.example.com" },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: "renamed", status: "disabled", kind: "ssh", config: { host: "other.example.com" } });
    expect((await patch(`/api/environments/${created.id}`, { config: { image: "x" } })).status).toBe(400);
    expect((await patch(`/api/environments/${created.id}`, { name: "laptop" })).status).toBe(409);

    const removed = await del(`/api/environments/${created.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.id).toBe(created.id);
    expect((await get(`/api/environments/${created.id}`)).status).toBe(404);
    const activity = (await get(`/api/companies/${company.id}/activity?entityType=environment`)).body.map((a: any) => a.action);
    expect(activity).toEqual(expect.arrayContaining(["environment.created", "environment.updated", "environment.deleted"]));
  });

  it("validates create input: kind, per-kind config, unknown keys, duplicate names, foreign secrets", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const base = `/api/companies/${company.id}/environments`;
    expect((await post(base, { name: "x", kind: "mainframe", config: {} })).status).toBe(400);
    expect((await post(base, { name: "x", kind: "ssh", config: { host: "h.example.com" } })).status).toBe(400);
    expect((await post(base, { name: "x", kind: "local", config: { workdir: "relative/path" } })).status).toBe(400);
    expect((await post(base, { name: "x", kind: "local", config: { workdir: "/w", surprise: true } })).status).toBe(400);
    expect((await post(base, { name: "x", kind: "container", config: { image: "node:22", cpus: -1 } })).status).toBe(400);
    expect((await post(base, { kind: "local", config: { workdir: "/w" } })).status).toBe(400);
    expect((await post(base, { name: "x", kind: "local", config: { workdir: "/w" }, maxConcurrentLeases: 0 })).status).toBe(400);

    const foreignSecret = await secret(other.id);
    const foreign = await post(base, {
      name: "x",
      kind: "cloud_sandbox",
      config: { provider: "sbx", apiKey: { type: "secret_ref", secretId: foreignSecret } },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error).toMatch(/apiKey/);

    expect((await post(base, { name: "dup", kind: "container", config: { image: "node:22" } })).status).toBe(201);
    expect((await post(base, { name: "dup", kind: "container", config: { image: "node:22" } })).status).toBe(409);
  });

  it("lists capabilities generated from the kind definitions", async () => {
    const company = await createCompany();
    const res = await get(`/api/companies/${company.id}/environments/capabilities`);
    expect(res.status).toBe(200);
    expect(res.body.map((k: any) => k.kind)).toEqual(["local", "ssh", "container", "cloud_sandbox"]);
    const ssh = res.body.find((k: any) => k.kind === "ssh");
    expect(ssh.requiredConfig).toEqual(["host", "username", "privateKey"]);
    expect(ssh.secretFields).toEqual(["privateKey"]);
    expect(ssh.optionalConfig).toContain("port");
    expect(ssh.supports.runtimeServices).toBe(true);
    expect(res.body.find((k: any) => k.kind === "container").requiredConfig).toEqual(["image"]);
  });

  it("probes a config without persisting: form, reachability rules and secrets", async () => {
    const company = await createCompany();
    const secretId = await secret(company.id);
    const url = `/api/companies/${company.id}/environments/probe-config`;
    const good = await post(url, { kind: "ssh", config: { host: "build.example.com", username: "r", privateKey: { type: "secret_ref", secretId } } });
    expect(good.status).toBe(200);
    expect(good.body.ok).toBe(true);
    expect(good.body.checks.map((c: any) => c.name)).toEqual(["config", "reachability", "host_key", "secret:privateKey"]);

    const privateHost = await post(url, { kind: "ssh", config: { host: "10.0.0.5", username: "r", privateKey: { type: "secret_ref", secretId } } });
    expect(privateHost.body.ok).toBe(false);
    expect(privateHost.body.checks.find((c: any) => c.name === "reachability")).toMatchObject({ ok: false });
    expect(privateHost.body.checks.find((c: any) => c.name === "reachability").message).toMatch(/allowPrivateNetwork/);
    const allowed = await post(url, {
      kind: "ssh",
      config: { host: "127.0.0.1", allowPrivateNetwork: true, username: "r", privateKey: { type: "secret_ref", secretId } },
    });
    expect(allowed.body.ok).toBe(true);
    const metadata = await post(url, {
      kind: "ssh",
      config: { host: "169.254.169.254", allowPrivateNetwork: true, username: "r", privateKey: { type: "secret_ref", secretId } },
    });
    expect(metadata.body.ok).toBe(false);

    const missingSecret = await post(url, {
      kind: "ssh",
      config: { host: "h.example.com", username: "r", privateKey: { type: "secret_ref", secretId: crypto.randomUUID() } },
    });
    expect(missingSecret.body.ok).toBe(false);
    expect(missingSecret.body.checks.find((c: any) => c.name === "secret:privateKey").ok).toBe(false);

    const badForm = await post(url, { kind: "container", config: { image: 5 } });
    expect(badForm.status).toBe(200);
    expect(badForm.body).toMatchObject({ ok: false, checks: [{ name: "config", ok: false }] });
    const badImage = await post(url, { kind: "container", config: { image: "Not A Valid Image!" } });
    expect(badImage.body.checks.find((c: any) => c.name === "image").ok).toBe(false);
    const http = await post(url, {
      kind: "cloud_sandbox",
      config: { provider: "p", apiBaseUrl: "http://sandbox.example.com", apiKey: { type: "secret_ref", secretId } },
    });
    expect(http.body.checks.find((c: any) => c.name === "reachability").ok).toBe(false);

    const count = await testD1.prepare("SELECT COUNT(*) AS n FROM environments WHERE company_id = ?").bind(company.id).first<{ n: number }>();
    expect(count!.n).toBe(0);
    expect((await post(url, { kind: "ssh" })).status).toBe(400);
    expect((await post(url, { kind: "zeppelin", config: {} })).status).toBe(400);
  });

  it("probes a stored environment and records the result", async () => {
    const company = await createCompany();
    const e = await sshEnv(company.id, {}, { host: "192.168.0.9" });
    const res = await post(`/api/environments/${e.id}/probe`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, environmentId: e.id });
    const after = (await get(`/api/environments/${e.id}`)).body;
    expect(after.lastProbeStatus).toBe("failed");
    expect(after.lastProbeAt).toBe(res.body.probedAt);
    expect(after.lastProbeChecks.find((c: any) => c.name === "reachability").ok).toBe(false);
    await patch(`/api/environments/${e.id}`, { config: { ...e.config, host: "192.168.0.9", allowPrivateNetwork: true } });
    expect((await get(`/api/environments/${e.id}`)).body.lastProbeStatus).toBeNull();
    expect((await post(`/api/environments/${e.id}/probe`)).body.ok).toBe(true);
    expect((await get(`/api/environments/${e.id}`)).body.lastProbeStatus).toBe("ok");
  });

  it("hands out leases up to maxConcurrentLeases, lists and gets them, and refuses deleting a leased environment", async () => {
    const company = await createCompany();
    const e = await sshEnv(company.id, { maxConcurrentLeases: 2 });
    const open = () => post(`/api/companies/${company.id}/execution-workspaces`, { environmentId: e.id, cwd: "/w" });
    const results = await Promise.all([open(), open(), open()]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409]);
    const leases = await get(`/api/environments/${e.id}/leases`);
    expect(leases.status).toBe(200);
    expect(leases.body).toHaveLength(2);
    expect(leases.body[0]).toMatchObject({ environmentId: e.id, status: "active" });
    const lease = await get(`/api/environment-leases/${leases.body[0].id}`);
    expect(lease.body.id).toBe(leases.body[0].id);
    expect((await get(`/api/environments/${e.id}`)).body.activeLeaseCount).toBe(2);
    expect((await del(`/api/environments/${e.id}`)).status).toBe(409);

    // Expired leases free their slot and read as expired.
    await testDb().update(schema.environmentLeases).set({ expiresAt: "2000-01-01T00:00:00.000Z" }).where(eq(schema.environmentLeases.environmentId, e.id));
    expect((await get(`/api/environments/${e.id}/leases?status=expired`)).body).toHaveLength(2);
    expect((await get(`/api/environments/${e.id}/leases?status=active`)).body).toHaveLength(0);
    expect((await open()).status).toBe(201);
    expect((await get(`/api/environments/${e.id}/leases?status=bogus`)).status).toBe(400);

    await patch(`/api/environments/${e.id}`, { status: "disabled" });
    expect((await open()).status).toBe(422);
  });

  it("requires environments:manage for writes and probes; reads are open to the company", async () => {
    const company = await createCompany();
    const e = await sshEnv(company.id);
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const member = await boardUser(company.id, "member");
    const admin = await boardUser(company.id, "admin");
    for (const t of [token, member.token]) {
      expect((await get(`/api/companies/${company.id}/environments`, { token: t })).status).toBe(200);
      expect((await get(`/api/environments/${e.id}`, { token: t })).status).toBe(200);
      expect((await post(`/api/companies/${company.id}/environments`, { name: "n", kind: "local", config: { workdir: "/w" } }, { token: t })).status).toBe(403);
      expect((await post(`/api/companies/${company.id}/environments/probe-config`, { kind: "local", config: { workdir: "/w" } }, { token: t })).status).toBe(
        403,
      );
      expect((await patch(`/api/environments/${e.id}`, { name: "n" }, { token: t })).status).toBe(403);
      expect((await post(`/api/environments/${e.id}/probe`, undefined, { token: t })).status).toBe(403);
      expect((await del(`/api/environments/${e.id}`, { token: t })).status).toBe(403);
    }
    expect((await patch(`/api/environments/${e.id}`, { description: "by admin" }, { token: admin.token })).status).toBe(200);
    // An explicit grant lets the agent manage environments.
    await insertGrant(company.id, "agent", agent.id, "environments:manage");
    const created = await post(`/api/companies/${company.id}/environments`, { name: "agent-made", kind: "local", config: { workdir: "/w" } }, { token });
    expect(created.status).toBe(201);
    expect(created.body.createdByAgentId).toBe(agent.id);
  });

  it("answers 401, 403 and 404 for the wrong callers", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const e = await sshEnv(company.id);
    await post(`/api/companies/${company.id}/execution-workspaces`, { environmentId: e.id });
    const leaseId = (await get(`/api/environments/${e.id}/leases`)).body[0].id;
    const outsider = await insertAgent(other.id);
    const { token } = await insertAgentKey(outsider.id, other.id);
    const companyPaths: Array<[string, string, unknown?]> = [
      ["GET", `/api/companies/${company.id}/environments`],
      ["POST", `/api/companies/${company.id}/environments`, { name: "n", kind: "local", config: { workdir: "/w" } }],
      ["GET", `/api/companies/${company.id}/environments/capabilities`],
      ["POST", `/api/companies/${company.id}/environments/probe-config`, { kind: "local", config: { workdir: "/w" } }],
    ];
    const entityPaths: Array<[string, string, unknown?]> = [
      ["GET", `/api/environments/${e.id}`],
      ["PATCH", `/api/environments/${e.id}`, { name: "n" }],
      ["DELETE", `/api/environments/${e.id}`],
      ["POST", `/api/environments/${e.id}/probe`],
      ["GET", `/api/environments/${e.id}/leases`],
      ["GET", `/api/environment-leases/${leaseId}`],
    ];
    const { call } = await import("../helpers/api");
    for (const [m, p, b] of [...companyPaths, ...entityPaths]) expect((await call(m, p, { body: b, ...BOGUS })).status, `${m} ${p}`).toBe(401);
    for (const [m, p, b] of companyPaths) expect((await call(m, p, { body: b, token })).status, `${m} ${p}`).toBe(403);
    for (const [m, p, b] of entityPaths) expect((await call(m, p, { body: b, token })).status, `${m} ${p}`).toBe(404);
    for (const [m, p, b] of entityPaths) {
      expect((await call(m, p.replace(e.id, crypto.randomUUID()).replace(leaseId, crypto.randomUUID()), { body: b })).status, `${m} ${p}`).toBe(404);
    }
    expect((await get(`/api/companies/${crypto.randomUUID()}/environments`)).status).toBe(404);
  });
});
