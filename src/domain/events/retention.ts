// Event retention: a company's events are kept for at least 24 hours and at least its last 10,000
// (whichever keeps more), so a stream resumes with Last-Event-ID across a day's disconnect. Settled
// webhook deliveries are kept 7 days for the deliveries list. The hub prunes at most once an hour.
import { and, eq, lt, ne, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { Statement } from "../../db/batch";

export const EVENT_RETENTION_MS = 24 * 3600_000;
export const EVENT_RETENTION_COUNT = 10_000;
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600_000;

export function pruneEventsStatements(db: Db, companyId: string, now: Date): Statement[] {
  const e = schema.companyEvents;
  const d = schema.webhookDeliveries;
  const before = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  const keptFrom = sql`(SELECT ${e.seq} FROM ${e} WHERE ${e.companyId} = ${companyId} ORDER BY ${e.seq} DESC LIMIT 1 OFFSET ${EVENT_RETENTION_COUNT - 1})`;
  return [
    db.delete(e).where(and(eq(e.companyId, companyId), lt(e.occurredAt, before), sql`${e.seq} < coalesce(${keptFrom}, 0)`)),
    db
      .delete(d)
      .where(and(eq(d.companyId, companyId), ne(d.status, "pending"), lt(d.updatedAt, new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString()))),
  ];
}
