// Checkout and release. Each reads the issue, its project and workspace state and the caller's
// run in one batch before the serialised section; inside it, one guarded batch writes the lock
// only while the issue is as it was read (`status`, `checkout_run_id`, `assignee_agent_id`). When
// it is not (a racing checkout won), the object reads again and answers with the current state.
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Statement } from "../../db/batch";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import { noRowExists } from "../../db/guards";
import { defineCommand, type CommandContext, type LoadScope } from "../../company/command";
import { conflict, forbidden, notFound } from "../errors";
import { actorRunFrom, actorRunSeen, addActorRunRead, requireRunId, type ActorRunFacts } from "../runs/actor-run";
import { isLiveStatus, leaseExpired, runIsStale, runLeaseMs } from "../runs/lease";
import { closedIsolatedWorkspace } from "../execution-workspaces/checkout-guard";
import { OWNERSHIP_CONFLICT, runLinkStatement } from "./ownership";
import { lockAsRead, RELEASED_ISSUE_FIELDS } from "./locks";
import { issueIdOf, issueRefCondition } from "./references";
import { addIssueSnapshotReads, type IssueSnapshot } from "./snapshot";
import { issueView, type IssueRow } from "./view";

export const CHECKOUT_CONFLICT = "Issue checkout conflict";

const conflictDetails = (issue: IssueRow) => ({
  issueId: issue.id,
  status: issue.status,
  assigneeAgentId: issue.assigneeAgentId,
  checkoutRunId: issue.checkoutRunId,
});

/** Holds while the issue's lock state is what the rule read. */
const lockUnchanged = (ctx: CommandContext, issue: IssueRow) => ctx.guard(lockAsRead(issue));

function requireSnapshot(scope: LoadScope | { companyId: string }, snapshot: IssueSnapshot | null): IssueSnapshot {
  if (!snapshot || (scope.companyId && snapshot.issue.companyId !== scope.companyId)) throw notFound("Issue not found");
  return snapshot;
}

export interface CheckoutInput {
  issueId: string;
  agentId: string;
  expectedStatuses: string[];
}

interface CheckoutLoaded {
  snapshot: IssueSnapshot;
  run: ActorRunFacts | null;
  project: { id: string; pausedAt: string | null; pauseReason: string | null } | null;
  workspaceClosed: boolean;
}

export const checkoutIssue = defineCommand("issue.checkout", {
  load: async (db: Db, scope, input: CheckoutInput): Promise<CheckoutLoaded> => {
    const { actor } = scope;
    if (actor.type !== "agent") throw forbidden("Only agents check out issues (as themselves)");
    if (actor.agentId !== input.agentId) throw forbidden("An agent may check out issues only as itself", { agentId: input.agentId });
    requireRunId(actor);
    const batch = new ReadBatch(db);
    const snapshot = addIssueSnapshotReads(batch, input.issueId);
    const run = addActorRunRead(batch, actor);
    const issueCol = (column: SQLColumn) => sql`(SELECT ${column} FROM ${schema.issues} WHERE ${schema.issues.id} = ${issueIdOf(input.issueId)})`;
    const project = batch.add(
      db
        .select({ id: schema.projects.id, pausedAt: schema.projects.pausedAt, pauseReason: schema.projects.pauseReason })
        .from(schema.projects)
        .where(sql`${schema.projects.id} = ${issueCol(schema.issues.projectId)}`),
    );
    const workspace = batch.add(
      db
        .select({ closed: sql<number>`${closedIsolatedWorkspace(sql`${schema.issues.executionWorkspaceId}`)}` })
        .from(schema.issues)
        .where(issueRefCondition(input.issueId)),
    );
    await batch.run();
    return {
      snapshot: requireSnapshot(scope, snapshot()),
      run: run?.() ?? null,
      project: project.value[0] ?? null,
      workspaceClosed: Boolean(workspace.value[0]?.closed),
    };
  },
  run: async (ctx, actor, input, loaded) => {
    const { issue } = requireSnapshot(ctx, loaded.snapshot);
    if (actor.type !== "agent") throw forbidden("Only agents check out issues (as themselves)");
    if (loaded.project?.pausedAt) {
      throw conflict("Project is paused", {
        ...conflictDetails(issue),
        projectId: loaded.project.id,
        pausedAt: loaded.project.pausedAt,
        pauseReason: loaded.project.pauseReason,
      });
    }
    if (loaded.workspaceClosed)
      throw conflict("Execution workspace is closed", { ...conflictDetails(issue), executionWorkspaceId: issue.executionWorkspaceId });
    const run = actorRunFrom(ctx, actor, loaded.run)!;
    if (!isLiveStatus(run.run.status)) throw conflict(CHECKOUT_CONFLICT, { ...conflictDetails(issue), reason: `run ${run.run.id} is ${run.run.status}` });
    const agentId = actor.agentId;
    const relations = loaded.snapshot.relations;

    // Same owner asking again: nothing changes.
    if (issue.status === "in_progress" && issue.assigneeAgentId === agentId && issue.checkoutRunId === run.run.id) {
      await ctx.batch(run.statements);
      return issueView(issue, relations);
    }
    if (!input.expectedStatuses.includes(issue.status)) throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));

    const statements: Statement[] = [lockUnchanged(ctx, issue)];
    let adoptedFromRunId: string | null = null;
    let holderTimedOut = false;
    if (issue.status === "in_progress" || issue.checkoutRunId) {
      // A held lock: adoptable only by the same agent when the holding run is over (or lease-expired).
      if (issue.assigneeAgentId && issue.assigneeAgentId !== agentId) throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));
      if (issue.checkoutRunId) {
        const holder = loaded.snapshot.checkoutRun;
        if (!runIsStale(holder, ctx.now, runLeaseMs(ctx.env))) throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));
        adoptedFromRunId = issue.checkoutRunId;
        if (holder && isLiveStatus(holder.status) && leaseExpired(holder, ctx.now, runLeaseMs(ctx.env))) {
          statements.push(
            ctx.db
              .update(schema.heartbeatRuns)
              .set({ status: "timed_out", finishedAt: ctx.now, updatedAt: ctx.now, error: "run lease expired; lock adopted" })
              .where(and(eq(schema.heartbeatRuns.id, holder.id), eq(schema.heartbeatRuns.status, holder.status))),
          );
          holderTimedOut = true;
        }
      }
    } else if (issue.assigneeAgentId && issue.assigneeAgentId !== agentId) {
      throw conflict(CHECKOUT_CONFLICT, conflictDetails(issue));
    }
    // Project pause and workspace closing do not go through this object: the batch re-checks them.
    if (issue.projectId)
      statements.push(ctx.guard(noRowExists(schema.projects, and(eq(schema.projects.id, issue.projectId), isNotNull(schema.projects.pausedAt))!)));
    if (issue.executionWorkspaceId) statements.push(ctx.guard(sql`NOT ${closedIsolatedWorkspace(issue.executionWorkspaceId)}`));

    const set = {
      status: "in_progress" as const,
      assigneeAgentId: agentId,
      checkoutRunId: run.run.id,
      checkedOutAt: ctx.now,
      executionLockedAt: null,
      startedAt: issue.startedAt ?? ctx.now,
      completedAt: null,
      cancelledAt: null,
      updatedAt: ctx.now,
    };
    statements.push(
      ctx.db.update(schema.issues).set(set).where(eq(schema.issues.id, issue.id)),
      ...run.statements,
      runLinkStatement(ctx, issue.id, run.run.id),
      ctx.activity({
        action: "issue.checked_out",
        entityType: "issue",
        entityId: issue.id,
        details: { identifier: issue.identifier, fromStatus: issue.status, runId: run.run.id, ...(adoptedFromRunId ? { adoptedFromRunId } : {}) },
      }),
    );
    await ctx.batch(statements);
    // A run that timed out frees its agent's slot: the dispatcher hands out what waited for it.
    if (holderTimedOut) ctx.requestDispatch();
    return issueView({ ...issue, ...set }, relations);
  },
});

interface ReleaseLoaded {
  snapshot: IssueSnapshot;
  run: ActorRunFacts | null;
}

export const releaseIssue = defineCommand("issue.release", {
  load: async (db: Db, scope, input: { issueId: string }): Promise<ReleaseLoaded> => {
    const batch = new ReadBatch(db);
    const snapshot = addIssueSnapshotReads(batch, input.issueId);
    const run = addActorRunRead(batch, scope.actor);
    await batch.run();
    const runFacts = run?.() ?? null;
    actorRunSeen(scope.actor, runFacts);
    return { snapshot: requireSnapshot(scope, snapshot()), run: runFacts };
  },
  run: async (ctx, actor, _input, loaded) => {
    const { issue, relations } = requireSnapshot(ctx, loaded.snapshot);
    if (issue.status !== "in_progress" && !issue.checkoutRunId) throw conflict("Issue is not checked out", conflictDetails(issue));
    const statements: Statement[] = [lockUnchanged(ctx, issue)];
    if (actor.type === "agent") {
      requireRunId(actor);
      if (issue.assigneeAgentId !== actor.agentId) {
        throw forbidden("Only the board or the assignee's current checkout run may release an issue", conflictDetails(issue));
      }
      const run = actorRunFrom(ctx, actor, loaded.run)!;
      if (issue.checkoutRunId && issue.checkoutRunId !== run.run.id) throw conflict(OWNERSHIP_CONFLICT, { ...conflictDetails(issue), actorRunId: run.run.id });
      statements.push(...run.statements, runLinkStatement(ctx, issue.id, run.run.id));
    } else if (actor.type !== "board") {
      throw forbidden("Only the board or the assignee's current checkout run may release an issue");
    }
    // One statement clears the assignee agent and every lock field; assigneeUserId stays.
    const set = { ...RELEASED_ISSUE_FIELDS, updatedAt: ctx.now };
    // Wake-ups that waited for this issue's holder are queued again (and dispatched now).
    const requeueDeferred = ctx.db
      .update(schema.agentWakeupRequests)
      .set({ status: "queued", updatedAt: ctx.now })
      .where(and(eq(schema.agentWakeupRequests.issueId, issue.id), eq(schema.agentWakeupRequests.status, "deferred_issue_execution")));
    statements.push(
      ctx.db.update(schema.issues).set(set).where(eq(schema.issues.id, issue.id)),
      requeueDeferred,
      ctx.activity({
        action: "issue.released",
        entityType: "issue",
        entityId: issue.id,
        details: { identifier: issue.identifier, fromStatus: issue.status, releasedRunId: issue.checkoutRunId, previousAssigneeAgentId: issue.assigneeAgentId },
      }),
    );
    const results = await ctx.batch(statements);
    // Releasing ends no run: the dispatcher has work only when deferred wake-ups were queued again.
    if (changedRows(results[statements.indexOf(requeueDeferred)]) > 0) ctx.requestDispatch();
    return issueView({ ...issue, ...set }, relations);
  },
});

/** Rows an UPDATE of a batch changed (its D1 result's meta). */
const changedRows = (result: unknown) => (result as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0;

type SQLColumn = AnySQLiteColumn;

export const checkoutCommands = [checkoutIssue, releaseIssue];
