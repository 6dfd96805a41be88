// Approval mutations (run inside the company Durable Object): create, decide, resubmit, comment.
// Transitions come from state-machine.ts; type-specific effects (hires, CEO strategy) and the
// requester's wake-up are written in the same batch as the status change.
import type { Statement } from "../../db/batch";
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { forbidden, notFound, unprocessable } from "../errors";
import { checkLinkedIssues } from "./linked-issues";
import type { Actor } from "../actor";
import { newId } from "../../crypto/random";
import { resolveBudgetIncident } from "../budgets/commands";
import { wakeupStatements } from "../wakeups/enqueue";
import { ACTION_ACTORS, approvalTransition, WAKING_STATUSES, type ApprovalAction } from "./state-machine";
import { approvalCommentView, approvalView, type ApprovalRow } from "./view";
import { hireApprovedStatements, hireRejectedStatements } from "./hire";

async function loadApproval(ctx: CommandContext, approvalId: string) {
  const row = await ctx.db.query.approvals.findFirst({ where: eq(schema.approvals.id, approvalId) });
  if (!row || row.companyId !== ctx.companyId) throw notFound("Approval not found");
  return row;
}

const activity = (ctx: CommandContext, action: string, approvalId: string, details: Record<string, unknown>) =>
  ctx.activity({ action, entityType: "approval", entityId: approvalId, details });

export interface CreateApprovalInput {
  type: ApprovalRow["type"];
  payload: Record<string, unknown>;
  requestedByAgentId?: string | null;
  issueIds?: string[];
}

export const createApproval = defineCommand("approval.create", async (ctx, actor, input: CreateApprovalInput) => {
  let requestedByAgentId: string | null = null;
  if (actor.type === "agent") {
    if (input.requestedByAgentId && input.requestedByAgentId !== actor.agentId) {
      throw forbidden("An agent may only request approvals as itself");
    }
    requestedByAgentId = actor.agentId;
  } else if (input.requestedByAgentId) {
    const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, input.requestedByAgentId) });
    if (!agent || agent.companyId !== ctx.companyId) {
      throw unprocessable("requestedByAgentId must reference an agent of this company", { requestedByAgentId: input.requestedByAgentId });
    }
    requestedByAgentId = agent.id;
  }
  const issueIds = [...new Set(input.issueIds ?? [])];
  await checkLinkedIssues(ctx, issueIds);
  const row: ApprovalRow = {
    id: newId(),
    companyId: ctx.companyId,
    type: input.type,
    status: "pending",
    payload: input.payload,
    requestedByAgentId,
    requestedByUserId: actor.type === "board" ? actor.userId : null,
    decisionNote: null,
    decidedByUserId: null,
    decidedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const statements: Statement[] = [ctx.db.insert(schema.approvals).values(row)];
  if (issueIds.length) {
    statements.push(
      ctx.db.insert(schema.approvalIssues).values(issueIds.map((issueId) => ({ approvalId: row.id, issueId, companyId: ctx.companyId, createdAt: ctx.now }))),
    );
  }
  statements.push(activity(ctx, "approval.created", row.id, { type: row.type, issueIds }));
  await ctx.batch(statements);
  return approvalView(row);
});

/** 403 unless the actor may take the action at all; the state check comes after. */
function checkActor(actor: Actor, action: ApprovalAction, approval: ApprovalRow) {
  const who = ACTION_ACTORS[action];
  if (actor.type === "board") return;
  if (who === "board") throw forbidden("Only the board can decide approvals");
  if (actor.type !== "agent" || !approval.requestedByAgentId || approval.requestedByAgentId !== actor.agentId) {
    throw forbidden("Only the requesting agent or the board can resubmit this approval");
  }
}

function checkTransition(approval: ApprovalRow, action: ApprovalAction) {
  const transition = approvalTransition(approval.status, action);
  if (!transition) {
    throw unprocessable(`Cannot ${action} an approval that is ${approval.status}`, { status: approval.status, action });
  }
  return transition;
}

async function wakeRequester(ctx: CommandContext, actor: Actor, approval: ApprovalRow, status: ApprovalRow["status"]) {
  if (!approval.requestedByAgentId || !WAKING_STATUSES.has(status)) return [];
  const { statements } = await wakeupStatements(ctx, actor, [
    {
      agentId: approval.requestedByAgentId,
      reason: "approval_resolved",
      source: "approval",
      context: {
        approvalId: approval.id,
        approvalType: approval.type,
        approvalStatus: status,
        env: { SERVICE_APPROVAL_ID: approval.id, SERVICE_APPROVAL_STATUS: status },
      },
    },
  ]);
  return statements;
}

/** Effects of the new status that depend on the approval type. */
async function typeEffects(ctx: CommandContext, actor: Actor, approval: ApprovalRow, next: ApprovalRow["status"]) {
  const statements: Statement[] = [];
  let payload = approval.payload;
  if (approval.type === "hire_agent" && next === "approved") {
    const hire = await hireApprovedStatements(ctx, actor, approval);
    statements.push(...hire.statements);
    if (hire.payloadPatch) payload = { ...payload, ...hire.payloadPatch };
  }
  if (approval.type === "hire_agent" && next === "rejected") statements.push(...(await hireRejectedStatements(ctx, actor, approval)));
  if (approval.type === "approve_ceo_strategy" && next === "approved" && typeof approval.payload.goalId === "string") {
    statements.push(
      ctx.db
        .update(schema.goals)
        .set({ status: "active", updatedAt: ctx.now })
        .where(and(eq(schema.goals.id, approval.payload.goalId), eq(schema.goals.companyId, ctx.companyId))),
    );
  }
  return { statements, payload };
}

/**
 * A budget_override_required decision settles its budget incident through the budget rules:
 * approve = raise_budget_and_resume (needs amountCents above observed spend), reject = keep_paused.
 * Runs before the approval is written so that a refused raise changes nothing.
 */
async function settleBudgetIncident(ctx: CommandContext, actor: Actor, approval: ApprovalRow, next: ApprovalRow["status"], amountCents?: number) {
  const incidentId = approval.payload.incidentId;
  if (approval.type !== "budget_override_required" || typeof incidentId !== "string") return;
  if (next !== "approved" && next !== "rejected") return;
  const incident = await ctx.db.query.budgetIncidents.findFirst({
    where: and(eq(schema.budgetIncidents.id, incidentId), eq(schema.budgetIncidents.companyId, ctx.companyId)),
  });
  if (incident?.status !== "open") return;
  if (next === "approved" && amountCents === undefined) {
    throw unprocessable("Approving a budget override needs amountCents: the new budget, above the observed spend", { incidentId });
  }
  await resolveBudgetIncident.run(ctx, actor, {
    incidentId,
    action: next === "approved" ? "raise_budget_and_resume" : "keep_paused",
    amountCents,
  });
}

export const decideApproval = defineCommand(
  "approval.decide",
  async (ctx, actor, input: { approvalId: string; action: "approve" | "reject" | "request-revision"; decisionNote?: string | null; amountCents?: number }) => {
    const approval = await loadApproval(ctx, input.approvalId);
    checkActor(actor, input.action, approval);
    const { next } = checkTransition(approval, input.action);
    await settleBudgetIncident(ctx, actor, approval, next, input.amountCents);
    const effects = await typeEffects(ctx, actor, approval, next);
    const decidedByUserId = actor.type === "board" ? actor.userId : null;
    const statements: Statement[] = [
      ctx.db
        .update(schema.approvals)
        .set({ status: next, payload: effects.payload, decisionNote: input.decisionNote ?? null, decidedByUserId, decidedAt: ctx.now, updatedAt: ctx.now })
        // Guarded by the status read above (or the same decision already written by the incident resolution).
        .where(and(eq(schema.approvals.id, approval.id), inArray(schema.approvals.status, [approval.status, next]))),
      ...effects.statements,
      ...(await wakeRequester(ctx, actor, approval, next)),
      activity(ctx, `approval.${next}`, approval.id, { type: approval.type, from: approval.status, to: next, decisionNote: input.decisionNote ?? null }),
    ];
    await ctx.batch(statements);
    return approvalView(await loadApproval(ctx, approval.id));
  },
);

export const resubmitApproval = defineCommand("approval.resubmit", async (ctx, actor, input: { approvalId: string; payload?: Record<string, unknown> }) => {
  const approval = await loadApproval(ctx, input.approvalId);
  checkActor(actor, "resubmit", approval);
  const { next } = checkTransition(approval, "resubmit");
  await ctx.batch([
    ctx.db
      .update(schema.approvals)
      .set({ status: next, payload: input.payload ?? approval.payload, updatedAt: ctx.now })
      .where(and(eq(schema.approvals.id, approval.id), eq(schema.approvals.status, approval.status))),
    activity(ctx, "approval.resubmitted", approval.id, { type: approval.type, payloadReplaced: input.payload !== undefined }),
  ]);
  return approvalView(await loadApproval(ctx, approval.id));
});

export const commentOnApproval = defineCommand("approval.comment", async (ctx, actor, input: { approvalId: string; body: string }) => {
  const approval = await loadApproval(ctx, input.approvalId);
  const row = {
    id: newId(),
    approvalId: approval.id,
    companyId: ctx.companyId,
    body: input.body,
    authorAgentId: actor.type === "agent" ? actor.agentId : null,
    authorUserId: actor.type === "board" ? actor.userId : null,
    createdAt: ctx.now,
  };
  await ctx.batch([ctx.db.insert(schema.approvalComments).values(row), activity(ctx, "approval.comment_added", approval.id, { commentId: row.id })]);
  return approvalCommentView(row);
});

export const approvalCommands = [createApproval, decideApproval, resubmitApproval, commentOnApproval];
