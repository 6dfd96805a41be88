// Per-user sidebar preferences (global and per company), inbox dismissals and sidebar badge counts.
// Inbox items are keyed `approval:<id>` (pending approvals), `join_request:<id>` (pending join
// requests) and `issue:<id>` (open issues assigned to the caller); dismissing hides one from the count.
import { and, desc, eq, notExists, notInArray, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { defineCommand } from "../../company/command";
import { newId } from "../../crypto/random";
import { TERMINAL_ISSUE_STATUSES } from "../../db/schema/issues";

export const GLOBAL_SCOPE = "global";

export async function readSidebarPreferences(db: Db, userId: string, scopeKey: string) {
  return db.query.sidebarPreferences.findFirst({
    where: and(eq(schema.sidebarPreferences.userId, userId), eq(schema.sidebarPreferences.scopeKey, scopeKey)),
  });
}

export function upsertSidebarPreferences(
  db: Db,
  input: { userId: string; scopeKey: string; companyId: string | null; preferences: Record<string, unknown>; now: string },
) {
  return db
    .insert(schema.sidebarPreferences)
    .values({ userId: input.userId, scopeKey: input.scopeKey, companyId: input.companyId, preferences: input.preferences, updatedAt: input.now })
    .onConflictDoUpdate({
      target: [schema.sidebarPreferences.userId, schema.sidebarPreferences.scopeKey],
      set: { preferences: input.preferences, updatedAt: input.now },
    });
}

/** Replaces the user's global preferences (not company state, so written at the edge). */
export async function saveGlobalSidebarPreferences(db: Db, userId: string, preferences: Record<string, unknown>, now: string) {
  await upsertSidebarPreferences(db, { userId, scopeKey: GLOBAL_SCOPE, companyId: null, preferences, now }).run();
}

export const putCompanySidebarPreferences = defineCommand(
  "access.sidebar.putCompanyPreferences",
  async (ctx, _actor, input: { userId: string; preferences: Record<string, unknown> }) => {
    // Preferences live in the directory (src/db/shards.ts), which holds no company rows to reference:
    // the scope key names the company, and the company's deletion removes them (src/db/directory-sync.ts).
    await upsertSidebarPreferences(ctx.db, { ...input, scopeKey: ctx.companyId, companyId: null, now: ctx.now }).run();
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

/** The user's dismissals in the company, newest first (at most 1000). */
export async function listInboxDismissals(db: Db, companyId: string, userId: string) {
  const d = schema.inboxDismissals;
  return db
    .select({ itemKey: d.itemKey, dismissedAt: d.dismissedAt })
    .from(d)
    .where(and(eq(d.companyId, companyId), eq(d.userId, userId)))
    .orderBy(desc(d.dismissedAt))
    .limit(1000);
}

export async function sidebarBadges(db: Db, companyId: string, userId: string) {
  const a = schema.approvals;
  const j = schema.joinRequests;
  const i = schema.issues;
  const d = schema.inboxDismissals;
  const notDismissed = (key: SQL) =>
    notExists(
      db
        .select({ id: d.id })
        .from(d)
        .where(and(eq(d.companyId, companyId), eq(d.userId, userId), eq(d.itemKey, key))),
    );
  const pendingApproval = and(eq(a.companyId, companyId), eq(a.status, "pending"));
  const pendingJoinRequest = and(eq(j.companyId, companyId), eq(j.status, "pending_approval"));
  const myOpenIssue = and(eq(i.companyId, companyId), eq(i.assigneeUserId, userId), notInArray(i.status, [...TERMINAL_ISSUE_STATUSES]));
  const row = await db
    .select({
      pendingApprovals: db.$count(a, pendingApproval),
      pendingJoinRequests: db.$count(j, pendingJoinRequest),
      myOpenIssues: db.$count(i, myOpenIssue),
      inboxApprovals: db.$count(a, and(pendingApproval, notDismissed(sql`'approval:' || ${a.id}`))),
      inboxJoinRequests: db.$count(j, and(pendingJoinRequest, notDismissed(sql`'join_request:' || ${j.id}`))),
      inboxIssues: db.$count(i, and(myOpenIssue, notDismissed(sql`'issue:' || ${i.id}`))),
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
