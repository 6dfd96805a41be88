// Side effects of deciding a `hire_agent` approval: approving activates the pending agent
// named by payload.agentId (or creates the agent from the payload), with its monthly budget
// policy when payload.budgetMonthlyCents > 0; rejecting terminates the draft agent and revokes its keys.
import type { Statement } from "../../db/batch";
import { and, eq, isNull } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { unprocessable } from "../errors";
import { budgetPolicySyncStatement } from "../budgets/policy-sync";
import { createAgent } from "../agents/commands";
import type { ApprovalRow } from "./view";
import { isRecord } from "../records";

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

export async function hireApprovedStatements(ctx: CommandContext, actor: Actor, approval: ApprovalRow) {
  const payload = approval.payload;
  const statements: Statement[] = [];
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
        ctx.activity({ action: "agent.hire_approved", entityType: "agent", entityId: existing.id, details: { approvalId: approval.id } }),
      );
    }
  } else {
    // No draft agent: create it from the payload through the agents' own create rules
    // (adapter validation and defaults, unique name, reportsTo, secrets, budget policy).
    const name = str(payload.name);
    if (!name) throw unprocessable("A hire_agent payload needs payload.agentId (a pending agent) or payload.name to create the agent");
    const { agent } = await createAgent.run(ctx, actor, {
      mode: "create",
      fields: {
        name: name.slice(0, 200),
        role: str(payload.role) ?? "general",
        title: str(payload.title),
        capabilities: str(payload.capabilities),
        reportsTo: str(payload.reportsTo),
        adapterType: str(payload.adapterType) ?? "process",
        adapterConfig: isRecord(payload.adapterConfig) ? payload.adapterConfig : {},
        runtimeConfig: isRecord(payload.runtimeConfig) ? payload.runtimeConfig : undefined,
        budgetMonthlyCents: budget,
        metadata: isRecord(payload.metadata) ? payload.metadata : null,
      },
    });
    agentId = agent.id;
    payloadPatch = { agentId };
  }
  if (budget && existing) {
    statements.push(budgetPolicySyncStatement(ctx.db, { companyId: ctx.companyId, scopeType: "agent", scopeId: agentId, amountCents: budget, now: ctx.now }));
  }
  return { statements, payloadPatch };
}

export async function hireRejectedStatements(ctx: CommandContext, actor: Actor, approval: ApprovalRow) {
  const agentId = str(approval.payload.agentId);
  if (!agentId) return [];
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, agentId) });
  if (!agent || agent.companyId !== ctx.companyId || agent.status !== "pending_approval") return [];
  ctx.credentialsChanged();
  return [
    ctx.db.update(schema.agents).set({ status: "terminated", terminatedAt: ctx.now, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)),
    ctx.db
      .update(schema.agentApiKeys)
      .set({ revokedAt: ctx.now })
      .where(and(eq(schema.agentApiKeys.agentId, agent.id), isNull(schema.agentApiKeys.revokedAt))),
    ctx.activity({ action: "agent.terminated", entityType: "agent", entityId: agent.id, details: { approvalId: approval.id, reason: "hire_rejected" } }),
  ];
}
