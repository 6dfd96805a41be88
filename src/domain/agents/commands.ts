// Agent mutations, run inside the company's Durable Object: create/hire, update, permissions,
// lifecycle (pause/resume/terminate), hard delete, budget, API keys, skills sync.
import type { Statement } from "../../db/batch";
import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { AgentStatus } from "../../db/schema/agents";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { conflict, notFound, unprocessable } from "../errors";
import { checkLinkedIssues } from "../approvals/linked-issues";
import { CLEARED_LOCK_FIELDS } from "../issues/locks";
import { newId } from "../../crypto/random";
import { AGENT_KEY_PREFIX, mintApiKey } from "../../crypto/api-keys";
import { budgetPolicySyncStatement } from "../budgets/policy-sync";
import { cancelPendingWakeupsStatement } from "../wakeups/enqueue";
import { normalizeEnvBindings } from "../secrets/bindings";
import { redactSecrets } from "../redaction";
import { currentMonthSpend } from "../time";
import { requireAdapter, validateAdapterConfig } from "../adapters";
import { ancestorsOf } from "../authorization/assignment";
import { evaluatePolicyContainer } from "../authorization/policy";
import { checkStatusPatch, nextStatus, PAUSED_WHILE_PENDING, type LifecycleAction } from "./lifecycle";
import { deriveUrlKey, uniqueAgentName } from "./naming";
import { resolveDesiredSkills, skillSnapshot, storedDesiredSkills, withDesiredSkills, SKILL_SYNC_KEY } from "./skills";
import { buildAgentView, type AgentRow } from "./view";

export interface AgentFields {
  name: string;
  role?: string;
  title?: string | null;
  icon?: string | null;
  capabilities?: string | null;
  reportsTo?: string | null;
  adapterType: string;
  adapterConfig?: Record<string, unknown>;
  runtimeConfig?: Record<string, unknown>;
  budgetMonthlyCents?: number;
  desiredSkills?: string[];
  metadata?: Record<string, unknown> | null;
}

export type AgentPatch = Partial<AgentFields> & { status?: "active" | "idle" | "paused" | "error" };


async function loadAgent(ctx: CommandContext, agentId: string): Promise<AgentRow> {
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, agentId) });
  if (!agent || agent.companyId !== ctx.companyId) throw notFound("Agent not found");
  return agent;
}

/** Live agents' names and URL keys (terminated agents release theirs). */
async function liveNames(ctx: CommandContext, exceptId?: string) {
  const rows = await ctx.db
    .select({ id: schema.agents.id, name: schema.agents.name, urlKey: schema.agents.urlKey })
    .from(schema.agents)
    .where(and(eq(schema.agents.companyId, ctx.companyId), ne(schema.agents.status, "terminated")));
  const others = rows.filter((r) => r.id !== exceptId);
  return { names: others.map((r) => r.name), urlKeys: others.map((r) => r.urlKey) };
}

/** reportsTo must be a non-terminated agent of this company and must not create a cycle. */
async function checkReportsTo(ctx: CommandContext, reportsTo: string | null | undefined, selfId: string | null) {
  if (!reportsTo) return;
  if (reportsTo === selfId) throw unprocessable("An agent cannot report to itself", { reportsTo });
  const rows = await ctx.db
    .select({ id: schema.agents.id, reportsTo: schema.agents.reportsTo, status: schema.agents.status })
    .from(schema.agents)
    .where(eq(schema.agents.companyId, ctx.companyId));
  const manager = rows.find((r) => r.id === reportsTo);
  if (!manager || manager.status === "terminated") {
    throw unprocessable("reportsTo must reference a non-terminated agent of this company", { reportsTo });
  }
  if (selfId && ancestorsOf(new Map(rows.map((r) => [r.id, r.reportsTo])), reportsTo).includes(selfId)) {
    throw unprocessable("reportsTo would create a cycle in the org tree", { reportsTo });
  }
}

/**
 * Validates adapterConfig for the type, stores env values and gateway credentials as secret
 * references (statements for the caller's batch), and writes desiredSkills canonically.
 */
async function prepareAdapterConfig(
  ctx: CommandContext,
  actor: Actor,
  args: {
    adapterType: string;
    config: Record<string, unknown>;
    creating: boolean;
    ownerLabel: string;
    desiredSkills?: string[];
    /** Re-resolve skill references written directly under adapterConfig.paperclipSkillSync. */
    resolveStoredSkills: boolean;
  },
): Promise<{ config: Record<string, unknown>; statements: Statement[] }> {
  const definition = requireAdapter(args.adapterType);
  let config = validateAdapterConfig(args.adapterType, args.config, { creating: args.creating });
  const statements: Statement[] = [];
  if (config.env !== undefined && config.env !== null) {
    const normalized = await normalizeEnvBindings(ctx, actor, config.env as Record<string, unknown>, { ownerLabel: args.ownerLabel });
    config = { ...config, env: normalized.env };
    statements.push(...normalized.statements);
  }
  for (const field of definition.secretFields ?? []) {
    const value = config[field];
    if (value === undefined || value === null) continue;
    const normalized = await normalizeEnvBindings(ctx, actor, { [field]: value }, { ownerLabel: `${args.ownerLabel}_${args.adapterType}` });
    const bound = normalized.env?.[field] as { type?: string } | undefined;
    if (!bound || bound.type !== "secret_ref") {
      throw unprocessable(`adapterConfig.${field} must be a secret value or a secret reference`, { field });
    }
    config = { ...config, [field]: bound };
    statements.push(...normalized.statements);
  }
  const references = args.desiredSkills ?? (args.resolveStoredSkills ? storedDesiredSkills(config) : undefined);
  if (references !== undefined) config = withDesiredSkills(config, resolveDesiredSkills(references));
  return { config, statements };
}

function runtimeConfigWithDefaults(runtime: Record<string, unknown> | undefined): Record<string, unknown> {
  const config = { ...(runtime ?? {}) };
  const heartbeat = config.heartbeat && typeof config.heartbeat === "object" ? (config.heartbeat as Record<string, unknown>) : {};
  config.heartbeat = { ...heartbeat, enabled: heartbeat.enabled === true };
  return config;
}


export const createAgent = defineCommand("agent.create", 
  async (ctx, actor, input: { fields: AgentFields; mode: "create" | "hire"; sourceIssueIds?: string[] }) => {
    const { db } = ctx;
    const company = await db.query.companies.findFirst({ where: eq(schema.companies.id, ctx.companyId) });
    if (!company) throw notFound("Company not found");
    if (company.status === "archived") throw conflict("Cannot add agents to an archived company", { companyStatus: company.status });
    const { fields } = input;
    const sourceIssueIds = [...new Set(input.sourceIssueIds ?? [])];
    await checkLinkedIssues(ctx, sourceIssueIds);
    await checkReportsTo(ctx, fields.reportsTo, null);
    const { name, urlKey } = uniqueAgentName(fields.name.trim(), await liveNames(ctx));
    const role = fields.role ?? "general";
    const { config: adapterConfig, statements: secretStatements } = await prepareAdapterConfig(ctx, actor, {
      adapterType: fields.adapterType,
      config: fields.adapterConfig ?? {},
      creating: true,
      ownerLabel: urlKey,
      desiredSkills: fields.desiredSkills,
      resolveStoredSkills: fields.adapterConfig?.[SKILL_SYNC_KEY] !== undefined,
    });
    const needsApproval = input.mode === "hire" && company.requireBoardApprovalForNewAgents;
    const id = newId();
    const budget = fields.budgetMonthlyCents ?? 0;
    const row: AgentRow = {
      id,
      companyId: ctx.companyId,
      name,
      urlKey,
      role,
      title: fields.title ?? null,
      icon: fields.icon ?? null,
      capabilities: fields.capabilities ?? null,
      reportsTo: fields.reportsTo ?? null,
      adapterType: fields.adapterType,
      adapterConfig,
      runtimeConfig: runtimeConfigWithDefaults(fields.runtimeConfig),
      budgetMonthlyCents: budget,
      spentMonthlyCents: 0,
      spentMonth: null,
      status: needsApproval ? "pending_approval" : "idle",
      pauseReason: null,
      permissions: role === "ceo" ? { canCreateAgents: true } : {},
      metadata: fields.metadata ?? null,
      lastHeartbeatAt: null,
      terminatedAt: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const statements: Statement[] = [...secretStatements, db.insert(schema.agents).values(row)];
    // A pending hire gets its budget policy when the approval activates it.
    if (budget > 0 && !needsApproval) {
      statements.push(budgetPolicySyncStatement(db, { companyId: ctx.companyId, scopeType: "agent", scopeId: id, amountCents: budget, now: ctx.now }));
    }
    let approval: typeof schema.approvals.$inferSelect | null = null;
    if (needsApproval) {
      approval = {
        id: newId(),
        companyId: ctx.companyId,
        type: "hire_agent",
        status: "pending",
        payload: redactSecrets({
          agentId: id,
          name,
          role,
          title: row.title,
          icon: row.icon,
          capabilities: row.capabilities,
          reportsTo: row.reportsTo,
          adapterType: row.adapterType,
          adapterConfig,
          runtimeConfig: row.runtimeConfig,
          budgetMonthlyCents: budget,
          desiredSkills: storedDesiredSkills(adapterConfig),
          metadata: row.metadata,
          sourceIssueIds,
        }),
        requestedByAgentId: actor.type === "agent" ? actor.agentId : null,
        requestedByUserId: actor.type === "board" ? actor.userId : null,
        decisionNote: null,
        decidedByUserId: null,
        decidedAt: null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      statements.push(db.insert(schema.approvals).values(approval));
      for (const issueId of sourceIssueIds) {
        statements.push(db.insert(schema.approvalIssues).values({ approvalId: approval.id, issueId, companyId: ctx.companyId, createdAt: ctx.now }));
      }
      statements.push(
        ctx.activity({
          action: "approval.created",
          entityType: "approval",
          entityId: approval.id,
          details: { type: "hire_agent", agentId: id, issueIds: sourceIssueIds },
        }),
      );
    }
    statements.push(
      ctx.activity({
        action: needsApproval ? "agent.hire_requested" : input.mode === "hire" ? "agent.hired" : "agent.created",
        entityType: "agent",
        entityId: id,
        details: { name, role, adapterType: row.adapterType, status: row.status, approvalId: approval?.id ?? null },
      }),
    );
    await ctx.batch(statements);
    return { agent: await buildAgentView(db, row), approval };
  },
);

/** Shallow merge where a null value removes the key. */
function mergeConfig(base: Record<string, unknown>, patch: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export const updateAgent = defineCommand("agent.update", 
  async (ctx, actor, input: { agentId: string; patch: AgentPatch; replaceAdapterConfig?: boolean }) => {
    const { db } = ctx;
    const before = await loadAgent(ctx, input.agentId);
    const { patch } = input;
    const set: Partial<AgentRow> = {};
    const statements: Statement[] = [];

    if (patch.name !== undefined && patch.name.trim() !== before.name) {
      const name = patch.name.trim();
      const urlKey = deriveUrlKey(name);
      const taken = await liveNames(ctx, before.id);
      if (taken.urlKeys.includes(urlKey)) throw conflict(`Another agent already uses the shortname "${urlKey}"`, { urlKey });
      set.name = name;
      set.urlKey = urlKey;
    }
    for (const key of ["role", "title", "icon", "capabilities", "metadata"] as const) {
      if (patch[key] !== undefined) (set as Record<string, unknown>)[key] = patch[key];
    }
    if (patch.reportsTo !== undefined) {
      await checkReportsTo(ctx, patch.reportsTo, before.id);
      set.reportsTo = patch.reportsTo;
    }
    const adapterType = patch.adapterType ?? before.adapterType;
    if (patch.adapterType !== undefined || patch.adapterConfig !== undefined || patch.desiredSkills !== undefined) {
      let config: Record<string, unknown>;
      if (input.replaceAdapterConfig) {
        config = { ...(patch.adapterConfig ?? {}) };
        // Skill selection is managed through desiredSkills; a replaced config keeps it unless given.
        if (config[SKILL_SYNC_KEY] === undefined && before.adapterConfig[SKILL_SYNC_KEY] !== undefined) {
          config[SKILL_SYNC_KEY] = before.adapterConfig[SKILL_SYNC_KEY];
        }
      } else config = mergeConfig(before.adapterConfig ?? {}, patch.adapterConfig ?? {});
      const prepared = await prepareAdapterConfig(ctx, actor, {
        adapterType,
        config,
        creating: patch.adapterType !== undefined && patch.adapterType !== before.adapterType,
        ownerLabel: set.urlKey ?? before.urlKey,
        desiredSkills: patch.desiredSkills,
        resolveStoredSkills: patch.adapterConfig?.[SKILL_SYNC_KEY] !== undefined,
      });
      set.adapterType = adapterType;
      set.adapterConfig = prepared.config;
      statements.push(...prepared.statements);
    }
    if (patch.runtimeConfig !== undefined) set.runtimeConfig = runtimeConfigWithDefaults(patch.runtimeConfig);
    if (patch.budgetMonthlyCents !== undefined && patch.budgetMonthlyCents !== before.budgetMonthlyCents) {
      checkBudgetAboveSpend(before, patch.budgetMonthlyCents, ctx.now);
      set.budgetMonthlyCents = patch.budgetMonthlyCents;
      statements.push(
        budgetPolicySyncStatement(db, { companyId: ctx.companyId, scopeType: "agent", scopeId: before.id, amountCents: patch.budgetMonthlyCents, now: ctx.now }),
      );
    }
    if (patch.status !== undefined && patch.status !== before.status) {
      checkStatusPatch(before.status, patch.status);
      set.status = patch.status;
      set.pauseReason = patch.status === "paused" ? (before.status === "pending_approval" ? PAUSED_WHILE_PENDING : "manual") : null;
      if (patch.status === "paused") statements.push(cancelPendingWakeupsStatement(ctx, [before.id]));
    }

    const changed = Object.keys(set).filter((k) => JSON.stringify((set as Record<string, unknown>)[k]) !== JSON.stringify((before as Record<string, unknown>)[k]));
    statements.unshift(db.update(schema.agents).set({ ...set, updatedAt: ctx.now }).where(eq(schema.agents.id, before.id)));
    statements.push(
      ctx.activity({
        action: "agent.updated",
        entityType: "agent",
        entityId: before.id,
        details: { changed, ...(set.status ? { status: { from: before.status, to: set.status } } : {}) },
      }),
    );
    await ctx.batch(statements);
    return buildAgentView(db, await loadAgent(ctx, before.id));
  },
);

function checkBudgetAboveSpend(agent: AgentRow, amount: number, now: string) {
  const spent = currentMonthSpend(agent.spentMonthlyCents, agent.spentMonth, now);
  if (amount > 0 && amount <= spent) {
    throw unprocessable(`budgetMonthlyCents must be above this month's observed spend (${spent} cents), or 0 for no budget`, {
      budgetMonthlyCents: amount,
      spentMonthlyCents: spent,
    });
  }
}

export const updateAgentPermissions = defineCommand("agent.permissions", 
  async (
    ctx,
    actor,
    input: { agentId: string; canCreateAgents?: boolean; canAssignTasks?: boolean; authorizationPolicy?: Record<string, unknown> | null },
  ) => {
    const { db } = ctx;
    const agent = await loadAgent(ctx, input.agentId);
    const statements: Statement[] = [];
    if (input.canCreateAgents !== undefined || input.authorizationPolicy !== undefined) {
      const permissions: Record<string, unknown> = { ...(agent.permissions ?? {}) };
      if (input.canCreateAgents !== undefined) permissions.canCreateAgents = input.canCreateAgents;
      if (input.authorizationPolicy === null) delete permissions.authorizationPolicy;
      else if (input.authorizationPolicy !== undefined) {
        const effect = evaluatePolicyContainer({ authorizationPolicy: input.authorizationPolicy }, "authorizationPolicy");
        if (effect.kind === "unknown") throw unprocessable(effect.explanation, { authorizationPolicy: input.authorizationPolicy });
        permissions.authorizationPolicy = input.authorizationPolicy;
      }
      statements.push(db.update(schema.agents).set({ permissions, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)));
    }
    if (input.canAssignTasks !== undefined) {
      const grantWhere = and(
        eq(schema.principalPermissionGrants.companyId, ctx.companyId),
        eq(schema.principalPermissionGrants.principalType, "agent"),
        eq(schema.principalPermissionGrants.principalId, agent.id),
        eq(schema.principalPermissionGrants.permissionKey, "tasks:assign"),
      );
      if (input.canAssignTasks) {
        statements.push(
          db
            .insert(schema.companyMemberships)
            .values({
              id: newId(),
              companyId: ctx.companyId,
              principalType: "agent",
              principalId: agent.id,
              membershipRole: "member",
              status: "active",
              createdAt: ctx.now,
              updatedAt: ctx.now,
            })
            .onConflictDoUpdate({
              target: [schema.companyMemberships.companyId, schema.companyMemberships.principalType, schema.companyMemberships.principalId],
              set: { status: "active", updatedAt: ctx.now },
            }),
        );
        const existing = await db.select({ id: schema.principalPermissionGrants.id }).from(schema.principalPermissionGrants).where(grantWhere);
        if (!existing.length) {
          statements.push(
            db.insert(schema.principalPermissionGrants).values({
              id: newId(),
              companyId: ctx.companyId,
              principalType: "agent",
              principalId: agent.id,
              permissionKey: "tasks:assign",
              scope: null,
              grantedByUserId: actor.type === "board" ? actor.userId : null,
              createdAt: ctx.now,
            }),
          );
        }
      } else {
        statements.push(db.delete(schema.principalPermissionGrants).where(grantWhere));
      }
    }
    statements.push(
      ctx.activity({
        action: "agent.permissions_updated",
        entityType: "agent",
        entityId: agent.id,
        details: {
          canCreateAgents: input.canCreateAgents ?? null,
          canAssignTasks: input.canAssignTasks ?? null,
          ...(input.authorizationPolicy !== undefined ? { authorizationPolicy: input.authorizationPolicy } : {}),
        },
      }),
    );
    await ctx.batch(statements);
    return buildAgentView(db, await loadAgent(ctx, agent.id));
  },
);

export const changeAgentLifecycle = defineCommand("agent.lifecycle", async (ctx, actor, input: { agentId: string; action: LifecycleAction }) => {
  const { db } = ctx;
  const agent = await loadAgent(ctx, input.agentId);
  const status: AgentStatus = nextStatus(input.action, agent.status, agent.pauseReason);
  if (status === "terminated") ctx.credentialsChanged();
  const statements: Statement[] = [];
  if (input.action === "pause") {
    const pauseReason = agent.status === "paused" ? agent.pauseReason : agent.status === "pending_approval" ? PAUSED_WHILE_PENDING : "manual";
    statements.push(db.update(schema.agents).set({ status, pauseReason, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)));
    statements.push(cancelPendingWakeupsStatement(ctx, [agent.id]));
  } else if (input.action === "resume") {
    statements.push(db.update(schema.agents).set({ status, pauseReason: null, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)));
  } else {
    statements.push(
      db
        .update(schema.agents)
        .set({ status, pauseReason: null, terminatedAt: agent.terminatedAt ?? ctx.now, updatedAt: ctx.now })
        .where(eq(schema.agents.id, agent.id)),
      db
        .update(schema.agentApiKeys)
        .set({ revokedAt: ctx.now })
        .where(and(eq(schema.agentApiKeys.agentId, agent.id), isNull(schema.agentApiKeys.revokedAt))),
      cancelPendingWakeupsStatement(ctx, [agent.id]),
      db
        .update(schema.heartbeatRuns)
        .set({ status: "cancelled", finishedAt: ctx.now, error: "agent terminated", updatedAt: ctx.now })
        .where(and(eq(schema.heartbeatRuns.agentId, agent.id), inArray(schema.heartbeatRuns.status, ["queued", "scheduled_retry"]))),
    );
  }
  const action = { pause: "agent.paused", resume: "agent.resumed", terminate: "agent.terminated" }[input.action];
  statements.push(
    ctx.activity({
      action,
      entityType: "agent",
      entityId: agent.id,
      details: { from: agent.status, to: status },
    }),
  );
  await ctx.batch(statements);
  return buildAgentView(db, await loadAgent(ctx, agent.id));
});

/** Hard delete: the agent, its keys, runs, wake-ups, grants, membership and budget policy go; its issues are unassigned. */
export const deleteAgent = defineCommand("agent.delete", async (ctx, actor, input: { agentId: string }) => {
  const { db } = ctx;
  const agent = await loadAgent(ctx, input.agentId);
  ctx.credentialsChanged();
  const principal = (t: typeof schema.principalPermissionGrants | typeof schema.companyMemberships) =>
    and(eq(t.companyId, ctx.companyId), eq(t.principalType, "agent"), eq(t.principalId, agent.id));
  await ctx.batch([
    db.delete(schema.agentWakeupRequests).where(and(eq(schema.agentWakeupRequests.companyId, ctx.companyId), eq(schema.agentWakeupRequests.agentId, agent.id))),
    db.delete(schema.heartbeatRuns).where(and(eq(schema.heartbeatRuns.companyId, ctx.companyId), eq(schema.heartbeatRuns.agentId, agent.id))),
    db.delete(schema.agentApiKeys).where(eq(schema.agentApiKeys.agentId, agent.id)),
    db.delete(schema.principalPermissionGrants).where(principal(schema.principalPermissionGrants)),
    db.delete(schema.companyMemberships).where(principal(schema.companyMemberships)),
    db
      .delete(schema.budgetPolicies)
      .where(and(eq(schema.budgetPolicies.companyId, ctx.companyId), eq(schema.budgetPolicies.scopeType, "agent"), eq(schema.budgetPolicies.scopeId, agent.id))),
    db
      .update(schema.issues)
      .set({
        assigneeAgentId: null,
        ...CLEARED_LOCK_FIELDS,
        status: sql`CASE WHEN ${schema.issues.status} = 'in_progress' THEN 'todo' ELSE ${schema.issues.status} END`,
        updatedAt: ctx.now,
      })
      .where(and(eq(schema.issues.companyId, ctx.companyId), eq(schema.issues.assigneeAgentId, agent.id))),
    db.delete(schema.agents).where(eq(schema.agents.id, agent.id)),
    ctx.activity({
      action: "agent.deleted",
      entityType: "agent",
      entityId: agent.id,
      details: { name: agent.name, status: agent.status },
    }),
  ]);
  return { deleted: true as const, id: agent.id };
});

export const updateAgentBudget = defineCommand("agent.budget", async (ctx, actor, input: { agentId: string; budgetMonthlyCents: number }) => {
  const { db } = ctx;
  const agent = await loadAgent(ctx, input.agentId);
  checkBudgetAboveSpend(agent, input.budgetMonthlyCents, ctx.now);
  await ctx.batch([
    db.update(schema.agents).set({ budgetMonthlyCents: input.budgetMonthlyCents, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)),
    budgetPolicySyncStatement(db, { companyId: ctx.companyId, scopeType: "agent", scopeId: agent.id, amountCents: input.budgetMonthlyCents, now: ctx.now }),
    ctx.activity({
      action: "agent.budget_updated",
      entityType: "agent",
      entityId: agent.id,
      details: { from: agent.budgetMonthlyCents, to: input.budgetMonthlyCents },
    }),
  ]);
  return buildAgentView(db, await loadAgent(ctx, agent.id));
});

export const createAgentKey = defineCommand("agent.key.create", async (ctx, actor, input: { agentId: string; name?: string | null }) => {
  const { db } = ctx;
  const agent = await loadAgent(ctx, input.agentId);
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
  const agent = await loadAgent(ctx, input.agentId);
  const desired = resolveDesiredSkills(input.desiredSkills);
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
  return skillSnapshot({ adapterType: agent.adapterType, adapterConfig });
});

export const agentCommands = [createAgent, updateAgent, updateAgentPermissions, changeAgentLifecycle, deleteAgent, updateAgentBudget, createAgentKey, syncAgentSkills];
