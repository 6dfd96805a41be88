// Issue-graph liveness recovery: in_progress issues whose checkout run is missing, finished, or
// live but idle past a threshold hold a lock nobody will release. Preview lists them; run releases
// them to `todo` with every lock field cleared, one guarded statement per company.
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { RELEASED_ISSUE_FIELDS } from "../issues/locks";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { defineCommand } from "../../company/command";
import { LIVE_RUN_STATUSES } from "../../db/schema/runs";

export const LIVENESS_SCAN_LIMIT = 500;

const runActivity = sql`COALESCE(${schema.heartbeatRuns.lastActivityAt}, ${schema.heartbeatRuns.startedAt}, ${schema.heartbeatRuns.createdAt})`;
const liveList = sql.join(
  LIVE_RUN_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

/** The SQL condition "this issue's checkout run is gone, finished, or idle since before `staleBefore`". */
function stuckCondition(staleBefore: string) {
  return sql`NOT EXISTS (SELECT 1 FROM heartbeat_runs r WHERE r.id = ${schema.issues.checkoutRunId} AND r.status IN (${liveList}) AND COALESCE(r.last_activity_at, r.started_at, r.created_at) >= ${staleBefore})`;
}

export async function findStuckIssues(db: Db, options: { companyId?: string; staleBefore: string }) {
  const rows = await db
    .select({
      issueId: schema.issues.id,
      companyId: schema.issues.companyId,
      identifier: schema.issues.identifier,
      title: schema.issues.title,
      assigneeAgentId: schema.issues.assigneeAgentId,
      checkoutRunId: schema.issues.checkoutRunId,
      runId: schema.heartbeatRuns.id,
      runStatus: schema.heartbeatRuns.status,
      lastActivityAt: runActivity,
    })
    .from(schema.issues)
    .leftJoin(schema.heartbeatRuns, eq(schema.heartbeatRuns.id, schema.issues.checkoutRunId))
    .where(
      and(
        eq(schema.issues.status, "in_progress"),
        isNotNull(schema.issues.checkoutRunId),
        options.companyId ? eq(schema.issues.companyId, options.companyId) : undefined,
        stuckCondition(options.staleBefore),
      ),
    )
    .orderBy(schema.issues.companyId, schema.issues.updatedAt)
    .limit(LIVENESS_SCAN_LIMIT);
  return rows.map((r) => ({
    issueId: r.issueId,
    companyId: r.companyId,
    identifier: r.identifier,
    title: r.title,
    assigneeAgentId: r.assigneeAgentId ?? null,
    checkoutRunId: r.checkoutRunId!,
    runStatus: r.runStatus ?? null,
    reason: !r.runId
      ? ("run_missing" as const)
      : (LIVE_RUN_STATUSES as readonly string[]).includes(r.runStatus!)
        ? ("run_idle" as const)
        : ("run_finished" as const),
    lastActivityAt: r.runId ? (r.lastActivityAt ?? null) : null,
  }));
}

export type StuckIssue = Awaited<ReturnType<typeof findStuckIssues>>[number];

/** Releases this company's stuck issues (re-checked here, inside the company's serial section). */
export const recoverStuckIssues = defineCommand("access.liveness.recover", async (ctx, actor, input: { staleBefore: string; staleAfterMinutes: number }) => {
  const stuck = await findStuckIssues(ctx.db, { companyId: ctx.companyId, staleBefore: input.staleBefore });
  if (!stuck.length) return { recovered: [] as StuckIssue[] };
  const ids = stuck.map((s) => s.issueId);
  const statements: Statement[] = [
    // One statement for the company; it carries its own precondition, so an issue that came alive is left alone.
    ctx.db
      .update(schema.issues)
      .set({ ...RELEASED_ISSUE_FIELDS, updatedAt: ctx.now })
      .where(
        and(
          eq(schema.issues.companyId, ctx.companyId),
          eq(schema.issues.status, "in_progress"),
          isNotNull(schema.issues.checkoutRunId),
          inIds(schema.issues.id, ids),
          stuckCondition(input.staleBefore),
        ),
      ),
    ...stuck.map((s) =>
      ctx.activity({
        action: "issue.liveness_recovered",
        entityType: "issue",
        entityId: s.issueId,
        agentId: s.assigneeAgentId,
        details: {
          identifier: s.identifier,
          reason: s.reason,
          checkoutRunId: s.checkoutRunId,
          runStatus: s.runStatus,
          previousAssigneeAgentId: s.assigneeAgentId,
          staleAfterMinutes: input.staleAfterMinutes,
        },
      }),
    ),
  ];
  await ctx.batch(statements);
  return { recovered: stuck };
});

export const livenessCommands = [recoverStuckIssues];
