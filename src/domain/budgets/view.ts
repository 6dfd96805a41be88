// API views of budget policies and incidents.
import type { BudgetIncidentRow, BudgetPolicyRow } from "./enforcement";
import { thresholds, utilizationPercent, type BudgetWindow } from "./windows";

export const budgetPolicyView = (row: BudgetPolicyRow) => ({
  id: row.id,
  companyId: row.companyId,
  scopeType: row.scopeType,
  scopeId: row.scopeId,
  metric: row.metric,
  windowKind: row.windowKind,
  amountCents: row.amountCents,
  warnPercent: row.warnPercent,
  hardStopEnabled: row.hardStopEnabled,
  notifyEnabled: row.notifyEnabled,
  isActive: row.isActive,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export type BudgetPolicyStatus = "inactive" | "ok" | "warning" | "exceeded";

/** A policy with its current window's observed spend and where that spend stands. */
export function budgetPolicyStateView(row: BudgetPolicyRow, window: BudgetWindow, observedCents: number) {
  const t = thresholds(row.amountCents, row.warnPercent);
  const status: BudgetPolicyStatus =
    !row.isActive || row.amountCents <= 0 ? "inactive" : observedCents >= t.hard ? "exceeded" : observedCents >= t.soft ? "warning" : "ok";
  return {
    ...budgetPolicyView(row),
    windowKey: window.key,
    observedCents,
    warnThresholdCents: t.soft,
    remainingCents: Math.max(0, row.amountCents - observedCents),
    utilizationPercent: utilizationPercent(observedCents, row.amountCents),
    status,
  };
}

export const budgetIncidentView = (row: BudgetIncidentRow) => ({
  id: row.id,
  companyId: row.companyId,
  policyId: row.policyId,
  scopeType: row.scopeType,
  scopeId: row.scopeId,
  kind: row.kind,
  windowKind: row.windowKind,
  windowKey: row.windowKey,
  amountCents: row.amountCents,
  thresholdCents: row.thresholdCents,
  observedCents: row.observedCents,
  status: row.status,
  resolution: row.resolution ?? null,
  approvalId: row.approvalId ?? null,
  resolvedAt: row.resolvedAt ?? null,
  resolvedByUserId: row.resolvedByUserId ?? null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
