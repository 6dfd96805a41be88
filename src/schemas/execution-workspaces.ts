// Execution workspace schemas.
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp, atLeastOneField, Uuid } from "./common";
import { LeaseSchema } from "./environments";
import { WorkspaceOperationSchema } from "./projects";
import { EXECUTION_WORKSPACE_MODES, EXECUTION_WORKSPACE_STATUSES } from "../db/schema/execution-workspaces";
import { DESIRED_STATES } from "../db/schema/projects";

export const RuntimeServiceStateSchema = z.object({
  name: z.string(),
  command: z.string().nullable(),
  port: z.number().int().nullable(),
  status: z.enum(DESIRED_STATES),
  updatedAt: Timestamp,
});

export const ExecutionWorkspaceSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    projectId: z.string().nullable(),
    projectWorkspaceId: z.string().nullable(),
    issueId: z.string().nullable(),
    environmentId: z.string().nullable(),
    mode: z.enum(EXECUTION_WORKSPACE_MODES).openapi({ description: "A closed isolated workspace blocks checkout of its issues" }),
    status: z.enum(EXECUTION_WORKSPACE_STATUSES),
    cwd: z.string().nullable(),
    branch: z.string().nullable(),
    baseRef: z.string().nullable(),
    desiredState: z.enum(DESIRED_STATES).openapi({ description: "`running` while any runtime service should run" }),
    runtimeServices: z.array(RuntimeServiceStateSchema),
    metadata: JsonObject.nullable(),
    openedByAgentId: z.string().nullable(),
    openedByUserId: z.string().nullable(),
    openedAt: Timestamp,
    closedAt: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("ExecutionWorkspace");

export const OpenedExecutionWorkspaceSchema = ExecutionWorkspaceSchema.extend({ lease: LeaseSchema.nullable() }).openapi("OpenedExecutionWorkspace");

const Ref = Uuid;

export const OpenExecutionWorkspaceSchema = z
  .object({
    projectId: Ref.nullable().optional(),
    projectWorkspaceId: Ref.nullable().optional().openapi({ description: "Seeds cwd, baseRef and runtime services; implies projectId" }),
    issueId: Ref.nullable().optional().openapi({ description: "The issue is linked to the new workspace" }),
    environmentId: Ref.nullable().optional().openapi({ description: "Acquire a lease in this environment (409 when at capacity)" }),
    mode: z.enum(EXECUTION_WORKSPACE_MODES).optional().openapi({ description: "Default: the project's executionWorkspacePolicy.defaultMode, else `shared`" }),
    cwd: z.string().min(1).max(4000).nullable().optional(),
    branch: z.string().min(1).max(500).nullable().optional(),
    baseRef: z.string().min(1).max(500).nullable().optional(),
    metadata: JsonObject.nullable().optional(),
    agentId: Ref.nullable().optional().openapi({ description: "Lease holder (default: the calling agent)" }),
    leaseTtlSec: z
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .optional()
      .openapi({ description: "Lease lifetime (default 3600)" }),
  })
  .openapi("OpenExecutionWorkspace");

export const UpdateExecutionWorkspaceSchema = z
  .object({
    status: z.enum(EXECUTION_WORKSPACE_STATUSES).optional().openapi({
      description: "open→closing stops runtime services and releases leases; →closed needs close-readiness (422 with blockers); closed is final",
    }),
    desiredState: z.enum(DESIRED_STATES).optional().openapi({ description: "running starts every runtime service, stopped stops them" }),
    metadata: JsonObject.nullable().optional(),
  })
  .refine(...atLeastOneField)
  .openapi("UpdateExecutionWorkspace");

export const RuntimeActionBodySchema = z
  .object({
    serviceName: z.string().min(1).max(100).optional().openapi({ description: "Services: one service (default: all); with command, defines a new one" }),
    command: z.string().min(1).max(4000).optional().openapi({ description: "Commands: the command to run (or, for cancel, only its queued runs)" }),
    args: z.array(z.string().max(4000)).max(100).optional(),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(10_000))
      .optional()
      .openapi({ description: "Env overrides; stored redacted" }),
  })
  .openapi("RuntimeActionBody");

export const RuntimeActionResultSchema = z
  .object({ workspace: ExecutionWorkspaceSchema, operation: WorkspaceOperationSchema })
  .openapi("ExecutionWorkspaceRuntimeActionResult");

export const CloseReadinessSchema = z
  .object({
    executionWorkspaceId: z.string(),
    status: z.enum(EXECUTION_WORKSPACE_STATUSES),
    ready: z.boolean(),
    blockers: z.array(
      z.object({
        kind: z.enum(["checked_out_issue", "running_runtime_service", "active_lease"]),
        message: z.string(),
        issueId: z.string().optional(),
        identifier: z.string().optional(),
        status: z.string().optional(),
        serviceName: z.string().optional(),
        leaseId: z.string().optional(),
        environmentId: z.string().optional(),
      }),
    ),
  })
  .openapi("ExecutionWorkspaceCloseReadiness");

export const ExecutionWorkspaceIdParam = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" } }),
});
export const ServiceActionParams = ExecutionWorkspaceIdParam.extend({
  action: z.enum(["start", "stop", "restart"]).openapi({ param: { name: "action", in: "path" } }),
});
export const CommandActionParams = ExecutionWorkspaceIdParam.extend({
  action: z.enum(["run", "cancel"]).openapi({ param: { name: "action", in: "path" } }),
});
export const ExecutionWorkspaceListQuery = z.object({
  issueId: z.string().min(1).optional(),
  projectId: z.string().min(1).optional(),
  status: z.enum(EXECUTION_WORKSPACE_STATUSES).optional(),
});
