// Run ownership of checked-out issues: an agent mutating an `in_progress` issue must say which
// run it acts in, and only the run holding the checkout may update it (or comment as its assignee).
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { conflict } from "../errors";
import { actorRunFrom, requireRunId, type ActorRun, type ActorRunFacts, type RunRow } from "../runs/actor-run";
import { isLiveStatus } from "../runs/lease";
import { schema } from "../../db/client";
import type { IssueRow } from "./view";

export const OWNERSHIP_CONFLICT = "Issue run ownership conflict";

/**
 * The ownership rule: an agent mutating an `in_progress` issue must act in a run (401 without a
 * run id); a `comment` by an agent other than the assignee is allowed (agents talk on each other's
 * issues); an `update` by any agent, or a comment by the assignee, must come from the live run
 * holding the checkout (409 otherwise).
 */
export function requireIssueRunOwnership(actor: Actor, issue: IssueRow, run: Pick<RunRow, "id" | "status"> | null, kind: "update" | "comment"): void {
  if (actor.type !== "agent") return;
  if (issue.status === "in_progress") requireRunId(actor);
  if (issue.status !== "in_progress" || !issue.checkoutRunId || !run) return;
  if (kind === "comment" && issue.assigneeAgentId !== actor.agentId) return;
  if (issue.checkoutRunId !== run.id || !isLiveStatus(run.status)) {
    throw conflict(OWNERSHIP_CONFLICT, {
      issueId: issue.id,
      status: issue.status,
      assigneeAgentId: issue.assigneeAgentId,
      checkoutRunId: issue.checkoutRunId,
      actorRunId: run.id,
      actorRunStatus: run.status,
    });
  }
}

/** For agent callers: the run they act in (recorded if new), after the ownership check. */
export function agentRunForIssueMutation(
  ctx: CommandContext,
  actor: Actor,
  issue: IssueRow,
  kind: "update" | "comment",
  facts: ActorRunFacts | null | undefined,
): ActorRun | null {
  if (actor.type !== "agent") return null;
  const run = actorRunFrom(ctx, actor, facts);
  requireIssueRunOwnership(actor, issue, run?.run ?? null, kind);
  return run;
}

/** Remembers that a run touched an issue (for GET /api/issues/{id}/runs). */
export function runLinkStatement(ctx: CommandContext, issueId: string, runId: string) {
  return ctx.db.insert(schema.issueRunLinks).values({ issueId, runId, companyId: ctx.companyId, createdAt: ctx.now }).onConflictDoNothing();
}
