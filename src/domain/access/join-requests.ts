// Join requests: the view, approval (creates the agent or the membership), rejection, and the
// one-time API key claim of an approved agent request.
import type { Statement } from "../../db/batch";
import { and, eq, isNull } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import { constantTimeEqual } from "../../crypto/hash";
import { actorRef } from "../actor";
import { conflict, forbidden, notFound } from "../errors";
import { slugify } from "../users/slug";

type JoinRequestRow = typeof schema.joinRequests.$inferSelect;

export function joinRequestView(row: JoinRequestRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    inviteId: row.inviteId,
    requestType: row.requestType,
    status: row.status,
    membershipRole: row.membershipRole,
    requestingUserId: row.requestingUserId ?? null,
    agentName: row.agentName ?? null,
    agentRole: row.agentRole ?? null,
    adapterType: row.adapterType ?? null,
    capabilities: row.capabilities ?? null,
    message: row.message ?? null,
    agentId: row.agentId ?? null,
    apiKeyClaimed: row.apiKeyClaimedAt !== null,
    decidedByActorType: row.decidedByActorType ?? null,
    decidedByActorId: row.decidedByActorId ?? null,
    decidedAt: row.decidedAt ?? null,
    decisionNote: row.decisionNote ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function loadRequest(ctx: CommandContext, requestId: string) {
  const row = await ctx.db.query.joinRequests.findFirst({
    where: and(eq(schema.joinRequests.id, requestId), eq(schema.joinRequests.companyId, ctx.companyId)),
  });
  if (!row) throw notFound("Join request not found");
  return row;
}

function assertPending(row: JoinRequestRow) {
  if (row.status !== "pending_approval") {
    throw conflict(`Join request is already ${row.status}`, { requestId: row.id, status: row.status });
  }
}

/** A company-unique name and URL key: a taken name gets a numeric suffix (`Scout`, `Scout 2`, ...). */
export async function uniqueAgentName(ctx: CommandContext, wanted: string) {
  const rows = await ctx.db
    .select({ name: schema.agents.name, urlKey: schema.agents.urlKey, status: schema.agents.status })
    .from(schema.agents)
    .where(eq(schema.agents.companyId, ctx.companyId));
  const keys = new Set(rows.map((r) => r.urlKey));
  const names = new Set(rows.filter((r) => r.status !== "terminated").map((r) => r.name.toLowerCase()));
  const baseKey = slugify(wanted) || "agent";
  for (let n = 1; ; n++) {
    const name = n === 1 ? wanted : `${wanted} ${n}`;
    const urlKey = n === 1 ? baseKey : `${baseKey}-${n}`;
    if (!keys.has(urlKey) && !names.has(name.toLowerCase())) return { name, urlKey };
  }
}

export const decideJoinRequest = defineCommand(
  "access.joinRequest.decide",
  async (ctx, actor, input: { requestId: string; decision: "approve" | "reject"; note?: string }) => {
    const row = await loadRequest(ctx, input.requestId);
    assertPending(row);
    const { db } = ctx;
    const decider = actorRef(actor);
    const decided = {
      decidedByActorType: decider.actorType,
      decidedByActorId: decider.actorId,
      decidedAt: ctx.now,
      decisionNote: input.note ?? null,
      updatedAt: ctx.now,
    };
    const guard = and(eq(schema.joinRequests.id, row.id), eq(schema.joinRequests.status, "pending_approval"));

    if (input.decision === "reject") {
      await ctx.batch([
        db
          .update(schema.joinRequests)
          .set({ status: "rejected", ...decided })
          .where(guard),
        ctx.activity({
          action: "join_request.rejected",
          entityType: "join_request",
          entityId: row.id,
          details: { requestType: row.requestType, note: input.note ?? null },
        }),
      ]);
      return joinRequestView({ ...row, status: "rejected", ...decided });
    }

    const statements: Statement[] = [];
    let agentId: string | null = null;
    if (row.requestType === "agent") {
      agentId = newId();
      const { name, urlKey } = await uniqueAgentName(ctx, row.agentName ?? "Invited agent");
      statements.push(
        db.insert(schema.agents).values({
          id: agentId,
          companyId: ctx.companyId,
          name,
          urlKey,
          role: row.agentRole ?? "general",
          capabilities: row.capabilities ?? null,
          adapterType: row.adapterType ?? "process",
          adapterConfig: {},
          runtimeConfig: {},
          status: "idle",
          permissions: {},
          metadata: { joinRequestId: row.id, inviteId: row.inviteId },
          createdAt: ctx.now,
          updatedAt: ctx.now,
        }),
        db.insert(schema.companyMemberships).values({
          id: newId(),
          companyId: ctx.companyId,
          principalType: "agent",
          principalId: agentId,
          membershipRole: row.membershipRole,
          status: "active",
          createdAt: ctx.now,
          updatedAt: ctx.now,
        }),
      );
    } else if (row.requestingUserId) {
      const existing = await db.query.companyMemberships.findFirst({
        where: and(
          eq(schema.companyMemberships.companyId, ctx.companyId),
          eq(schema.companyMemberships.principalType, "user"),
          eq(schema.companyMemberships.principalId, row.requestingUserId),
        ),
      });
      if (existing?.status === "active") {
        throw conflict("The requesting user is already an active member", { membershipId: existing.id });
      }
      statements.push(
        existing
          ? db
              .update(schema.companyMemberships)
              .set({ membershipRole: row.membershipRole, status: "active", updatedAt: ctx.now })
              .where(eq(schema.companyMemberships.id, existing.id))
          : db.insert(schema.companyMemberships).values({
              id: newId(),
              companyId: ctx.companyId,
              principalType: "user",
              principalId: row.requestingUserId,
              membershipRole: row.membershipRole,
              status: "active",
              createdAt: ctx.now,
              updatedAt: ctx.now,
            }),
      );
    }
    statements.push(
      db
        .update(schema.joinRequests)
        .set({ status: "approved", agentId, ...decided })
        .where(guard),
      ctx.activity({
        action: "join_request.approved",
        entityType: "join_request",
        entityId: row.id,
        details: { requestType: row.requestType, agentId, userId: row.requestingUserId, membershipRole: row.membershipRole },
      }),
    );
    if (agentId) {
      statements.push(
        ctx.activity({
          action: "agent.created",
          entityType: "agent",
          entityId: agentId,
          agentId,
          details: { source: "join_request", joinRequestId: row.id, adapterType: row.adapterType ?? "process" },
        }),
      );
    }
    await ctx.batch(statements);
    return joinRequestView({ ...row, status: "approved", agentId, ...decided });
  },
);

/**
 * Hands the approved agent its API key once. Wrong secret → 403 (checked before anything about
 * the request's state is revealed); not approved, rejected or already claimed → 409.
 */
export const claimJoinRequestApiKey = defineCommand(
  "access.joinRequest.claimApiKey",
  async (ctx, actor, input: { requestId: string; claimSecretHash: string; keyHash: string; keyId: string }) => {
    const row = await loadRequest(ctx, input.requestId);
    if (!row.claimSecretHash || !constantTimeEqual(row.claimSecretHash, input.claimSecretHash)) {
      throw forbidden("Invalid claim secret");
    }
    if (row.status === "pending_approval") throw conflict("Join request has not been approved yet", { status: row.status });
    if (row.status === "rejected") throw conflict("Join request was rejected", { status: row.status });
    if (row.apiKeyClaimedAt) throw conflict("The API key for this join request has already been claimed", { claimedAt: row.apiKeyClaimedAt });
    const agent = row.agentId ? await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, row.agentId) }) : undefined;
    if (!agent || agent.status === "terminated" || agent.status === "pending_approval") {
      throw conflict("The agent of this join request can no longer receive keys", { agentId: row.agentId });
    }
    await ctx.batch([
      ctx.db
        .update(schema.joinRequests)
        .set({ apiKeyClaimedAt: ctx.now, updatedAt: ctx.now })
        .where(and(eq(schema.joinRequests.id, row.id), isNull(schema.joinRequests.apiKeyClaimedAt))),
      ctx.db.insert(schema.agentApiKeys).values({
        id: input.keyId,
        companyId: ctx.companyId,
        agentId: agent.id,
        name: "join-request claim",
        keyHash: input.keyHash,
        createdAt: ctx.now,
      }),
      ctx.activity({
        action: "join_request.api_key_claimed",
        entityType: "join_request",
        entityId: row.id,
        agentId: agent.id,
        details: { agentId: agent.id, keyId: input.keyId },
      }),
    ]);
    return { agentId: agent.id, companyId: ctx.companyId, keyId: input.keyId, agentName: agent.name };
  },
);

export const joinRequestCommands = [decideJoinRequest, claimJoinRequestApiKey];
