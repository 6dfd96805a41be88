// The API view of an activity row.
import type { schema } from "../../db/client";

export function activityView(row: typeof schema.activityLog.$inferSelect) {
  return {
    id: row.id,
    companyId: row.companyId,
    actorType: row.actorType,
    actorId: row.actorId,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    agentId: row.agentId ?? null,
    runId: row.runId ?? null,
    details: row.details ?? null,
    createdAt: row.createdAt,
  };
}
