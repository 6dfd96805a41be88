// Routine, trigger and run rows as the API shows them. A trigger's secret and public id never
// appear here (the create and rotate responses add webhookUrl and webhookSecret once).
import type { schema } from "../../db/client";

export type RoutineRow = typeof schema.routines.$inferSelect;
export type TriggerRow = typeof schema.routineTriggers.$inferSelect;
export type RoutineRunRow = typeof schema.routineRuns.$inferSelect;

export function routineView(row: RoutineRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    title: row.title,
    description: row.description,
    assigneeAgentId: row.assigneeAgentId,
    projectId: row.projectId,
    goalId: row.goalId,
    parentIssueId: row.parentIssueId,
    priority: row.priority,
    status: row.status,
    concurrencyPolicy: row.concurrencyPolicy,
    catchUpPolicy: row.catchUpPolicy,
    variables: row.variables.map((v) => ({
      name: v.name,
      label: v.label ?? null,
      type: v.type as "text",
      required: v.required,
      defaultValue: v.defaultValue ?? null,
    })),
    createdByAgentId: row.createdByAgentId,
    createdByUserId: row.createdByUserId,
    lastTriggeredAt: row.lastTriggeredAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function triggerView(row: TriggerRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    routineId: row.routineId,
    kind: row.kind,
    label: row.label,
    enabled: row.enabled,
    cronExpression: row.cronExpression,
    timezone: row.timezone,
    nextRunAt: row.nextRunAt,
    lastFiredAt: row.lastFiredAt,
    signingMode: row.signingMode,
    replayWindowSec: row.replayWindowSec,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function triggerSummary(row: TriggerRow) {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    enabled: row.enabled,
    nextRunAt: row.nextRunAt,
    cronExpression: row.cronExpression,
    timezone: row.timezone,
    signingMode: row.signingMode,
  };
}

export function routineRunView(row: RoutineRunRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    routineId: row.routineId,
    triggerId: row.triggerId,
    source: row.source,
    status: row.status,
    triggerPayload: row.triggerPayload ?? null,
    variables: row.variables ?? null,
    linkedIssueId: row.linkedIssueId,
    coalescedIntoRunId: row.coalescedIntoRunId,
    failureReason: row.failureReason,
    idempotencyKey: row.idempotencyKey,
    completedAt: row.completedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The public fire URL of a webhook trigger. */
export const webhookUrl = (baseUrl: string, publicId: string) => `${baseUrl.replace(/\/+$/, "")}/api/routine-triggers/public/${publicId}/fire`;
