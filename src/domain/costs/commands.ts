// Cost and finance mutations, run inside the company's Durable Object. Reporting a cost event
// stores it, keeps the agent and company month-spend counters exact, logs `cost.reported` and
// evaluates every active budget policy whose scope the event touches.
import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import { template } from "../../db/templates";
import type { BillingType } from "../../db/schema/costs";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { activityInsert } from "../activity/record";
import { enforcementStatements, incidentKeyOf, type PolicySpend } from "../budgets/enforcement";
import { currentWindow, inWindow } from "../budgets/windows";

export interface CostEventInput {
  agentId: string;
  provider: string;
  model: string;
  costCents: number;
  /** Normalised ISO-8601 UTC. */
  occurredAt: string;
  issueId?: string | null;
  projectId?: string | null;
  goalId?: string | null;
  heartbeatRunId?: string | null;
  billingCode?: string | null;
  biller?: string | null;
  billingType?: BillingType;
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
}

export type CostEventRow = typeof schema.costEvents.$inferSelect;
export type FinanceEventRow = typeof schema.financeEvents.$inferSelect;

// The batch's statements, built once per isolate (src/db/templates.ts): a cost event is the hottest
// write of a busy company. Lists of ids (a group's agents and projects) are bound as JSON arrays, so
// the statements keep one shape whatever the group holds.
const COST_EVENT_COLUMNS = Object.keys(getTableColumns(schema.costEvents)) as Array<keyof CostEventRow>;
const insertCostEvent = template(COST_EVENT_COLUMNS, (db, slot) => db.insert(schema.costEvents).values(slot));

/** A month counter: incremented while it is this month's, else the month's exact sum. */
const monthCounter = (table: "agents" | "companies", scopeColumn: "agent_id" | "company_id") =>
  template(["id", "companyId", "monthKey", "increment", "start", "end"], (db, s) => {
    const t = table === "agents" ? schema.agents : schema.companies;
    return db
      .update(t)
      .set({
        spentMonthlyCents: sql`CASE WHEN spent_month = ${s.monthKey} THEN spent_monthly_cents + ${s.increment} ELSE (SELECT COALESCE(SUM(cost_cents), 0) FROM cost_events WHERE company_id = ${s.companyId} AND ${sql.raw(scopeColumn)} = ${s.id} AND occurred_at >= ${s.start} AND occurred_at < ${s.end}) END`,
        spentMonth: sql`${s.monthKey}`,
      })
      .where(table === "agents" ? and(eq(schema.agents.id, s.id), eq(schema.agents.companyId, s.companyId)) : eq(schema.companies.id, s.id));
  });
const updateAgentCounter = monthCounter("agents", "agent_id");
const updateCompanyCounter = monthCounter("companies", "company_id");

/** A policy or incident scope the group touches: the company, one of its agents, or one of its projects. */
const scopeMatch = (scopeType: SQL, scopeId: SQL, s: { companyId: unknown; agentIds: unknown; projectIds: unknown }) =>
  sql`((${scopeType} = 'company' AND ${scopeId} = ${s.companyId})
    OR (${scopeType} = 'agent' AND ${scopeId} IN (SELECT value FROM json_each(${s.agentIds})))
    OR (${scopeType} = 'project' AND ${scopeId} IN (SELECT value FROM json_each(${s.projectIds}))))`;

/** The active policies the group touches, with their spend after it (monthly company and agent spend from the counters just updated; other windows are indexed SUMs). */
const readPolicies = template(["companyId", "agentIds", "projectIds", "monthStart", "monthEnd"], (db, s) => {
  const bp = schema.budgetPolicies;
  const windowFrom = sql`CASE WHEN ${bp.windowKind} = 'lifetime' THEN '' ELSE ${s.monthStart} END`;
  const windowTo = sql`CASE WHEN ${bp.windowKind} = 'lifetime' THEN '~' ELSE ${s.monthEnd} END`;
  const windowSum = (scope: SQL) =>
    sql`(SELECT COALESCE(SUM(e.cost_cents), 0) FROM cost_events e WHERE e.company_id = ${s.companyId} ${scope} AND e.occurred_at >= ${windowFrom} AND e.occurred_at < ${windowTo})`;
  const observed = sql<number>`CASE
      WHEN ${bp.scopeType} = 'company' AND ${bp.windowKind} = 'calendar_month_utc' THEN (SELECT spent_monthly_cents FROM companies WHERE id = ${s.companyId})
      WHEN ${bp.scopeType} = 'agent' AND ${bp.windowKind} = 'calendar_month_utc' THEN (SELECT spent_monthly_cents FROM agents a WHERE a.id = ${bp.scopeId})
      WHEN ${bp.scopeType} = 'company' THEN ${windowSum(sql``)}
      WHEN ${bp.scopeType} = 'agent' THEN ${windowSum(sql`AND e.agent_id = ${bp.scopeId}`)}
      ELSE ${windowSum(sql`AND e.project_id = ${bp.scopeId}`)} END`.mapWith(Number);
  return db
    .select({ policy: bp, observedCents: observed })
    .from(bp)
    .where(and(eq(bp.companyId, s.companyId), eq(bp.isActive, true), scopeMatch(sql`${bp.scopeType}`, sql`${bp.scopeId}`, s)));
});

/** The incidents of the touched scopes in the current windows. */
const readIncidents = template(["companyId", "agentIds", "projectIds", "monthKey", "lifetimeKey"], (db, s) => {
  const bi = schema.budgetIncidents;
  return db
    .select()
    .from(bi)
    .where(
      and(eq(bi.companyId, s.companyId), sql`${bi.windowKey} IN (${s.monthKey}, ${s.lifetimeKey})`, scopeMatch(sql`${bi.scopeType}`, sql`${bi.scopeId}`, s)),
    );
});

/** One reported event and who reported it (a group's events may come from several callers). */
export interface ReportedCost {
  actor: Actor;
  event: CostEventInput;
}

/**
 * Records `items` in one D1 batch (references were checked by addCostEventRefReads): insert the
 * events, update the month counters of each agent and the company (an increment while the counter
 * is for this month, else an exact SUM), log `cost.reported` per event, and read back the matching
 * active policies with their observed spend and the scopes' incidents of the current windows.
 * Incidents those reveal go in a second batch (rare); evaluation is level-based (spend ≥ threshold
 * and no incident yet), so it sees every event of the group and a failed second batch is repaired
 * by the next event. One event, or a group the company object gathered while a write was in flight
 * (group commit: src/company/durable-object.ts), cost the same two round trips at most.
 */
export async function recordCostEvents(ctx: CommandContext, items: ReportedCost[]): Promise<CostEventRow[]> {
  const { db } = ctx;
  const c = ctx.companyId;
  const month = currentWindow("calendar_month_utc", ctx.now);
  const lifetime = currentWindow("lifetime", ctx.now);
  const rows: CostEventRow[] = items.map(({ event: input }) => ({
    id: newId(),
    companyId: c,
    agentId: input.agentId,
    issueId: input.issueId ?? null,
    projectId: input.projectId ?? null,
    goalId: input.goalId ?? null,
    heartbeatRunId: input.heartbeatRunId ?? null,
    billingCode: input.billingCode ?? null,
    provider: input.provider,
    biller: input.biller ?? input.provider,
    billingType: input.billingType ?? "unknown",
    model: input.model,
    inputTokens: input.inputTokens ?? 0,
    cachedInputTokens: input.cachedInputTokens ?? 0,
    outputTokens: input.outputTokens ?? 0,
    costCents: input.costCents,
    occurredAt: input.occurredAt,
    createdAt: ctx.now,
  }));
  const monthIncrement = (row: CostEventRow) => (inWindow(month, row.occurredAt) ? row.costCents : 0);
  const byAgent = new Map<string, number>();
  for (const row of rows) byAgent.set(row.agentId, (byAgent.get(row.agentId) ?? 0) + monthIncrement(row));
  const companyIncrement = rows.reduce((n, row) => n + monthIncrement(row), 0);
  const agentIds = [...byAgent.keys()];
  const projectIds = [...new Set(rows.flatMap((r) => (r.projectId ? [r.projectId] : [])))];
  const scopes = { companyId: c, agentIds: JSON.stringify(agentIds), projectIds: JSON.stringify(projectIds) };

  const results = await ctx.batch([
    ...rows.map((row) => insertCostEvent(db, row)),
    ...agentIds.map((agentId) =>
      updateAgentCounter(db, { id: agentId, companyId: c, monthKey: month.key, increment: byAgent.get(agentId)!, start: month.start, end: month.end }),
    ),
    updateCompanyCounter(db, { id: c, companyId: c, monthKey: month.key, increment: companyIncrement, start: month.start, end: month.end }),
    ...rows.map((row, i) =>
      activityInsert(db, {
        companyId: c,
        actor: items[i].actor,
        action: "cost.reported",
        entityType: "cost_event",
        entityId: row.id,
        agentId: row.agentId,
        details: {
          provider: row.provider,
          biller: row.biller,
          model: row.model,
          billingType: row.billingType,
          costCents: row.costCents,
          occurredAt: row.occurredAt,
          ...(row.projectId ? { projectId: row.projectId } : {}),
          ...(row.issueId ? { issueId: row.issueId } : {}),
        },
        now: ctx.now,
      }),
    ),
    readPolicies(db, { ...scopes, monthStart: month.start, monthEnd: month.end }),
    readIncidents(db, { ...scopes, monthKey: month.key, lifetimeKey: lifetime.key }),
  ]);
  // By position from the front (the activity entries' events are written after the batch's own statements).
  const reads = rows.length + agentIds.length + 1 + rows.length;
  const policies = results[reads] as Array<{ policy: typeof schema.budgetPolicies.$inferSelect; observedCents: number }>;
  const incidents = results[reads + 1] as Array<typeof schema.budgetIncidents.$inferSelect>;

  // Each event checked in turn, as if written alone: a policy's spend before the group is its spend
  // after it less the group's part, and the event that crosses a threshold is the one its incident
  // records (observedCents as of that event).
  const windowOf = (policy: (typeof policies)[number]["policy"]) => (policy.windowKind === "lifetime" ? lifetime : month);
  const counts = (policy: (typeof policies)[number]["policy"], row: CostEventRow) =>
    (policy.windowKind === "lifetime" || inWindow(month, row.occurredAt)) &&
    (policy.scopeType === "company" || (policy.scopeType === "agent" ? row.agentId === policy.scopeId : row.projectId === policy.scopeId));
  const running = policies.map(({ policy, observedCents }) => observedCents - rows.reduce((n, row) => n + (counts(policy, row) ? row.costCents : 0), 0));
  const existing = new Set(incidents.map(incidentKeyOf));
  const statements: Statement[] = [];
  for (const row of rows) {
    const spends: PolicySpend[] = [];
    policies.forEach(({ policy }, i) => {
      if (!counts(policy, row)) return;
      running[i] += row.costCents;
      spends.push({ policy, window: windowOf(policy), observedCents: running[i] });
    });
    if (spends.length) statements.push(...enforcementStatements(ctx, spends, existing).statements);
  }
  await ctx.batch(statements);
  return rows;
}

export const reportCostEvent = defineCommand(
  "cost.report",
  async (ctx, actor, input: CostEventInput) => (await recordCostEvents(ctx, [{ actor, event: input }]))[0],
);

/** A group of cost events gathered by the company object while a write was in flight (group commit). */
export const reportCostEvents = defineCommand("cost.reportMany", async (ctx, _actor, input: { items: ReportedCost[] }) => recordCostEvents(ctx, input.items));

export interface FinanceEventInput {
  kind: FinanceEventRow["kind"];
  direction: FinanceEventRow["direction"];
  amountCents: number;
  currency: string;
  estimated: boolean;
  /** Normalised ISO-8601 UTC; the route defaults it to now. */
  occurredAt: string | null;
  biller?: string | null;
  provider?: string | null;
  costEventId?: string | null;
  description?: string | null;
  metadata?: Record<string, unknown> | null;
}

export const recordFinanceEvent = defineCommand("finance.record", async (ctx, actor: Actor, input: FinanceEventInput) => {
  const { db } = ctx;
  if (input.costEventId) {
    const event = await db.query.costEvents.findFirst({
      where: and(eq(schema.costEvents.companyId, ctx.companyId), eq(schema.costEvents.id, input.costEventId)),
    });
    if (!event) throw unprocessable("costEventId must reference a cost event of this company", { costEventId: input.costEventId });
  }
  const row: FinanceEventRow = {
    id: newId(),
    companyId: ctx.companyId,
    kind: input.kind,
    direction: input.direction,
    amountCents: input.amountCents,
    currency: input.currency,
    estimated: input.estimated,
    biller: input.biller ?? null,
    provider: input.provider ?? null,
    costEventId: input.costEventId ?? null,
    description: input.description ?? null,
    metadata: input.metadata ?? null,
    occurredAt: input.occurredAt ?? ctx.now,
    createdByUserId: actor.type === "board" ? actor.userId : null,
    createdAt: ctx.now,
  };
  await ctx.batch([
    db.insert(schema.financeEvents).values(row),
    ctx.activity({
      action: "finance_event.recorded",
      entityType: "finance_event",
      entityId: row.id,
      details: { kind: row.kind, direction: row.direction, amountCents: row.amountCents, currency: row.currency, estimated: row.estimated },
    }),
  ]);
  return row;
});

export const costCommands = [reportCostEvent, reportCostEvents, recordFinanceEvent];
