// Side effects of deciding a `hire_agent` approval: approving activates the pending agent
// named by payload.agentId (or creates the agent from the payload), with its monthly budget
// policy when payload.budgetMonthlyCents > 0; rejecting terminates the draft agent and revokes its keys.
import { and, eq, isNull, ne } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../../http/actor-types";
import { unprocessable } from "../../http/errors";
import { newId } from "../../crypto/random";
import { activityInsert } from "../activity/record";
import { budgetPolicySyncStatement } from "../budgets/policy-sync";
import { normalizeEnvBindings } from "../secrets/bindings";
import { slugify } from "../users/slug";
import type { ApprovalRow } from "./view";

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

function budgetOf(payload: Record<string, unknown>) {
  const b = payload.budgetMonthlyCents;
  return typeof b === "number" && Number.isInteger(b) && b > 0 ? b : 0;
}

async function loadPayloadAgent(ctx: CommandContext, approval: ApprovalRow) {
  const agentId = str(approval.payload.agentId);
  if (!agentId) return null;
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, agentId) });
  if (!agent || agent.companyId !== ctx.companyId) throw unprocessable("payload.agentId must reference an agent of this company", { agentId });
  return agent;
}

/** A name and URL key not used by another live agent of the company (`Name`, `Name 2`, …). */
async function uniqueName(ctx: CommandContext, name: string) {
  const rows = await ctx.db
    .select({ name: schema.agents.name, urlKey: schema.agents.urlKey })
    .from(schema.agents)
    .where(and(eq(schema.agents.companyId, ctx.companyId), ne(schema.agents.status, "terminated")));
  const names = new Set(rows.map((r) => r.name.toLowerCase()));
  const keys = new Set(rows.map((r) => r.urlKey));
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? name : `${name} ${i}`;
    const urlKey = slugify(candidate).slice(0, 64) || "agent";
    if (!names.has(candidate.toLowerCase()) && !keys.has(urlKey)) return { name: candidate, urlKey };
  }
}

export async function hireApprovedStatements(ctx: CommandContext, actor: Actor, approval: ApprovalRow) {
  const payload = approval.payload;
  const statements: BatchItem<"sqlite">[] = [];
  const budget = budgetOf(payload);
  const existing = await loadPayloadAgent(ctx, approval);
  let agentId: string;
  let payloadPatch: Record<string, unknown> | null = null;
  if (existing) {
    if (existing.status === "terminated") throw unprocessable("The agent of this hire was terminated and cannot be activated", { agentId: existing.id });
    agentId = existing.id;
    if (existing.status === "pending_approval") {
      statements.push(
        ctx.db
          .update(schema.agents)
          .set({ status: "idle", ...(budget ? { budgetMonthlyCents: budget } : {}), updatedAt: ctx.now })
          .where(eq(schema.agents.id, existing.id)),
        activityInsert(ctx.db, { companyId: ctx.companyId, actor, action: "agent.hire_approved", entityType: "agent", entityId: existing.id, details: { approvalId: approval.id }, now: ctx.now }),
      );
    }
  } else {
    const requested = str(payload.name);
    if (!requested) throw unprocessable("A hire_agent payload needs payload.agentId (a pending agent) or payload.name to create the agent");
    const reportsTo = str(payload.reportsTo);
    if (reportsTo) {
      const manager = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, reportsTo) });
      if (!manager || manager.companyId !== ctx.companyId) throw unprocessable("payload.reportsTo must reference an agent of this company", { reportsTo });
    }
    const { name, urlKey } = await uniqueName(ctx, requested.slice(0, 200));
    const role = str(payload.role) ?? "general";
    agentId = newId();
    const adapterConfig = isRecord(payload.adapterConfig) ? { ...payload.adapterConfig } : {};
    if (adapterConfig.env !== undefined) {
      const env = await normalizeEnvBindings(ctx, actor, adapterConfig.env as Record<string, unknown> | null, { ownerLabel: `agent_${urlKey.replace(/-/g, "_")}` });
      adapterConfig.env = env.env;
      statements.push(...env.statements);
    }
    statements.push(
      ctx.db.insert(schema.agents).values({
        id: agentId,
        companyId: ctx.companyId,
        name,
        urlKey,
        role,
        title: str(payload.title),
        capabilities: str(payload.capabilities),
        reportsTo,
        adapterType: str(payload.adapterType) ?? "process",
        adapterConfig,
        runtimeConfig: isRecord(payload.runtimeConfig) ? payload.runtimeConfig : { heartbeat: { enabled: false } },
        budgetMonthlyCents: budget,
        spentMonthlyCents: 0,
        status: "idle",
        permissions: role === "ceo" ? { canCreateAgents: true } : {},
        metadata: isRecord(payload.metadata) ? payload.metadata : null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      }),
      activityInsert(ctx.db, { companyId: ctx.companyId, actor, action: "agent.created", entityType: "agent", entityId: agentId, details: { name, role, approvalId: approval.id }, now: ctx.now }),
    );
    payloadPatch = { agentId };
  }
  if (budget) {
    statements.push(budgetPolicySyncStatement(ctx.db, { companyId: ctx.companyId, scopeType: "agent", scopeId: agentId, amountCents: budget, now: ctx.now }));
  }
  return { statements, payloadPatch };
}

export async function hireRejectedStatements(ctx: CommandContext, actor: Actor, approval: ApprovalRow) {
  const agentId = str(approval.payload.agentId);
  if (!agentId) return [];
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, agentId) });
  if (!agent || agent.companyId !== ctx.companyId || agent.status !== "pending_approval") return [];
  return [
    ctx.db.update(schema.agents).set({ status: "terminated", terminatedAt: ctx.now, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)),
    ctx.db
      .update(schema.agentApiKeys)
      .set({ revokedAt: ctx.now })
      .where(and(eq(schema.agentApiKeys.agentId, agent.id), isNull(schema.agentApiKeys.revokedAt))),
    activityInsert(ctx.db, { companyId: ctx.companyId, actor, action: "agent.terminated", entityType: "agent", entityId: agent.id, details: { approvalId: approval.id, reason: "hire_rejected" }, now: ctx.now }),
  ];
}
