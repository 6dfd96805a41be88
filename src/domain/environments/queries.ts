// Environment reads shared by routes and commands.
import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { environmentView, type EnvironmentRow } from "./view";

/** Live (active, unexpired) leases per environment of the company. */
export async function liveLeaseCounts(db: Db, companyId: string, now: string, environmentId?: string) {
  const l = schema.environmentLeases;
  const rows = await db
    .select({ environmentId: l.environmentId, n: sql<number>`COUNT(*)`.mapWith(Number) })
    .from(l)
    .where(
      and(
        eq(l.companyId, companyId),
        environmentId ? eq(l.environmentId, environmentId) : undefined,
        eq(l.status, "active"),
        or(isNull(l.expiresAt), gt(l.expiresAt, now)),
      ),
    )
    .groupBy(l.environmentId);
  return new Map(rows.map((r) => [r.environmentId, r.n]));
}

export async function environmentViews(db: Db, companyId: string, now: string) {
  const rows = await db
    .select()
    .from(schema.environments)
    .where(eq(schema.environments.companyId, companyId))
    .orderBy(asc(schema.environments.createdAt), asc(schema.environments.id));
  const counts = await liveLeaseCounts(db, companyId, now);
  return rows.map((r) => environmentView(r, counts.get(r.id) ?? 0));
}

export async function environmentViewOf(db: Db, row: EnvironmentRow, now: string) {
  const counts = await liveLeaseCounts(db, row.companyId, now, row.id);
  return environmentView(row, counts.get(row.id) ?? 0);
}
