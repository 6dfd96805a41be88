// Builds the activity-log insert that goes into the same D1 batch as the mutation it records.
import type { Db } from "../../db/client";
import { schema } from "../../db/client";
import { actorRef, type Actor } from "../actor";
import { newId } from "../../crypto/random";
import { template } from "../../db/templates";
import { redactSecrets } from "../redaction";
import { writeWith } from "../../db/batch";
import { eventsFromActivity } from "../events/from-activity";
import { draftStatements } from "../events/outbox";

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

/** The insert, built once (src/db/templates.ts; no details stay SQL NULL, not JSON `null`). */
const insertActivity = template(
  ["id", "companyId", "actorType", "actorId", "action", "entityType", "entityId", "agentId", "runId", "createdAt", "details"],
  (db, slot) => db.insert(schema.activityLog).values(slot),
);

/** The activity-log insert; the outbound events the entry announces are written in the same batch. */
export function activityInsert(db: Db, entry: ActivityEntry) {
  const { actorType, actorId } = actorRef(entry.actor);
  const details = entry.details ? redactSecrets(entry.details) : null;
  const agentId = entry.agentId ?? (entry.actor.type === "agent" ? entry.actor.agentId : null);
  const insert = insertActivity(db, {
    id: newId(),
    companyId: entry.companyId,
    actorType,
    actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    agentId,
    runId: entry.actor.runId ?? null,
    createdAt: entry.now,
    details,
  });
  const events = eventsFromActivity({ action: entry.action, entityType: entry.entityType, entityId: entry.entityId, agentId, details });
  return writeWith(insert, draftStatements(db, entry.companyId, entry.actor, entry.now, events));
}
