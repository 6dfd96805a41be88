// `/mcp`: the Model Context Protocol over streamable HTTP (stateless: a server per request, JSON
// responses; src/domain/mcp/server.ts), authenticated with the same bearer keys as the API. Tools
// (src/domain/mcp/tools.ts) call this API's own routes with the caller's credentials, so they are
// authorised and company-scoped exactly like HTTP calls. The tools are imported on the first /mcp
// request: no other request builds their schemas.
import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import type { ApiCall } from "../domain/mcp/tools";
import { errorBody } from "../http/errors";
import { createDb } from "../db/client";
import { readyPlugins } from "../domain/plugins/queries";

type Fetcher = (request: Request) => Response | Promise<Response>;

/** Calls this API (the app's own fetch) as the MCP caller. */
function apiAs(c: Context<AppEnv>, fetcher: Fetcher): ApiCall {
  const origin = new URL(c.req.url).origin;
  const authorization = c.req.header("authorization");
  return async (method, path, body, runId) => {
    const headers = new Headers();
    if (authorization) headers.set("authorization", authorization);
    const run = runId ?? c.req.header("x-service-run-id");
    if (run) headers.set("x-service-run-id", run);
    if (body !== undefined) headers.set("content-type", "application/json");
    const response = await fetcher(new Request(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed };
  };
}

export function mountMcp(app: Hono<AppEnv>, fetcher: (c: Context<AppEnv>) => Fetcher) {
  app.all("/mcp", async (c) => {
    const actor = c.get("actor");
    if (!actor || actor.type === "none") return c.json(errorBody("Authentication required: send Authorization: Bearer <board key, agent key or run JWT>"), 401);
    if (c.req.method !== "POST")
      return c.json(errorBody("This MCP endpoint is stateless: POST JSON-RPC messages (no server-sent event stream or session to open or close)"), 405, {
        allow: "POST",
      });
    const [{ buildMcpServer }, { registerPluginTools }] = await Promise.all([import("../domain/mcp/tools"), import("../domain/plugins/mcp")]);
    const api = apiAs(c, fetcher(c));
    const server = buildMcpServer(actor, api);
    // The ready plugins' tools, for agents (src/domain/plugins/mcp.ts).
    if (actor.type === "agent") {
      const plugins = await readyPlugins(createDb(c.env.DB));
      registerPluginTools(
        server,
        actor,
        api,
        plugins.map((p) => p.plugin),
      );
    }
    // Answers are JSON whatever the Accept header lists (a client accepting only application/json is served too).
    return server.handle(c.req.raw);
  });
}
