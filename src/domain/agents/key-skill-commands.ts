// Agent API keys (the token is returned once) and the agent's skill set.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand } from "../../company/command";
import { conflict } from "../errors";
import { newId } from "../../crypto/random";
import { AGENT_KEY_PREFIX, mintApiKey } from "../../crypto/api-keys";
import { companySkillChoices, resolveDesiredSkills, skillSnapshot, storedDesiredSkills, withDesiredSkills } from "./skills";
import { loadCompanyAgent } from "./queries";

export const createAgentKey = defineCommand("agent.key.create", async (ctx, actor, input: { agentId: string; name?: string | null }) => {
  const { db } = ctx;
  const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
  if (agent.status === "terminated" || agent.status === "pending_approval") {
    throw conflict(`Cannot create API keys for an agent that is ${agent.status === "terminated" ? "terminated" : "awaiting hire approval"}`, {
      status: agent.status,
    });
  }
  const { token, hash } = mintApiKey(AGENT_KEY_PREFIX);
  const key = { id: newId(), companyId: ctx.companyId, agentId: agent.id, name: input.name ?? null, keyHash: hash, createdAt: ctx.now };
  await ctx.batch([
    db.insert(schema.agentApiKeys).values(key),
    ctx.activity({
      action: "agent.key_created",
      entityType: "agent",
      entityId: agent.id,
      details: { keyId: key.id, name: key.name },
    }),
  ]);
  return { id: key.id, agentId: agent.id, name: key.name, token, createdAt: key.createdAt };
});

export const syncAgentSkills = defineCommand("agent.skills.sync", async (ctx, actor, input: { agentId: string; desiredSkills: string[] }) => {
  const { db } = ctx;
  const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
  const choices = await companySkillChoices(ctx.db, ctx.companyId);
  const desired = resolveDesiredSkills(input.desiredSkills, choices);
  const adapterConfig = withDesiredSkills(agent.adapterConfig ?? {}, desired);
  await ctx.batch([
    db.update(schema.agents).set({ adapterConfig, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)),
    ctx.activity({
      action: "agent.skills_synced",
      entityType: "agent",
      entityId: agent.id,
      details: { from: storedDesiredSkills(agent.adapterConfig), to: desired },
    }),
  ]);
  return skillSnapshot({ adapterType: agent.adapterType, adapterConfig }, choices);
});
