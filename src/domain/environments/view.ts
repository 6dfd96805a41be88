// API views of environments and their leases (an active lease past expiresAt reads as `expired`).
import type { schema } from "../../db/client";
import { redactSecrets } from "../redaction";

export type EnvironmentRow = typeof schema.environments.$inferSelect;
export type LeaseRow = typeof schema.environmentLeases.$inferSelect;

export const leaseIsLive = (row: Pick<LeaseRow, "status" | "expiresAt">, now: string) => row.status === "active" && (!row.expiresAt || row.expiresAt > now);

export function leaseView(row: LeaseRow, now: string) {
  return {
    id: row.id,
    companyId: row.companyId,
    environmentId: row.environmentId,
    executionWorkspaceId: row.executionWorkspaceId ?? null,
    issueId: row.issueId ?? null,
    agentId: row.agentId ?? null,
    runId: row.runId ?? null,
    status: row.status === "active" && !leaseIsLive(row, now) ? ("expired" as const) : row.status,
    acquiredAt: row.acquiredAt,
    releasedAt: row.releasedAt ?? null,
    expiresAt: row.expiresAt ?? null,
  };
}

export function environmentView(row: EnvironmentRow, activeLeaseCount: number) {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    description: row.description ?? null,
    kind: row.kind,
    status: row.status,
    config: redactSecrets(row.config),
    labels: row.labels,
    maxConcurrentLeases: row.maxConcurrentLeases,
    activeLeaseCount,
    lastProbeAt: row.lastProbeAt ?? null,
    lastProbeStatus: row.lastProbeStatus ?? null,
    lastProbeChecks: row.lastProbeChecks ?? null,
    createdByAgentId: row.createdByAgentId ?? null,
    createdByUserId: row.createdByUserId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type EnvironmentView = ReturnType<typeof environmentView>;
