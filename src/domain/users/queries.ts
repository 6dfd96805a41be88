// User reads: the board caller's profile and a company member's profile with its counts.
import { and, eq, notInArray } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { BoardActor } from "../actor";
import { notFound } from "../errors";
import { TERMINAL_ISSUE_STATUSES } from "../issues/view";
import { slugify } from "./slug";

const users = schema.users;
const memberships = schema.companyMemberships;

export const findUser = (db: Db, userId: string) => db.query.users.findFirst({ where: eq(users.id, userId) });

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
  const members = await db
    .select({ user: users, membership: memberships })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.principalId))
    .where(and(eq(memberships.companyId, companyId), eq(memberships.principalType, "user")));
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
