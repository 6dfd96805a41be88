// Runners: a process on a user's machine executes the company's `process` and `<runtime>_local`
// agents over a WebSocket to the company object (protocol in src/company/runs/runners.ts and the
// README). The Worker authenticates the upgrade — board members (not viewers: runners receive run
// tokens and resolved secrets) or an agent key of this company — then hands it to the object.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { publicBaseUrl } from "../http/public-url";
import { requireActor, requireCompanyAccess } from "../http/access";
import { companyObject } from "../company/client";
import { RUNNER_HEADERS } from "../company/client";
import { CompanyIdParam, ErrorSchema, errors, jsonContent } from "../schemas/common";
import { ConnectedRunnerSchema, RunnerConnectQuery } from "../schemas/runners";
import { HttpError } from "../domain/errors";
import type { RunnerCredential, RunnerPrincipal } from "../company/runs/runners";
import { forbidden } from "../domain/errors";

const tags = ["Runners"];
const RUNNER_ROLES = ["owner", "admin", "member"] as const;
export const runnersRouter = createRouter();

const PROTOCOL =
  'Messages are JSON text with a `type` (protocol version 2; a version-1 hello is told to upgrade). Runner → `{ type: "hello", version: 2, agents: [agentId…], name?, instanceId?, runs?: [runId…] }`; ' +
  'object → `{ type: "ready", version: 2, runnerId, agents, refused: [{ agentId, reason }], runs }` (an agent key serves only its own agent; only `process` and `<runtime>_local` agents); ' +
  'object → `{ type: "run.start", version: 2, runId, agentId, companyId, adapterType, adapterConfig, context, env, apiUrl, apiToken, skills, prompt, taskKey, session }` (`prompt` rendered by the service; `session` `{ id, params }` to resume, or null); ' +
  'runner → `{ type: "run.started", runId }` acknowledges it (so does any report on the run): a start unacknowledged for 10 s is sent once more, then handed to another runner serving the agent (the first gets `run.cancel`); a repeated `run.start` must be acknowledged again, never run twice; ' +
  'runner → `{ type: "run.event", runId, kind, message, data? }` or `{ type: "run.events", runId, events: [{ kind, message, data? }] }` (kind: log, progress, status, assistant, thinking, tool_call, tool_result, error) and `{ type: "run.complete", runId, status: "succeeded"|"failed"|"timed_out", summary?, error?, errorCode?, exitCode?, usage?: { inputTokens, cachedInputTokens, outputTokens, costUsd, model, provider, billingType }, sessionId?, sessionParams?, clearSession?, nextRetryAt?, result? }` (`provider_rate_limited` with `nextRetryAt` waits in scheduled_retry); ' +
  'object → `{ type: "run.completed", runId }` once a completion is recorded, or `{ type: "error", runId, error, retryable: true }` when recording it failed (send it again; keep it until confirmed); object → `{ type: "run.cancel", runId }`; object → `{ type: "env.test", requestId, adapterType, adapterConfig, env?, probe }` → runner `{ type: "env.test.result", requestId, status, checks }`; either side `{ type: "ping" }` → `{ type: "pong" }`; bad messages get `{ type: "error", error, runId? }`. ' +
  "Only the socket a run is bound to reports on it. A runner that disconnects mid-run has a grace period (30 s) to reconnect and reclaim its runs (`runs` in hello: lost runs, or runs of an earlier socket with the same `instanceId`); after it the run fails with `process_lost` and is retried with back-off. A socket silent for 90 s (no message, no answered ping) counts as gone.";

runnersRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/runners/connect",
    operationId: "connectRunner",
    tags,
    summary: "Connect a runner (WebSocket upgrade)",
    description: `Authenticate with \`Authorization: Bearer <key>\` or \`?token=<key>\`: a board key of a member (not a viewer) or an agent key of this company (not a run token, not a browser session; a foreign \`Origin\` is refused). The key is checked again before every run.start. ${PROTOCOL}`,
    request: { params: CompanyIdParam, query: RunnerConnectQuery },
    responses: {
      101: { description: "Switching protocols: the runner's WebSocket" },
      426: jsonContent(ErrorSchema, "Not a WebSocket upgrade request"),
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const actor = requireActor(c);
    await requireCompanyAccess(c, companyId, actor.type === "board" ? { roles: [...RUNNER_ROLES] } : {});
    // Runners hold long-lived sockets: they connect with an API key (a run token or a browser session cannot).
    if (actor.type === "agent" && actor.source !== "agent_key") throw forbidden("Runners connect with an agent API key, not a run token");
    if (actor.type === "board" && actor.source === "session") throw forbidden("Runners connect with a board API key, not a browser session");
    // Browsers do not apply CORS to WebSockets: a page of another origin may not open one in the user's name.
    const origin = c.req.header("origin");
    if (origin && origin !== new URL(c.req.url).origin && origin !== publicBaseUrl(c)) throw forbidden("Cross-origin runner connections are refused");
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new HttpError(426, "Expected a WebSocket upgrade (Upgrade: websocket)");
    const principal: RunnerPrincipal =
      actor.type === "agent" ? { type: "agent", agentId: actor.agentId } : { type: "board", userId: actor.type === "board" ? actor.userId : "" };
    const credential: RunnerCredential =
      actor.type === "agent"
        ? { source: "agent_key", keyId: actor.keyId }
        : {
            source: actor.type === "board" && actor.source === "board_key" ? "board_key" : "local_implicit",
            keyId: actor.type === "board" ? actor.keyId : null,
          };
    const headers = new Headers({ upgrade: "websocket" });
    headers.set(RUNNER_HEADERS.company, companyId);
    headers.set(RUNNER_HEADERS.principal, JSON.stringify(principal));
    headers.set(RUNNER_HEADERS.credential, JSON.stringify(credential));
    headers.set(RUNNER_HEADERS.apiUrl, publicBaseUrl(c));
    for (const name of ["sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol", "sec-websocket-extensions"]) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    return companyObject(c.env, companyId).fetch(new Request("https://company.internal/runners/connect", { headers }));
  },
);

runnersRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/runners",
    operationId: "listRunners",
    tags,
    summary: "Connected runners and the agents they serve",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(ConnectedRunnerSchema), "Connected runners"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await companyObject(c.env, companyId).listRunners(), 200);
  },
);
