// Agent-only views of issues: GET /api/agents/me/inbox-lite. Mounted before the agents router
// so that `/api/agents/{agentId}` does not shadow it.
import { idList, inIds } from "../db/id-list";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, isNull, notInArray, sql } from "drizzle-orm";
import { createRouter } from "../http/router";
import { createDb, schema } from "../db/client";
import { requireAgent } from "../http/access";
import { errors, jsonContent } from "../schemas/common";
import { InboxLiteItemSchema } from "../schemas/issues";
import { PRIORITY_RANK } from "../domain/issues/list";
import { runIsStale, runLeaseMs } from "../domain/runs/lease";

export const issuesAgentViewsRouter = createRouter();

issuesAgentViewsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/agents/me/inbox-lite",
    tags: ["Agents", "Issues"],
    summary: "The calling agent's open assigned issues, compact (agent only)",
    description:
      "Issues assigned to the calling agent that are not done or cancelled (hidden ones left out), by priority then latest update. " +
      "activeRun: the live run holding the issue's checkout (null if none or stale). dependencyReady is false while any blocker is not done or cancelled; " +
      "unresolvedBlockerIssueIds lists those blockers.",
    responses: { 200: jsonContent(z.array(InboxLiteItemSchema), "Inbox items"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireAgent(c);
    const db = createDb(c.env.DB);
    const t = schema.issues;
    const rows = await db
      .select()
      .from(t)
      .where(
        and(
          eq(t.companyId, actor.companyId),
          eq(t.assigneeAgentId, actor.agentId),
          notInArray(t.status, ["done", "cancelled"]),
          isNull(t.hiddenAt),
        ),
      )
      .orderBy(PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id)
      .limit(500);
    const ids = rows.map((r) => r.id);
    const runIds = rows.map((r) => r.checkoutRunId).filter((x): x is string => Boolean(x));
    const [blockers, runs] = await Promise.all([
      ids.length
        ? db.all<{ issue_id: string; blocker_issue_id: string }>(sql`
            SELECT b.issue_id, b.blocker_issue_id FROM issue_blockers b JOIN issues o ON o.id = b.blocker_issue_id
            WHERE b.issue_id IN ${idList(ids)} AND o.status NOT IN ('done', 'cancelled')
            ORDER BY o.number`)
        : [],
      runIds.length ? db.select().from(schema.heartbeatRuns).where(inIds(schema.heartbeatRuns.id, runIds)) : [],
    ]);
    const openBlockers = new Map<string, string[]>();
    for (const b of blockers) openBlockers.set(b.issue_id, [...(openBlockers.get(b.issue_id) ?? []), b.blocker_issue_id]);
    const runById = new Map(runs.map((r) => [r.id, r]));
    const now = new Date().toISOString();
    const lease = runLeaseMs(c.env);
    return c.json(
      rows.map((r) => {
        const run = r.checkoutRunId ? runById.get(r.checkoutRunId) : undefined;
        const unresolved = openBlockers.get(r.id) ?? [];
        return {
          id: r.id,
          identifier: r.identifier,
          title: r.title,
          status: r.status,
          priority: r.priority,
          projectId: r.projectId ?? null,
          goalId: r.goalId ?? null,
          parentId: r.parentId ?? null,
          updatedAt: r.updatedAt,
          activeRun:
            run && !runIsStale(run, now, lease) ? { id: run.id, status: run.status, agentId: run.agentId, startedAt: run.startedAt ?? null } : null,
          dependencyReady: unresolved.length === 0,
          unresolvedBlockerCount: unresolved.length,
          unresolvedBlockerIssueIds: unresolved,
        };
      }),
      200,
    );
  },
);
