// Agent request and response schemas.
import { z } from "@hono/zod-openapi";
import { adapterTypes } from "../adapters";
import { agentIconNames } from "../domain/agents/icons";
import { AGENT_STATUSES } from "../db/schema/agents";
import { MEMBERSHIP_ROLES, MEMBERSHIP_STATUSES, PRINCIPAL_TYPES } from "../db/schema/access";
import { PATCHABLE_STATUSES } from "../domain/agents/lifecycle";
import { JsonObject, Timestamp, atLeastOneField, Uuid } from "./common";

const Cents = z.number().int().min(0).max(1_000_000_000_00);

export const AgentIdParam = z.object({
  agentId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "agentId", in: "path" }, description: "Agent UUID, or its company-unique shortname (urlKey) with company context" }),
});

export const AgentLookupQuery = z.object({
  companyId: z.string().min(1).optional().openapi({ description: "Company context for a shortname lookup (agent callers default to their own company)" }),
});

export const AdapterTypeParam = z.object({
  adapterType: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "adapterType", in: "path" }, example: "claude_local" }),
});

const RuntimeConfigSchema = z
  .looseObject({
    heartbeat: z
      .looseObject({
        enabled: z.boolean().optional(),
        intervalSec: z
          .number()
          .int()
          .min(1)
          .max(86_400 * 7)
          .optional(),
        maxConcurrentRuns: z.number().int().min(1).max(50).optional().openapi({ description: "Runs of the agent at once (default 1)" }),
        maxRunsPerHour: z.number().int().min(1).max(10_000).optional().openapi({ description: "Runs the agent starts per hour (default 30)" }),
      })
      .optional(),
  })
  .openapi({
    description: "heartbeat.enabled (default false on create), heartbeat.intervalSec, maxConcurrentRuns (1–50), maxRunsPerHour (1–10,000); other keys kept",
  });

const agentFields = {
  name: z.string().trim().min(1).max(120),
  role: z.string().trim().min(1).max(64).optional().openapi({ example: "engineer", description: "ceo, engineer, general, …; default general" }),
  title: z.string().max(200).nullable().optional(),
  icon: z.enum(agentIconNames).nullable().optional(),
  capabilities: z.string().max(20_000).nullable().optional(),
  reportsTo: z.string().min(1).nullable().optional(),
  adapterType: z.enum(adapterTypes).openapi({ description: "How the agent runs; see /api/llms/agent-configuration.txt" }),
  adapterConfig: JsonObject.optional().openapi({ description: "Adapter-specific config; env values may be secret references" }),
  runtimeConfig: RuntimeConfigSchema.optional(),
  budgetMonthlyCents: Cents.optional(),
  desiredSkills: z
    .array(z.string().min(1).max(200))
    .max(100)
    .optional()
    .openapi({ description: "Skill references (canonical key or unique slug); stored as canonical keys" }),
  metadata: JsonObject.nullable().optional(),
};

export const CreateAgentSchema = z.object(agentFields).openapi("CreateAgent");

export const HireAgentSchema = z
  .object({
    ...agentFields,
    sourceIssueId: Uuid.optional(),
    sourceIssueIds: z.array(Uuid).max(50).optional(),
  })
  .openapi("HireAgent");

export const UpdateAgentSchema = z
  .object({
    name: agentFields.name.optional(),
    role: agentFields.role,
    title: agentFields.title,
    icon: agentFields.icon,
    capabilities: agentFields.capabilities,
    reportsTo: agentFields.reportsTo,
    adapterType: agentFields.adapterType.optional(),
    adapterConfig: agentFields.adapterConfig,
    replaceAdapterConfig: z.boolean().optional().openapi({ description: "Replace adapterConfig instead of merging into it" }),
    runtimeConfig: agentFields.runtimeConfig,
    budgetMonthlyCents: agentFields.budgetMonthlyCents,
    desiredSkills: agentFields.desiredSkills,
    metadata: agentFields.metadata,
    status: z.enum(PATCHABLE_STATUSES).optional(),
    permissions: z.unknown().optional().openapi({ description: "Rejected: use PATCH /api/agents/{agentId}/permissions" }),
  })
  .refine(...atLeastOneField)
  .openapi("UpdateAgent");

export const AgentPermissionsSchema = z
  .object({
    canCreateAgents: z.boolean().optional(),
    canAssignTasks: z.boolean().optional(),
    authorizationPolicy: JsonObject.nullable().optional().openapi({
      description:
        "Assignment policy blocks for this agent as a target: agentVisibility { mode: discoverable|private }, assignmentPolicy { mode: company_default|protected, protectedAgentRequiresApproval }, protectedAgent { requiresApproval }; null clears",
    }),
  })
  .refine((v) => v.canCreateAgents !== undefined || v.canAssignTasks !== undefined || v.authorizationPolicy !== undefined, {
    message: "canCreateAgents, canAssignTasks or authorizationPolicy is required",
  })
  .openapi("AgentPermissions");

export const AgentBudgetSchema = z.object({ budgetMonthlyCents: Cents }).openapi("AgentBudget");

export const CreateAgentKeySchema = z.object({ name: z.string().trim().min(1).max(200).optional() }).openapi("CreateAgentKey");

export const SkillsSyncSchema = z
  .object({
    desiredSkills: z
      .array(z.string().min(1).max(200))
      .max(100)
      .openapi({ description: "Exactly the skills the agent should have (library UUIDs, canonical keys or unique slugs); empty detaches all" }),
    mode: z.enum(["replace"]).optional().openapi({ description: "Accepted for older clients; the list always replaces (the default)" }),
  })
  .openapi("AgentSkillsSync");

const MembershipSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  principalType: z.enum(PRINCIPAL_TYPES),
  principalId: z.string(),
  membershipRole: z.enum(MEMBERSHIP_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const GrantSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  principalType: z.enum(PRINCIPAL_TYPES),
  principalId: z.string(),
  permissionKey: z.string(),
  scope: JsonObject.nullable(),
  grantedByUserId: z.string().nullable(),
  createdAt: Timestamp,
});

export const AgentSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    name: z.string(),
    urlKey: z.string(),
    role: z.string(),
    title: z.string().nullable(),
    icon: z.string().nullable(),
    capabilities: z.string().nullable(),
    reportsTo: z.string().nullable(),
    adapterType: z.string(),
    adapterConfig: JsonObject.optional().openapi({ description: "Absent when the caller cannot read agent configuration" }),
    runtimeConfig: JsonObject.optional().openapi({ description: "Absent when the caller cannot read agent configuration" }),
    configRedacted: z.boolean(),
    budgetMonthlyCents: z.number().int(),
    spentMonthlyCents: z.number().int(),
    status: z.enum(AGENT_STATUSES),
    pauseReason: z.string().nullable(),
    permissions: z.object({ canCreateAgents: z.boolean(), authorizationPolicy: JsonObject.optional() }),
    desiredSkills: z.array(z.string()),
    metadata: JsonObject.nullable(),
    lastHeartbeatAt: z.string().nullable(),
    terminatedAt: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    chainOfCommand: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), title: z.string().nullable() })),
    access: z.object({
      canAssignTasks: z.boolean(),
      taskAssignSource: z.enum(["ceo_role", "agent_creator", "explicit_grant", "simple_default", "none"]),
      membership: MembershipSchema.nullable(),
      grants: z.array(GrantSchema),
    }),
  })
  .openapi("Agent");

export const ApprovalRecordSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    type: z.string(),
    status: z.string(),
    payload: JsonObject,
    requestedByAgentId: z.string().nullable(),
    requestedByUserId: z.string().nullable(),
    decisionNote: z.string().nullable(),
    decidedByUserId: z.string().nullable(),
    decidedAt: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("HireApproval");

export const AgentHireResultSchema = z.object({ agent: AgentSchema, approval: ApprovalRecordSchema.nullable() }).openapi("AgentHireResult");

export const AgentKeySchema = z
  .object({
    id: z.string(),
    agentId: z.string(),
    name: z.string().nullable(),
    token: z.string().openapi({ description: "svc_agent_… bearer token; shown only once" }),
    createdAt: Timestamp,
  })
  .openapi("AgentApiKeyCreated");

export const AgentKeyInfoSchema = z
  .object({
    id: z.string(),
    agentId: z.string(),
    name: z.string().nullable(),
    tokenPrefix: z
      .string()
      .nullable()
      .openapi({ description: "The token's first characters, to recognise it (keys made before prefixes were recorded have none); never the token" }),
    createdAt: Timestamp,
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi("AgentApiKey");

export const AgentKeyIdParam = AgentIdParam.extend({
  keyId: z
    .string()
    .min(1)
    .openapi({ param: { name: "keyId", in: "path" } }),
});

export const AgentSkillSnapshotSchema = z
  .object({
    adapterType: z.string(),
    supported: z.boolean(),
    mode: z.enum(["persistent", "unsupported"]),
    desiredSkills: z.array(z.string()),
    entries: z.array(z.object({ key: z.string(), runtimeName: z.string(), desired: z.boolean(), managed: z.boolean(), state: z.string(), origin: z.string() })),
    warnings: z.array(z.string()),
  })
  .openapi("AgentSkillSnapshot");

export const DeletedAgentSchema = z.object({ deleted: z.literal(true), id: z.string() }).openapi("DeletedAgent");
