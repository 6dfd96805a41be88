// Heartbeat runs: manual wake-ups, run listings and detail, cancel, the run's event log, and the
// agent's completion callback. The dispatcher that starts runs lives in the company object.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireActor, requireCompanyAccess, requireEntityAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  AgentPathParam,
  AppendRunEventsSchema,
  CompleteRunSchema,
  HeartbeatRunSchema,
  MAX_RUN_EVENTS_BYTES,
  RunEventSchema,
  RunEventsQuery,
  RunListQuery,
  RunPageSchema,
  RunPathParam,
  SkippedWakeupSchema,
  WakeupRequestSchema,
} from "../schemas/runs";
import { appendRunEvents, cancelRun, completeRun, retryRun, wakeAgent } from "../domain/runs/commands";
import { findRunRow, listRunEvents, listRuns } from "../domain/runs/queries";
import { runView } from "../domain/runs/view";
import { findAgent } from "../domain/agents/queries";
import { canManageAgents } from "../domain/authorization/agent-management";
import { forbidden, HttpError } from "../domain/errors";

const tags = ["Heartbeat runs"];
export const runsRouter = createRouter();

runsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/agents/{agentId}/wakeup",
    operationId: "wakeAgent",
    tags,
    summary: "Wake an agent now (on_demand)",
    description:
      "Board callers with agent-management rights, or the agent itself (another agent: 403). 202 with the run (created `queued`; the company's dispatcher starts it) " +
      'or 202 `{ status: "skipped", reason }` when the agent cannot run (`agent.not_invokable`, `company.inactive`, `budget.blocked`). ' +
      "A live run of the agent on the same issue absorbs the wake (that run is returned). The same idempotencyKey returns the same run, also after it finished.",
    request: { params: AgentPathParam, body: jsonBody(WakeupRequestSchema) },
    responses: { 202: jsonContent(z.union([HeartbeatRunSchema, SkippedWakeupSchema]), "The run, or the skipped wake-up"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const actor = requireActor(c);
    const db = dbOf(c);
    const agent = await findAgent(db, c.req.valid("param").agentId);
    requireEntityAccess(c, agent?.companyId, "Agent");
    if (actor.type === "agent" ? actor.agentId !== agent!.id : !(await canManageAgents(db, actor, agent!.companyId))) {
      throw forbidden(actor.type === "agent" ? "An agent may wake only itself" : "Waking agents needs agent-management rights (agents:create)");
    }
    const result = await runCompanyCommand(c.env, agent!.companyId, wakeAgent, actor, { agentId: agent!.id, ...c.req.valid("json") });
    return c.json("skipped" in result ? result.skipped! : result.run!, 202);
  },
);

runsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/heartbeat-runs",
    operationId: "listHeartbeatRuns",
    tags,
    summary: "The company's heartbeat runs, newest first",
    description: "Filters agentId, status, issueId. `limit` default 50, at most 200; `nextCursor` fetches the next page.",
    request: { params: CompanyIdParam, query: RunListQuery },
    responses: { 200: jsonContent(RunPageSchema, "A page of runs"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await listRuns(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);

runsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/heartbeat-runs/{runId}",
    operationId: "getHeartbeatRun",
    tags,
    summary: "One heartbeat run",
    request: { params: RunPathParam },
    responses: { 200: jsonContent(HeartbeatRunSchema, "The run"), ...errors(401, 404) },
  }),
  async (c) => {
    requireActor(c);
    const run = await findRunRow(dbOf(c), c.req.valid("param").runId);
    requireEntityAccess(c, run?.companyId, "Run");
    return c.json(runView(run!), 200);
  },
);

runsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/heartbeat-runs/{runId}/cancel",
    operationId: "cancelHeartbeatRun",
    tags,
    summary: "Cancel a live run (board, or the run's own agent)",
    description: "A finished run answers 409.",
    request: { params: RunPathParam },
    responses: { 200: jsonContent(HeartbeatRunSchema, "The cancelled run"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    requireActor(c);
    const run = await findRunRow(dbOf(c), c.req.valid("param").runId);
    requireEntityAccess(c, run?.companyId, "Run");
    return c.json(await runCompanyCommand(c.env, run!.companyId, cancelRun, c.get("actor"), { runId: run!.id }), 200);
  },
);

runsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/heartbeat-runs/{runId}/retry",
    operationId: "retryHeartbeatRun",
    tags,
    summary: "Run a finished run again: a new run with the same agent, issue, reason and context (board)",
    description:
      "The new run is `queued` (context gains `retryOfRunId`) and started by the dispatcher. A live run: 409; an agent that cannot run now (paused, terminated, a budget stop, the company paused): 409 with `details.reason`; " +
      "a live run of the agent on the same issue: 409 with its `runId`. Agents: 403.",
    request: { params: RunPathParam },
    responses: { 201: jsonContent(HeartbeatRunSchema, "The new run"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    requireActor(c);
    const run = await findRunRow(dbOf(c), c.req.valid("param").runId);
    requireEntityAccess(c, run?.companyId, "Run");
    return c.json(await runCompanyCommand(c.env, run!.companyId, retryRun, c.get("actor"), { runId: run!.id }), 201);
  },
);

runsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/heartbeat-runs/{runId}/events",
    operationId: "listHeartbeatRunEvents",
    tags,
    summary: "The run's event log, ordered by seq",
    description: "`afterSeq` returns events after that seq (for tailing); `limit` default 200, at most 1000.",
    request: { params: RunPathParam, query: RunEventsQuery },
    responses: { 200: jsonContent(z.array(RunEventSchema), "Events"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    requireActor(c);
    const db = dbOf(c);
    const run = await findRunRow(db, c.req.valid("param").runId);
    requireEntityAccess(c, run?.companyId, "Run");
    const { afterSeq, limit } = c.req.valid("query");
    return c.json(await listRunEvents(db, run!.id, afterSeq, limit), 200);
  },
);

runsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/heartbeat-runs/{runId}/events",
    operationId: "appendHeartbeatRunEvents",
    tags,
    summary: "Append log/progress events (the run's own agent)",
    description: "At most 64 KiB a request (413 above). A finished run refuses with 409.",
    request: { params: RunPathParam, body: jsonBody(AppendRunEventsSchema) },
    responses: { 202: jsonContent(z.object({ accepted: z.number().int() }), "Events stored"), ...errors(400, 401, 403, 404, 409, 413) },
  }),
  async (c) => {
    requireActor(c);
    const body = c.req.valid("json");
    if (Number(c.req.header("content-length") ?? 0) > MAX_RUN_EVENTS_BYTES || JSON.stringify(body).length > MAX_RUN_EVENTS_BYTES) {
      throw new HttpError(413, "Run events are limited to 64 KiB a request", { limitBytes: MAX_RUN_EVENTS_BYTES });
    }
    const run = await findRunRow(dbOf(c), c.req.valid("param").runId);
    requireEntityAccess(c, run?.companyId, "Run");
    return c.json(await runCompanyCommand(c.env, run!.companyId, appendRunEvents, c.get("actor"), { runId: run!.id, events: body.events }), 202);
  },
);

runsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/heartbeat-runs/{runId}/complete",
    operationId: "completeHeartbeatRun",
    tags,
    summary: "Complete a run (the run's own agent, with its run JWT or its key and X-Service-Run-Id)",
    description:
      "status `succeeded` or `failed`, optional summary, result, error and usage. Usage with costCents becomes a cost event tied to the run (heartbeatRunId) through the budget rules. " +
      "A second completion is refused with 409 and changes nothing.",
    request: { params: RunPathParam, body: jsonBody(CompleteRunSchema) },
    responses: { 200: jsonContent(HeartbeatRunSchema.extend({ costEventId: z.string().nullable() }), "The finished run"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    requireActor(c);
    const run = await findRunRow(dbOf(c), c.req.valid("param").runId);
    requireEntityAccess(c, run?.companyId, "Run");
    return c.json(await runCompanyCommand(c.env, run!.companyId, completeRun, c.get("actor"), { runId: run!.id, ...c.req.valid("json") }), 200);
  },
);
