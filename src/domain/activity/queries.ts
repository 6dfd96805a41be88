// Activity-log reads: the company's log (entries of hidden issues left out) and one entity's log,
// newest first (rowid breaks ties of equal times).
import { and, desc, eq, inArray, isNotNull, not, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { activityView } from "./view";

const log = schema.activityLog;

export interface ActivityFilters {
  agentId?: string;
  entityType?: string;
  entityId?: string;
}

export async function listCompanyActivity(db: Db, companyId: string, filters: ActivityFilters) {
  const hiddenIssues = db
    .select({ id: schema.issues.id })
    .from(schema.issues)
    .where(and(eq(schema.issues.companyId, companyId), isNotNull(schema.issues.hiddenAt)));
  const rows = await db
    .select()
    .from(log)
    .where(
      and(
        eq(log.companyId, companyId),
        filters.agentId ? eq(log.agentId, filters.agentId) : undefined,
        filters.entityType ? eq(log.entityType, filters.entityType) : undefined,
        filters.entityId ? eq(log.entityId, filters.entityId) : undefined,
        not(and(eq(log.entityType, "issue"), inArray(log.entityId, hiddenIssues))!),
      ),
    )
    .orderBy(desc(log.createdAt), desc(sql`rowid`));
  return rows.map(activityView);
}

export async function listEntityActivity(db: Db, companyId: string, entityType: string, entityId: string) {
  const rows = await db
    .select()
    .from(log)
    .where(and(eq(log.companyId, companyId), eq(log.entityType, entityType), eq(log.entityId, entityId)))
    .orderBy(desc(log.createdAt), desc(sql`rowid`));
  return rows.map(activityView);
}
