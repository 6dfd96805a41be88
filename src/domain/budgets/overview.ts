// Budget overview read model: every policy with its current window's observed spend (one SQL
// query with a correlated, indexed SUM per policy), open incidents, and budget-paused counts.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { budgetIncidentView, budgetPolicyStateView } from "./view";
import { currentWindow } from "./windows";

export async function budgetOverview(db: Db, companyId: string, now: string) {
  const month = currentWindow("calendar_month_utc", now);
  const lifetime = currentWindow("lifetime", now);
  const bp = schema.budgetPolicies;
  const from = sql`CASE WHEN ${bp.windowKind} = 'lifetime' THEN '' ELSE ${month.start} END`;
  const to = sql`CASE WHEN ${bp.windowKind} = 'lifetime' THEN '~' ELSE ${month.end} END`;
  const spent = (scope: ReturnType<typeof sql>) =>
    sql`(SELECT COALESCE(SUM(e.cost_cents), 0) FROM cost_events e WHERE e.company_id = ${bp.companyId} ${scope} AND e.occurred_at >= ${from} AND e.occurred_at < ${to})`;
  const observed = sql<number>`CASE ${bp.scopeType}
      WHEN 'company' THEN ${spent(sql``)}
      WHEN 'agent' THEN ${spent(sql`AND e.agent_id = ${bp.scopeId}`)}
      ELSE ${spent(sql`AND e.project_id = ${bp.scopeId}`)} END`.mapWith(Number);

  const [policies, incidents, [counts]] = await Promise.all([
    db
      .select({ policy: bp, observedCents: observed })
      .from(bp)
      .where(eq(bp.companyId, companyId))
      .orderBy(asc(bp.scopeType), asc(bp.scopeId), asc(bp.windowKind)),
    db
      .select()
      .from(schema.budgetIncidents)
      .where(and(eq(schema.budgetIncidents.companyId, companyId), eq(schema.budgetIncidents.status, "open")))
      .orderBy(desc(schema.budgetIncidents.createdAt)),
    db
      .select({
        pausedAgentCount:
          sql<number>`(SELECT COUNT(*) FROM agents a WHERE a.company_id = ${companyId} AND a.status = 'paused' AND a.pause_reason = 'budget')`.mapWith(Number),
        pausedProjectCount:
          sql<number>`(SELECT COUNT(*) FROM projects p WHERE p.company_id = ${companyId} AND p.paused_at IS NOT NULL AND p.pause_reason = 'budget')`.mapWith(
            Number,
          ),
        pendingApprovalCount:
          sql<number>`(SELECT COUNT(*) FROM approvals ap WHERE ap.company_id = ${companyId} AND ap.type = 'budget_override_required' AND ap.status = 'pending')`.mapWith(
            Number,
          ),
      })
      .from(schema.companies)
      .where(eq(schema.companies.id, companyId)),
  ]);

  return {
    companyId,
    asOf: now,
    policies: policies.map((p) => budgetPolicyStateView(p.policy, p.policy.windowKind === "lifetime" ? lifetime : month, p.observedCents)),
    activeIncidents: incidents.map(budgetIncidentView),
    pausedAgentCount: counts?.pausedAgentCount ?? 0,
    pausedProjectCount: counts?.pausedProjectCount ?? 0,
    pendingApprovalCount: counts?.pendingApprovalCount ?? 0,
  };
}

/** The company's budget incidents, newest first: open, resolved, or both. */
export async function listBudgetIncidents(db: Db, companyId: string, filter: { status?: "open" | "resolved"; limit: number }) {
  const t = schema.budgetIncidents;
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.companyId, companyId), filter.status ? eq(t.status, filter.status) : undefined))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(filter.limit);
  return rows.map(budgetIncidentView);
}
