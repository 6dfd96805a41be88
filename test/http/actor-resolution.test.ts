// Actor resolution, step by step: local implicit board, web session, board API key,
// agent API key, local agent JWT, unauthenticated; run ids attached.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, patch, post } from "../helpers/api";
import {
  agentJwt,
  boardUser,
  createCompany,
  insertAgent,
  insertAgentKey,
  insertBoardKey,
  insertUser,
  schema,
  signUp,
  updateRow,
  testD1,
} from "../helpers/fixtures";

describe("1. local implicit board", () => {
  it("no bearer in local_trusted mode is a board actor with full local trust", async () => {
    const me = await get("/api/cli-auth/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ authSource: "local_implicit", isInstanceAdmin: true, user: { id: "local-board" } });
  });

  it("a non-bearer Authorization header is not a token", async () => {
    const me = await get("/api/cli-auth/me", { headers: { authorization: "Basic Zm9vOmJhcg==" } });
    expect(me.body.authSource).toBe("local_implicit");
  });
});

describe("2. web session (authenticated mode)", () => {
  it("without a session the caller is unauthenticated", async () => {
    const res = await get("/api/companies", { env: AUTHENTICATED });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Authentication required" });
  });

  it("a session cookie makes a board actor with the user's memberships", async () => {
    const { cookie, userId } = await signUp();
    const created = await post("/api/companies", { name: "Session Co" }, { env: AUTHENTICATED, cookie });
    expect(created.status).toBe(201);
    const me = await get("/api/cli-auth/me", { env: AUTHENTICATED, cookie });
    expect(me.body).toMatchObject({ authSource: "session", user: { id: userId }, isInstanceAdmin: false, keyId: null });
    expect(me.body.companyIds).toContain(created.body.id);
  });

  it("a forged or malformed session cookie is unauthenticated", async () => {
    const res = await get("/api/companies", { env: AUTHENTICATED, cookie: "better-auth.session_token=forged.value" });
    expect(res.status).toBe(401);
  });

  it("a bearer token wins over the cookie", async () => {
    const { cookie } = await signUp();
    const res = await get("/api/cli-auth/me", { env: AUTHENTICATED, cookie, token: "svc_board_not-a-real-key" });
    expect(res.status).toBe(401);
  });
});

describe("3. board API key", () => {
  it("a valid key is a board actor; lastUsedAt is recorded", async () => {
    const user = await insertUser();
    const key = await insertBoardKey(user.id);
    const me = await get("/api/cli-auth/me", { token: key.token, env: AUTHENTICATED });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ authSource: "board_key", keyId: key.id, user: { id: user.id } });
    const row = await testD1.prepare("SELECT last_used_at FROM board_api_keys WHERE id = ?").bind(key.id).first();
    expect(row?.last_used_at).toBeTruthy();
  });

  it("revoked, expired and malformed keys are unauthenticated", async () => {
    const user = await insertUser();
    const revoked = await insertBoardKey(user.id, { revokedAt: new Date().toISOString() });
    const expired = await insertBoardKey(user.id, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    for (const token of [revoked.token, expired.token, "svc_board_", "svc_board_short", "garbage"]) {
      const res = await get("/api/cli-auth/me", { token });
      expect(res.status, token).toBe(401);
    }
  });
});

describe("4. agent API key", () => {
  it("a valid key is an agent actor limited to its company; lastUsedAt is updated", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    expect((await get(`/api/companies/${company.id}`, { token: key.token })).status).toBe(200);
    const foreign = await get(`/api/companies/${other.id}`, { token: key.token });
    expect(foreign.status).toBe(403);
    const row = await testD1.prepare("SELECT last_used_at FROM agent_api_keys WHERE id = ?").bind(key.id).first();
    expect(row?.last_used_at).toBeTruthy();
    // Agents are not board callers.
    expect((await get("/api/cli-auth/me", { token: key.token })).status).toBe(403);
  });

  it("revoked keys and keys of terminated or pending-approval agents are refused", async () => {
    const company = await createCompany();
    const revokedAgent = await insertAgent(company.id);
    const revoked = await insertAgentKey(revokedAgent.id, company.id);
    await updateRow(schema.agentApiKeys, revoked.id, { revokedAt: new Date().toISOString() });
    const terminated = await insertAgent(company.id, { status: "terminated" });
    const terminatedKey = await insertAgentKey(terminated.id, company.id);
    const pending = await insertAgent(company.id, { status: "pending_approval" });
    const pendingKey = await insertAgentKey(pending.id, company.id);
    for (const token of [revoked.token, terminatedKey.token, pendingKey.token, "svc_agent_doesnotexist000000000000"]) {
      expect((await get(`/api/companies/${company.id}`, { token })).status, token).toBe(401);
    }
  });
});

describe("5. local agent JWT", () => {
  it("a valid JWT is an agent actor and carries its run id", async () => {
    const company = await createCompany();
    const ceo = await insertAgent(company.id, { role: "ceo" });
    const token = await agentJwt(ceo.id, company.id, { runId: "run-from-claims" });
    const res = await patch(`/api/companies/${company.id}/branding`, { brandColor: "#123456" }, { token });
    expect(res.status).toBe(200);
    const activity = await get(`/api/companies/${company.id}/activity?entityType=company`);
    const entry = activity.body.find((a: any) => a.action === "company.branding_updated");
    expect(entry).toMatchObject({ actorType: "agent", actorId: ceo.id, agentId: ceo.id, runId: "run-from-claims" });
  });

  it("X-Service-Run-Id overrides the JWT's run id", async () => {
    const company = await createCompany();
    const ceo = await insertAgent(company.id, { role: "ceo" });
    const token = await agentJwt(ceo.id, company.id, { runId: "claim-run" });
    await patch(`/api/companies/${company.id}/branding`, { brandColor: "#654321" }, { token, runId: "header-run" });
    const activity = await get(`/api/companies/${company.id}/activity?entityType=company`);
    expect(activity.body.find((a: any) => a.action === "company.branding_updated").runId).toBe("header-run");
  });

  it("expired, wrongly signed, wrong-company and inactive-agent tokens are refused", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await insertAgent(company.id);
    const terminated = await insertAgent(company.id, { status: "terminated" });
    const pending = await insertAgent(company.id, { status: "pending_approval" });
    const tokens = {
      expired: await agentJwt(agent.id, company.id, { now: Date.now() - 2 * 3600_000, lifetimeSec: 60 }),
      badSignature: await agentJwt(agent.id, company.id, { secret: "another-secret-another-secret-another-secret" }),
      wrongCompany: await agentJwt(agent.id, other.id),
      terminated: await agentJwt(terminated.id, company.id),
      pending: await agentJwt(pending.id, company.id),
      unknownAgent: await agentJwt(crypto.randomUUID(), company.id),
      malformed: "eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln",
    };
    for (const [name, token] of Object.entries(tokens)) {
      expect((await get(`/api/companies/${company.id}`, { token })).status, name).toBe(401);
    }
    expect((await get(`/api/companies/${company.id}`, { token: await agentJwt(agent.id, company.id) })).status).toBe(200);
  });
});

describe("run id on board actors", () => {
  it("X-Service-Run-Id is attached to the resolved actor and recorded with its activity", async () => {
    const company = await createCompany();
    const res = await post(
      `/api/companies/${company.id}/activity`,
      { actorId: "ops", action: "ops.note", entityType: "company", entityId: company.id },
      { runId: "board-run-7" },
    );
    expect(res.status).toBe(201);
    expect(res.body.runId).toBe("board-run-7");
  });
});

describe("6. unauthenticated", () => {
  it("an unknown bearer token is unauthenticated even in local_trusted mode", async () => {
    const company = await createCompany();
    const res = await get(`/api/companies/${company.id}`, { token: "not-a-known-token" });
    expect(res.status).toBe(401);
  });

  it("board members only reach their companies", async () => {
    const company = await createCompany();
    const outsider = await boardUser();
    expect((await get(`/api/companies/${company.id}`, { token: outsider.token })).status).toBe(403);
  });
});
