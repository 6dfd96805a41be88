// Agent lifecycle commands (pause, resume, terminate; hard delete) and the agent's monthly budget.
import type { Statement } from "../../db/batch";
import { and, eq, isNull, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { AgentStatus } from "../../db/schema/agents";
import { defineCommand } from "../../company/command";
import { unprocessable } from "../errors";
import { CLEARED_LOCK_FIELDS } from "../issues/locks";
import { budgetPolicySyncStatement } from "../budgets/policy-sync";
import { cancelPendingWakeupsStatement } from "../wakeups/enqueue";
import { cancelLiveRunsStatements } from "../runs/lifecycle";
import { currentMonthSpend } from "../time";
import { nextStatus, PAUSED_WHILE_PENDING, type LifecycleAction } from "./lifecycle";
import { buildAgentView, type AgentRow } from "./view";
import { loadCompanyAgent } from "./queries";
import { pauseRoutinesOfAgentStatements } from "../routines/assignee";

/** A positive budget must be above this month's observed spend; 0 means no budget. */
export function checkBudgetAboveSpend(agent: AgentRow, amount: number, now: string) {
  const spent = currentMonthSpend(agent.spentMonthlyCents, agent.spentMonth, now);
  if (amount > 0 && amount <= spent) {
    throw unprocessable(`budgetMonthlyCents must be above this month's observed spend (${spent} cents), or 0 for no budget`, {
      budgetMonthlyCents: amount,
      spentMonthlyCents: spent,
    });
  }
}

export const changeAgentLifecycle = defineCommand("agent.lifecycle", async (ctx, actor, input: { agentId: string; action: LifecycleAction }) => {
  const { db } = ctx;
  const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
  const status: AgentStatus = nextStatus(input.action, agent.status, agent.pauseReason);
  if (status === "terminated") ctx.credentialsChanged();
  const statements: Statement[] = [];
  if (input.action === "pause") {
    const pauseReason = agent.status === "paused" ? agent.pauseReason : agent.status === "pending_approval" ? PAUSED_WHILE_PENDING : "manual";
    statements.push(db.update(schema.agents).set({ status, pauseReason, updatedAt: ctx.now }).where(eq(schema.agents.id, agent.id)));
    statements.push(cancelPendingWakeupsStatement(ctx, [agent.id]), ...cancelLiveRunsStatements(ctx, [agent.id], "agent_paused"));
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
      ...cancelLiveRunsStatements(ctx, [agent.id], "agent_terminated"),
      ...pauseRoutinesOfAgentStatements(ctx, agent.id),
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
  return buildAgentView(db, await loadCompanyAgent(ctx.db, ctx.companyId, agent.id));
});

/** Hard delete: the agent, its keys, runs, wake-ups, grants, membership and budget policy go; its issues are unassigned. */
export const deleteAgent = defineCommand("agent.delete", async (ctx, actor, input: { agentId: string }) => {
  const { db } = ctx;
  const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
  ctx.credentialsChanged();
  const principal = (t: typeof schema.principalPermissionGrants | typeof schema.companyMemberships) =>
    and(eq(t.companyId, ctx.companyId), eq(t.principalType, "agent"), eq(t.principalId, agent.id));
  await ctx.batch([
    db.delete(schema.agentWakeupRequests).where(and(eq(schema.agentWakeupRequests.companyId, ctx.companyId), eq(schema.agentWakeupRequests.agentId, agent.id))),
    db.delete(schema.heartbeatRuns).where(and(eq(schema.heartbeatRuns.companyId, ctx.companyId), eq(schema.heartbeatRuns.agentId, agent.id))),
    db.delete(schema.agentApiKeys).where(eq(schema.agentApiKeys.agentId, agent.id)),
    db
      .delete(schema.agentRuntimeSessions)
      .where(and(eq(schema.agentRuntimeSessions.companyId, ctx.companyId), eq(schema.agentRuntimeSessions.agentId, agent.id))),
    db.delete(schema.principalPermissionGrants).where(principal(schema.principalPermissionGrants)),
    db.delete(schema.companyMemberships).where(principal(schema.companyMemberships)),
    db
      .delete(schema.budgetPolicies)
      .where(
        and(eq(schema.budgetPolicies.companyId, ctx.companyId), eq(schema.budgetPolicies.scopeType, "agent"), eq(schema.budgetPolicies.scopeId, agent.id)),
      ),
    db
      .update(schema.issues)
      .set({
        assigneeAgentId: null,
        ...CLEARED_LOCK_FIELDS,
        status: sql`CASE WHEN ${schema.issues.status} = 'in_progress' THEN 'todo' ELSE ${schema.issues.status} END`,
        updatedAt: ctx.now,
      })
      .where(and(eq(schema.issues.companyId, ctx.companyId), eq(schema.issues.assigneeAgentId, agent.id))),
    ...pauseRoutinesOfAgentStatements(ctx, agent.id, { clearAssignee: true }),
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
  const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
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
  return buildAgentView(db, await loadCompanyAgent(ctx.db, ctx.companyId, agent.id));
});
