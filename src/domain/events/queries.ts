// Reads of the outbound-event area: subscriptions, their deliveries (newest first) and the
// company's retained events (oldest first, after an event id).
import { and, asc, desc, eq, gt, lt, lte, notInArray, or, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { badRequest, notFound } from "../errors";
import { deliveryView, webhookView, type WebhookRow } from "./webhooks";
import { eventView } from "./outbox";
import { BOARD_ONLY_EVENT_PREFIXES, EXACT_ONLY_EVENT_TYPES, eventPatternMatchSql, isEventPattern } from "./catalogue";

export async function listWebhooks(db: Db, companyId: string) {
  const s = schema.webhookSubscriptions;
  const rows = await db.select().from(s).where(eq(s.companyId, companyId)).orderBy(desc(s.createdAt), desc(s.id));
  return rows.map(webhookView);
}

export async function requireWebhook(db: Db, companyId: string, webhookId: string): Promise<WebhookRow> {
  const s = schema.webhookSubscriptions;
  const row = (
    await db
      .select()
      .from(s)
      .where(and(eq(s.id, webhookId), eq(s.companyId, companyId)))
  )[0];
  if (!row) throw notFound("Webhook not found");
  return row;
}

const encode = (parts: string[]) => btoa(JSON.stringify(parts)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
function decode(cursor: string, length: number): string[] {
  try {
    const value = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
    if (Array.isArray(value) && value.length === length && value.every((v) => typeof v === "string")) return value;
  } catch {
    /* fall through */
  }
  throw badRequest("Invalid cursor", { field: "cursor" });
}

export async function listDeliveries(db: Db, companyId: string, webhookId: string, options: { limit?: number; cursor?: string }) {
  await requireWebhook(db, companyId, webhookId);
  const d = schema.webhookDeliveries;
  const limit = options.limit ?? 50;
  const after = options.cursor ? decode(options.cursor, 2) : null;
  const rows = await db
    .select()
    .from(d)
    .where(and(eq(d.subscriptionId, webhookId), after ? or(lt(d.createdAt, after[0]), and(eq(d.createdAt, after[0]), lt(d.id, after[1]))) : undefined))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { deliveries: page.map(deliveryView), nextCursor: rows.length > limit && last ? encode([last.createdAt, last.id]) : null };
}

/** Comma-separated patterns from a query string, checked against the catalogue (400 naming `types`). */
export function parseTypes(raw: string | undefined): string[] | null {
  if (!raw) return null;
  const patterns = raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = patterns.filter((p) => !isEventPattern(p));
  if (unknown.length) throw badRequest(`Unknown event types: ${unknown.join(", ")}`, { field: "types", unknown });
  return patterns.length ? patterns : null;
}

/** SQL filter for event types matching `patterns` (the catalogue's matcher in SQL, over the patterns as one JSON parameter). */
function typeFilter(patterns: string[] | null) {
  // No filter: everything but the exact-only types (a run's log lines).
  if (!patterns) return notInArray(schema.companyEvents.type, [...EXACT_ONLY_EVENT_TYPES]);
  return sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(patterns)}) p WHERE ${sql.raw(eventPatternMatchSql("p.value", '"company_events"."type"'))})`;
}

/** The company's retained events after `after` (an event id), oldest first; agents see no finance events. */
export async function listEvents(db: Db, companyId: string, options: { types: string[] | null; after?: string; limit?: number; agent: boolean }) {
  const e = schema.companyEvents;
  const limit = options.limit ?? 100;
  let fromSeq = 0;
  if (options.after) {
    const found = (
      await db
        .select({ seq: e.seq })
        .from(e)
        .where(and(eq(e.id, options.after), eq(e.companyId, companyId)))
    )[0];
    if (!found) throw badRequest("after is not a retained event of this company", { field: "after" });
    fromSeq = found.seq;
  }
  const agentFilter = options.agent ? and(...BOARD_ONLY_EVENT_PREFIXES.map((prefix) => sql`substr(${e.type}, 1, ${prefix.length}) != ${prefix}`)) : undefined;
  const rows = await db
    .select()
    .from(e)
    .where(and(eq(e.companyId, companyId), gt(e.seq, fromSeq), typeFilter(options.types), agentFilter))
    .orderBy(asc(e.seq))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { events: page.map(eventView), nextCursor: rows.length > limit && last ? last.id : null };
}

/** Ids of deliveries due, for the cron's safety net (hubs whose notification never arrived). */
export async function companiesWithDueDeliveries(db: Db, now: string): Promise<string[]> {
  const d = schema.webhookDeliveries;
  const n = schema.notificationDeliveries;
  const q = schema.notificationQueue;
  // Webhook and notification deliveries due, and notable events not yet turned into deliveries.
  const rows = await db
    .selectDistinct({ companyId: d.companyId })
    .from(d)
    .where(and(eq(d.status, "pending"), lte(d.nextAttemptAt, now)))
    .union(
      db
        .selectDistinct({ companyId: n.companyId })
        .from(n)
        .where(and(eq(n.status, "pending"), lte(n.nextAttemptAt, now))),
    )
    .union(db.selectDistinct({ companyId: q.companyId }).from(q))
    .limit(500);
  return rows.map((r) => r.companyId);
}
