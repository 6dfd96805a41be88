// CLI auth: device-authorization challenge flow minting a board API key exactly once.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, post } from "../helpers/api";
import { createCompany, insertAgent, insertAgentKey, schema, signUp, updateRow, testD1 } from "../helpers/fixtures";

const poll = (id: string, secret?: string, extra: Record<string, unknown> = {}) =>
  get(`/api/cli-auth/challenges/${id}`, { headers: secret ? { "x-challenge-secret": secret } : {}, ...extra });

describe("CLI auth challenges", () => {
  it("create → approve with the user code → the poller gets the key once → it authenticates → revoke-current", async () => {
    const { cookie, userId } = await signUp();
    const created = await post("/api/cli-auth/challenges", { clientName: "laptop cli" }, { env: AUTHENTICATED });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "pending", clientName: "laptop cli", intervalSec: expect.any(Number) });
    expect(created.body.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const { id, pollSecret, userCode } = created.body;

    const pending = await poll(id, pollSecret, { env: AUTHENTICATED });
    expect(pending.body.status).toBe("pending");
    expect(pending.body.boardApiKey).toBeUndefined();

    const wrongCode = await post(`/api/cli-auth/challenges/${id}/approve`, { userCode: "BBBB-CCCC" }, { env: AUTHENTICATED, cookie });
    expect(wrongCode.status).toBe(400);
    const approved = await post(`/api/cli-auth/challenges/${id}/approve`, { userCode: userCode.toLowerCase() }, { env: AUTHENTICATED, cookie });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe("approved");
    expect(approved.body.pollSecret).toBeUndefined();

    const delivered = await poll(id, pollSecret, { env: AUTHENTICATED });
    expect(delivered.body.status).toBe("consumed");
    const token: string = delivered.body.boardApiKey.token;
    expect(token.startsWith("svc_board_")).toBe(true);
    const again = await poll(id, pollSecret, { env: AUTHENTICATED });
    expect(again.body.boardApiKey).toBeUndefined();

    const stored = await testD1.prepare("SELECT key_hash, expires_at FROM board_api_keys WHERE id = ?").bind(delivered.body.boardApiKey.id).first<any>();
    expect(stored.key_hash).not.toContain(token.slice(10));
    expect(new Date(stored.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const me = await get("/api/cli-auth/me", { env: AUTHENTICATED, token });
    expect(me.body).toMatchObject({ authSource: "board_key", keyId: delivered.body.boardApiKey.id, user: { id: userId } });

    const revoked = await post("/api/cli-auth/revoke-current", undefined, { env: AUTHENTICATED, token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ revoked: true, keyId: delivered.body.boardApiKey.id });
    expect((await get("/api/cli-auth/me", { env: AUTHENTICATED, token })).status).toBe(401);
  });

  it("concurrent polls after approval hand the key out exactly once", async () => {
    const created = (await post("/api/cli-auth/challenges", {})).body;
    await post(`/api/cli-auth/challenges/${created.id}/approve`, { userCode: created.userCode });
    const polls = await Promise.all(Array.from({ length: 8 }, () => poll(created.id, created.pollSecret)));
    expect(polls.filter((p) => p.body.boardApiKey).length).toBe(1);
    const keys = await testD1
      .prepare("SELECT COUNT(*) AS n FROM board_api_keys b JOIN cli_auth_challenges c ON c.board_api_key_id = b.id WHERE c.id = ?")
      .bind(created.id)
      .first<any>();
    expect(keys.n).toBe(1);
  });

  it("reading a challenge needs the poll secret or a board caller", async () => {
    const created = (await post("/api/cli-auth/challenges", {}, { env: AUTHENTICATED })).body;
    expect((await poll(created.id, undefined, { env: AUTHENTICATED })).status).toBe(401);
    expect((await poll(created.id, "wrong-secret", { env: AUTHENTICATED })).status).toBe(404);
    const { cookie } = await signUp();
    const viewed = await poll(created.id, undefined, { env: AUTHENTICATED, cookie });
    expect(viewed.status).toBe(200);
    expect(viewed.body.boardApiKey).toBeUndefined();
    expect((await poll(crypto.randomUUID(), "x")).status).toBe(404);
  });

  it("approval needs a signed-in board user, not an agent or nobody", async () => {
    const created = (await post("/api/cli-auth/challenges", {})).body;
    const body = { userCode: created.userCode };
    expect((await post(`/api/cli-auth/challenges/${created.id}/approve`, body, { env: AUTHENTICATED })).status).toBe(401);
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    expect((await post(`/api/cli-auth/challenges/${created.id}/approve`, body, { token: key.token })).status).toBe(403);
    expect((await post(`/api/cli-auth/challenges/${created.id}/approve`, {})).status).toBe(400);
    expect((await post(`/api/cli-auth/challenges/${crypto.randomUUID()}/approve`, body)).status).toBe(404);
  });

  it("cancel by the poller; a cancelled challenge cannot be approved or cancelled again", async () => {
    const created = (await post("/api/cli-auth/challenges", { clientName: "ci" })).body;
    const cancelled = await post(`/api/cli-auth/challenges/${created.id}/cancel`, undefined, {
      env: AUTHENTICATED,
      headers: { "x-challenge-secret": created.pollSecret },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    expect((await post(`/api/cli-auth/challenges/${created.id}/approve`, { userCode: created.userCode })).status).toBe(409);
    expect((await post(`/api/cli-auth/challenges/${created.id}/cancel`)).status).toBe(409);
    expect((await post(`/api/cli-auth/challenges/${created.id}/cancel`, undefined, { env: AUTHENTICATED })).status).toBe(401);
  });

  it("expired challenges cannot be approved", async () => {
    const created = (await post("/api/cli-auth/challenges", {})).body;
    await updateRow(schema.cliAuthChallenges, created.id, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await poll(created.id, created.pollSecret)).body.status).toBe("expired");
    const res = await post(`/api/cli-auth/challenges/${created.id}/approve`, { userCode: created.userCode });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/expired/);
  });

  it("rejects a bad body", async () => {
    expect((await post("/api/cli-auth/challenges", { clientName: "" })).status).toBe(400);
  });

  it("revoke-current only works for a board API key caller", async () => {
    expect((await post("/api/cli-auth/revoke-current")).status).toBe(403);
    expect((await post("/api/cli-auth/revoke-current", undefined, { env: AUTHENTICATED })).status).toBe(401);
    expect((await get("/api/cli-auth/me", { env: AUTHENTICATED })).status).toBe(401);
  });
});
