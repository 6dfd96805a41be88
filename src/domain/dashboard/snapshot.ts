// The company dashboard snapshot: one indexed aggregate query (scalar sub-selects over
// agents, issues, approvals, cost_events, budget_incidents and projects), no row loading.
import { eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { utcMonth } from "../time";

/** [start, end) of the UTC calendar month containing `now`, as ISO strings. */
export function utcMonthRange(now: string) {
  const month = utcMonth(now);
  const [y, m] = month.split("-").map(Number);
  const next = new Date(Date.UTC(y, m, 1)).toISOString();
  return { start: `${month}-01T00:00:00.000Z`, end: next };
}

/** spend / budget as a percentage rounded to two decimals; 0 when there is no budget. */
export const utilizationPercent = (spend: number, budget: number) => (budget > 0 ? Math.round((spend / budget) * 10_000) / 100 : 0);

export async function dashboardSnapshot(db: Db, companyId: string, now: string) {
  const { start, end } = utcMonthRange(now);
  const n = (q: ReturnType<typeof sql>) => sql<number>`${q}`.mapWith(Number);
  const [row] = await db
    .select({
      budgetCents: schema.companies.budgetMonthlyCents,
      agentsActive: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${companyId} AND status IN ('active', 'idle'))`),
      agentsRunning: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${companyId} AND status = 'running')`),
      agentsPaused: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${companyId} AND status = 'paused')`),
      agentsError: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${companyId} AND status = 'error')`),
      tasksOpen: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${companyId} AND status NOT IN ('done', 'cancelled'))`),
      tasksInProgress: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${companyId} AND status = 'in_progress')`),
      tasksBlocked: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${companyId} AND status = 'blocked')`),
      tasksDone: n(sql`(SELECT COUNT(*) FROM issues WHERE company_id = ${companyId} AND status = 'done')`),
      monthSpendCents: n(
        sql`(SELECT COALESCE(SUM(cost_cents), 0) FROM cost_events WHERE company_id = ${companyId} AND occurred_at >= ${start} AND occurred_at < ${end})`,
      ),
      pendingApprovals: n(sql`(SELECT COUNT(*) FROM approvals WHERE company_id = ${companyId} AND status = 'pending')`),
      budgetPendingApprovals: n(
        sql`(SELECT COUNT(*) FROM approvals WHERE company_id = ${companyId} AND status = 'pending' AND type = 'budget_override_required')`,
      ),
      activeIncidents: n(sql`(SELECT COUNT(*) FROM budget_incidents WHERE company_id = ${companyId} AND status = 'open')`),
      budgetPausedAgents: n(sql`(SELECT COUNT(*) FROM agents WHERE company_id = ${companyId} AND status = 'paused' AND pause_reason = 'budget')`),
      budgetPausedProjects: n(sql`(SELECT COUNT(*) FROM projects WHERE company_id = ${companyId} AND paused_at IS NOT NULL AND pause_reason = 'budget')`),
    })
    .from(schema.companies)
    .where(eq(schema.companies.id, companyId));
  if (!row) return null;
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
