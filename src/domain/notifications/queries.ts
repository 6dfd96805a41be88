// Reading a company's notification channels and a channel's delivery log (newest first).
import { and, desc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { channelView } from "./channels";

export async function listChannels(db: Db, companyId: string) {
  const c = schema.notificationChannels;
  const rows = await db.select().from(c).where(eq(c.companyId, companyId)).orderBy(desc(c.createdAt), desc(c.id));
  return rows.map(channelView);
}

export async function getChannel(db: Db, companyId: string, channelId: string) {
  const c = schema.notificationChannels;
  const [row] = await db
    .select()
    .from(c)
    .where(and(eq(c.id, channelId), eq(c.companyId, companyId)));
  if (!row) throw notFound("Notification channel not found");
  return row;
}

export type NotificationDeliveryRow = typeof schema.notificationDeliveries.$inferSelect;

export const notificationDeliveryView = (row: NotificationDeliveryRow) => {
  const message = row.message as { eventType?: string; title?: string };
  return {
    id: row.id,
    destination: row.destination,
    channelId: row.channelId,
    eventId: row.eventId,
    eventType: message.eventType ?? "unknown",
    title: message.title ?? "",
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
};

export async function listChannelDeliveries(
  db: Db,
  companyId: string,
  channelId: string,
  filter: { status?: NotificationDeliveryRow["status"]; limit: number },
) {
  await getChannel(db, companyId, channelId);
  const d = schema.notificationDeliveries;
  const rows = await db
    .select()
    .from(d)
    .where(and(eq(d.companyId, companyId), eq(d.channelId, channelId), filter.status ? eq(d.status, filter.status) : undefined))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(filter.limit);
  return rows.map(notificationDeliveryView);
}

export async function getDelivery(db: Db, companyId: string, deliveryId: string) {
  const d = schema.notificationDeliveries;
  const [row] = await db
    .select()
    .from(d)
    .where(and(eq(d.id, deliveryId), eq(d.companyId, companyId)));
  if (!row) throw notFound("Delivery not found");
  return notificationDeliveryView(row);
}
