// Access: company memberships and permission grants, invites, join requests, board-claim tokens,
// sidebar preferences, inbox dismissals.
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { users } from "./auth";
import { inDirectory } from "./homes";

export const INVITE_TYPES = ["human", "agent"] as const;
export const JOIN_REQUEST_STATUSES = ["pending_approval", "approved", "rejected"] as const;
export const JOIN_REQUEST_TYPES = ["human", "agent"] as const;
export const MEMBERSHIP_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];
export const MEMBERSHIP_STATUSES = ["active", "inactive"] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
export const PRINCIPAL_TYPES = ["user", "agent"] as const;
export type PrincipalType = (typeof PRINCIPAL_TYPES)[number];

export const companyInvites = sqliteTable(
  "company_invites",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    inviteType: text("invite_type", { enum: INVITE_TYPES }).notNull(),
    membershipRole: text("membership_role").$type<MembershipRole>().notNull(),
    /** Human invites only: accepting files a join request instead of joining at once (agent invites always do). */
    requiresApproval: integer("requires_approval", { mode: "boolean" }).notNull().default(false),
    agentName: text("agent_name"),
    agentRole: text("agent_role"),
    adapterType: text("adapter_type"),
    note: text("note"),
    /** `api` or `remote-gateway` (made by the gateway invite-prompt route). */
    source: text("source").notNull().default("api"),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    revokedByUserId: text("revoked_by_user_id"),
    acceptedAt: text("accepted_at"),
    acceptedByUserId: text("accepted_by_user_id"),
    joinRequestId: text("join_request_id"),
    createdByUserId: text("created_by_user_id"),
    createdByAgentId: text("created_by_agent_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("company_invites_company_idx").on(t.companyId, t.createdAt)],
);

export const joinRequests = sqliteTable(
  "join_requests",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    inviteId: text("invite_id").notNull(),
    requestType: text("request_type", { enum: JOIN_REQUEST_TYPES }).notNull(),
    status: text("status", { enum: JOIN_REQUEST_STATUSES }).notNull(),
    membershipRole: text("membership_role").$type<MembershipRole>().notNull(),
    requestingUserId: text("requesting_user_id"),
    agentName: text("agent_name"),
    agentRole: text("agent_role"),
    adapterType: text("adapter_type"),
    capabilities: text("capabilities"),
    message: text("message"),
    claimSecretHash: text("claim_secret_hash"),
    apiKeyClaimedAt: text("api_key_claimed_at"),
    agentId: text("agent_id"),
    decidedByActorType: text("decided_by_actor_type"),
    decidedByActorId: text("decided_by_actor_id"),
    decidedAt: text("decided_at"),
    decisionNote: text("decision_note"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("join_requests_company_status_idx").on(t.companyId, t.status, t.createdAt)],
);

export const boardClaimTokens = inDirectory(
  sqliteTable("board_claim_tokens", {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    /** Companies whose only active owner was the implicit local board when the token was minted. */
    companyIds: text("company_ids", { mode: "json" }).$type<string[]>().notNull(),
    expiresAt: text("expires_at").notNull(),
    claimedAt: text("claimed_at"),
    claimedByUserId: text("claimed_by_user_id"),
    createdAt: createdAt(),
  }),
);

export const sidebarPreferences = inDirectory(
  sqliteTable(
    "sidebar_preferences",
    {
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      /** `global` or the company id. */
      scopeKey: text("scope_key").notNull(),
      companyId: text("company_id").references(() => companies.id, { onDelete: "cascade" }),
      preferences: text("preferences", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
      updatedAt: updatedAt(),
    },
    (t) => [primaryKey({ columns: [t.userId, t.scopeKey] })],
  ),
);

export const inboxDismissals = sqliteTable(
  "inbox_dismissals",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    itemKey: text("item_key").notNull(),
    dismissedAt: text("dismissed_at").notNull(),
  },
  (t) => [uniqueIndex("inbox_dismissals_uq").on(t.companyId, t.userId, t.itemKey)],
);

export const companyMemberships = sqliteTable(
  "company_memberships",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    principalType: text("principal_type", { enum: PRINCIPAL_TYPES }).notNull(),
    principalId: text("principal_id").notNull(),
    membershipRole: text("membership_role", { enum: MEMBERSHIP_ROLES }).notNull(),
    status: text("status", { enum: MEMBERSHIP_STATUSES }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("company_memberships_principal_uq").on(t.companyId, t.principalType, t.principalId),
    index("company_memberships_principal_idx").on(t.principalType, t.principalId),
  ],
);

export const principalPermissionGrants = sqliteTable(
  "principal_permission_grants",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    principalType: text("principal_type", { enum: PRINCIPAL_TYPES }).notNull(),
    principalId: text("principal_id").notNull(),
    permissionKey: text("permission_key").notNull(),
    scope: text("scope", { mode: "json" }).$type<Record<string, unknown> | null>(),
    grantedByUserId: text("granted_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("principal_permission_grants_principal_idx").on(t.companyId, t.principalType, t.principalId)],
);
