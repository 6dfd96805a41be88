// Member, join-request, admin and board-claim schemas.
import { z } from "@hono/zod-openapi";
import { permissionKeys } from "../../domain/authorization/permission-keys";
import { CompanyIdParam, Timestamp, Uuid } from "../common";
import { MembershipRole } from "./invites";
import { JOIN_REQUEST_TYPES, MEMBERSHIP_STATUSES, PRINCIPAL_TYPES } from "../../db/schema/access";

const atLeastOne = (v: Record<string, unknown>) => Object.values(v).some((x) => x !== undefined);

export const GrantInputSchema = z
  .object({
    permissionKey: z.enum(permissionKeys),
    scope: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: "Absent or null = company-wide; tasks:assign_scope needs at least one constraint (projectIds, agentIds, ...)" }),
  })
  .strict()
  .openapi("GrantInput");

export const GrantSchema = z
  .object({
    id: z.string(),
    permissionKey: z.string(),
    scope: z.record(z.string(), z.unknown()).nullable(),
    grantedByUserId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .openapi("PermissionGrant");

export const MemberSchema = z
  .object({
    id: z.string().openapi({ description: "Membership id (the {memberId} of member routes)" }),
    companyId: z.string(),
    principalType: z.enum(PRINCIPAL_TYPES),
    principalId: z.string(),
    membershipRole: MembershipRole,
    status: z.enum(MEMBERSHIP_STATUSES),
    user: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable(), image: z.string().nullable() }).nullable(),
    agent: z.object({ id: z.string(), name: z.string().nullable(), role: z.string().nullable(), status: z.string().nullable() }).nullable(),
    grants: z.array(GrantSchema).openapi({ description: "Explicit grants" }),
    effectivePermissions: z.array(z.string()).openapi({ description: "Role defaults (users) plus explicit company-wide grants" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("CompanyMember");

export const MemberIdParam = CompanyIdParam.extend({
  memberId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "memberId", in: "path" } }),
});

export const UserDirectoryEntrySchema = z
  .object({ id: z.string(), name: z.string(), slug: z.string(), image: z.string().nullable(), role: MembershipRole })
  .openapi("UserDirectoryEntry");

export const UpdateMemberSchema = z
  .object({ membershipRole: MembershipRole.optional(), status: z.enum(MEMBERSHIP_STATUSES).optional() })
  .strict()
  .refine(atLeastOne, "Give membershipRole or status")
  .openapi("UpdateMember");

export const MemberPermissionsSchema = z
  .object({ grants: z.array(GrantInputSchema).max(50).openapi({ description: "Replaces the member's whole explicit grant set" }) })
  .strict()
  .openapi("MemberPermissions");

export const RoleAndGrantsSchema = z
  .object({
    membershipRole: MembershipRole.optional(),
    status: z.enum(MEMBERSHIP_STATUSES).optional(),
    grants: z.array(GrantInputSchema).max(50).optional().openapi({ description: "When given, replaces the whole explicit grant set" }),
  })
  .strict()
  .refine(atLeastOne, "Give membershipRole, status or grants")
  .openapi("MemberRoleAndGrants");

export const ArchiveMemberSchema = z.object({}).strict().openapi("ArchiveMember");

export const JoinRequestListQuery = z.object({
  status: z
    .enum(["pending_approval", "pending", "approved", "rejected"])
    .optional()
    .openapi({ param: { name: "status", in: "query" }, description: "`pending` is an alias of pending_approval" }),
  requestType: z
    .enum(JOIN_REQUEST_TYPES)
    .optional()
    .openapi({ param: { name: "requestType", in: "query" } }),
});

export const JoinRequestIdParam = CompanyIdParam.extend({
  requestId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "requestId", in: "path" } }),
});
export const ClaimRequestIdParam = z.object({
  requestId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "requestId", in: "path" } }),
});

export const DecisionSchema = z
  .object({ note: z.string().trim().max(2000).optional() })
  .strict()
  .openapi("JoinRequestDecision");

export const ClaimApiKeySchema = z
  .object({ claimSecret: z.string().min(1).max(200).openapi({ description: "The claimSecret returned once by the invite accept" }) })
  .strict()
  .openapi("ClaimApiKey");

export const ClaimedApiKeySchema = z
  .object({
    agentId: z.string(),
    companyId: z.string(),
    agentName: z.string(),
    keyId: z.string(),
    token: z.string().openapi({ description: "The agent API key (svc_agent_…), shown once" }),
  })
  .openapi("ClaimedAgentApiKey");

// Admin
export const AdminUserQuery = z.object({
  query: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ param: { name: "query", in: "query" }, description: "Matches name or email (case-insensitive substring)" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .openapi({ param: { name: "limit", in: "query" } }),
});

export const AdminUserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    image: z.string().nullable(),
    isInstanceAdmin: z.boolean(),
    activeCompanyCount: z.number().int(),
    createdAt: z.string(),
  })
  .openapi("AdminUser");

export const UserIdParam = z.object({
  userId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "userId", in: "path" } }),
});

export const CompanyAccessEntrySchema = z
  .object({
    companyId: z.string(),
    companyName: z.string(),
    membershipId: z.string(),
    membershipRole: MembershipRole,
    status: z.enum(MEMBERSHIP_STATUSES),
  })
  .openapi("CompanyAccessEntry");

export const CompanyAccessSchema = z
  .object({ userId: z.string(), isInstanceAdmin: z.boolean(), memberships: z.array(CompanyAccessEntrySchema) })
  .openapi("UserCompanyAccess");

export const PutCompanyAccessSchema = z
  .object({
    memberships: z
      .array(z.object({ companyId: Uuid, membershipRole: MembershipRole }).strict())
      .max(200)
      .openapi({ description: "The user's complete set of active memberships; memberships of other companies become inactive" }),
  })
  .strict()
  .openapi("PutCompanyAccess");

// Board claim
export const BoardClaimTokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "token", in: "path" } }),
});

export const BoardClaimSchema = z
  .object({
    status: z.enum(["pending", "claimed", "expired"]),
    expiresAt: Timestamp,
    claimedAt: z.string().nullable(),
    companies: z.array(z.object({ id: z.string(), name: z.string() })),
  })
  .openapi("BoardClaim");

export const BoardClaimResultSchema = z
  .object({
    claimed: z.literal(true),
    userId: z.string(),
    companies: z.array(z.object({ id: z.string(), name: z.string(), claimed: z.boolean() })),
    becameInstanceAdmin: z.boolean(),
  })
  .openapi("BoardClaimResult");

export const EmptyBodySchema = z.object({}).strict();
