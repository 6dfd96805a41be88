// Builds the Worker's HTTP app: configuration check, body limits, actor resolution,
// every route module, the OpenAPI document and its reference page, error rendering.
import { Scalar } from "@scalar/hono-api-reference";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { readDeploymentConfig } from "./config";
import { createRouter } from "./http/router";
import { errorBody, renderError } from "./http/errors";
import { bodyLimitMiddleware } from "./http/body-limit";
import { resolveActorMiddleware } from "./http/actor";
import { scopeAfterActorMiddleware, shardScopeMiddleware } from "./http/shard-scope";
import { sameOriginForSessionsMiddleware } from "./http/origin-check";
import { routeModules } from "./routes";
import { mountMcp } from "./routes/mcp";
import { currentRoundTrips } from "./db/round-trips";
import { BOOKMARK_HEADER, openSession, validBookmark, withD1Session, type RequestSession } from "./db/sessions";
import { assignOperationIds, OWN_CREDENTIAL_SCHEME, registerPublicRoutes, requireCredentialsMiddleware } from "./http/public-routes";

const configMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const result = readDeploymentConfig(c.env);
  if (!result.ok) return c.json({ ...errorBody(result.problem), status: "misconfigured" }, 503);
  c.set("config", result.config);
  await next();
};

/** Round trips from here on are the handler's (see src/db/round-trips.ts). */
const handlerPhaseMiddleware: MiddlewareHandler<AppEnv> = async (_c, next) => {
  const roundTrips = currentRoundTrips();
  if (roundTrips) roundTrips.phase = "handler";
  await next();
};

/**
 * The handler's D1 session (src/db/sessions.ts): GET/HEAD read where the caller's bookmark allows
 * (any replica without one); everything else starts at the primary. The response carries the
 * bookmark to send back as `x-d1-bookmark`.
 */
const d1SessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const tolerant = c.req.method === "GET" || c.req.method === "HEAD";
  const constraint = tolerant ? (validBookmark(c.req.header(BOOKMARK_HEADER)) ?? "first-unconstrained") : "first-primary";
  const store: RequestSession = openSession(c.env.DB, constraint);
  await withD1Session(store, () => next());
  const bookmark = store.writeBookmark ?? store.session.getBookmark();
  if (bookmark) {
    try {
      c.res.headers.set(BOOKMARK_HEADER, bookmark);
    } catch {
      /* immutable headers (a proxied body): no bookmark */
    }
  }
};

export function createApp() {
  const app = createRouter();
  app.use("*", configMiddleware);
  app.use("/api/*", bodyLimitMiddleware);
  app.use("/api/*", shardScopeMiddleware);
  app.use("/api/*", resolveActorMiddleware);
  app.use("/api/*", scopeAfterActorMiddleware);
  app.use("/api/*", sameOriginForSessionsMiddleware);
  app.use("/api/*", requireCredentialsMiddleware);
  app.use("/api/*", handlerPhaseMiddleware);
  app.use("/api/*", d1SessionMiddleware);

  for (const module of routeModules) app.route("/", module);
  // MCP: the same keys and the same routes, as tools (src/routes/mcp.ts).
  app.use("/mcp", bodyLimitMiddleware);
  app.use("/mcp", shardScopeMiddleware);
  app.use("/mcp", resolveActorMiddleware);
  mountMcp(app, (c) => (request) => app.fetch(request, c.env, c.executionCtx));

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "Board API key (svc_board_…), agent API key (svc_agent_…) or agent JWT",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", OWN_CREDENTIAL_SCHEME, {
    type: "http",
    scheme: "bearer",
    description: "A routine webhook trigger's own secret (bearer mode) or HMAC signature headers; not an API key",
  });
  app.openAPIRegistry.registerPath({
    method: "get",
    path: "/api/openapi.json",
    security: [],
    tags: ["Service"],
    summary: "This OpenAPI 3.1 document",
    responses: { 200: { description: "OpenAPI document" } },
  });
  app.openAPIRegistry.registerPath({
    method: "post",
    path: "/mcp",
    operationId: "mcp",
    tags: ["MCP"],
    summary: "Model Context Protocol endpoint (streamable HTTP, stateless, JSON responses)",
    description:
      "JSON-RPC messages of the Model Context Protocol, authenticated with the same bearer keys as the API. Tools: whoami, list_issues, show_issue, create_issue, update_issue, comment_issue, checkout_issue and release_issue (agent keys), list_approvals, decide_approval (board keys), costs_summary. " +
      "Each tool calls the matching API route with the caller's credentials, so authorization and company scoping are the routes'. GET and DELETE answer 405 (no sessions).",
    request: {
      body: { required: true, content: { "application/json": { schema: { type: "object", description: "A JSON-RPC 2.0 request, notification or batch" } } } },
    },
    responses: {
      200: { description: "JSON-RPC response", content: { "application/json": { schema: { type: "object" } } } },
      202: { description: "Accepted (a notification)" },
      401: { description: "No valid caller identity", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    },
  });
  registerPublicRoutes(app.openAPIRegistry.definitions);
  // The OpenAPI document: generated on its first request (operation ids assigned then, not while
  // the app is built) and kept for the isolate; only `servers` (the caller's origin) differs.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get("/api/openapi.json", (c) => {
    try {
      if (!document) {
        assignOperationIds(app.openAPIRegistry.definitions);
        document = app.getOpenAPI31Document({
          openapi: "3.1.0",
          info: {
            title: "Agent Control Plane API",
            version: "0.1.0",
            description: "Multi-tenant control plane for companies run by AI agents. Errors are JSON { error, details? }. Human-readable reference: /api/docs.",
          },
          servers: [],
          security: [{ bearer: [] }],
        });
      }
      return c.json({ ...document, servers: [{ url: new URL(c.req.url).origin }] });
    } catch (err) {
      return c.json(err, 500);
    }
  });
  app.get("/api/docs", Scalar({ url: "/api/openapi.json", pageTitle: "Agent Control Plane API" }));

  app.notFound((c) => c.json(errorBody(`Route not found: ${c.req.method} ${c.req.path}`), 404));
  app.onError(renderError);
  return app;
}
