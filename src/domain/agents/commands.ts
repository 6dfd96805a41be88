// Agent mutations, run inside the company's Durable Object: create/hire, update and permissions.
// Lifecycle, hard delete and budget are in lifecycle-commands.ts; API keys and skills sync in
// key-skill-commands.ts. `agentCommands` is the area's list for the command registry.
import type { Statement } from "../../db/batch";
import { and, eq, ne } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { conflict, notFound, unprocessable } from "../errors";
import { checkLinkedIssues } from "../approvals/linked-issues";
import { newId } from "../../crypto/random";
import { budgetPolicySyncStatement } from "../budgets/policy-sync";
import { cancelPendingWakeupsStatement } from "../wakeups/enqueue";
import { cancelLiveRunsStatements } from "../runs/lifecycle";
import { redactSecrets } from "../redaction";
import { ancestorsOf } from "../authorization/assignment";
import { evaluatePolicyContainer } from "../authorization/policy";
import { checkStatusPatch, PAUSED_WHILE_PENDING, type PATCHABLE_STATUSES } from "./lifecycle";
import { deriveUrlKey, uniqueAgentName } from "./naming";
import { storedDesiredSkills, SKILL_SYNC_KEY } from "./skills";
import { buildAgentView, type AgentRow } from "./view";
import { loadCompanyAgent } from "./queries";
import { mergeConfig, prepareAdapterConfig, runtimeConfigWithDefaults } from "./adapter-config";
import { changeAgentLifecycle, checkBudgetAboveSpend, deleteAgent, updateAgentBudget } from "./lifecycle-commands";
import { createAgentKey, revokeAgentKey, syncAgentSkills } from "./key-skill-commands";

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

export type AgentPatch = Partial<AgentFields> & { status?: (typeof PATCHABLE_STATUSES)[number] };

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

export const createAgent = defineCommand(
  "agent.create",
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
    if ((fields.runtimeConfig?.heartbeat as { enabled?: unknown } | undefined)?.enabled === true) ctx.requestDispatch();
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

export const updateAgent = defineCommand("agent.update", async (ctx, actor, input: { agentId: string; patch: AgentPatch; replaceAdapterConfig?: boolean }) => {
  const { db } = ctx;
  const before = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
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
  if (patch.runtimeConfig !== undefined) {
    set.runtimeConfig = runtimeConfigWithDefaults(patch.runtimeConfig);
    // The dispatcher (re)schedules timer heartbeats from the stored config.
    ctx.requestDispatch();
  }
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
    if (patch.status === "paused")
      statements.push(cancelPendingWakeupsStatement(ctx, [before.id]), ...cancelLiveRunsStatements(ctx, [before.id], "agent_paused"));
  }

  const changed = Object.keys(set).filter(
    (k) => JSON.stringify((set as Record<string, unknown>)[k]) !== JSON.stringify((before as Record<string, unknown>)[k]),
  );
  statements.unshift(
    db
      .update(schema.agents)
      .set({ ...set, updatedAt: ctx.now })
      .where(eq(schema.agents.id, before.id)),
  );
  statements.push(
    ctx.activity({
      action: "agent.updated",
      entityType: "agent",
      entityId: before.id,
      details: { changed, ...(set.status ? { status: { from: before.status, to: set.status } } : {}) },
    }),
  );
  await ctx.batch(statements);
  return buildAgentView(db, await loadCompanyAgent(ctx.db, ctx.companyId, before.id));
});

export const updateAgentPermissions = defineCommand(
  "agent.permissions",
  async (ctx, actor, input: { agentId: string; canCreateAgents?: boolean; canAssignTasks?: boolean; authorizationPolicy?: Record<string, unknown> | null }) => {
    const { db } = ctx;
    const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
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
    return buildAgentView(db, await loadCompanyAgent(ctx.db, ctx.companyId, agent.id));
  },
);

export const agentCommands = [
  createAgent,
  updateAgent,
  updateAgentPermissions,
  changeAgentLifecycle,
  deleteAgent,
  updateAgentBudget,
  createAgentKey,
  revokeAgentKey,
  syncAgentSkills,
];
