// Budget windows (UTC calendar month or lifetime), thresholds, and the SQL that measures
// spend of a scope inside a window (an indexed SUM over cost_events).
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { utcMonth } from "../time";
import type { BudgetScope, BudgetWindowKind } from "./policy-sync";

export type WindowKind = BudgetWindowKind;

export interface BudgetWindow {
  kind: WindowKind;
  /** `YYYY-MM` for a calendar month, `lifetime` otherwise. */
  key: string;
  /** Inclusive start (ISO) or null for lifetime. */
  start: string | null;
  /** Exclusive end (ISO) or null for lifetime. */
  end: string | null;
}

/** First instant of the UTC month containing `iso`, and of the month after it. */
export function utcMonthBounds(iso: string) {
  const d = new Date(iso);
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString() };
}

/** The window of `kind` that contains `now`. */
export function currentWindow(kind: WindowKind, now: string): BudgetWindow {
  if (kind === "lifetime") return { kind, key: "lifetime", start: null, end: null };
  const { start, end } = utcMonthBounds(now);
  return { kind, key: utcMonth(now), start, end };
}

export const inWindow = (window: BudgetWindow, occurredAt: string) =>
  (window.start === null || occurredAt >= window.start) && (window.end === null || occurredAt < window.end);

/** Soft threshold = ceil(amount × warnPercent / 100); hard threshold = the amount. */
export function thresholds(amountCents: number, warnPercent: number) {
  return { soft: Math.ceil((amountCents * warnPercent) / 100), hard: amountCents };
}

/** Utilisation in percent with two decimals; 0 when there is no budget. */
export function utilizationPercent(spendCents: number, budgetCents: number) {
  if (budgetCents <= 0) return 0;
  return Math.round((spendCents / budgetCents) * 10_000) / 100;
}

/** SELECT of the scope's spend in the window (uses the company/agent/project + occurred_at indexes). */
export function scopeSpendQuery(db: Db, companyId: string, scopeType: BudgetScope, scopeId: string, window: BudgetWindow) {
  const ce = schema.costEvents;
  return db
    .select({ cents: sql<number>`COALESCE(SUM(${ce.costCents}), 0)`.mapWith(Number) })
    .from(ce)
    .where(
      and(
        eq(ce.companyId, companyId),
        scopeType === "agent" ? eq(ce.agentId, scopeId) : undefined,
        scopeType === "project" ? eq(ce.projectId, scopeId) : undefined,
        window.start ? gte(ce.occurredAt, window.start) : undefined,
        window.end ? lt(ce.occurredAt, window.end) : undefined,
      ),
    );
}

export async function observedSpendCents(db: Db, companyId: string, scopeType: BudgetScope, scopeId: string, window: BudgetWindow) {
  const [row] = await scopeSpendQuery(db, companyId, scopeType, scopeId, window);
  return row?.cents ?? 0;
}
