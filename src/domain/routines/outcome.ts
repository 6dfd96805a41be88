// Routine runs follow their execution issue: `completed` when it reaches done, `failed` when it is
// cancelled. The statement goes into the issue update's own batch (no extra round trip).
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Statement } from "../../db/batch";

/** The update of the issue's open routine runs when an execution issue moves to done or cancelled; null otherwise. */
export function routineRunOutcomeStatement(ctx: CommandContext, issue: { id: string; originKind: string }, from: string, to: string): Statement | null {
  if (issue.originKind !== "routine_execution" || from === to || (to !== "done" && to !== "cancelled")) return null;
  const runs = schema.routineRuns;
  return ctx.db
    .update(runs)
    .set(
      to === "done"
        ? { status: "completed", completedAt: ctx.now, updatedAt: ctx.now }
        : { status: "failed", failureReason: "issue_cancelled", completedAt: ctx.now, updatedAt: ctx.now },
    )
    .where(and(eq(runs.companyId, ctx.companyId), eq(runs.linkedIssueId, issue.id), inArray(runs.status, ["issue_created", "coalesced"])));
}
