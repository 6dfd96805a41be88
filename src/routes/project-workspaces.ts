// Project workspaces: where a project's code lives, and their runtime services.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { runCompanyCommand } from "../company/client";
import { listProjectWorkspaces } from "../domain/projects/queries";
import { errors, jsonBody, jsonContent } from "../schemas/common";
import {
  CreateWorkspaceSchema,
  ProjectRefParam,
  ProjectRefQuery,
  ProjectWorkspaceActionParams,
  ProjectWorkspaceParams,
  UpdateWorkspaceSchema,
  WorkspaceActionResultSchema,
  WorkspaceSchema,
} from "../schemas/projects";
import { resolveProject } from "./projects";
import { createWorkspace, deleteWorkspace, updateWorkspace, workspaceRuntimeAction } from "../domain/projects/commands";

const tags = ["Projects"];
export const projectWorkspacesRouter = createRouter();

projectWorkspacesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/projects/{projectId}/workspaces",
    tags,
    summary: "The project's workspaces, oldest first",
    request: { params: ProjectRefParam, query: ProjectRefQuery },
    responses: { 200: jsonContent(z.array(WorkspaceSchema), "Workspaces"), ...errors(400, 401, 404, 409) },
  }),
  async (c) => {
    const { project } = await resolveProject(c, c.req.valid("param").projectId, c.req.valid("query").companyId);
    return c.json(await listProjectWorkspaces(dbOf(c), project.id), 200);
  },
);

projectWorkspacesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/projects/{projectId}/workspaces",
    tags,
    summary: "Add a workspace (the first becomes primary; isPrimary: true moves the primary flag)",
    description: "Needs at least one of cwd or repoUrl; a `remote_managed` workspace needs remoteWorkspaceRef or repoUrl (422 otherwise).",
    request: { params: ProjectRefParam, query: ProjectRefQuery, body: jsonBody(CreateWorkspaceSchema) },
    responses: { 201: jsonContent(WorkspaceSchema, "The new workspace"), ...errors(400, 401, 404, 409, 422) },
  }),
  async (c) => {
    const { project, actor } = await resolveProject(c, c.req.valid("param").projectId, c.req.valid("query").companyId);
    const ws = await runCompanyCommand(c.env, project.companyId, createWorkspace, actor, { projectId: project.id, fields: c.req.valid("json") });
    return c.json(ws, 201);
  },
);

projectWorkspacesRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/projects/{projectId}/workspaces/{workspaceId}",
    tags,
    summary: "Update a workspace (partial; the result must still be valid, else 422)",
    description: "isPrimary: true makes it primary; isPrimary: false on the primary hands the flag to the oldest other workspace.",
    request: { params: ProjectWorkspaceParams, query: ProjectRefQuery, body: jsonBody(UpdateWorkspaceSchema) },
    responses: { 200: jsonContent(WorkspaceSchema, "The updated workspace"), ...errors(400, 401, 404, 409, 422) },
  }),
  async (c) => {
    const { projectId, workspaceId } = c.req.valid("param");
    const { project, actor } = await resolveProject(c, projectId, c.req.valid("query").companyId);
    const ws = await runCompanyCommand(c.env, project.companyId, updateWorkspace, actor, {
      projectId: project.id,
      workspaceId,
      fields: c.req.valid("json"),
    });
    return c.json(ws, 200);
  },
);

projectWorkspacesRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/projects/{projectId}/workspaces/{workspaceId}",
    tags,
    summary: "Delete a workspace; returns the deleted row (deleting the primary promotes the oldest remaining workspace)",
    request: { params: ProjectWorkspaceParams, query: ProjectRefQuery },
    responses: { 200: jsonContent(WorkspaceSchema, "The deleted workspace"), ...errors(400, 401, 404, 409) },
  }),
  async (c) => {
    const { projectId, workspaceId } = c.req.valid("param");
    const { project, actor } = await resolveProject(c, projectId, c.req.valid("query").companyId);
    return c.json(await runCompanyCommand(c.env, project.companyId, deleteWorkspace, actor, { projectId: project.id, workspaceId }), 200);
  },
);

projectWorkspacesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/projects/{projectId}/workspaces/{workspaceId}/runtime-services/{action}",
    tags,
    summary: "Start, stop or restart the workspace's runtime services",
    description:
      "Records the desired state (`running` for start/restart, `stopped` for stop) for the workspace runtime to reconcile, " +
      "and an operation record. start and restart need the workspace's cwd and runtimeConfig.services (422 otherwise).",
    request: { params: ProjectWorkspaceActionParams, query: ProjectRefQuery },
    responses: { 200: jsonContent(WorkspaceActionResultSchema, "Updated workspace and the operation record"), ...errors(400, 401, 404, 409, 422) },
  }),
  async (c) => {
    const { projectId, workspaceId, action } = c.req.valid("param");
    const { project, actor } = await resolveProject(c, projectId, c.req.valid("query").companyId);
    const result = await runCompanyCommand(c.env, project.companyId, workspaceRuntimeAction, actor, {
      projectId: project.id,
      workspaceId,
      action,
    });
    return c.json(result, 200);
  },
);
