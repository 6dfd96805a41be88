// The company dashboard snapshot: one indexed aggregate query (scalar sub-selects over agents,
// issues, approvals, budget_incidents and projects; the month's spend from the company's exact
// month counter, src/domain/costs/commands.ts), added to the request's read batch so the access
// check and the snapshot cost one D1 round trip together.
import { eq, sql, type SQL } from "drizzle-orm";
import { schema } from "../../db/client";
import type { ReadBatch } from "../../db/read-batch";
import { template } from "../../db/templates";
import { currentWindow, utilizationPercent } from "../budgets/windows";

export type DashboardSnapshot = ReturnType<typeof toSnapshot>;

/** The snapshot's query, built once per isolate (src/db/templates.ts): drizzle's building of its
 * fourteen sub-selects was the largest part of the request's JavaScript. */
const snapshotQuery = template(["companyId", "monthKey", "monthStart", "monthEnd"], (db, s) => {
  const n = (q: SQL) => sql<number>`${q}`.mapWith(Number);
  const c = schema.companies;
  return db
    .select({
      budgetCents: c.budgetMonthlyCents,
      agentsActive: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${s.companyId} AND status IN ('active', 'idle'))`),
      agentsRunning: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${s.companyId} AND status = 'running')`),
      agentsPaused: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${s.companyId} AND status = 'paused')`),
      agentsError: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${s.companyId} AND status = 'error')`),
      tasksOpen: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${s.companyId} AND status NOT IN ('done', 'cancelled'))`),
      tasksInProgress: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${s.companyId} AND status = 'in_progress')`),
      tasksBlocked: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${s.companyId} AND status = 'blocked')`),
      tasksDone: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${s.companyId} AND status = 'done')`),
      // The counter is exact while it is this month's (every cost event updates it in the batch that
      // records it); before the month's first event it is last month's, and the sum is read instead.
      monthSpendCents: n(
        sql`CASE WHEN ${c.spentMonth} = ${s.monthKey} THEN ${c.spentMonthlyCents} ELSE (SELECT COALESCE(SUM(cost_cents), 0) FROM cost_events WHERE company_id = ${s.companyId} AND occurred_at >= ${s.monthStart} AND occurred_at < ${s.monthEnd}) END`,
      ),
      pendingApprovals: n(sql`(SELECT COUNT(*) FROM approvals WHERE company_id = ${s.companyId} AND status = 'pending')`),
      budgetPendingApprovals: n(
        sql`(SELECT COUNT(*) FROM approvals WHERE company_id = ${s.companyId} AND status = 'pending' AND type = 'budget_override_required')`,
      ),
      activeIncidents: n(sql`(SELECT COUNT(*) FROM budget_incidents WHERE company_id = ${s.companyId} AND status = 'open')`),
      budgetPausedAgents: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${s.companyId} AND status = 'paused' AND pause_reason = 'budget')`),
      budgetPausedProjects: n(sql`(SELECT COUNT(*) FROM projects WHERE company_id = ${s.companyId} AND paused_at IS NOT NULL AND pause_reason = 'budget')`),
    })
    .from(c)
    .where(eq(c.id, s.companyId));
});

/** Adds the snapshot's query to `batch`; the returned reader (after the batch ran) gives the snapshot, or null for a missing company. */
export function addDashboardRead(batch: ReadBatch, companyId: string, now: string): () => DashboardSnapshot | null {
  const month = currentWindow("calendar_month_utc", now);
  const read = batch.add(snapshotQuery(batch.db, { companyId, monthKey: month.key, monthStart: month.start, monthEnd: month.end }));
  return () => {
    const row = read.value[0];
    return row ? toSnapshot(companyId, row) : null;
  };
}

type SnapshotRow = {
  budgetCents: number;
  agentsActive: number;
  agentsRunning: number;
  agentsPaused: number;
  agentsError: number;
  tasksOpen: number;
  tasksInProgress: number;
  tasksBlocked: number;
  tasksDone: number;
  monthSpendCents: number;
  pendingApprovals: number;
  budgetPendingApprovals: number;
  activeIncidents: number;
  budgetPausedAgents: number;
  budgetPausedProjects: number;
};

function toSnapshot(companyId: string, row: SnapshotRow) {
  return {
    companyId,
    agents: { active: row.agentsActive, running: row.agentsRunning, paused: row.agentsPaused, error: row.agentsError },
    tasks: { open: row.tasksOpen, inProgress: row.tasksInProgress, blocked: row.tasksBlocked, done: row.tasksDone },
    costs: {
      monthSpendCents: row.monthSpendCents,
      monthBudgetCents: row.budgetCents,
      monthUtilizationPercent: utilizationPercent(row.monthSpendCents, row.budgetCents),
    },
    pendingApprovals: row.pendingApprovals,
    budgets: {
      activeIncidents: row.activeIncidents,
      pendingApprovals: row.budgetPendingApprovals,
      pausedAgents: row.budgetPausedAgents,
      pausedProjects: row.budgetPausedProjects,
    },
  };
}
