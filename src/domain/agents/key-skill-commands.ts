// Agent API keys (the token is returned once) and the agent's skill set.
import { and, desc, eq, isNull } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { defineCommand } from "../../company/command";
import { conflict, notFound } from "../errors";
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
  const key = {
    id: newId(),
    companyId: ctx.companyId,
    agentId: agent.id,
    name: input.name ?? null,
    keyHash: hash,
    tokenPrefix: keyTokenPrefix(token),
    createdAt: ctx.now,
  };
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

/** A key's recognisable start: the kind and 6 of its 32 random characters (the rest stay secret). */
export const keyTokenPrefix = (token: string) => token.slice(0, AGENT_KEY_PREFIX.length + 6);

/** The agent's API keys (never a token or hash), newest first. */
export async function listAgentKeys(db: Db, companyId: string, agentId: string) {
  const k = schema.agentApiKeys;
  const rows = await db
    .select({ id: k.id, name: k.name, tokenPrefix: k.tokenPrefix, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt })
    .from(k)
    .where(and(eq(k.companyId, companyId), eq(k.agentId, agentId)))
    .orderBy(desc(k.createdAt), desc(k.id));
  return rows.map((row) => ({ ...row, agentId }));
}

/**
 * Revokes one of the agent's keys: refused at once in this isolate (its credential cache is
 * cleared), and within the cache's 5 s (CREDENTIAL_CACHE_MS) in every other isolate.
 */
export const revokeAgentKey = defineCommand("agent.key.revoke", async (ctx, _actor, input: { agentId: string; keyId: string }) => {
  const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
  const k = schema.agentApiKeys;
  const [key] = await ctx.db
    .select()
    .from(k)
    .where(and(eq(k.id, input.keyId), eq(k.agentId, agent.id), eq(k.companyId, ctx.companyId)));
  if (!key) throw notFound("Key not found");
  if (key.revokedAt) throw conflict("The key is already revoked", { revokedAt: key.revokedAt });
  await ctx.batch([
    ctx.db
      .update(k)
      .set({ revokedAt: ctx.now })
      .where(and(eq(k.id, key.id), isNull(k.revokedAt))),
    ctx.activity({ action: "agent.key_revoked", entityType: "agent", entityId: agent.id, details: { keyId: key.id, name: key.name } }),
  ]);
  ctx.credentialsChanged();
  return {
    id: key.id,
    agentId: agent.id,
    name: key.name,
    tokenPrefix: key.tokenPrefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: ctx.now,
  };
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
