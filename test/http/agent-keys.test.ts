// An agent's API keys: the list (name, a short prefix, created, last used, revoked; never a token
// or hash) and revocation (refused at once in the isolate that revoked it), with who may do it.
import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { agentWithKey, boardUser, createCompany, insertAgentKey } from "../helpers/fixtures";

describe("agent API keys", () => {
  it("lists keys with a prefix of the token (never the token), and a revoked key stops working at once", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const created = await post(`/api/agents/${agent.id}/keys`, { name: "deploy bot" });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    expect((await get("/api/agents/me", { token })).status).toBe(200);

    const list = await get(`/api/agents/${agent.id}/keys`);
    expect(list.status).toBe(200);
    const mine = list.body.find((k: { id: string }) => k.id === created.body.id);
    expect(mine).toMatchObject({ name: "deploy bot", agentId: agent.id, revokedAt: null, createdAt: expect.any(String) });
    expect(token.startsWith(mine.tokenPrefix)).toBe(true);
    expect(mine.tokenPrefix.length).toBeLessThan(token.length - 20);
    expect(list.text).not.toContain(token);
    expect(list.text).not.toMatch(/keyHash|key_hash/);
    // A key made before prefixes were recorded has none.
    expect(list.body.find((k: { id: string; tokenPrefix: string | null }) => k.tokenPrefix === null)).toBeTruthy();
    // Newest first.
    expect(list.body[0].id).toBe(created.body.id);

    const revoked = await call("DELETE", `/api/agents/${agent.id}/keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, revokedAt: expect.any(String) });
    expect((await get("/api/agents/me", { token })).status).toBe(401);
    expect((await call("DELETE", `/api/agents/${agent.id}/keys/${created.body.id}`)).status).toBe(409);
    expect((await call("DELETE", `/api/agents/${agent.id}/keys/${crypto.randomUUID()}`)).status).toBe(404);
    // The agent's other key still works.
    expect((await get("/api/agents/me", { token: agent.token })).status).toBe(200);
  });

  it("refuses other companies, agents without agents:create, and another agent's key id", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const peer = await agentWithKey(company.id);
    const peerKey = await insertAgentKey(peer.id, company.id);
    const stranger = await boardUser((await createCompany()).id);
    expect([403, 404]).toContain((await get(`/api/agents/${agent.id}/keys`, { token: stranger.token })).status);
    expect([403, 404]).toContain((await call("DELETE", `/api/agents/${agent.id}/keys/${peerKey.id}`, { token: stranger.token })).status);
    expect((await get(`/api/agents/${agent.id}/keys`, { token: peer.token })).status).toBe(403);
    expect((await call("DELETE", `/api/agents/${peer.id}/keys/${peerKey.id}`, { token: agent.token })).status).toBe(403);
    // A key of another agent named under this one: not found.
    expect((await call("DELETE", `/api/agents/${agent.id}/keys/${peerKey.id}`)).status).toBe(404);
    expect((await get("/api/agents/me", { token: peerKey.token })).status).toBe(200);
  });
});
