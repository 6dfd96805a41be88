// The event outbox: the statements that record an event, and queue one delivery per matching
// enabled webhook subscription, inside the batch of the change that causes it.
import { sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
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

/** SQL: does a subscription's `events` list (JSON array of types / `prefix.*` / `*`) match `type`? */
const subscriptionMatches = (type: string) =>
  sql`EXISTS (SELECT 1 FROM json_each(${schema.webhookSubscriptions.events}) AS p WHERE p.value = '*' OR p.value = ${type} OR (substr(p.value, -2) = '.*' AND substr(${type}, 1, length(p.value) - 1) = substr(p.value, 1, length(p.value) - 1)))`;

/** A UUID-shaped id made by SQLite (one per row of an INSERT … SELECT). */
const sqlUuid = sql`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

/** Records `event` and queues its deliveries (to every enabled subscription of the company it matches). */
export function eventStatements(db: Db, event: ServiceEvent): Statement[] {
  const s = schema.webhookSubscriptions;
  return [
    db.insert(schema.companyEvents).values({
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
    db.insert(schema.webhookDeliveries).select(
      db
        .select({
          id: sqlUuid.as("id"),
          companyId: s.companyId,
          subscriptionId: s.id,
          eventId: sql`${event.id}`.as("event_id"),
          eventSeq: sql`(SELECT ${schema.companyEvents.seq} FROM ${schema.companyEvents} WHERE ${schema.companyEvents.id} = ${event.id})`.as("event_seq"),
          eventType: sql`${event.type}`.as("event_type"),
          status: sql`'pending'`.as("status"),
          attempts: sql`0`.as("attempts"),
          nextAttemptAt: sql`${event.occurredAt}`.as("next_attempt_at"),
          responseStatus: sql`NULL`.as("response_status"),
          latencyMs: sql`NULL`.as("latency_ms"),
          lastError: sql`NULL`.as("last_error"),
          responseBody: sql`NULL`.as("response_body"),
          createdAt: sql`${event.occurredAt}`.as("created_at"),
          updatedAt: sql`${event.occurredAt}`.as("updated_at"),
        })
        .from(s)
        .where(sql`${s.companyId} = ${event.companyId} AND ${s.enabled} = 1 AND ${subscriptionMatches(event.type)}`),
    ),
  ];
}

/** The events `drafts` announce, as `actor` at `now`, with their outbox statements. */
export function draftStatements(db: Db, companyId: string, actor: Actor, now: string, drafts: EventDraft[]): Statement[] {
  const { actorType, actorId } = actorRef(actor);
  return drafts.flatMap((draft) =>
    eventStatements(db, { id: newId(), type: draft.type, companyId, occurredAt: now, actor: { type: actorType, id: actorId }, subject: draft.subject, data: draft.data }),
  );
}
