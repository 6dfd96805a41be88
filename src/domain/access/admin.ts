// Instance administration reads: the instance's users (with their admin flag and active company
// count) and a user's company access, and the plan for replacing that access.
import { and, eq, exists, or, sql } from "drizzle-orm";
import { inIds } from "../../db/id-list";
import { schema, type Db } from "../../db/client";
import { onEveryShard } from "../../db/shards";
import { badRequest, conflict, notFound, unprocessable } from "../errors";

type MembershipRole = (typeof schema.companyMemberships.$inferSelect)["membershipRole"];

const users = schema.users;
const memberships = schema.companyMemberships;

const adminUserColumns = (db: Db) => ({
  id: users.id,
  name: users.name,
  email: users.email,
  image: users.image,
  createdAt: users.createdAt,
  isInstanceAdmin: exists(
    db.select({ userId: schema.instanceAdmins.userId }).from(schema.instanceAdmins).where(eq(schema.instanceAdmins.userId, users.id)),
  ).mapWith(Boolean),
  // The directory's copy of users' memberships (users and company rows live in different databases: src/db/shards.ts).
  activeCompanyCount: db.$count(
    schema.directoryMemberships,
    and(eq(schema.directoryMemberships.userId, users.id), eq(schema.directoryMemberships.status, "active")),
  ),
});

type AdminUserRow = { id: string; name: string; email: string; image: string | null; createdAt: Date; isInstanceAdmin: boolean; activeCompanyCount: number };
const adminUserView = (r: AdminUserRow) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  image: r.image ?? null,
  isInstanceAdmin: Boolean(r.isInstanceAdmin),
  activeCompanyCount: Number(r.activeCompanyCount),
  createdAt: r.createdAt.toISOString(),
});

/** The user as instance admins see it; 404 when unknown. */
export async function loadAdminUser(db: Db, userId: string) {
  const row = await db.select(adminUserColumns(db)).from(users).where(eq(users.id, userId)).get();
  if (!row) throw notFound("User not found");
  return adminUserView(row);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Users by name, optionally those whose name or email contains `query` (case-insensitive). */
export async function listAdminUsers(db: Db, query: string | undefined, limit: number) {
  const pattern = query ? `%${escapeLike(query.toLowerCase())}%` : null;
  const rows = await db
    .select(adminUserColumns(db))
    .from(users)
    // drizzle's like() has no ESCAPE clause, and the pattern escapes %, _ and \ in the query.
    .where(pattern ? or(sql`lower(${users.name}) LIKE ${pattern} ESCAPE '\\'`, sql`lower(${users.email}) LIKE ${pattern} ESCAPE '\\'`) : undefined)
    .orderBy(users.name, users.id)
    .limit(limit);
  return rows.map(adminUserView);
}

/** The user's company memberships (active and inactive), by company name. */
export async function userCompanyAccess(db: Db, userId: string) {
  const user = await loadAdminUser(db, userId);
  // The user's companies may be on any shard (src/db/shards.ts), whatever company the request touched last.
  const rows = await onEveryShard(() =>
    db
      .select({ membership: memberships, companyName: schema.companies.name })
      .from(memberships)
      .innerJoin(schema.companies, eq(schema.companies.id, memberships.companyId))
      .where(and(eq(memberships.principalType, "user"), eq(memberships.principalId, userId))),
  );
  // Read from every shard at once (an unordered read is their union): sorted here.
  rows.sort((a, b) => (a.companyName < b.companyName ? -1 : a.companyName > b.companyName ? 1 : 0));
  return {
    userId,
    isInstanceAdmin: user.isInstanceAdmin,
    memberships: rows.map((r) => ({
      companyId: r.membership.companyId,
      companyName: r.companyName,
      membershipId: r.membership.id,
      membershipRole: r.membership.membershipRole,
      status: r.membership.status,
    })),
  };
}

export interface CompanyAccessChange {
  companyId: string;
  /** null deactivates the membership. */
  membershipRole: MembershipRole | null;
}

/**
 * The per-company changes that make `wanted` the user's complete set of active memberships.
 * Unknown companies: 422. Removing or demoting the last active owner of any company: 409,
 * checked for every company before anything changes.
 */
export async function planCompanyAccessChanges(db: Db, userId: string, wantedList: { companyId: string; membershipRole: MembershipRole }[]) {
  const current = await userCompanyAccess(db, userId);
  const wanted = new Map(wantedList.map((m) => [m.companyId, m.membershipRole]));
  if (wanted.size !== wantedList.length) throw badRequest("Each companyId may appear only once");
  if (wanted.size) {
    const found = await db
      .select({ id: schema.companies.id })
      .from(schema.companies)
      .where(inIds(schema.companies.id, [...wanted.keys()]));
    const missing = [...wanted.keys()].filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw unprocessable("Unknown company ids", { companyIds: missing });
  }
  const changes: CompanyAccessChange[] = [];
  for (const [companyId, role] of wanted) {
    const existing = current.memberships.find((m) => m.companyId === companyId);
    if (existing?.status !== "active" || existing.membershipRole !== role) changes.push({ companyId, membershipRole: role });
  }
  for (const m of current.memberships) {
    if (m.status === "active" && !wanted.has(m.companyId)) changes.push({ companyId: m.companyId, membershipRole: null });
  }
  const losingOwner = changes.filter(
    (ch) =>
      current.memberships.some((m) => m.companyId === ch.companyId && m.status === "active" && m.membershipRole === "owner") && ch.membershipRole !== "owner",
  );
  for (const ch of losingOwner) {
    const owners = await db.$count(
      memberships,
      and(eq(memberships.companyId, ch.companyId), eq(memberships.membershipRole, "owner"), eq(memberships.status, "active")),
    );
    if (owners <= 1) throw conflict("Cannot remove or demote the last active owner of a company", { companyId: ch.companyId, userId });
  }
  return changes;
}
