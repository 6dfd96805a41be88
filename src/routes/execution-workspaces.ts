// Execution workspaces: where a run works on an issue (opened per issue or shared), with
// runtime services/commands, close readiness and operation records.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess, requireEntityAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { executionWorkspaceView } from "../domain/execution-workspaces/view";
import { closeReadiness, listExecutionWorkspaces, listWorkspaceOperations, loadExecutionWorkspace } from "../domain/execution-workspaces/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { WorkspaceOperationSchema } from "../schemas/projects";
import {
  CloseReadinessSchema,
  CommandActionParams,
  ExecutionWorkspaceIdParam,
  ExecutionWorkspaceListQuery,
  ExecutionWorkspaceSchema,
  OpenedExecutionWorkspaceSchema,
  OpenExecutionWorkspaceSchema,
  RuntimeActionBodySchema,
  RuntimeActionResultSchema,
  ServiceActionParams,
  UpdateExecutionWorkspaceSchema,
} from "../schemas/execution-workspaces";
import { executionWorkspaceRuntimeAction, openExecutionWorkspace, updateExecutionWorkspace } from "../domain/execution-workspaces/commands";

const tags = ["Execution workspaces"];
export const executionWorkspacesRouter = createRouter();

/** The workspace behind `{id}` if the caller may reach its company (else 404). */
async function loadWorkspace(c: Context<AppEnv>, id: string) {
  const row = await loadExecutionWorkspace(dbOf(c), id);
  const actor = requireEntityAccess(c, row.companyId, "Execution workspace");
  return { workspace: row, actor };
}

executionWorkspacesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/execution-workspaces",
    tags,
    summary: "The company's execution workspaces, newest first (filters issueId, projectId, status)",
    request: { params: CompanyIdParam, query: ExecutionWorkspaceListQuery },
    responses: { 200: jsonContent(z.array(ExecutionWorkspaceSchema), "Execution workspaces"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const q = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    return c.json(await listExecutionWorkspaces(dbOf(c), companyId, q), 200);
  },
);

executionWorkspacesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/execution-workspaces",
    tags,
    summary: "Open an execution workspace (optionally in an environment, which acquires a lease)",
    description:
      "References (project, project workspace, issue, environment, agent) must belong to the company (422). A project workspace " +
      "seeds cwd, baseRef and the runtime services. With environmentId a lease is acquired in the same transaction: 409 when " +
      "the environment already holds maxConcurrentLeases live leases, 422 when it is disabled. The issue, if any, is linked.",
    request: { params: CompanyIdParam, body: jsonBody(OpenExecutionWorkspaceSchema) },
    responses: { 201: jsonContent(OpenedExecutionWorkspaceSchema, "The new workspace and its lease"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await runCompanyCommand(c.env, companyId, openExecutionWorkspace, c.get("actor"), c.req.valid("json")), 201);
  },
);

executionWorkspacesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/execution-workspaces/{id}",
    tags,
    summary: "Get an execution workspace",
    request: { params: ExecutionWorkspaceIdParam },
    responses: { 200: jsonContent(ExecutionWorkspaceSchema, "The execution workspace"), ...errors(401, 404) },
  }),
  async (c) => {
    const { workspace } = await loadWorkspace(c, c.req.valid("param").id);
    return c.json(executionWorkspaceView(workspace), 200);
  },
);

executionWorkspacesRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/execution-workspaces/{id}",
    tags,
    summary: "Change status (open/closing/closed), desiredState or metadata",
    description:
      "Transitions: open→closing (stops runtime services, releases leases), open|closing→closed (only when close-readiness " +
      "reports no blockers, else 422 with details.blockers), closing→open; closed is final (422). desiredState running starts " +
      "every runtime service (open workspaces only), stopped stops them.",
    request: { params: ExecutionWorkspaceIdParam, body: jsonBody(UpdateExecutionWorkspaceSchema) },
    responses: { 200: jsonContent(ExecutionWorkspaceSchema, "The updated execution workspace"), ...errors(400, 401, 404, 422) },
  }),
  async (c) => {
    const { workspace, actor } = await loadWorkspace(c, c.req.valid("param").id);
    return c.json(await runCompanyCommand(c.env, workspace.companyId, updateExecutionWorkspace, actor, { id: workspace.id, fields: c.req.valid("json") }), 200);
  },
);

executionWorkspacesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/execution-workspaces/{id}/close-readiness",
    tags,
    summary: "Whether the workspace can close: blockers are open checked-out issues linked to it, running runtime services and active leases",
    request: { params: ExecutionWorkspaceIdParam },
    responses: { 200: jsonContent(CloseReadinessSchema, "Readiness"), ...errors(401, 404) },
  }),
  async (c) => {
    const { workspace } = await loadWorkspace(c, c.req.valid("param").id);
    return c.json(await closeReadiness(dbOf(c), workspace, new Date().toISOString()), 200);
  },
);

executionWorkspacesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/execution-workspaces/{id}/workspace-operations",
    tags,
    summary: "Operation records of the workspace's runtime services and commands, newest first",
    request: { params: ExecutionWorkspaceIdParam },
    responses: { 200: jsonContent(z.array(WorkspaceOperationSchema), "Operations"), ...errors(401, 404) },
  }),
  async (c) => {
    const { workspace } = await loadWorkspace(c, c.req.valid("param").id);
    return c.json(await listWorkspaceOperations(dbOf(c), workspace.id), 200);
  },
);

const runtimeDescription =
  "One body schema and one handler for both: runtime-services/{start|stop|restart} (serviceName selects one service, default all; " +
  "with command it defines a new service; start/restart need the workspace's cwd) and runtime-commands/{run|cancel} (run queues " +
  "`command` with args/env; cancel cancels queued runs, only those of `command` when given). The workspace must be open except " +
  "for stop and cancel (422). Each call records a workspace operation; env values are stored redacted.";

/** The shared handler of runtime-services and runtime-commands. */
async function runtimeActionHandler(c: Context<AppEnv>) {
  const id = c.req.param("id")!;
  const action = c.req.param("action")!;
  const kind = c.req.path.includes("/runtime-commands/") ? "runtime_command" : "runtime_service";
  const { workspace, actor } = await loadWorkspace(c, id);
  const body = ((c.req as unknown as { valid: (t: "json") => unknown }).valid("json") ?? {}) as z.infer<typeof RuntimeActionBodySchema>;
  const result = await runCompanyCommand(c.env, workspace.companyId, executionWorkspaceRuntimeAction, actor, {
    id: workspace.id,
    kind,
    action,
    body,
  } as never);
  return c.json(result, 200);
}

const runtimeRoute = (segment: "runtime-services" | "runtime-commands", params: typeof ServiceActionParams | typeof CommandActionParams, summary: string) =>
  createRoute({
    method: "post",
    path: `/api/execution-workspaces/{id}/${segment}/{action}`,
    tags,
    summary,
    description: runtimeDescription,
    request: { params, body: { required: false, content: { "application/json": { schema: RuntimeActionBodySchema } } } },
    responses: { 200: jsonContent(RuntimeActionResultSchema, "Updated workspace and the operation record"), ...errors(400, 401, 404, 422) },
  });

executionWorkspacesRouter.openapi(
  runtimeRoute("runtime-services", ServiceActionParams, "Start, stop or restart runtime services"),
  runtimeActionHandler as never,
);
executionWorkspacesRouter.openapi(runtimeRoute("runtime-commands", CommandActionParams, "Run or cancel a runtime command"), runtimeActionHandler as never);
