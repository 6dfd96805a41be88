// Environment and lease schemas. The create schema is a union over the kind definitions
// in domain/environments/kinds.ts (the capabilities endpoint comes from the same place).
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp, atLeastOneField } from "./common";
import { environmentConfigSchemas } from "../domain/environments/kinds";
import { ENVIRONMENT_KINDS, ENVIRONMENT_STATUSES, PROBE_STATUSES } from "../db/schema/environments";
import { LEASE_STATUSES } from "../db/schema/execution-workspaces";

const Name = z.string().trim().min(1).max(200);
const Labels = z.record(z.string().min(1).max(100), z.string().max(500)).openapi({ description: "Free key/value labels" });
const MaxLeases = z.number().int().min(1).max(1000).openapi({ description: "How many execution workspaces may hold a lease at once (default 1)" });
const EnvironmentStatus = z.enum(ENVIRONMENT_STATUSES).openapi({ description: "A disabled environment grants no new leases" });

const common = {
  name: Name,
  description: z.string().max(10_000).nullable().optional(),
  labels: Labels.optional(),
  maxConcurrentLeases: MaxLeases.optional(),
  status: EnvironmentStatus.optional(),
};

export const createEnvironmentSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("local"), config: environmentConfigSchemas.local, ...common }),
    z.object({ kind: z.literal("ssh"), config: environmentConfigSchemas.ssh, ...common }),
    z.object({ kind: z.literal("container"), config: environmentConfigSchemas.container, ...common }),
    z.object({ kind: z.literal("cloud_sandbox"), config: environmentConfigSchemas.cloud_sandbox, ...common }),
  ])
  .openapi("CreateEnvironment");

export const UpdateEnvironmentSchema = z
  .object({
    name: Name.optional(),
    description: z.string().max(10_000).nullable().optional(),
    config: JsonObject.optional().openapi({ description: "Replaces the config; validated against the environment's kind" }),
    labels: Labels.optional(),
    maxConcurrentLeases: MaxLeases.optional(),
    status: EnvironmentStatus.optional(),
  })
  .refine(...atLeastOneField)
  .openapi("UpdateEnvironment");

export const ProbeConfigSchema = z.object({ kind: z.enum(ENVIRONMENT_KINDS), config: JsonObject }).openapi("ProbeEnvironmentConfig");

const ProbeCheckSchema = z.object({ name: z.string(), ok: z.boolean(), message: z.string() });

export const ProbeResultSchema = z.object({ ok: z.boolean(), kind: z.string(), checks: z.array(ProbeCheckSchema) }).openapi("EnvironmentProbeResult", {
  description: "Checks: config (form), reachability (host classification; no traffic is sent), host_key/image, secret:<field> (secret exists in the company)",
});

export const StoredProbeResultSchema = ProbeResultSchema.extend({ environmentId: z.string(), probedAt: Timestamp }).openapi("EnvironmentStoredProbeResult");

export const EnvironmentSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    kind: z.enum(ENVIRONMENT_KINDS),
    status: z.enum(ENVIRONMENT_STATUSES),
    config: JsonObject,
    labels: z.record(z.string(), z.string()),
    maxConcurrentLeases: z.number().int(),
    activeLeaseCount: z.number().int(),
    lastProbeAt: z.string().nullable(),
    lastProbeStatus: z.enum(PROBE_STATUSES).nullable(),
    lastProbeChecks: z.array(ProbeCheckSchema).nullable(),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Environment");

export const CapabilitySchema = z
  .object({
    kind: z.string(),
    label: z.string(),
    description: z.string(),
    supports: z.object({
      isolatedWorkspaces: z.boolean(),
      runtimeServices: z.boolean(),
      runtimeCommands: z.boolean(),
      leases: z.boolean(),
      networkIsolation: z.boolean(),
    }),
    requiredConfig: z.array(z.string()),
    optionalConfig: z.array(z.string()),
    secretFields: z.array(z.string()),
    fields: z.array(z.object({ name: z.string(), description: z.string(), required: z.boolean(), secret: z.boolean() })),
  })
  .openapi("EnvironmentCapability");

export const LeaseSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    environmentId: z.string(),
    executionWorkspaceId: z.string().nullable(),
    issueId: z.string().nullable(),
    agentId: z.string().nullable(),
    runId: z.string().nullable(),
    status: z.enum(LEASE_STATUSES).openapi({ description: "An active lease past expiresAt reads as `expired`" }),
    acquiredAt: Timestamp,
    releasedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
  })
  .openapi("EnvironmentLease");

export const EnvironmentIdParam = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" } }),
});
export const LeaseIdParam = z.object({
  leaseId: z
    .string()
    .min(1)
    .openapi({ param: { name: "leaseId", in: "path" } }),
});
export const LeaseListQuery = z.object({ status: z.enum(LEASE_STATUSES).optional() });
