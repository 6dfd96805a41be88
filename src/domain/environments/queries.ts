// Environment reads shared by routes and commands.
import { and, asc, desc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { environmentView, leaseView, type EnvironmentRow, type LeaseRow } from "./view";

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

/** The environment row; 404 when unknown (callers check the company). */
export async function loadEnvironment(db: Db, environmentId: string) {
  const row = await db.query.environments.findFirst({ where: eq(schema.environments.id, environmentId) });
  if (!row) throw notFound("Environment not found");
  return row;
}

/** The environment's leases newest first; `active` and `expired` account for leases past their expiry. */
export async function listLeases(db: Db, environmentId: string, status: LeaseRow["status"] | undefined, now: string) {
  const l = schema.environmentLeases;
  const live = and(eq(l.status, "active"), or(isNull(l.expiresAt), gt(l.expiresAt, now)));
  const filter =
    status === "active"
      ? live
      : status === "expired"
        ? or(eq(l.status, "expired"), and(eq(l.status, "active"), lte(l.expiresAt, now)))
        : status
          ? eq(l.status, status)
          : undefined;
  const rows = await db
    .select()
    .from(l)
    .where(and(eq(l.environmentId, environmentId), filter))
    .orderBy(desc(l.acquiredAt), desc(sql`rowid`));
  return rows.map((r) => leaseView(r, now));
}

/** The lease row; 404 when unknown (callers check the company). */
export async function loadLease(db: Db, leaseId: string) {
  const row = await db.query.environmentLeases.findFirst({ where: eq(schema.environmentLeases.id, leaseId) });
  if (!row) throw notFound("Lease not found");
  return row;
}
