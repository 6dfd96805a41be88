// `approve_ceo_strategy`: the board's review of the CEO's initial strategy.
// Trigger: when an agent with role `ceo` creates a company-level goal, or changes a
// goal so that it becomes (or stays) company-level, and no `approve_ceo_strategy`
// approval has ever referenced that goal, a pending approval is created with payload
// { summary, goalId, title, level, status }. Approving it marks the goal `active`.
import type { Statement } from "../../db/batch";
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { newId } from "../../crypto/random";
import type { GoalRow } from "../goals/view";

export async function ceoStrategyApprovalStatements(
  ctx: CommandContext,
  actor: Actor,
  goal: Pick<GoalRow, "id" | "title" | "description" | "level" | "status">,
): Promise<Statement[]> {
  if (actor.type !== "agent" || goal.level !== "company") return [];
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, actor.agentId) });
  if (agent?.role !== "ceo") return [];
  const existing = await ctx.db
    .select({ id: schema.approvals.id })
    .from(schema.approvals)
    .where(
      and(
        eq(schema.approvals.companyId, ctx.companyId),
        eq(schema.approvals.type, "approve_ceo_strategy"),
        sql`json_extract(${schema.approvals.payload}, '$.goalId') = ${goal.id}`,
      ),
    )
    .limit(1);
  if (existing.length) return [];
  const id = newId();
  const payload = {
    summary: goal.description?.trim() || goal.title,
    goalId: goal.id,
    title: goal.title,
    level: goal.level,
    status: goal.status,
  };
  return [
    ctx.db.insert(schema.approvals).values({
      id,
      companyId: ctx.companyId,
      type: "approve_ceo_strategy",
      status: "pending",
      payload,
      requestedByAgentId: actor.agentId,
      requestedByUserId: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    }),
    ctx.activity({
      action: "approval.created",
      entityType: "approval",
      entityId: id,
      details: { type: "approve_ceo_strategy", goalId: goal.id, trigger: "ceo_company_goal" },
    }),
  ];
}
