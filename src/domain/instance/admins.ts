// Instance admins: who they are, the first claim (bootstrap or board claim), promotion and
// demotion. Each guarded change is one statement: D1 runs statements one at a time, so two
// concurrent claims or demotions cannot both pass their check.
import { and, eq, gt, notExists, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";

const admins = schema.instanceAdmins;

export const instanceAdminCount = (db: Db) => db.$count(admins);

/** Makes the user instance admin only while the instance has none; true when this call did it. */
export async function claimFirstInstanceAdmin(db: Db, userId: string, now: string) {
  const users = schema.users;
  // Selected from the claimant's own user row (instance_admins.user_id references it anyway).
  const result = await db
    .insert(admins)
    .select(
      db
        .select({
          userId: users.id,
          grantedByUserId: users.id,
          viaBootstrap: sql<boolean>`1`.as("via_bootstrap"),
          createdAt: sql<string>`${now}`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, userId), notExists(db.select({ userId: admins.userId }).from(admins)))),
    )
    .run();
  return result.meta.changes > 0;
}

/** Makes the user instance admin (idempotent). */
export async function promoteInstanceAdmin(db: Db, userId: string, grantedByUserId: string) {
  await db.insert(admins).values({ userId, grantedByUserId, viaBootstrap: false, createdAt: new Date().toISOString() }).onConflictDoNothing().run();
}

/** Removes the user's instance-admin role unless they are the last admin; true when removed. */
export async function demoteInstanceAdmin(db: Db, userId: string) {
  const result = await db
    .delete(admins)
    .where(and(eq(admins.userId, userId), gt(db.$count(admins), 1)))
    .run();
  return result.meta.changes > 0;
}
