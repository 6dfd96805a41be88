// User reads: the board caller's profile and a company member's profile with its counts.
import { and, eq, inArray, notInArray } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { BoardActor } from "../actor";
import { notFound } from "../errors";
import { TERMINAL_ISSUE_STATUSES } from "../../db/schema/issues";
import { slugify } from "./slug";

const users = schema.users;
const memberships = schema.companyMemberships;

export const findUser = (db: Db, userId: string) => db.query.users.findFirst({ where: eq(users.id, userId) });

/** Users by id (the directory holds users, a company's shard its memberships: src/db/shards.ts). */
export async function usersById(db: Db, ids: readonly string[]): Promise<Map<string, typeof users.$inferSelect>> {
  const found = new Map<string, typeof users.$inferSelect>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 90) {
    for (const user of await db
      .select()
      .from(users)
      .where(inArray(users.id, unique.slice(i, i + 90))))
      found.set(user.id, user);
  }
  return found;
}

/** The board caller's profile; 404 when its user row is gone. */
export async function boardProfile(db: Db, actor: BoardActor) {
  const user = await findUser(db, actor.userId);
  if (!user) throw notFound("User not found");
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    image: user.image ?? null,
    slug: slugify(user.name) || user.id,
    isInstanceAdmin: actor.isInstanceAdmin,
    companyIds: actor.companyIds,
    authSource: actor.source,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/**
 * A user member of the company by user id, name slug or email local part, with their activity
 * and open assigned issue counts; the email only when `includeEmail`. 404 when none matches.
 */
export async function companyMemberProfile(db: Db, companyId: string, userSlug: string, options: { includeEmail: boolean }) {
  const rows = await db
    .select({ membership: memberships })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.principalType, "user")));
  const people = await usersById(
    db,
    rows.map((r) => r.membership.principalId),
  );
  const members = rows.flatMap((r) => {
    const user = people.get(r.membership.principalId);
    return user ? [{ user, membership: r.membership }] : [];
  });
  const wanted = userSlug.toLowerCase();
  const match =
    members.find((m) => m.user.id === userSlug) ??
    members.find((m) => slugify(m.user.name) === wanted) ??
    members.find((m) => m.user.email.split("@")[0].toLowerCase() === wanted);
  if (!match) throw notFound("User not found in this company");
  const log = schema.activityLog;
  const issues = schema.issues;
  const stats = await db
    .select({
      activityCount: db.$count(log, and(eq(log.companyId, companyId), eq(log.actorType, "user"), eq(log.actorId, match.user.id))),
      assignedOpenIssueCount: db.$count(
        issues,
        and(eq(issues.companyId, companyId), eq(issues.assigneeUserId, match.user.id), notInArray(issues.status, [...TERMINAL_ISSUE_STATUSES])),
      ),
    })
    .from(schema.companies)
    .where(eq(schema.companies.id, companyId))
    .get();
  return {
    user: {
      id: match.user.id,
      name: match.user.name,
      slug: slugify(match.user.name) || match.user.id,
      image: match.user.image ?? null,
      email: options.includeEmail ? match.user.email : null,
    },
    membership: {
      id: match.membership.id,
      membershipRole: match.membership.membershipRole,
      status: match.membership.status,
      createdAt: match.membership.createdAt,
    },
    stats: { activityCount: stats?.activityCount ?? 0, assignedOpenIssueCount: stats?.assignedOpenIssueCount ?? 0 },
  };
}
