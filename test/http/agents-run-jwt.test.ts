// mintRunJwt: a run-scoped agent JWT the actor resolver accepts.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mintRunJwt } from "../../src/domain/agents/run-jwt";
import { verifyAgentJwt } from "../../src/crypto/agent-jwt";
import { get } from "../helpers/api";
import { createCompany, insertAgent } from "../helpers/fixtures";

describe("mintRunJwt", () => {
  it("signs sub, company_id, adapter_type and run_id", async () => {
    const token = await mintRunJwt(env, { id: "agent-1", companyId: "company-1", adapterType: "claude_local" }, "run-1");
    const claims = await verifyAgentJwt(env.AGENT_JWT_SECRET, token);
    expect(claims).toMatchObject({ sub: "agent-1", company_id: "company-1", adapter_type: "claude_local", run_id: "run-1" });
    expect(claims!.exp - claims!.iat).toBe(3600);
    expect(await verifyAgentJwt("another-secret-0123456789abcdef0123456789", token)).toBeNull();
  });

  it("is accepted as the agent's credential with the run id attached", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const token = await mintRunJwt(env, { id: agent.id, companyId: company.id, adapterType: "process" }, "run-xyz");
    const me = await get("/api/agents/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(agent.id);
  });

  it("refuses to sign without a secret", async () => {
    await expect(mintRunJwt({ AGENT_JWT_SECRET: "" } as Env, { id: "a", companyId: "c", adapterType: "process" }, "r")).rejects.toThrow();
  });
});
