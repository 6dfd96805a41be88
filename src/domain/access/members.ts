// Company members (user and agent memberships), their explicit grants, and the membership
// commands: role/status/grant changes, instance-admin access replacement, board-claim transfer.
// Rule everywhere: the last active owner can be neither demoted nor deactivated.
import type { Statement } from "../../db/batch";
import { and, eq, inArray, ne } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { usersById } from "../users/queries";
import type { MembershipStatus } from "../../db/schema/access";
import { defineCommand, type CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import { LOCAL_BOARD_USER_ID, type Actor } from "../actor";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { defaultGrantsForRole, type MembershipRoleName, type PermissionKey } from "../authorization/permission-keys";
import { callerIsOwner } from "./invites";

type MembershipRow = typeof schema.companyMemberships.$inferSelect;
export interface GrantInput {
  permissionKey: PermissionKey;
  scope?: Record<string, unknown> | null;
}

/** Every membership of the company (or one), with the user's or agent's name and the explicit grants. */
export async function listMembers(db: Db, companyId: string, options: { memberId?: string; includeEmail?: boolean } = {}) {
  // Users live in the directory, memberships and agents on the company's shard (src/db/shards.ts):
  // the users are read by id after the memberships.
  const rows = await db
    .select({
      membership: schema.companyMemberships,
      agentName: schema.agents.name,
      agentRole: schema.agents.role,
      agentStatus: schema.agents.status,
    })
    .from(schema.companyMemberships)
    .leftJoin(schema.agents, and(eq(schema.companyMemberships.principalType, "agent"), eq(schema.agents.id, schema.companyMemberships.principalId)))
    .where(and(eq(schema.companyMemberships.companyId, companyId), options.memberId ? eq(schema.companyMemberships.id, options.memberId) : undefined))
    .orderBy(schema.companyMemberships.createdAt, schema.companyMemberships.id);
  const people = await usersById(
    db,
    rows.filter((r) => r.membership.principalType === "user").map((r) => r.membership.principalId),
  );
  const grants = await db
    .select()
    .from(schema.principalPermissionGrants)
    .where(eq(schema.principalPermissionGrants.companyId, companyId))
    .orderBy(schema.principalPermissionGrants.createdAt);
  return rows.map((row) => {
    const person = row.membership.principalType === "user" ? people.get(row.membership.principalId) : undefined;
    const r = { ...row, userName: person?.name ?? null, userEmail: person?.email ?? null, userImage: person?.image ?? null };
    const m = r.membership;
    const own = grants.filter((g) => g.principalType === m.principalType && g.principalId === m.principalId);
    const effective = new Set<string>(m.status === "active" && m.principalType === "user" ? defaultGrantsForRole(m.membershipRole) : []);
    for (const g of own) if (!g.scope || Object.keys(g.scope).length === 0) effective.add(g.permissionKey);
    return {
      id: m.id,
      companyId: m.companyId,
      principalType: m.principalType,
      principalId: m.principalId,
      membershipRole: m.membershipRole,
      status: m.status,
      user:
        m.principalType === "user"
          ? { id: m.principalId, name: r.userName ?? null, email: options.includeEmail ? (r.userEmail ?? null) : null, image: r.userImage ?? null }
          : null,
      agent: m.principalType === "agent" ? { id: m.principalId, name: r.agentName ?? null, role: r.agentRole ?? null, status: r.agentStatus ?? null } : null,
      grants: own.map((g) => ({
        id: g.id,
        permissionKey: g.permissionKey,
        scope: g.scope ?? null,
        grantedByUserId: g.grantedByUserId ?? null,
        createdAt: g.createdAt,
      })),
      effectivePermissions: [...effective].sort(),
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
    };
  });
}

async function activeOwnerCount(ctx: CommandContext, exceptMembershipId?: string) {
  const rows = await ctx.db
    .select({ id: schema.companyMemberships.id })
    .from(schema.companyMemberships)
    .where(
      and(
        eq(schema.companyMemberships.companyId, ctx.companyId),
        eq(schema.companyMemberships.membershipRole, "owner"),
        eq(schema.companyMemberships.status, "active"),
        exceptMembershipId ? ne(schema.companyMemberships.id, exceptMembershipId) : undefined,
      ),
    );
  return rows.length;
}

/** 409 when the change would leave the company without an active owner. */
async function assertKeepsAnOwner(ctx: CommandContext, row: MembershipRow, next: { role: MembershipRoleName; status: MembershipStatus }) {
  const wasActiveOwner = row.membershipRole === "owner" && row.status === "active";
  const staysActiveOwner = next.role === "owner" && next.status === "active";
  if (wasActiveOwner && !staysActiveOwner && (await activeOwnerCount(ctx, row.id)) === 0) {
    throw conflict("Cannot demote, deactivate or archive the last active owner of the company; make another member owner first", {
      memberId: row.id,
    });
  }
}

function normaliseGrants(grants: GrantInput[]) {
  const seen = new Map<string, GrantInput>();
  for (const g of grants) {
    const scope = g.scope && Object.keys(g.scope).length ? g.scope : null;
    if (g.permissionKey === "tasks:assign_scope" && !scope) {
      throw badRequest("tasks:assign_scope needs a scope with at least one constraint (for example { projectIds: [...] })");
    }
    seen.set(`${g.permissionKey}|${JSON.stringify(scope)}`, { permissionKey: g.permissionKey, scope });
  }
  return [...seen.values()];
}

export interface UpdateMemberInput {
  memberId: string;
  membershipRole?: MembershipRoleName;
  status?: MembershipStatus;
  /** When given, replaces the member's whole explicit grant set. */
  grants?: GrantInput[];
}

export const updateMember = defineCommand("access.member.update", async (ctx, actor, input: UpdateMemberInput) => {
  const row = await ctx.db.query.companyMemberships.findFirst({
    where: and(eq(schema.companyMemberships.id, input.memberId), eq(schema.companyMemberships.companyId, ctx.companyId)),
  });
  if (!row) throw notFound("Member not found");
  const next = { role: input.membershipRole ?? row.membershipRole, status: input.status ?? row.status };
  const touchesOwner = next.role !== row.membershipRole && (next.role === "owner" || row.membershipRole === "owner");
  if (touchesOwner && !(await callerIsOwner(ctx, actor))) throw forbidden("Only a company owner can grant or remove the owner role");
  await assertKeepsAnOwner(ctx, row, next);
  const grants = input.grants ? normaliseGrants(input.grants) : undefined;
  const { db } = ctx;
  const statements: Statement[] = [
    db
      .update(schema.companyMemberships)
      .set({ membershipRole: next.role, status: next.status, updatedAt: ctx.now })
      .where(eq(schema.companyMemberships.id, row.id)),
  ];
  if (grants) {
    const principal = and(
      eq(schema.principalPermissionGrants.companyId, ctx.companyId),
      eq(schema.principalPermissionGrants.principalType, row.principalType),
      eq(schema.principalPermissionGrants.principalId, row.principalId),
    );
    statements.push(db.delete(schema.principalPermissionGrants).where(principal));
    for (const g of grants) {
      statements.push(
        db.insert(schema.principalPermissionGrants).values({
          id: newId(),
          companyId: ctx.companyId,
          principalType: row.principalType,
          principalId: row.principalId,
          permissionKey: g.permissionKey,
          scope: g.scope ?? null,
          grantedByUserId: actor.type === "board" ? actor.userId : null,
          createdAt: ctx.now,
        }),
      );
    }
  }
  const changes: Record<string, unknown> = {};
  if (next.role !== row.membershipRole) changes.membershipRole = { from: row.membershipRole, to: next.role };
  if (next.status !== row.status) changes.status = { from: row.status, to: next.status };
  if (grants) changes.grants = grants.map((g) => ({ permissionKey: g.permissionKey, scope: g.scope ?? null }));
  statements.push(memberUpdatedActivity(ctx, actor, row, changes));
  await ctx.batch(statements);
  return (await listMembers(db, ctx.companyId, { memberId: row.id, includeEmail: true }))[0];
});

function memberUpdatedActivity(ctx: CommandContext, actor: Actor, row: MembershipRow, changes: Record<string, unknown>) {
  return ctx.activity({
    action: "company_member.updated",
    entityType: "company_member",
    entityId: row.id,
    details: { principalType: row.principalType, principalId: row.principalId, changes },
  });
}

/**
 * Instance-admin access replacement for one company: `membershipRole` null deactivates the user's
 * membership there (refused for the last active owner), otherwise the user becomes an active member with it.
 */
export const setUserCompanyAccess = defineCommand(
  "access.member.setUserCompanyAccess",
  async (ctx, actor, input: { userId: string; membershipRole: MembershipRoleName | null }) => {
    const row = await ctx.db.query.companyMemberships.findFirst({
      where: and(
        eq(schema.companyMemberships.companyId, ctx.companyId),
        eq(schema.companyMemberships.principalType, "user"),
        eq(schema.companyMemberships.principalId, input.userId),
      ),
    });
    if (!input.membershipRole) {
      if (!row || row.status === "inactive") return { changed: false };
      await assertKeepsAnOwner(ctx, row, { role: row.membershipRole, status: "inactive" });
      await ctx.batch([
        ctx.db.update(schema.companyMemberships).set({ status: "inactive", updatedAt: ctx.now }).where(eq(schema.companyMemberships.id, row.id)),
        memberUpdatedActivity(ctx, actor, row, { status: { from: row.status, to: "inactive" }, via: "admin_company_access" }),
      ]);
      return { changed: true };
    }
    if (row) {
      if (row.status === "active" && row.membershipRole === input.membershipRole) return { changed: false };
      await assertKeepsAnOwner(ctx, row, { role: input.membershipRole, status: "active" });
      await ctx.batch([
        ctx.db
          .update(schema.companyMemberships)
          .set({ membershipRole: input.membershipRole, status: "active", updatedAt: ctx.now })
          .where(eq(schema.companyMemberships.id, row.id)),
        memberUpdatedActivity(ctx, actor, row, {
          membershipRole: { from: row.membershipRole, to: input.membershipRole },
          status: { from: row.status, to: "active" },
          via: "admin_company_access",
        }),
      ]);
      return { changed: true };
    }
    const created: MembershipRow = {
      id: newId(),
      companyId: ctx.companyId,
      principalType: "user",
      principalId: input.userId,
      membershipRole: input.membershipRole,
      status: "active",
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.batch([
      ctx.db.insert(schema.companyMemberships).values(created),
      memberUpdatedActivity(ctx, actor, created, { created: true, membershipRole: input.membershipRole, via: "admin_company_access" }),
    ]);
    return { changed: true };
  },
);

/**
 * Board claim: the claiming user becomes an active owner and the implicit local board's
 * membership is deactivated. Skips companies the local board no longer owns.
 */
export const transferLocalBoardOwnership = defineCommand(
  "access.member.claimFromLocalBoard",
  async (ctx, actor, input: { userId: string; tokenId: string }) => {
    const rows = await ctx.db
      .select()
      .from(schema.companyMemberships)
      .where(
        and(
          eq(schema.companyMemberships.companyId, ctx.companyId),
          eq(schema.companyMemberships.principalType, "user"),
          inArray(schema.companyMemberships.principalId, [input.userId, LOCAL_BOARD_USER_ID]),
        ),
      );
    const local = rows.find((r) => r.principalId === LOCAL_BOARD_USER_ID);
    if (local?.status !== "active" || local.membershipRole !== "owner") return { claimed: false };
    const mine = rows.find((r) => r.principalId === input.userId);
    const statements: Statement[] = [
      mine
        ? ctx.db
            .update(schema.companyMemberships)
            .set({ membershipRole: "owner", status: "active", updatedAt: ctx.now })
            .where(eq(schema.companyMemberships.id, mine.id))
        : ctx.db.insert(schema.companyMemberships).values({
            id: newId(),
            companyId: ctx.companyId,
            principalType: "user",
            principalId: input.userId,
            membershipRole: "owner",
            status: "active",
            createdAt: ctx.now,
            updatedAt: ctx.now,
          }),
      ctx.db.update(schema.companyMemberships).set({ status: "inactive", updatedAt: ctx.now }).where(eq(schema.companyMemberships.id, local.id)),
      ctx.activity({
        action: "company.board_claimed",
        entityType: "company",
        entityId: ctx.companyId,
        details: { userId: input.userId, boardClaimTokenId: input.tokenId },
      }),
    ];
    await ctx.batch(statements);
    return { claimed: true };
  },
);

export const memberCommands = [updateMember, setUserCompanyAccess, transferLocalBoardOwnership];
