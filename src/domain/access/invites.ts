// Invites: the list view, their derived status, URLs, and the invite commands (create, revoke,
// accept). Every invite is single-use; tokens are stored as SHA-256 only.
import type { Statement } from "../../db/batch";
import { and, eq, isNull } from "drizzle-orm";
import { schema } from "../../db/client";
import type { INVITE_TYPES, JOIN_REQUEST_TYPES } from "../../db/schema/access";
import { defineCommand, type CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import { LOCAL_BOARD_USER_ID, hasInstanceWideAccess, type Actor } from "../actor";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../errors";
import type { MembershipRoleName } from "../authorization/permission-keys";
import { joinRequestView } from "./join-requests";

type InviteRow = typeof schema.companyInvites.$inferSelect;

export function inviteStatus(row: InviteRow, now = new Date().toISOString()) {
  if (row.acceptedAt) return "accepted" as const;
  if (row.revokedAt) return "revoked" as const;
  if (row.expiresAt <= now) return "expired" as const;
  return "pending" as const;
}

export function inviteView(row: InviteRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    inviteType: row.inviteType,
    membershipRole: row.membershipRole,
    requiresApproval: row.inviteType === "agent" || row.requiresApproval,
    agentName: row.agentName ?? null,
    agentRole: row.agentRole ?? null,
    adapterType: row.adapterType ?? null,
    note: row.note ?? null,
    source: row.source,
    status: inviteStatus(row),
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt ?? null,
    acceptedAt: row.acceptedAt ?? null,
    acceptedByUserId: row.acceptedByUserId ?? null,
    joinRequestId: row.joinRequestId ?? null,
    createdByUserId: row.createdByUserId ?? null,
    createdByAgentId: row.createdByAgentId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function inviteUrls(baseUrl: string, token: string) {
  const base = `${baseUrl}/api/invites/${encodeURIComponent(token)}`;
  return {
    invite: base,
    onboarding: `${base}/onboarding`,
    onboardingText: `${base}/onboarding.txt`,
    accept: `${base}/accept`,
    skillsIndex: `${base}/skills/index`,
    logo: `${base}/logo`,
  };
}

export interface CreateInviteInput {
  inviteType: (typeof INVITE_TYPES)[number];
  membershipRole: MembershipRoleName;
  requiresApproval?: boolean;
  agentName?: string;
  agentRole?: string;
  adapterType?: string;
  note?: string;
  source: "api" | "remote-gateway";
  tokenHash: string;
  expiresAt: string;
}

/** Whether the caller is an owner of the company (or fully trusted): only owners hand out the owner role. */
export async function callerIsOwner(ctx: CommandContext, actor: Actor) {
  if (hasInstanceWideAccess(actor)) return true;
  if (actor.type !== "board") return false;
  const row = await ctx.db.query.companyMemberships.findFirst({
    where: and(
      eq(schema.companyMemberships.companyId, ctx.companyId),
      eq(schema.companyMemberships.principalType, "user"),
      eq(schema.companyMemberships.principalId, actor.userId),
      eq(schema.companyMemberships.status, "active"),
    ),
  });
  return row?.membershipRole === "owner";
}

export const createInvite = defineCommand("access.invite.create", async (ctx, actor, input: CreateInviteInput) => {
  if (input.membershipRole === "owner" && !(await callerIsOwner(ctx, actor))) {
    throw forbidden("Only a company owner can invite with the owner role");
  }
  const id = newId();
  const row: InviteRow = {
    id,
    companyId: ctx.companyId,
    inviteType: input.inviteType,
    membershipRole: input.membershipRole,
    requiresApproval: input.inviteType === "agent" ? true : (input.requiresApproval ?? false),
    agentName: input.agentName ?? null,
    agentRole: input.inviteType === "agent" ? (input.agentRole ?? "general") : null,
    adapterType: input.adapterType ?? null,
    note: input.note ?? null,
    source: input.source,
    tokenHash: input.tokenHash,
    expiresAt: input.expiresAt,
    revokedAt: null,
    revokedByUserId: null,
    acceptedAt: null,
    acceptedByUserId: null,
    joinRequestId: null,
    createdByUserId: actor.type === "board" ? actor.userId : null,
    createdByAgentId: actor.type === "agent" ? actor.agentId : null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await ctx.batch([
    ctx.db.insert(schema.companyInvites).values(row),
    ctx.activity({
      action: "invite.created",
      entityType: "invite",
      entityId: id,
      details: { inviteType: row.inviteType, membershipRole: row.membershipRole, expiresAt: row.expiresAt, source: row.source },
    }),
  ]);
  return inviteView(row);
});

async function loadInvite(ctx: CommandContext, where: ReturnType<typeof eq>) {
  const row = await ctx.db.query.companyInvites.findFirst({ where: and(where, eq(schema.companyInvites.companyId, ctx.companyId)) });
  if (!row) throw notFound("Invite not found");
  return row;
}

/** Revoking is idempotent; a used invite cannot be revoked (its membership or request stands). */
export const revokeInvite = defineCommand("access.invite.revoke", async (ctx, actor, input: { inviteId: string }) => {
  const row = await loadInvite(ctx, eq(schema.companyInvites.id, input.inviteId));
  if (row.acceptedAt) throw conflict("Invite has already been accepted and can no longer be revoked", { inviteId: row.id });
  if (row.revokedAt) return inviteView(row);
  const revokedByUserId = actor.type === "board" ? actor.userId : null;
  await ctx.batch([
    ctx.db
      .update(schema.companyInvites)
      .set({ revokedAt: ctx.now, revokedByUserId, updatedAt: ctx.now })
      .where(and(eq(schema.companyInvites.id, row.id), isNull(schema.companyInvites.acceptedAt))),
    ctx.activity({
      action: "invite.revoked",
      entityType: "invite",
      entityId: row.id,
    }),
  ]);
  return inviteView({ ...row, revokedAt: ctx.now, revokedByUserId, updatedAt: ctx.now });
});

export interface AcceptInviteInput {
  tokenHash: string;
  agentName?: string;
  adapterType?: string;
  capabilities?: string;
  message?: string;
  /** Agent invites: hash of the claim secret the route minted. */
  claimSecretHash: string;
}

/** 409 with a clear reason unless the invite can still be used. */
export function assertInviteUsable(row: InviteRow, now: string) {
  const status = inviteStatus(row, now);
  if (status === "pending") return;
  const messages = {
    accepted: "Invite has already been used",
    revoked: "Invite has been revoked",
    expired: "Invite has expired",
  } as const;
  throw conflict(messages[status], { inviteId: row.id, status, expiresAt: row.expiresAt });
}

export const acceptInvite = defineCommand("access.invite.accept", async (ctx, actor, input: AcceptInviteInput) => {
  const row = await loadInvite(ctx, eq(schema.companyInvites.tokenHash, input.tokenHash));
  assertInviteUsable(row, ctx.now);
  const { db } = ctx;
  // The invite is consumed by a guarded update: the batch fails as a whole if another accept got there first.
  const consume = (extra: Partial<InviteRow>) =>
    db
      .update(schema.companyInvites)
      .set({ acceptedAt: ctx.now, updatedAt: ctx.now, ...extra })
      .where(and(eq(schema.companyInvites.id, row.id), isNull(schema.companyInvites.acceptedAt), isNull(schema.companyInvites.revokedAt)));

  if (row.inviteType === "human") {
    if (actor.type === "none") throw unauthorized("Sign in (or use a board API key) to accept this invite");
    if (actor.type !== "board") throw forbidden("A human invite must be accepted by a board user");
    if (actor.source === "local_implicit" || actor.userId === LOCAL_BOARD_USER_ID) {
      throw badRequest("The implicit local board already has full access; accept the invite as a signed-in user");
    }
    for (const field of ["agentName", "adapterType", "capabilities"] as const) {
      if (input[field] !== undefined) throw badRequest(`${field} is only accepted for agent invites`);
    }
    const existing = await db.query.companyMemberships.findFirst({
      where: and(
        eq(schema.companyMemberships.companyId, ctx.companyId),
        eq(schema.companyMemberships.principalType, "user"),
        eq(schema.companyMemberships.principalId, actor.userId),
      ),
    });
    if (existing?.status === "active") {
      throw conflict("You are already an active member of this company", { membershipId: existing.id, membershipRole: existing.membershipRole });
    }
    if (row.requiresApproval) {
      const request = newJoinRequest(ctx, row, { requestType: "human", requestingUserId: actor.userId, message: input.message });
      await ctx.batch([
        db.insert(schema.joinRequests).values(request),
        consume({ acceptedByUserId: actor.userId, joinRequestId: request.id }),
        ctx.activity({
          action: "join_request.created",
          entityType: "join_request",
          entityId: request.id,
          details: { inviteId: row.id, requestType: "human" },
        }),
      ]);
      return { inviteType: "human" as const, outcome: "pending_approval" as const, membership: null, joinRequest: joinRequestView(request) };
    }
    const membershipId = existing?.id ?? newId();
    const statements: Statement[] = [
      existing
        ? db
            .update(schema.companyMemberships)
            .set({ membershipRole: row.membershipRole, status: "active", updatedAt: ctx.now })
            .where(eq(schema.companyMemberships.id, existing.id))
        : db.insert(schema.companyMemberships).values({
            id: membershipId,
            companyId: ctx.companyId,
            principalType: "user",
            principalId: actor.userId,
            membershipRole: row.membershipRole,
            status: "active",
            createdAt: ctx.now,
            updatedAt: ctx.now,
          }),
      consume({ acceptedByUserId: actor.userId }),
      ctx.activity({
        action: "invite.accepted",
        entityType: "invite",
        entityId: row.id,
        details: { userId: actor.userId, membershipId, membershipRole: row.membershipRole },
      }),
    ];
    await ctx.batch(statements);
    return {
      inviteType: "human" as const,
      outcome: "joined" as const,
      membership: { id: membershipId, membershipRole: row.membershipRole, status: "active" as const },
      joinRequest: null,
    };
  }

  // Agent invite: anyone holding the token may file the request; the claim secret proves it later.
  const request = newJoinRequest(ctx, row, {
    requestType: "agent",
    requestingUserId: actor.type === "board" && actor.source !== "local_implicit" ? actor.userId : null,
    agentName: input.agentName ?? row.agentName ?? "Invited agent",
    adapterType: input.adapterType ?? row.adapterType ?? "process",
    capabilities: input.capabilities,
    message: input.message,
    claimSecretHash: input.claimSecretHash,
  });
  await ctx.batch([
    db.insert(schema.joinRequests).values(request),
    consume({ joinRequestId: request.id }),
    ctx.activity({
      action: "join_request.created",
      entityType: "join_request",
      entityId: request.id,
      details: { inviteId: row.id, requestType: "agent", agentName: request.agentName, adapterType: request.adapterType },
    }),
  ]);
  return { inviteType: "agent" as const, outcome: "pending_approval" as const, membership: null, joinRequest: joinRequestView(request) };
});

function newJoinRequest(
  ctx: CommandContext,
  invite: InviteRow,
  fields: {
    requestType: (typeof JOIN_REQUEST_TYPES)[number];
    requestingUserId: string | null;
    agentName?: string;
    adapterType?: string;
    capabilities?: string;
    message?: string;
    claimSecretHash?: string;
  },
): typeof schema.joinRequests.$inferSelect {
  return {
    id: newId(),
    companyId: ctx.companyId,
    inviteId: invite.id,
    requestType: fields.requestType,
    status: "pending_approval",
    membershipRole: invite.membershipRole,
    requestingUserId: fields.requestingUserId,
    agentName: fields.agentName ?? null,
    agentRole: fields.requestType === "agent" ? (invite.agentRole ?? "general") : null,
    adapterType: fields.adapterType ?? null,
    capabilities: fields.capabilities ?? null,
    message: fields.message ?? null,
    claimSecretHash: fields.claimSecretHash ?? null,
    apiKeyClaimedAt: null,
    agentId: null,
    decidedByActorType: null,
    decidedByActorId: null,
    decidedAt: null,
    decisionNote: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

export const inviteCommands = [createInvite, revokeInvite, acceptInvite];
