// Budget enforcement: which incidents a policy's observed spend opens, and what a hard stop
// does to its scope (pause, cancel queued work, ask the board for an override).
import type { Statement } from "../../db/batch";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { schema } from "../../db/client";
import { PENDING_WAKEUP_STATUSES } from "../../db/schema/runs";
import type { BUDGET_INCIDENT_KINDS } from "../../db/schema/budgets";
import type { CommandContext } from "../../company/command";
import { SYSTEM_ACTOR } from "../actor";
import { newId } from "../../crypto/random";
import { cancelPendingWakeupsStatement } from "../wakeups/enqueue";
import { cancelLiveRunsStatements } from "../runs/lifecycle";
import type { BudgetScope } from "./policy-sync";
import { thresholds, type BudgetWindow } from "./windows";

export type BudgetPolicyRow = typeof schema.budgetPolicies.$inferSelect;
export type BudgetIncidentRow = typeof schema.budgetIncidents.$inferSelect;
export type IncidentKind = (typeof BUDGET_INCIDENT_KINDS)[number];

export interface PolicySpend {
  policy: BudgetPolicyRow;
  window: BudgetWindow;
  observedCents: number;
}

/** Budget incidents are opened by the system, not by whoever reported the cost. */

/** Agent statuses a hard stop pauses (terminated and pending-approval agents are left alone). */
const PAUSABLE_AGENT_STATUSES = ["active", "idle", "running", "error"] as const;

export const incidentKey = (scopeType: string, scopeId: string, kind: string, windowKey: string, thresholdCents: number) =>
  `${scopeType}:${scopeId}:${kind}:${windowKey}:${thresholdCents}`;

export const incidentKeyOf = (row: Pick<BudgetIncidentRow, "scopeType" | "scopeId" | "kind" | "windowKey" | "thresholdCents">) =>
  incidentKey(row.scopeType, row.scopeId, row.kind, row.windowKey, row.thresholdCents);

export interface OpenedIncident {
  id: string;
  kind: IncidentKind;
  scopeType: BudgetScope;
  scopeId: string;
  approvalId: string | null;
}

/**
 * Statements opening every incident whose threshold the observed spend has reached and that
 * does not exist yet (`existing` holds incidentKey()s and is updated). Soft at the warn threshold
 * when notifications are on; hard at 100 % when hard stop is on, which also pauses the scope,
 * cancels its queued wake-ups and opens a `budget_override_required` approval.
 */
export function enforcementStatements(ctx: CommandContext, spends: PolicySpend[], existing: Set<string>) {
  const statements: Statement[] = [];
  const opened: OpenedIncident[] = [];
  for (const { policy, window, observedCents } of spends) {
    if (!policy.isActive || policy.amountCents <= 0) continue;
    const t = thresholds(policy.amountCents, policy.warnPercent);
    const wanted: Array<{ kind: IncidentKind; threshold: number }> = [];
    if (policy.notifyEnabled && observedCents >= t.soft) wanted.push({ kind: "soft", threshold: t.soft });
    if (policy.hardStopEnabled && observedCents >= t.hard) wanted.push({ kind: "hard", threshold: t.hard });
    for (const { kind, threshold } of wanted) {
      const key = incidentKey(policy.scopeType, policy.scopeId, kind, window.key, threshold);
      if (existing.has(key)) continue;
      existing.add(key);
      const incidentId = newId();
      const approvalId = kind === "hard" ? newId() : null;
      statements.push(
        ctx.db.insert(schema.budgetIncidents).values({
          id: incidentId,
          companyId: ctx.companyId,
          policyId: policy.id,
          scopeType: policy.scopeType,
          scopeId: policy.scopeId,
          kind,
          windowKind: window.kind,
          windowKey: window.key,
          amountCents: policy.amountCents,
          thresholdCents: threshold,
          observedCents,
          status: "open",
          approvalId,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        }),
      );
      if (approvalId) {
        statements.push(
          ctx.db.insert(schema.approvals).values({
            id: approvalId,
            companyId: ctx.companyId,
            type: "budget_override_required",
            status: "pending",
            payload: {
              scopeType: policy.scopeType,
              scopeId: policy.scopeId,
              amountCents: policy.amountCents,
              observedCents,
              windowKind: window.kind,
              windowKey: window.key,
              incidentId,
            },
            createdAt: ctx.now,
            updatedAt: ctx.now,
          }),
          ...pauseScopeStatements(ctx, policy.scopeType, policy.scopeId),
        );
      }
      statements.push(
        ctx.activity({
          actor: SYSTEM_ACTOR,
          action: kind === "hard" ? "budget.hard_stop" : "budget.soft_threshold_reached",
          entityType: "budget_incident",
          entityId: incidentId,
          agentId: policy.scopeType === "agent" ? policy.scopeId : null,
          details: {
            policyId: policy.id,
            scopeType: policy.scopeType,
            scopeId: policy.scopeId,
            amountCents: policy.amountCents,
            thresholdCents: threshold,
            observedCents,
            windowKey: window.key,
            approvalId,
          },
        }),
      );
      opened.push({ id: incidentId, kind, scopeType: policy.scopeType, scopeId: policy.scopeId, approvalId });
    }
  }
  return { statements, opened };
}

/** Hard stop: pause the scope with reason `budget` and cancel its waiting wake-ups. */
export function pauseScopeStatements(ctx: CommandContext, scopeType: BudgetScope, scopeId: string): Statement[] {
  const { db } = ctx;
  if (scopeType === "agent") {
    return [
      db
        .update(schema.agents)
        .set({ status: "paused", pauseReason: "budget", updatedAt: ctx.now })
        .where(and(eq(schema.agents.companyId, ctx.companyId), eq(schema.agents.id, scopeId), inArray(schema.agents.status, [...PAUSABLE_AGENT_STATUSES]))),
      cancelPendingWakeupsStatement(ctx, [scopeId]),
      ...cancelLiveRunsStatements(ctx, [scopeId], "budget_blocked"),
    ];
  }
  if (scopeType === "company") {
    return [
      db
        .update(schema.companies)
        .set({ status: "paused", pauseReason: "budget", updatedAt: ctx.now })
        .where(and(eq(schema.companies.id, ctx.companyId), eq(schema.companies.status, "active"))),
      cancelPendingWakeupsStatement(ctx, null),
      ...cancelLiveRunsStatements(ctx, null, "budget_blocked"),
    ];
  }
  const w = schema.agentWakeupRequests;
  const projectIssues = db
    .select({ id: schema.issues.id })
    .from(schema.issues)
    .where(and(eq(schema.issues.companyId, ctx.companyId), eq(schema.issues.projectId, scopeId)));
  return [
    db
      .update(schema.projects)
      .set({ pausedAt: ctx.now, pauseReason: "budget", updatedAt: ctx.now })
      .where(and(eq(schema.projects.companyId, ctx.companyId), eq(schema.projects.id, scopeId), isNull(schema.projects.pausedAt))),
    db
      .update(w)
      .set({ status: "cancelled", updatedAt: ctx.now })
      .where(and(eq(w.companyId, ctx.companyId), inArray(w.status, [...PENDING_WAKEUP_STATUSES]), inArray(w.issueId, projectIssues))),
  ];
}

/** Undo of a budget pause (only what the budget paused: other pause reasons are left alone). */
export function resumeScopeStatements(ctx: CommandContext, scopeType: BudgetScope, scopeId: string): Statement[] {
  const { db } = ctx;
  if (scopeType === "agent") {
    return [
      db
        .update(schema.agents)
        .set({ status: "idle", pauseReason: null, updatedAt: ctx.now })
        .where(
          and(
            eq(schema.agents.companyId, ctx.companyId),
            eq(schema.agents.id, scopeId),
            eq(schema.agents.status, "paused"),
            eq(schema.agents.pauseReason, "budget"),
          ),
        ),
    ];
  }
  if (scopeType === "company") {
    return [
      db
        .update(schema.companies)
        .set({ status: "active", pauseReason: null, updatedAt: ctx.now })
        .where(and(eq(schema.companies.id, ctx.companyId), eq(schema.companies.status, "paused"), eq(schema.companies.pauseReason, "budget"))),
    ];
  }
  return [
    db
      .update(schema.projects)
      .set({ pausedAt: null, pauseReason: null, updatedAt: ctx.now })
      .where(and(eq(schema.projects.companyId, ctx.companyId), eq(schema.projects.id, scopeId), eq(schema.projects.pauseReason, "budget"))),
  ];
}
