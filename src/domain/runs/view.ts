// A heartbeat run as the API shows it (field names follow the incumbent, so its clients keep working).
import type { RunRow } from "./lifecycle";

export function runView(run: RunRow) {
  return {
    id: run.id,
    companyId: run.companyId,
    agentId: run.agentId,
    issueId: run.issueId ?? null,
    status: run.status,
    adapterType: run.adapterType,
    invocationSource: run.invocationSource,
    reason: run.reason ?? null,
    context: run.context ?? null,
    startedAt: run.startedAt ?? null,
    finishedAt: run.finishedAt ?? null,
    error: run.error ?? null,
    errorCode: run.errorCode ?? null,
    summary: run.summary ?? null,
    usage: run.usageJson ?? null,
    result: run.resultJson ?? null,
    retryCount: run.retryCount,
    nextRetryAt: run.nextRetryAt ?? null,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}
export type RunView = ReturnType<typeof runView>;
