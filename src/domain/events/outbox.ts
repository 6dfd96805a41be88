// The event outbox: the statement that records an event inside the batch of the change that
// causes it (its webhook deliveries are queued by a trigger in the same transaction).
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { template } from "../../db/templates";
import type { Statement } from "../../db/batch";
import { newId } from "../../crypto/random";
import { actorRef, type Actor } from "../actor";
import type { EventDraft } from "./from-activity";
import type { EventType } from "./catalogue";

export interface ServiceEvent {
  id: string;
  type: EventType;
  companyId: string;
  occurredAt: string;
  actor: { type: "user" | "agent" | "system"; id: string };
  subject: { type: string; id: string };
  data: Record<string, unknown>;
}

export type EventRow = typeof schema.companyEvents.$inferSelect;

/** The event as it is delivered and streamed. */
export const eventView = (row: EventRow): ServiceEvent => ({
  id: row.id,
  type: row.type as EventType,
  companyId: row.companyId,
  occurredAt: row.occurredAt,
  actor: { type: row.actorType, id: row.actorId },
  subject: { type: row.subjectType, id: row.subjectId },
  data: row.data,
});

/**
 * Records `event`. Its deliveries (one per enabled subscription of the company whose `events`
 * match its type) are queued by the database in the same transaction: the trigger
 * `company_events_queue_deliveries` (migrations/0017_run_events.sql), whichever code wrote the event.
 */
export function eventStatements(db: Db, event: ServiceEvent): Statement[] {
  return [
    insertEvent(db, {
      id: event.id,
      companyId: event.companyId,
      type: event.type,
      actorType: event.actor.type,
      actorId: event.actor.id,
      subjectType: event.subject.type,
      subjectId: event.subject.id,
      data: event.data,
      occurredAt: event.occurredAt,
    }),
  ];
}

/** The event insert, built once (src/db/templates.ts). */
const insertEvent = template(["id", "companyId", "type", "actorType", "actorId", "subjectType", "subjectId", "data", "occurredAt"], (db, slot) =>
  db.insert(schema.companyEvents).values(slot),
);

/** The events `drafts` announce, as `actor` at `now`, with their outbox statements. */
export function draftStatements(db: Db, companyId: string, actor: Actor, now: string, drafts: EventDraft[]): Statement[] {
  const { actorType, actorId } = actorRef(actor);
  return drafts.flatMap((draft) =>
    eventStatements(db, {
      id: newId(),
      type: draft.type,
      companyId,
      occurredAt: now,
      actor: { type: actorType, id: actorId },
      subject: draft.subject,
      data: draft.data,
    }),
  );
}

/**
 * Whether the company has webhook deliveries pending (a row when it has): read at the end of a batch
 * that writes events, after the trigger queued theirs, so the company's event hub is told whether a
 * delivery pass has anything to send.
 */
export const pendingDeliveriesRead = (db: Db, companyId: string) => pendingDeliveries(db, { companyId });

const pendingDeliveries = template(["companyId"], (db, slot) => {
  const d = schema.webhookDeliveries;
  const q = schema.notificationQueue;
  const n = schema.notificationDeliveries;
  // Webhook deliveries, notable events to turn into notifications, and notifications to send.
  return db
    .select({ one: sql<number>`1` })
    .from(d)
    .where(and(eq(d.companyId, slot.companyId), eq(d.status, "pending")))
    .unionAll(db.select({ one: sql<number>`1` }).from(q).where(eq(q.companyId, slot.companyId)))
    .unionAll(
      db
        .select({ one: sql<number>`1` })
        .from(n)
        .where(and(eq(n.companyId, slot.companyId), eq(n.status, "pending"))),
    )
    .limit(1);
});
