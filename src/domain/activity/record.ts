// Builds the activity-log insert that goes into the same D1 batch as the mutation it records.
import type { Db } from "../../db/client";
import { schema } from "../../db/client";
import { actorRef, type Actor } from "../actor";
import { newId } from "../../crypto/random";
import { redactSecrets } from "../redaction";

export interface ActivityEntry {
  companyId: string;
  actor: Actor;
  action: string;
  entityType: string;
  entityId: string;
  details?: Record<string, unknown> | null;
  agentId?: string | null;
  now: string;
}

export function activityInsert(db: Db, entry: ActivityEntry) {
  const { actorType, actorId } = actorRef(entry.actor);
  return db.insert(schema.activityLog).values({
    id: newId(),
    companyId: entry.companyId,
    actorType,
    actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    agentId: entry.agentId ?? (entry.actor.type === "agent" ? entry.actor.agentId : null),
    runId: entry.actor.runId ?? null,
    details: entry.details ? redactSecrets(entry.details) : null,
    createdAt: entry.now,
  });
}
