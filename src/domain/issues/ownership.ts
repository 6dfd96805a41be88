// Run ownership of checked-out issues: an agent mutating an `in_progress` issue must say which
// run it acts in, and only the run holding the checkout may update it (or comment as its assignee).
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { conflict } from "../errors";
import { requireRunId, resolveActorRun, type ActorRun } from "../runs/actor-run";
import { isLiveStatus } from "../runs/lease";
import { schema } from "../../db/client";
import type { IssueRow } from "./view";

export const OWNERSHIP_CONFLICT = "Issue run ownership conflict";

/**
 * For agent callers: the run they act in (recorded if new), after the ownership check.
 * `comment` by an agent other than the assignee is allowed (agents talk on each other's issues);
 * an `update` by any agent, or a comment by the assignee, must come from the holding run.
 */
export async function agentRunForIssueMutation(
  ctx: CommandContext,
  actor: Actor,
  issue: IssueRow,
  kind: "update" | "comment",
): Promise<ActorRun | null> {
  if (actor.type !== "agent") return null;
  if (issue.status === "in_progress") requireRunId(actor);
  const run = await resolveActorRun(ctx, actor);
  if (issue.status !== "in_progress" || !issue.checkoutRunId || !run) return run;
  if (kind === "comment" && issue.assigneeAgentId !== actor.agentId) return run;
  if (issue.checkoutRunId !== run.run.id || !isLiveStatus(run.run.status)) {
    throw conflict(OWNERSHIP_CONFLICT, {
      issueId: issue.id,
      status: issue.status,
      assigneeAgentId: issue.assigneeAgentId,
      checkoutRunId: issue.checkoutRunId,
      actorRunId: run.run.id,
      actorRunStatus: run.run.status,
    });
  }
  return run;
}

/** Remembers that a run touched an issue (for GET /api/issues/{id}/runs). */
export function runLinkStatement(ctx: CommandContext, issueId: string, runId: string) {
  return ctx.db
    .insert(schema.issueRunLinks)
    .values({ issueId, runId, companyId: ctx.companyId, createdAt: ctx.now })
    .onConflictDoNothing();
}
