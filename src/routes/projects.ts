// Projects: deliverables with goals, workspaces and env bindings. {projectId} is a UUID or a shortname.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireActor, requireCompanyAccess, requireEntityAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { findProjectByRef } from "../domain/projects/shortname";
import { loadProjectViews } from "../domain/projects/view";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { CreateProjectSchema, ProjectRefParam, ProjectRefQuery, ProjectSchema, UpdateProjectSchema } from "../schemas/projects";
import { createProject, deleteProject, updateProject } from "../domain/projects/commands";

const tags = ["Projects"];
export const projectsRouter = createRouter();

/** The project named by a UUID or shortname, checked against the caller's company (else 404). */
export async function resolveProject(c: Context<AppEnv>, ref: string, companyId: string | undefined) {
  const actor = requireActor(c);
  const context = companyId ?? (actor.type === "agent" ? actor.companyId : null);
  const project = await findProjectByRef(dbOf(c), ref, context);
  requireEntityAccess(c, project.companyId, "Project");
  return { project, actor };
}

projectsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/projects",
    tags,
    summary: "All projects of the company (archived included; see archivedAt), oldest first",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(ProjectSchema), "Projects"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await loadProjectViews(dbOf(c), companyId), 200);
  },
);

projectsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/projects/{projectId}",
    tags,
    summary: "Get a project by UUID or shortname",
    description:
      "A shortname needs company context: `?companyId=` or an agent caller's own company (else 400). " +
      "A shortname matching several projects gives 409; a project outside the caller's company 404.",
    request: { params: ProjectRefParam, query: ProjectRefQuery },
    responses: { 200: jsonContent(ProjectSchema, "The project"), ...errors(400, 401, 404, 409) },
  }),
  async (c) => {
    const { project } = await resolveProject(c, c.req.valid("param").projectId, c.req.valid("query").companyId);
    const [view] = await loadProjectViews(dbOf(c), project.companyId, [project.id]);
    return c.json(view, 200);
  },
);

projectsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/projects",
    tags,
    summary: "Create a project (optionally with its first workspace, in the same transaction)",
    description:
      "The shortname (urlKey) is the slug of the name and must be unique in the company (409). goalIds is preferred; " +
      "legacy goalId is accepted when goalIds is absent and is kept equal to the first goal. Goals and leadAgentId must " +
      "belong to the company (422). color is picked from a palette when omitted. env secret references must belong to " +
      "the company; raw secret-like values are stored as new secrets. An invalid `workspace` fails the request with 422 " +
      "and no project is created.",
    request: { params: CompanyIdParam, body: jsonBody(CreateProjectSchema) },
    responses: { 201: jsonContent(ProjectSchema, "The new project"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const { workspace, ...fields } = c.req.valid("json");
    const project = await runCompanyCommand(c.env, companyId, createProject, c.get("actor"), { fields, workspace });
    return c.json(project, 201);
  },
);

projectsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/projects/{projectId}",
    tags,
    summary: "Update a project (partial): goalIds or legacy goalId, status, targetDate, env, archivedAt, …",
    description: "Renaming re-derives the shortname (409 if taken). archivedAt: a timestamp archives, null unarchives.",
    request: { params: ProjectRefParam, query: ProjectRefQuery, body: jsonBody(UpdateProjectSchema) },
    responses: { 200: jsonContent(ProjectSchema, "The updated project"), ...errors(400, 401, 404, 409, 422) },
  }),
  async (c) => {
    const { project, actor } = await resolveProject(c, c.req.valid("param").projectId, c.req.valid("query").companyId);
    const view = await runCompanyCommand(c.env, project.companyId, updateProject, actor, { projectId: project.id, fields: c.req.valid("json") });
    return c.json(view, 200);
  },
);

projectsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/projects/{projectId}",
    tags,
    summary: "Delete a project and its workspaces; returns the deleted project (its issues keep existing without a project)",
    request: { params: ProjectRefParam, query: ProjectRefQuery },
    responses: { 200: jsonContent(ProjectSchema, "The deleted project"), ...errors(400, 401, 404, 409) },
  }),
  async (c) => {
    const { project, actor } = await resolveProject(c, c.req.valid("param").projectId, c.req.valid("query").companyId);
    return c.json(await runCompanyCommand(c.env, project.companyId, deleteProject, actor, { projectId: project.id }), 200);
  },
);
