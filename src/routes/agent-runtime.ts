// The adapters (types and their config fields, for forms and the CLI), an agent's runtime state (the
// sessions its runs resume) and clearing it; the environment test of an adapter type on a connected
// runner (the incumbent's routes).
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { requireBoardAgentManager, resolveAgent } from "../http/agent-access";
import { companyObject, runCompanyCommand } from "../company/client";
import { errors, jsonContent, optionalJsonBody, jsonBody } from "../schemas/common";
import { AgentIdParam, AgentLookupQuery } from "../schemas/agents";
import { AgentRuntimeStateSchema, ResetSessionResultSchema, ResetSessionSchema } from "../schemas/agent-runtime";
import { AdapterInfoSchema, AdapterTypeParam, EnvironmentTestResultSchema, TestEnvironmentSchema } from "../schemas/adapters";
import { requireActor } from "../http/access";
import { adapterCatalogue } from "../adapters/catalogue";
import { loopToolNames } from "../company/agent-loop/tools";
import { listAgentSessions, resetAgentSessions } from "../domain/runs/sessions";
import { canReadAgentConfig } from "../domain/authorization/agent-management";
import { forbidden, unprocessable } from "../domain/errors";
import { requireAdapter } from "../adapters";
import { localRuntimeOf } from "../protocol/local-runtimes";

const tags = ["Agents"];
export const agentRuntimeRouter = createRouter();

agentRuntimeRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/adapters",
    operationId: "listAdapters",
    tags,
    summary: "The adapter types and their config fields (for hire forms and the CLI)",
    description:
      "Any signed-in caller. Each type's fields with their JSON type, whether required, default, allowed values and whether they hold a credential (stored as a secret reference). " +
      "The same facts as text: /api/llms/agent-configuration/{adapterType}.txt.",
    responses: { 200: jsonContent(z.array(AdapterInfoSchema), "The adapters"), ...errors(401) },
  }),
  (c) => {
    requireActor(c);
    return c.json(
      adapterCatalogue().map((a) => (a.where === "loop" ? { ...a, tools: loopToolNames() } : a)),
      200,
    );
  },
);

agentRuntimeRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/agents/{agentId}/runtime-state",
    operationId: "getAgentRuntimeState",
    tags,
    summary: "The sessions the agent's runs resume, one per task",
    description: "Board members of the company, and agents that may read agent configuration (the agent itself included).",
    request: { params: AgentIdParam, query: AgentLookupQuery },
    responses: { 200: jsonContent(AgentRuntimeStateSchema, "Runtime state"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const agent = await resolveAgent(c, c.req.valid("param").agentId, c.req.valid("query").companyId);
    if (!(await canReadAgentConfig(dbOf(c), c.get("actor"), agent.companyId, agent.id)))
      throw forbidden("Requires the agents:create permission to read another agent's runtime state");
    return c.json({ agentId: agent.id, adapterType: agent.adapterType, sessions: await listAgentSessions(dbOf(c), agent.companyId, agent.id) }, 200);
  },
);

agentRuntimeRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/agents/{agentId}/runtime-state/reset-session",
    operationId: "resetAgentSession",
    tags,
    summary: "Forget the agent's sessions: its next runs start new ones (board with agents:create)",
    description: "Without a body every task's session is forgotten; `taskKey` (`issue:<issueId>` or `agent`) forgets one.",
    request: { params: AgentIdParam, query: AgentLookupQuery, body: optionalJsonBody(ResetSessionSchema) },
    responses: { 200: jsonContent(ResetSessionResultSchema, "How many sessions were forgotten"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const agent = await resolveAgent(c, c.req.valid("param").agentId, c.req.valid("query").companyId);
    const actor = await requireBoardAgentManager(c, agent.companyId);
    const { taskKey } = c.req.valid("json");
    return c.json(await runCompanyCommand(c.env, agent.companyId, resetAgentSessions, actor, { agentId: agent.id, taskKey: taskKey ?? null }), 200);
  },
);

agentRuntimeRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/adapters/{adapterType}/test-environment",
    operationId: "testAdapterEnvironment",
    tags: ["Runners"],
    summary: "Check a runner's machine for an adapter type (the doctor)",
    description:
      "Carried out within 60 s by a connected runner serving an agent of that type (board members, not viewers): the CLI found on PATH, its version, signed in (a plan login or an API key), and — unless `probe: false` — a short hello probe (a real, billed model call). With no runner serving such an agent the answer is `fail` with the check `no_runner`. The same checks run locally with `acp runner doctor`.",
    request: { params: AdapterTypeParam, body: jsonBody(TestEnvironmentSchema) },
    responses: { 200: jsonContent(EnvironmentTestResultSchema, "What the runner found"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId, adapterType } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true, roles: ["owner", "admin", "member"] });
    requireAdapter(adapterType);
    if (!localRuntimeOf(adapterType))
      throw unprocessable(`Adapter ${adapterType} is not a local runtime; only <runtime>_local adapters have an environment test`, { adapterType });
    const body = c.req.valid("json");
    return c.json(await companyObject(c.env, companyId).testEnvironment(companyId, { adapterType, ...body }), 200);
  },
);
