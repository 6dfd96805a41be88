// Project and project-workspace request/response schemas.
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp, atLeastOneField, Uuid } from "./common";
import { DESIRED_STATES, PROJECT_STATUSES, WORKSPACE_SOURCE_TYPES } from "../db/schema/projects";
import { EXECUTION_WORKSPACE_MODES, WORKSPACE_OPERATION_KINDS, WORKSPACE_OPERATION_STATUSES } from "../db/schema/execution-workspaces";

const HexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour such as #1a2b3c");
const Ref = Uuid;
const Text = (max: number) => z.string().max(max);
const DateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, "must be a date (YYYY-MM-DD) or an ISO datetime")
  .openapi({ example: "2026-12-31" });

export const RuntimeServiceConfig = z.object({
  name: z.string().min(1).max(100),
  command: z.string().min(1).max(4000),
  port: z.number().int().min(1).max(65535).optional(),
});

export const WorkspaceRuntimeConfig = z
  .looseObject({
    services: z.array(RuntimeServiceConfig).max(50).optional().openapi({ description: "Services that runtime-services start/stop" }),
  })
  .openapi("WorkspaceRuntimeConfig");

const workspaceFields = {
  name: z.string().trim().min(1).max(200),
  sourceType: z.enum(WORKSPACE_SOURCE_TYPES).openapi({ description: "Default `git_repo` when repoUrl is set, else `local_path`" }),
  cwd: Text(4000).nullable(),
  repoUrl: Text(2000).nullable(),
  repoRef: Text(500).nullable(),
  defaultRef: Text(500).nullable(),
  visibility: z.string().trim().min(1).max(50).openapi({ description: "Free label, default `default`" }),
  setupCommand: Text(4000).nullable(),
  cleanupCommand: Text(4000).nullable(),
  remoteProvider: Text(200).nullable(),
  remoteWorkspaceRef: Text(1000).nullable(),
  sharedWorkspaceKey: Text(200).nullable(),
  metadata: JsonObject.nullable(),
  runtimeConfig: WorkspaceRuntimeConfig.nullable(),
  isPrimary: z.boolean(),
  desiredState: z.enum(DESIRED_STATES),
};

export const CreateWorkspaceSchema = z
  .object({
    ...Object.fromEntries(Object.entries(workspaceFields).map(([k, v]) => [k, v.optional()])),
  } as { [K in keyof typeof workspaceFields]: z.ZodOptional<(typeof workspaceFields)[K]> })
  .openapi("CreateProjectWorkspace", {
    description:
      "At least one of cwd or repoUrl (a `remote_managed` workspace needs remoteWorkspaceRef or repoUrl instead); otherwise 422. " +
      "The project's first workspace becomes primary; isPrimary: true moves the primary flag here.",
  });

export const UpdateWorkspaceSchema = CreateWorkspaceSchema.refine(...atLeastOneField).openapi("UpdateProjectWorkspace");

export const WorkspaceSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    projectId: z.string(),
    ...workspaceFields,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("ProjectWorkspace");

export const CodebaseSchema = z
  .object({ repoUrl: z.string().nullable(), repoRef: z.string().nullable(), cwd: z.string().nullable() })
  .nullable()
  .openapi("ProjectCodebase", { description: "Derived from the primary workspace; null without one" });

export const ExecutionWorkspacePolicySchema = z
  .looseObject({
    enabled: z.boolean().optional(),
    defaultMode: z.enum(EXECUTION_WORKSPACE_MODES).optional(),
    allowIssueOverride: z.boolean().optional(),
    environmentId: Uuid.nullable().optional(),
  })
  .openapi("ExecutionWorkspacePolicy", { description: "How issues of the project get execution workspaces; extra keys are kept" });

export const ProjectSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    name: z.string(),
    urlKey: z.string().openapi({ description: "Company-unique shortname derived from the name" }),
    description: z.string().nullable(),
    status: z.enum(PROJECT_STATUSES),
    goalId: z.string().nullable().openapi({ description: "Legacy: the first of goalIds" }),
    goalIds: z.array(z.string()),
    goals: z.array(z.object({ id: z.string(), title: z.string(), level: z.string(), status: z.string() })),
    leadAgentId: z.string().nullable(),
    targetDate: z.string().nullable(),
    color: z.string().nullable(),
    env: JsonObject.nullable().openapi({ description: "Env bindings: plain values or { type: secret_ref, secretId, version }" }),
    executionWorkspacePolicy: JsonObject.nullable(),
    pausedAt: z
      .string()
      .nullable()
      .openapi({ description: "Set while the project is paused (for example by a hard budget stop); paused projects block checkouts" }),
    pauseReason: z.string().nullable(),
    archivedAt: z.string().nullable(),
    codebase: CodebaseSchema,
    workspaces: z.array(WorkspaceSchema),
    primaryWorkspace: WorkspaceSchema.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Project");

const projectFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(20_000).nullable(),
  status: z.enum(PROJECT_STATUSES),
  goalIds: z.array(Ref).max(50).openapi({ description: "Preferred; ordered, duplicates ignored" }),
  goalId: Ref.nullable().openapi({ description: "Legacy single goal; used when goalIds is absent" }),
  leadAgentId: Ref.nullable(),
  targetDate: DateText.nullable(),
  color: HexColor.nullable(),
  env: JsonObject.nullable().openapi({ description: "Env map; secret-like raw values are stored as new company secrets" }),
  executionWorkspacePolicy: ExecutionWorkspacePolicySchema.nullable(),
  archivedAt: z.iso.datetime({ offset: true }).nullable(),
};

export const CreateProjectSchema = z
  .object({
    ...projectFields,
    name: projectFields.name,
    description: projectFields.description.optional(),
    status: projectFields.status.optional().openapi({ description: "Default `backlog`" }),
    goalIds: projectFields.goalIds.optional(),
    goalId: projectFields.goalId.optional(),
    leadAgentId: projectFields.leadAgentId.optional(),
    targetDate: projectFields.targetDate.optional(),
    color: projectFields.color.optional().openapi({ description: "Auto-assigned from a palette when omitted" }),
    env: projectFields.env.optional(),
    executionWorkspacePolicy: projectFields.executionWorkspacePolicy.optional(),
    archivedAt: projectFields.archivedAt.optional(),
    workspace: CreateWorkspaceSchema.optional().openapi({ description: "Created with the project; an invalid one fails the whole request with 422" }),
  })
  .openapi("CreateProject");

export const UpdateProjectSchema = z
  .object(
    Object.fromEntries(Object.entries(projectFields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof projectFields]: z.ZodOptional<(typeof projectFields)[K]>;
    },
  )
  .refine(...atLeastOneField)
  .openapi("UpdateProject");

export const ProjectRefParam = z.object({
  projectId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "projectId", in: "path" }, description: "UUID or shortname (urlKey)" }),
});
export const ProjectWorkspaceParams = ProjectRefParam.extend({
  workspaceId: z
    .string()
    .min(1)
    .openapi({ param: { name: "workspaceId", in: "path" } }),
});
export const ProjectWorkspaceActionParams = ProjectWorkspaceParams.extend({
  action: z.enum(["start", "stop", "restart"]).openapi({ param: { name: "action", in: "path" } }),
});
export const ProjectRefQuery = z.object({
  companyId: z.string().min(1).optional().openapi({ description: "Company context for a shortname projectId (agents use their own company)" }),
});

export const WorkspaceOperationSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    projectWorkspaceId: z.string().nullable(),
    executionWorkspaceId: z.string().nullable(),
    kind: z.enum(WORKSPACE_OPERATION_KINDS),
    action: z.string(),
    target: z.string().nullable().openapi({ description: "Service name or command (null = every configured service)" }),
    args: z.array(z.string()).nullable(),
    env: z.record(z.string(), z.string()).nullable().openapi({ description: "Env overrides, redacted" }),
    status: z.enum(WORKSPACE_OPERATION_STATUSES).openapi({
      description: "`applied`: desired state recorded for the runtime to reconcile; `queued`: command waiting for the runtime; `cancelled`",
    }),
    result: JsonObject.nullable(),
    requestedByActorType: z.string(),
    requestedByActorId: z.string(),
    runId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("WorkspaceOperation");

export const WorkspaceActionResultSchema = z
  .object({ workspace: WorkspaceSchema, operation: WorkspaceOperationSchema })
  .openapi("ProjectWorkspaceRuntimeActionResult");
