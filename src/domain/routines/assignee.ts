// An active routine whose assignee can no longer be invoked (terminated) or is gone (deleted) is
// paused, and its schedules stop; a deleted agent is also cleared from its routines. The
// statements join the agent command's own batch.
import { and, eq, inArray, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Statement } from "../../db/batch";

export function pauseRoutinesOfAgentStatements(ctx: CommandContext, agentId: string, { clearAssignee = false } = {}): Statement[] {
  const r = schema.routines;
  const ofAgent = and(eq(r.companyId, ctx.companyId), eq(r.assigneeAgentId, agentId));
  return [
    // Schedules of the routines about to be paused stop (their next slot is counted again on resume).
    ctx.db
      .update(schema.routineTriggers)
      .set({ nextRunAt: null })
      .where(
        inArray(
          schema.routineTriggers.routineId,
          ctx.db
            .select({ id: r.id })
            .from(r)
            .where(and(ofAgent, eq(r.status, "active"))),
        ),
      ),
    ctx.db
      .update(r)
      .set({
        status: sql`CASE WHEN ${r.status} = 'active' THEN 'paused' ELSE ${r.status} END`,
        ...(clearAssignee ? { assigneeAgentId: null } : {}),
        version: sql`${r.version} + 1`,
        updatedAt: ctx.now,
      })
      .where(ofAgent),
  ];
}
