// Per-user sidebar preferences (global and per company), inbox dismissals and sidebar badge counts.
// Inbox items are keyed `approval:<id>` (pending approvals), `join_request:<id>` (pending join
// requests) and `issue:<id>` (open issues assigned to the caller); dismissing hides one from the count.
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { defineCommand } from "../../company/command";
import { newId } from "../../crypto/random";

export const GLOBAL_SCOPE = "global";

export async function readSidebarPreferences(db: Db, userId: string, scopeKey: string) {
  return db.query.sidebarPreferences.findFirst({
    where: and(eq(schema.sidebarPreferences.userId, userId), eq(schema.sidebarPreferences.scopeKey, scopeKey)),
  });
}

export function upsertSidebarPreferences(db: Db, input: { userId: string; scopeKey: string; companyId: string | null; preferences: Record<string, unknown>; now: string }) {
  return db
    .insert(schema.sidebarPreferences)
    .values({ userId: input.userId, scopeKey: input.scopeKey, companyId: input.companyId, preferences: input.preferences, updatedAt: input.now })
    .onConflictDoUpdate({
      target: [schema.sidebarPreferences.userId, schema.sidebarPreferences.scopeKey],
      set: { preferences: input.preferences, updatedAt: input.now },
    });
}

export const putCompanySidebarPreferences = defineCommand("access.sidebar.putCompanyPreferences", 
  async (ctx, _actor, input: { userId: string; preferences: Record<string, unknown> }) => {
    await upsertSidebarPreferences(ctx.db, { ...input, scopeKey: ctx.companyId, companyId: ctx.companyId, now: ctx.now }).run();
    return { updatedAt: ctx.now };
  },
);

/** Idempotent: dismissing an already dismissed item returns the first dismissal. */
export const dismissInboxItem = defineCommand("access.inbox.dismiss", async (ctx, _actor, input: { userId: string; itemKey: string }) => {
  const inserted = await ctx.db
    .insert(schema.inboxDismissals)
    .values({ id: newId(), companyId: ctx.companyId, userId: input.userId, itemKey: input.itemKey, dismissedAt: ctx.now })
    .onConflictDoNothing()
    .run();
  const row = await ctx.db.query.inboxDismissals.findFirst({
    where: and(
      eq(schema.inboxDismissals.companyId, ctx.companyId),
      eq(schema.inboxDismissals.userId, input.userId),
      eq(schema.inboxDismissals.itemKey, input.itemKey),
    ),
  });
  return { itemKey: row!.itemKey, dismissedAt: row!.dismissedAt, created: (inserted.meta.changes ?? 0) > 0 };
});

export async function sidebarBadges(db: Db, companyId: string, userId: string) {
  const notDismissed = (key: ReturnType<typeof sql>) =>
    sql`NOT EXISTS (SELECT 1 FROM inbox_dismissals d WHERE d.company_id = ${companyId} AND d.user_id = ${userId} AND d.item_key = ${key})`;
  const row = await db
    .select({
      pendingApprovals: sql<number>`(SELECT COUNT(*) FROM approvals a WHERE a.company_id = ${companyId} AND a.status = 'pending')`,
      pendingJoinRequests: sql<number>`(SELECT COUNT(*) FROM join_requests j WHERE j.company_id = ${companyId} AND j.status = 'pending_approval')`,
      myOpenIssues: sql<number>`(SELECT COUNT(*) FROM issues i WHERE i.company_id = ${companyId} AND i.assignee_user_id = ${userId} AND i.status NOT IN ('done', 'cancelled'))`,
      inboxApprovals: sql<number>`(SELECT COUNT(*) FROM approvals a WHERE a.company_id = ${companyId} AND a.status = 'pending' AND ${notDismissed(sql`'approval:' || a.id`)})`,
      inboxJoinRequests: sql<number>`(SELECT COUNT(*) FROM join_requests j WHERE j.company_id = ${companyId} AND j.status = 'pending_approval' AND ${notDismissed(sql`'join_request:' || j.id`)})`,
      inboxIssues: sql<number>`(SELECT COUNT(*) FROM issues i WHERE i.company_id = ${companyId} AND i.assignee_user_id = ${userId} AND i.status NOT IN ('done', 'cancelled') AND ${notDismissed(sql`'issue:' || i.id`)})`,
    })
    .from(schema.companies)
    .where(eq(schema.companies.id, companyId))
    .get();
  const n = (v: number | undefined) => Number(v ?? 0);
  return {
    pendingApprovals: n(row?.pendingApprovals),
    pendingJoinRequests: n(row?.pendingJoinRequests),
    myOpenIssues: n(row?.myOpenIssues),
    inbox: n(row?.inboxApprovals) + n(row?.inboxJoinRequests) + n(row?.inboxIssues),
  };
}

export const inboxCommands = [putCompanySidebarPreferences, dismissInboxItem];
