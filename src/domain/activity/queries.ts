// Activity-log reads: the company's log (entries of hidden issues left out) and one entity's log,
// newest first (rowid breaks ties of equal times).
import { and, desc, eq, inArray, isNotNull, not, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { activityView } from "./view";
import { badRequest } from "../errors";

const log = schema.activityLog;

export interface ActivityFilters {
  agentId?: string;
  entityType?: string;
  entityId?: string;
}

/** A page's resume point: the last entry's time and rowid (opaque to clients). */
const encodeCursor = (createdAt: string, rowid: number) => btoa(`${createdAt}|${rowid}`).replace(/=+$/, "");
function decodeCursor(cursor: string): { createdAt: string; rowid: number } {
  let text = "";
  try {
    text = atob(cursor);
  } catch {
    /* not base64 */
  }
  const [createdAt, rowid] = text.split("|");
  if (!createdAt || !/^\d+$/.test(rowid ?? "")) throw badRequest("cursor is not one this list gave", { field: "cursor" });
  return { createdAt, rowid: Number(rowid) };
}

/**
 * A page of the company's activity, newest first: `limit` entries after `cursor` (the previous
 * page's nextCursor), and the cursor of the next page (null at the end).
 */
export async function pageCompanyActivity(db: Db, companyId: string, filters: ActivityFilters, page: { cursor?: string; limit: number }) {
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  const rows = await db
    .select({ row: log, rowid: sql<number>`${log}.rowid` })
    .from(log)
    .where(
      and(
        companyActivityWhere(db, companyId, filters),
        after ? sql`(${log.createdAt} < ${after.createdAt} OR (${log.createdAt} = ${after.createdAt} AND ${log}.rowid < ${after.rowid}))` : undefined,
      ),
    )
    .orderBy(desc(log.createdAt), desc(sql`${log}.rowid`))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return { activity: shown.map((r) => activityView(r.row)), nextCursor: more && last ? encodeCursor(last.row.createdAt, last.rowid) : null };
}

function companyActivityWhere(db: Db, companyId: string, filters: ActivityFilters) {
  const hiddenIssues = db
    .select({ id: schema.issues.id })
    .from(schema.issues)
    .where(and(eq(schema.issues.companyId, companyId), isNotNull(schema.issues.hiddenAt)));
  return and(
    eq(log.companyId, companyId),
    filters.agentId ? eq(log.agentId, filters.agentId) : undefined,
    filters.entityType ? eq(log.entityType, filters.entityType) : undefined,
    filters.entityId ? eq(log.entityId, filters.entityId) : undefined,
    not(and(eq(log.entityType, "issue"), inArray(log.entityId, hiddenIssues))!),
  );
}

export async function listCompanyActivity(db: Db, companyId: string, filters: ActivityFilters) {
  const rows = await db
    .select()
    .from(log)
    .where(companyActivityWhere(db, companyId, filters))
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
