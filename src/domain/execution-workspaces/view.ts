// API view of an execution workspace.
import type { schema } from "../../db/client";
import { redactSecrets } from "../redaction";

export type ExecutionWorkspaceRow = typeof schema.executionWorkspaces.$inferSelect;

export function executionWorkspaceView(row: ExecutionWorkspaceRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    projectId: row.projectId ?? null,
    projectWorkspaceId: row.projectWorkspaceId ?? null,
    issueId: row.issueId ?? null,
    environmentId: row.environmentId ?? null,
    mode: row.mode,
    status: row.status,
    cwd: row.cwd ?? null,
    branch: row.branch ?? null,
    baseRef: row.baseRef ?? null,
    desiredState: row.desiredState,
    runtimeServices: row.runtimeServices ?? [],
    metadata: row.metadata ? redactSecrets(row.metadata) : null,
    openedByAgentId: row.openedByAgentId ?? null,
    openedByUserId: row.openedByUserId ?? null,
    openedAt: row.openedAt,
    closedAt: row.closedAt ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type ExecutionWorkspaceView = ReturnType<typeof executionWorkspaceView>;
