// The plugin host: installed plugins and their lifecycle (instance admins; board callers read),
// agent tools (list, execute), and how a plugin's scoped routes are mounted: each route is a real
// OpenAPI route under its full path (`/api/plugins/<pluginKey>/api/…`) and answers by plugin id
// too (`/api/plugins/{pluginId}/api/…`, the same handler, not in the document). A scoped route
// takes JSON only (415), answers 404 for an unknown plugin, 503 while it is not ready (naming its
// status), and finds its company in `companyId` (query for GET, body otherwise).
import { createRoute, z, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { addCompanyAccessCheck, requireActor, requireBoard, requireInstanceAdmin, scopeRequestToCompany, type AuthedActor } from "../http/access";
import { errorBody } from "../http/errors";
import { ReadBatch } from "../db/read-batch";
import { ErrorSchema, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  ExecuteToolSchema,
  InstallPluginSchema,
  PluginIdParam,
  PluginListQuery,
  PluginSchema,
  PluginToolSchema,
  ToolExecutionSchema,
  ToolsQuery,
  UninstalledPluginSchema,
  UninstallQuery,
} from "../schemas/plugins";
import { addReadyPluginCheck, listPlugins, pluginView, requirePlugin } from "../domain/plugins/queries";
import { disablePlugin, enablePlugin, installPlugin, uninstallPlugin, upgradePlugin, type PluginHost } from "../domain/plugins/lifecycle";
import { executeTool, listTools } from "../domain/plugins/tools";
import type { PluginRouteDeclaration } from "../domain/plugins/definition";

const tags = ["Plugins"];
export const pluginsRouter = createRouter();

const hostOf = (c: Context<AppEnv>): PluginHost => ({ env: c.env, db: dbOf(c), actor: requireInstanceAdmin(c), waitUntil: (p) => c.executionCtx.waitUntil(p) });

// Tools first: /api/plugins/tools is not a plugin id.
pluginsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/plugins/tools",
    operationId: "listPluginTools",
    tags,
    summary: "Agent tools of the ready plugins, named <pluginKey>:<tool> (a disabled plugin's tools are gone)",
    request: { query: ToolsQuery },
    responses: { 200: jsonContent(z.array(PluginToolSchema), "Tools"), ...errors(400, 401) },
  }),
  async (c) => {
    requireActor(c);
    return c.json(await listTools(dbOf(c), c.req.valid("query").pluginId), 200);
  },
);

pluginsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/plugins/tools/execute",
    operationId: "executePluginTool",
    tags,
    summary: "Run a plugin tool as the calling agent, in its run and company (runContext must be the caller's)",
    description:
      "Domain errors are 4xx with { error, details }: a stale expectedHash is 409 with details.currentHash, an unknown space 404, a bad path 400, a control file written by an agent 403.",
    request: { body: jsonBody(ExecuteToolSchema) },
    responses: { 200: jsonContent(ToolExecutionSchema, "The tool's result"), ...errors(400, 401, 403, 404, 409, 413, 503) },
  }),
  async (c) => c.json(await executeTool(c.env, dbOf(c), requireActor(c), c.req.valid("json")), 200),
);

pluginsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/plugins",
    operationId: "listPlugins",
    tags,
    summary: "Installed plugins with their status (board)",
    request: { query: PluginListQuery },
    responses: { 200: jsonContent(z.array(PluginSchema), "Plugins"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    requireBoard(c);
    return c.json(await listPlugins(dbOf(c), c.req.valid("query").status), 200);
  },
);

pluginsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/plugins/install",
    operationId: "installPlugin",
    tags,
    summary: "Install a plugin this build ships (instance admin): installed, then ready (or error with lastError)",
    request: { body: jsonBody(InstallPluginSchema) },
    responses: { 201: jsonContent(PluginSchema, "The installed plugin"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => c.json(await installPlugin(hostOf(c), c.req.valid("json").packageName), 201),
);

pluginsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/plugins/{pluginId}",
    operationId: "getPlugin",
    tags,
    summary: "One installed plugin, by id or key (board)",
    request: { params: PluginIdParam },
    responses: { 200: jsonContent(PluginSchema, "The plugin"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    requireBoard(c);
    return c.json(pluginView(await requirePlugin(dbOf(c), c.req.valid("param").pluginId)), 200);
  },
);

const lifecycle = { enable: enablePlugin, disable: disablePlugin, upgrade: upgradePlugin } as const;
const lifecycleSummaries = {
  enable: "Enable a plugin (disabled, error or upgrade_pending → ready; instance admin): its routes and tools come back with its data",
  disable: "Disable a plugin (ready → disabled; instance admin): its scoped routes answer 503 and its tools go, also from /mcp",
  upgrade: "Upgrade a plugin to the version this build ships (ready → upgrade_pending → ready; instance admin)",
};
for (const action of ["enable", "disable", "upgrade"] as const) {
  pluginsRouter.openapi(
    createRoute({
      method: "post",
      path: `/api/plugins/{pluginId}/${action}`,
      operationId: `${action}Plugin`,
      tags,
      summary: lifecycleSummaries[action],
      request: { params: PluginIdParam },
      responses: { 200: jsonContent(PluginSchema, "The plugin"), ...errors(401, 403, 404, 409) },
    }),
    async (c) => c.json(await lifecycle[action](hostOf(c), c.req.valid("param").pluginId), 200),
  );
}

pluginsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/plugins/{pluginId}",
    operationId: "uninstallPlugin",
    tags,
    summary: "Uninstall a plugin (instance admin); its data stays unless ?purge=true",
    request: { params: PluginIdParam, query: UninstallQuery },
    responses: { 200: jsonContent(UninstalledPluginSchema, "The uninstalled plugin"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => c.json(await uninstallPlugin(hostOf(c), c.req.valid("param").pluginId, c.req.valid("query").purge === "true"), 200),
);

// ---------------------------------------------------------------------------------------------
// Scoped plugin routes

/** The 415 every scoped route with a body may answer. */
export const jsonOnlyResponse = { 415: jsonContent(ErrorSchema, "Unsupported media type: plugin routes take JSON bodies") };

/** Scoped routes take JSON bodies only. */
const jsonOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && !/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
    return c.json(errorBody("Plugin routes take JSON: send Content-Type: application/json"), 415);
  }
  await next();
};

/**
 * The plugin (ready, else 404/503) and the caller's access to the company (404 unknown company,
 * 403 another company's caller), by the route's declared caller rule: one read batch.
 */
async function pluginGate(c: Context<AppEnv>, declared: PluginRouteDeclaration, companyId: string) {
  await scopeRequestToCompany(c, companyId);
  const batch = new ReadBatch(dbOf(c));
  const company = addCompanyAccessCheck(c, batch, companyId, { board: declared.auth === "board" });
  const plugin = addReadyPluginCheck(batch, c.req.param("pluginId") ?? declared.pluginKey, declared.pluginKey);
  await batch.run();
  plugin();
  company();
  return requireActor(c);
}

type PluginRoute<R> = R & { method: "get" | "post" | "patch"; path: string };

/**
 * Mounts one declared scoped route of a plugin: documented under /api/plugins/<pluginKey>/api<path>,
 * and (hidden) under /api/plugins/{pluginId}/api<path> for callers naming the plugin by id. The
 * handler gets `gate(companyId)`: the declaration's caller rule and the plugin's readiness.
 */
export function mountPluginRoute<R extends Omit<RouteConfig, "method" | "path">>(
  router: ReturnType<typeof createRouter>,
  declared: PluginRouteDeclaration,
  route: R,
  handler: (
    c: Parameters<RouteHandler<PluginRoute<R>, AppEnv>>[0],
    gate: (companyId: string) => Promise<AuthedActor>,
  ) => ReturnType<RouteHandler<PluginRoute<R>, AppEnv>>,
) {
  const middleware = [jsonOnly];
  const method = declared.method.toLowerCase() as "get" | "post" | "patch";
  const path = declared.path.replace(/:(\w+)/g, "{$1}");
  const run = ((c: Parameters<RouteHandler<PluginRoute<R>, AppEnv>>[0]) => handler(c, (companyId) => pluginGate(c, declared, companyId))) as never;
  router.openapi(
    createRoute({ ...route, method, path: `/api/plugins/${declared.pluginKey}/api${path}`, tags: route.tags ?? ["Plugin: " + declared.pluginKey], middleware }),
    run,
  );
  router.openapi(createRoute({ ...route, method, path: `/api/plugins/{pluginId}/api${path}`, operationId: undefined, hide: true, middleware }), run);
}
