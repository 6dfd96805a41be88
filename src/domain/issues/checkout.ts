// Checkout and release, serialised by the company Durable Object and written with guarded
// UPDATEs (`WHERE checkout_run_id IS ?`), whose result is checked. The activity entry is written
// only if the guarded update won (INSERT ... SELECT ... WHERE EXISTS on the new lock state).
import type { Statement } from "../../db/batch";
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { actorRef, type Actor } from "../actor";
import { conflict, forbidden } from "../errors";
import { newId } from "../../crypto/random";
import { redactSecrets } from "../redaction";
import { requireRunId, resolveActorRun } from "../runs/actor-run";
import { isLiveStatus, leaseExpired, runIsStale, runLeaseMs } from "../runs/lease";
import { loadIssueInCompany, issueViewFor } from "./load";
import { OWNERSHIP_CONFLICT, runLinkStatement } from "./ownership";
import { RELEASED_ISSUE_FIELDS } from "./locks";
import type { IssueRow } from "./view";
import { executionWorkspaceBlocksCheckout } from "../execution-workspaces/checkout-guard";

export const CHECKOUT_CONFLICT = "Issue checkout conflict";

const conflictDetails = (issue: IssueRow) => ({
  issueId: issue.id,
  status: issue.status,
  assigneeAgentId: issue.assigneeAgentId,
  checkoutRunId: issue.checkoutRunId,
});

/** Drizzle's D1 batch cannot carry raw SQL with parameters, so these batches go to D1 directly. */
type Sqlish = { toSQL(): { sql: string; params: unknown[] } };
const d1 = (ctx: CommandContext, query: Statement) => {
  const { sql: text, params } = (query as unknown as Sqlish).toSQL();
  return ctx.env.DB.prepare(text).bind(...params);
};

/** Activity row written only if `guard` (SQL on the issue row, with its params) holds after the guarded update. */
function guardedActivity(
  ctx: CommandContext,
  actor: Actor,
  entry: { action: string; issue: IssueRow; details: Record<string, unknown> },
  guard: { sql: string; params: unknown[] },
) {
  const { actorType, actorId } = actorRef(actor);
  const details = JSON.stringify(redactSecrets(entry.details));
  return ctx.env.DB.prepare(
    `INSERT INTO activity_log (id, company_id, actor_type, actor_id, action, entity_type, entity_id, agent_id, run_id, details, created_at)
     SELECT ?, ?, ?, ?, ?, 'issue', ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM issues WHERE id = ? AND ${guard.sql})`,
  ).bind(
    newId(),
    ctx.companyId,
    actorType,
    actorId,
    entry.action,
    entry.issue.id,
    actor.type === "agent" ? actor.agentId : null,
    actor.runId ?? null,
    details,
    ctx.now,
    entry.issue.id,
    ...guard.params,
  );
}

export interface CheckoutInput {
  issueId: string;
  agentId: string;
  expectedStatuses: string[];
}

export const checkoutIssue = defineCommand("issue.checkout", async (ctx, actor, input: CheckoutInput) => {
  if (actor.type !== "agent") throw forbidden("Only agents check out issues (as themselves)");
  if (actor.agentId !== input.agentId) throw forbidden("An agent may check out issues only as itself", { agentId: input.agentId });
  requireRunId(actor);
  const issue = await loadIssueInCompany(ctx.db, ctx.companyId, input.issueId);
  if (issue.projectId) {
    const project = await ctx.db.query.projects.findFirst({ where: eq(schema.projects.id, issue.projectId) });
    if (project?.pausedAt) {
      throw conflict("Project is paused", { ...conflictDetails(issue), projectId: project.id, pausedAt: project.pausedAt, pauseReason: project.pauseReason });
    }
  }
  if (await executionWorkspaceBlocksCheckout(ctx.db, issue.executionWorkspaceId)) {
    throw conflict("Execution workspace is closed", { ...conflictDetails(issue), executionWorkspaceId: issue.executionWorkspaceId });
  }
  const run = (await resolveActorRun(ctx, actor))!;
  if (!isLiveStatus(run.run.status)) {
    throw conflict(CHECKOUT_CONFLICT, { ...conflictDetails(issue), reason: `run ${run.run.id} is ${run.run.status}` });
  }
  const agentId = actor.agentId;

  // Same owner asking again: nothing changes.
  if (issue.status === "in_progress" && issue.assigneeAgentId === agentId && issue.checkoutRunId === run.run.id) {
    await ctx.batch(run.statements);
    return issueViewFor(ctx.db, issue);
  }
  if (!input.expectedStatuses.includes(issue.status)) throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));

  const statements: Statement[] = [...run.statements];
  let adoptedFromRunId: string | null = null;
  if (issue.status === "in_progress" || issue.checkoutRunId) {
    // A held lock: adoptable only by the same agent when the holding run is over (or lease-expired).
    if (issue.assigneeAgentId && issue.assigneeAgentId !== agentId) throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));
    if (issue.checkoutRunId) {
      const holder = await ctx.db.query.heartbeatRuns.findFirst({ where: eq(schema.heartbeatRuns.id, issue.checkoutRunId) });
      if (!runIsStale(holder, ctx.now, runLeaseMs(ctx.env))) throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));
      adoptedFromRunId = issue.checkoutRunId;
      if (holder && isLiveStatus(holder.status) && leaseExpired(holder, ctx.now, runLeaseMs(ctx.env))) {
        statements.push(
          ctx.db
            .update(schema.heartbeatRuns)
            .set({ status: "timed_out", finishedAt: ctx.now, updatedAt: ctx.now, error: "run lease expired; lock adopted" })
            .where(and(eq(schema.heartbeatRuns.id, holder.id), eq(schema.heartbeatRuns.status, holder.status))),
        );
      }
    }
  } else if (issue.assigneeAgentId && issue.assigneeAgentId !== agentId) {
    throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));
  }

  const t = schema.issues;
  const guardedUpdate = ctx.db
    .update(t)
    .set({
      status: "in_progress",
      assigneeAgentId: agentId,
      checkoutRunId: run.run.id,
      checkedOutAt: ctx.now,
      executionLockedAt: null,
      startedAt: issue.startedAt ?? ctx.now,
      completedAt: null,
      cancelledAt: null,
      updatedAt: ctx.now,
    })
    .where(
      and(
        eq(t.id, issue.id),
        eq(t.status, issue.status),
        sql`${t.checkoutRunId} IS ${issue.checkoutRunId}`,
        sql`${t.assigneeAgentId} IS ${issue.assigneeAgentId}`,
      ),
    )
    .returning({ id: t.id });
  const results = await ctx.env.DB.batch([
    d1(ctx, guardedUpdate),
    ...[...statements, runLinkStatement(ctx, issue.id, run.run.id)].map((q) => d1(ctx, q)),
    guardedActivity(
      ctx,
      actor,
      {
        action: "issue.checked_out",
        issue,
        details: { identifier: issue.identifier, fromStatus: issue.status, runId: run.run.id, ...(adoptedFromRunId ? { adoptedFromRunId } : {}) },
      },
      { sql: "checkout_run_id = ? AND checked_out_at = ?", params: [run.run.id, ctx.now] },
    ),
  ]);
  if ((results[0].results ?? []).length !== 1) {
    const current = await loadIssueInCompany(ctx.db, ctx.companyId, issue.id);
    throw conflict(CHECKOUT_CONFLICT, conflictDetails(current));
  }
  return issueViewFor(ctx.db, (await loadIssueInCompany(ctx.db, ctx.companyId, issue.id)));
});

export const releaseIssue = defineCommand("issue.release", async (ctx, actor, input: { issueId: string }) => {
  const issue = await loadIssueInCompany(ctx.db, ctx.companyId, input.issueId);
  if (issue.status !== "in_progress" && !issue.checkoutRunId) {
    throw conflict("Issue is not checked out", conflictDetails(issue));
  }
  const statements: Statement[] = [];
  if (actor.type === "agent") {
    requireRunId(actor);
    if (issue.assigneeAgentId !== actor.agentId) {
      throw forbidden("Only the board or the assignee's current checkout run may release an issue", conflictDetails(issue));
    }
    const run = (await resolveActorRun(ctx, actor))!;
    if (issue.checkoutRunId && issue.checkoutRunId !== run.run.id) {
      throw conflict(OWNERSHIP_CONFLICT, { ...conflictDetails(issue), actorRunId: run.run.id });
    }
    statements.push(...run.statements, runLinkStatement(ctx, issue.id, run.run.id));
  } else if (actor.type !== "board") {
    throw forbidden("Only the board or the assignee's current checkout run may release an issue");
  }
  const t = schema.issues;
  // One statement clears the assignee agent and every lock field; assigneeUserId stays.
  const guardedUpdate = ctx.db
    .update(t)
    .set({ ...RELEASED_ISSUE_FIELDS, updatedAt: ctx.now })
    .where(and(eq(t.id, issue.id), eq(t.status, issue.status), sql`${t.checkoutRunId} IS ${issue.checkoutRunId}`))
    .returning({ id: t.id });
  const results = await ctx.env.DB.batch([
    d1(ctx, guardedUpdate),
    ...statements.map((q) => d1(ctx, q)),
    guardedActivity(
      ctx,
      actor,
      {
        action: "issue.released",
        issue,
        details: { identifier: issue.identifier, fromStatus: issue.status, releasedRunId: issue.checkoutRunId, previousAssigneeAgentId: issue.assigneeAgentId },
      },
      { sql: "status = 'todo' AND checkout_run_id IS NULL AND updated_at = ?", params: [ctx.now] },
    ),
  ]);
  if ((results[0].results ?? []).length !== 1) {
    const current = await loadIssueInCompany(ctx.db, ctx.companyId, issue.id);
    throw conflict("Issue changed while releasing", conflictDetails(current));
  }
  return issueViewFor(ctx.db, (await loadIssueInCompany(ctx.db, ctx.companyId, issue.id)));
});

export const checkoutCommands = [checkoutIssue, releaseIssue];
