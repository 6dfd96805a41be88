// Invite schemas: creation, list view, recipient views by token, acceptance, URL resolution check.
import { z } from "@hono/zod-openapi";
import { INVITE_TYPES, JOIN_REQUEST_STATUSES, JOIN_REQUEST_TYPES, MEMBERSHIP_ROLES, MEMBERSHIP_STATUSES } from "../../db/schema/access";
import { Timestamp } from "../common";

export const MembershipRole = z.enum(MEMBERSHIP_ROLES);
export const AgentRoleLabel = z.string().regex(/^[a-z][a-z0-9_-]{0,49}$/, "must be a lower-case role label such as engineer or general");
export const AdapterTypeName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "must be an adapter type such as process or http");
const Note = z.string().trim().max(2000);

export const CreateInviteSchema = z
  .object({
    inviteType: z
      .enum(INVITE_TYPES)
      .default("human")
      .openapi({ description: "`human`: a person joins as a board member; `agent`: an external agent asks to join (files a join request)" }),
    membershipRole: MembershipRole.default("member").openapi({
      description: "Company role given on joining (owner invites need an owner)",
    }),
    requiresApproval: z
      .boolean()
      .optional()
      .openapi({ description: "Human invites: accepting files a join request a board member approves (default false). Agent invites always need approval." }),
    agentName: z.string().trim().min(1).max(200).optional().openapi({ description: "Agent invites: suggested agent name" }),
    agentRole: AgentRoleLabel.optional().openapi({ description: "Agent invites: the role label of the agent created on approval (default general)" }),
    adapterType: AdapterTypeName.optional().openapi({ description: "Agent invites: adapter type hint (default process on approval)" }),
    expiresInHours: z.number().int().min(1).max(720).optional().openapi({ description: "Default: instance setting defaultInviteExpiryHours (168 = 7 days)" }),
    note: Note.optional().openapi({ description: "Shown to the recipient" }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.inviteType === "human") {
      for (const field of ["agentName", "agentRole", "adapterType"] as const) {
        if (v[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: "only allowed on agent invites" });
      }
    } else if (v.requiresApproval === false) {
      ctx.addIssue({ code: "custom", path: ["requiresApproval"], message: "agent invites always require approval" });
    }
  })
  .openapi("CreateInvite");

export const InviteStatus = z.enum(["pending", "accepted", "revoked", "expired"]);

export const InviteSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    inviteType: z.enum(INVITE_TYPES),
    membershipRole: MembershipRole,
    requiresApproval: z.boolean(),
    agentName: z.string().nullable(),
    agentRole: z.string().nullable(),
    adapterType: z.string().nullable(),
    note: z.string().nullable(),
    source: z.string(),
    status: InviteStatus,
    expiresAt: Timestamp,
    revokedAt: z.string().nullable(),
    acceptedAt: z.string().nullable(),
    acceptedByUserId: z.string().nullable(),
    joinRequestId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdByAgentId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Invite");

export const InviteUrlsSchema = z
  .object({
    invite: z.string(),
    onboarding: z.string(),
    onboardingText: z.string(),
    accept: z.string(),
    skillsIndex: z.string(),
    logo: z.string(),
  })
  .openapi("InviteUrls");

export const CreatedInviteSchema = InviteSchema.extend({
  token: z.string().openapi({ description: "Shown once; only its hash is stored" }),
  urls: InviteUrlsSchema,
}).openapi("CreatedInvite");

export const InviteSummarySchema = z
  .object({
    companyId: z.string(),
    companyName: z.string(),
    brandColor: z.string().nullable(),
    hasLogo: z.boolean(),
    inviteType: z.enum(INVITE_TYPES),
    membershipRole: MembershipRole,
    requiresApproval: z.boolean(),
    agentName: z.string().nullable(),
    agentRole: z.string().nullable(),
    adapterType: z.string().nullable(),
    note: z.string().nullable(),
    status: InviteStatus,
    expiresAt: Timestamp,
    urls: InviteUrlsSchema,
  })
  .openapi("InviteSummary");

export const InviteTokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "token", in: "path" } }),
});
export const InviteIdParam = z.object({
  inviteId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "inviteId", in: "path" } }),
});
export const SkillNameParam = InviteTokenParam.extend({
  skillName: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}(\.md)?$/, "must be a skill name such as service-api")
    .openapi({ param: { name: "skillName", in: "path" } }),
});

export const AcceptInviteSchema = z
  .object({
    agentName: z.string().trim().min(1).max(200).optional().openapi({ description: "Agent invites: the name to join under (default: the invite's agentName)" }),
    adapterType: AdapterTypeName.optional().openapi({ description: "Agent invites: how the agent runs (default: the invite's hint, else process)" }),
    capabilities: z.string().trim().max(4000).optional().openapi({ description: "Agent invites: what the agent can do" }),
    message: Note.optional().openapi({ description: "A note for the approver" }),
  })
  .strict()
  .openapi("AcceptInvite");

export const JoinRequestSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    inviteId: z.string(),
    requestType: z.enum(JOIN_REQUEST_TYPES),
    status: z.enum(JOIN_REQUEST_STATUSES),
    membershipRole: MembershipRole,
    requestingUserId: z.string().nullable(),
    agentName: z.string().nullable(),
    agentRole: z.string().nullable(),
    adapterType: z.string().nullable(),
    capabilities: z.string().nullable(),
    message: z.string().nullable(),
    agentId: z.string().nullable().openapi({ description: "The agent created on approval (agent requests)" }),
    apiKeyClaimed: z.boolean(),
    decidedByActorType: z.string().nullable(),
    decidedByActorId: z.string().nullable(),
    decidedAt: z.string().nullable(),
    decisionNote: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("JoinRequest");

export const AcceptInviteResultSchema = z
  .object({
    inviteType: z.enum(INVITE_TYPES),
    outcome: z.enum(["joined", "pending_approval"]),
    companyId: z.string(),
    membership: z.object({ id: z.string(), membershipRole: MembershipRole, status: z.enum(MEMBERSHIP_STATUSES) }).nullable(),
    joinRequest: JoinRequestSchema.nullable(),
    claimSecret: z
      .string()
      .nullable()
      .openapi({ description: "Agent invites: shown once; send it to POST /api/join-requests/{id}/claim-api-key after approval" }),
    claimApiKeyUrl: z.string().nullable(),
  })
  .openapi("AcceptInviteResult");

export const TestResolutionQuery = z.object({
  url: z
    .string()
    .min(1, "url is required")
    .max(2048)
    .openapi({ param: { name: "url", in: "query" }, example: "https://gateway.example.com/api" }),
});

export const TestResolutionSchema = z
  .object({
    url: z.string(),
    wellFormed: z.boolean(),
    error: z.string().nullable(),
    scheme: z.string().nullable(),
    host: z.string().nullable(),
    port: z.number().int().nullable(),
    hostKind: z.enum(["hostname", "ipv4", "ipv6"]).nullable(),
    isLoopback: z.boolean(),
    isPrivate: z.boolean(),
    isLinkLocal: z.boolean(),
    usesTls: z.boolean(),
    publiclyRoutable: z.boolean().openapi({ description: "Not loopback, private or link-local" }),
    gatewayRule: z.enum(["allowed", "requires_insecure_http_flag", "rejected"]).openapi({
      description: "The remote gateway URL rule: HTTPS anywhere, plain HTTP on loopback only unless dangerouslyAllowInsecureRemoteHttp",
    }),
    reachableByGateway: z.boolean().openapi({ description: "gatewayRule is allowed" }),
    notes: z.array(z.string()),
  })
  .openapi("UrlResolution");

export const OnboardingSchema = z
  .object({
    company: z.object({ id: z.string(), name: z.string() }),
    invite: InviteSummarySchema,
    steps: z.array(
      z.object({
        step: z.number().int(),
        title: z.string(),
        method: z.string().nullable(),
        url: z.string().nullable(),
        body: z.unknown().optional(),
        detail: z.string(),
      }),
    ),
    skills: z.array(z.object({ name: z.string(), title: z.string(), description: z.string(), url: z.string() })),
    auth: z.object({ header: z.string(), keyPrefix: z.string(), runIdHeader: z.string() }),
  })
  .openapi("InviteOnboarding");

export const SkillIndexSchema = z
  .object({ skills: z.array(z.object({ name: z.string(), title: z.string(), description: z.string(), url: z.string() })) })
  .openapi("InviteSkillIndex");

export const GatewayInvitePromptSchema = z
  .object({
    agentName: z.string().trim().min(1).max(200).optional().openapi({ description: "Name the remote agent should join under" }),
    role: AgentRoleLabel.optional().openapi({ description: "Role label of the agent created on approval (default general)" }),
    membershipRole: MembershipRole.default("member"),
    gatewayUrl: z
      .string()
      .max(2048)
      .optional()
      .openapi({ description: "The remote gateway's base URL, if known: checked in form (no network call) and quoted in the prompt" }),
    expiresInHours: z.number().int().min(1).max(720).optional(),
    note: Note.optional(),
  })
  .strict()
  .openapi("RemoteGatewayInvitePromptRequest");

export const GatewayInvitePromptResultSchema = z
  .object({
    invite: CreatedInviteSchema,
    prompt: z.string().openapi({ description: "Paste into the remote gateway operator's agent; contains the invite URL and steps" }),
    gatewayUrlCheck: TestResolutionSchema.nullable(),
  })
  .openapi("RemoteGatewayInvitePrompt");
