// Cost and finance read models: SQL aggregates (GROUP BY / SUM) over the indexed
// (company_id, occurred_at) ranges; JavaScript only reshapes the grouped rows.
import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";

export interface TimeRange {
  /** Inclusive ISO lower bound. */
  from?: string;
  /** Inclusive ISO upper bound. */
  to?: string;
}

const ce = schema.costEvents;
const fe = schema.financeEvents;

const num = (expr: SQL) => expr.mapWith(Number);
const costTotals = {
  costCents: num(sql`COALESCE(SUM(${ce.costCents}), 0)`),
  inputTokens: num(sql`COALESCE(SUM(${ce.inputTokens}), 0)`),
  cachedInputTokens: num(sql`COALESCE(SUM(${ce.cachedInputTokens}), 0)`),
  outputTokens: num(sql`COALESCE(SUM(${ce.outputTokens}), 0)`),
  eventCount: num(sql`COUNT(*)`),
};

const costRange = (companyId: string, range: TimeRange) =>
  and(eq(ce.companyId, companyId), range.from ? gte(ce.occurredAt, range.from) : undefined, range.to ? lte(ce.occurredAt, range.to) : undefined);

export async function costSpendCents(db: Db, companyId: string, range: TimeRange) {
  const [row] = await db.select({ cents: costTotals.costCents }).from(ce).where(costRange(companyId, range));
  return row?.cents ?? 0;
}

export function costsByAgent(db: Db, companyId: string, range: TimeRange) {
  return db
    .select({ agentId: ce.agentId, agentName: schema.agents.name, agentStatus: schema.agents.status, ...costTotals })
    .from(ce)
    .leftJoin(schema.agents, eq(schema.agents.id, ce.agentId))
    .where(costRange(companyId, range))
    .groupBy(ce.agentId)
    .orderBy(desc(costTotals.costCents), ce.agentId);
}

export function costsByAgentModel(db: Db, companyId: string, range: TimeRange) {
  return db
    .select({ agentId: ce.agentId, agentName: schema.agents.name, provider: ce.provider, model: ce.model, ...costTotals })
    .from(ce)
    .leftJoin(schema.agents, eq(schema.agents.id, ce.agentId))
    .where(costRange(companyId, range))
    .groupBy(ce.agentId, ce.provider, ce.model)
    .orderBy(desc(costTotals.costCents), ce.agentId, ce.provider, ce.model);
}

export function costsByProvider(db: Db, companyId: string, range: TimeRange) {
  return db
    .select({ provider: ce.provider, ...costTotals })
    .from(ce)
    .where(costRange(companyId, range))
    .groupBy(ce.provider)
    .orderBy(desc(costTotals.costCents), ce.provider);
}

export function costsByBiller(db: Db, companyId: string, range: TimeRange) {
  return db
    .select({ biller: ce.biller, ...costTotals })
    .from(ce)
    .where(costRange(companyId, range))
    .groupBy(ce.biller)
    .orderBy(desc(costTotals.costCents), ce.biller);
}

/** Spend per project; events without a project are not listed. */
export function costsByProject(db: Db, companyId: string, range: TimeRange) {
  return db
    .select({ projectId: sql<string>`${ce.projectId}`, projectName: schema.projects.name, ...costTotals })
    .from(ce)
    .leftJoin(schema.projects, eq(schema.projects.id, ce.projectId))
    .where(and(costRange(companyId, range), sql`${ce.projectId} IS NOT NULL`))
    .groupBy(ce.projectId)
    .orderBy(desc(costTotals.costCents), ce.projectId);
}

export const ROLLING_WINDOWS = [
  { window: "5h", hours: 5 },
  { window: "24h", hours: 24 },
  { window: "7d", hours: 24 * 7 },
] as const;

const sinceIso = (now: string, hours: number) => new Date(Date.parse(now) - hours * 3_600_000).toISOString();

/** Conditional sums for each rolling window, up to `now`. */
function rollingColumns(now: string) {
  const [h5, h24, d7] = ROLLING_WINDOWS.map((w) => sinceIso(now, w.hours));
  const inWin = (since: string) => sql`${ce.occurredAt} >= ${since} AND ${ce.occurredAt} <= ${now}`;
  return {
    spend5h: num(sql`COALESCE(SUM(CASE WHEN ${inWin(h5)} THEN ${ce.costCents} END), 0)`),
    events5h: num(sql`COUNT(CASE WHEN ${inWin(h5)} THEN 1 END)`),
    tokens5h: num(sql`COALESCE(SUM(CASE WHEN ${inWin(h5)} THEN ${ce.inputTokens} + ${ce.cachedInputTokens} + ${ce.outputTokens} END), 0)`),
    spend24h: num(sql`COALESCE(SUM(CASE WHEN ${inWin(h24)} THEN ${ce.costCents} END), 0)`),
    events24h: num(sql`COUNT(CASE WHEN ${inWin(h24)} THEN 1 END)`),
    tokens24h: num(sql`COALESCE(SUM(CASE WHEN ${inWin(h24)} THEN ${ce.inputTokens} + ${ce.cachedInputTokens} + ${ce.outputTokens} END), 0)`),
    spend7d: num(sql`COALESCE(SUM(CASE WHEN ${inWin(d7)} THEN ${ce.costCents} END), 0)`),
    events7d: num(sql`COUNT(CASE WHEN ${inWin(d7)} THEN 1 END)`),
    tokens7d: num(sql`COALESCE(SUM(CASE WHEN ${inWin(d7)} THEN ${ce.inputTokens} + ${ce.cachedInputTokens} + ${ce.outputTokens} END), 0)`),
  };
}

type RollingRow = ReturnType<typeof rollingColumns> extends infer C ? { [K in keyof C]: number } : never;

function rollingWindowsView(row: RollingRow | undefined, now: string) {
  const pick = (w: (typeof ROLLING_WINDOWS)[number]["window"]) => {
    const suffix = w as "5h" | "24h" | "7d";
    return {
      spendCents: row?.[`spend${suffix}`] ?? 0,
      eventCount: row?.[`events${suffix}`] ?? 0,
      totalTokens: row?.[`tokens${suffix}`] ?? 0,
    };
  };
  return ROLLING_WINDOWS.map((w) => ({ window: w.window, hours: w.hours, since: sinceIso(now, w.hours), ...pick(w.window) }));
}

/** Rolling company spend over the last 5 hours, 24 hours and 7 days. */
export async function windowSpend(db: Db, companyId: string, now: string) {
  const [row] = await db
    .select(rollingColumns(now))
    .from(ce)
    .where(and(eq(ce.companyId, companyId), gte(ce.occurredAt, sinceIso(now, 24 * 7)), lte(ce.occurredAt, now)));
  return { asOf: now, windows: rollingWindowsView(row, now) };
}

/**
 * Per provider and biller: the rolling windows, the current UTC month's spend, and the mix of
 * billing types (how much is metered vs subscription vs credits) in that month-or-week range.
 */
export async function quotaWindows(db: Db, companyId: string, now: string, monthStart: string) {
  const weekStart = sinceIso(now, 24 * 7);
  const rangeStart = monthStart < weekStart ? monthStart : weekStart;
  const where = and(eq(ce.companyId, companyId), gte(ce.occurredAt, rangeStart), lte(ce.occurredAt, now));
  const inMonth = sql`${ce.occurredAt} >= ${monthStart}`;
  const [totals, mix] = await Promise.all([
    db
      .select({
        provider: ce.provider,
        biller: ce.biller,
        ...rollingColumns(now),
        monthSpendCents: num(sql`COALESCE(SUM(CASE WHEN ${inMonth} THEN ${ce.costCents} END), 0)`),
        monthEventCount: num(sql`COUNT(CASE WHEN ${inMonth} THEN 1 END)`),
      })
      .from(ce)
      .where(where)
      .groupBy(ce.provider, ce.biller)
      .orderBy(ce.provider, ce.biller),
    db
      .select({
        provider: ce.provider,
        biller: ce.biller,
        billingType: ce.billingType,
        costCents: num(sql`COALESCE(SUM(CASE WHEN ${inMonth} THEN ${ce.costCents} END), 0)`),
        eventCount: num(sql`COUNT(CASE WHEN ${inMonth} THEN 1 END)`),
      })
      .from(ce)
      .where(where)
      .groupBy(ce.provider, ce.biller, ce.billingType)
      .orderBy(ce.provider, ce.biller, ce.billingType),
  ]);
  return {
    asOf: now,
    monthStart,
    providers: totals.map((t) => ({
      provider: t.provider,
      biller: t.biller,
      windows: rollingWindowsView(t, now),
      monthSpendCents: t.monthSpendCents,
      monthEventCount: t.monthEventCount,
      billingTypes: mix
        .filter((m) => m.provider === t.provider && m.biller === t.biller && m.eventCount > 0)
        .map((m) => ({ billingType: m.billingType, costCents: m.costCents, eventCount: m.eventCount })),
    })),
  };
}

const financeRange = (companyId: string, range: TimeRange) =>
  and(eq(fe.companyId, companyId), range.from ? gte(fe.occurredAt, range.from) : undefined, range.to ? lte(fe.occurredAt, range.to) : undefined);

export function listFinanceEvents(db: Db, companyId: string, range: TimeRange, limit: number) {
  return db.select().from(fe).where(financeRange(companyId, range)).orderBy(desc(fe.occurredAt), desc(fe.createdAt), desc(fe.id)).limit(limit);
}

const financeTotals = {
  debitCents: num(sql`COALESCE(SUM(CASE WHEN ${fe.direction} = 'debit' THEN ${fe.amountCents} END), 0)`),
  creditCents: num(sql`COALESCE(SUM(CASE WHEN ${fe.direction} = 'credit' THEN ${fe.amountCents} END), 0)`),
  netCents: num(sql`COALESCE(SUM(CASE WHEN ${fe.direction} = 'debit' THEN ${fe.amountCents} ELSE -${fe.amountCents} END), 0)`),
  estimatedDebitCents: num(sql`COALESCE(SUM(CASE WHEN ${fe.direction} = 'debit' AND ${fe.estimated} = 1 THEN ${fe.amountCents} END), 0)`),
  eventCount: num(sql`COUNT(*)`),
};

/** Totals over every currency plus one line per currency (amounts of different currencies are not converted). */
export async function financeSummary(db: Db, companyId: string, range: TimeRange) {
  const byCurrency = await db
    .select({ currency: fe.currency, ...financeTotals })
    .from(fe)
    .where(financeRange(companyId, range))
    .groupBy(fe.currency)
    .orderBy(fe.currency);
  const [all] = await db.select(financeTotals).from(fe).where(financeRange(companyId, range));
  return { ...all, currencies: byCurrency.map((c) => c.currency), byCurrency };
}

export function financeByBiller(db: Db, companyId: string, range: TimeRange) {
  return db
    .select({ biller: fe.biller, currency: fe.currency, ...financeTotals })
    .from(fe)
    .where(financeRange(companyId, range))
    .groupBy(fe.biller, fe.currency)
    .orderBy(desc(financeTotals.netCents), fe.biller, fe.currency);
}

export function financeByKind(db: Db, companyId: string, range: TimeRange) {
  return db
    .select({ kind: fe.kind, currency: fe.currency, ...financeTotals })
    .from(fe)
    .where(financeRange(companyId, range))
    .groupBy(fe.kind, fe.currency)
    .orderBy(fe.kind, fe.currency);
}

export interface CostEventFilters {
  agentId?: string;
  issueId?: string;
  heartbeatRunId?: string;
  limit?: number;
}

/** The company's cost events, newest first (filters: agent, issue, run). */
export async function listCostEvents(db: Db, companyId: string, f: CostEventFilters) {
  return db
    .select()
    .from(ce)
    .where(
      and(
        eq(ce.companyId, companyId),
        f.agentId ? eq(ce.agentId, f.agentId) : undefined,
        f.issueId ? eq(ce.issueId, f.issueId) : undefined,
        f.heartbeatRunId ? eq(ce.heartbeatRunId, f.heartbeatRunId) : undefined,
      ),
    )
    .orderBy(desc(ce.occurredAt), desc(ce.id))
    .limit(Math.min(f.limit ?? 100, 500));
}
