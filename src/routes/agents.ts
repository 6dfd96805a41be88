// Agents: list, get (by id or shortname), me, create, hire, update, permissions, lifecycle,
// hard delete, budget, API keys, skills.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireActor, requireAgent, requireCompanyAccess } from "../http/access";
import { requireAgentManager, requireBoardAgentManager, resolveAgent } from "../http/agent-access";
import { badRequest, forbidden } from "../domain/errors";
import { runCompanyCommand } from "../company/client";
import { canManageAgents, canReadAgentConfig } from "../domain/authorization/agent-management";
import { agentViewFor, isCompanyCeoAgent, listAgentViews, ownAgentView } from "../domain/agents/queries";
import { skillSnapshot, companySkillChoices } from "../domain/agents/skills";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  AgentBudgetSchema,
  AgentHireResultSchema,
  AgentIdParam,
  AgentKeyIdParam,
  AgentKeyInfoSchema,
  AgentKeySchema,
  AgentLookupQuery,
  AgentPermissionsSchema,
  AgentSchema,
  AgentSkillSnapshotSchema,
  CreateAgentKeySchema,
  CreateAgentSchema,
  DeletedAgentSchema,
  HireAgentSchema,
  SkillsSyncSchema,
  UpdateAgentSchema,
} from "../schemas/agents";
import { createAgent, updateAgent, updateAgentPermissions } from "../domain/agents/commands";
import { changeAgentLifecycle, deleteAgent, updateAgentBudget } from "../domain/agents/lifecycle-commands";
import { createAgentKey, listAgentKeys, revokeAgentKey, syncAgentSkills } from "../domain/agents/key-skill-commands";

const tags = ["Agents"];
export const agentsRouter = createRouter();

// ---- reads -------------------------------------------------------------------------------

agentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/agents",
    tags,
    summary: "List the company's agents (terminated excluded)",
    description:
      "Callers who cannot read agent configuration (agents without agents:create or legacy canCreateAgents) get redacted records: no adapterConfig/runtimeConfig/metadata, `configRedacted: true` (their own record stays complete).",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(AgentSchema), "Agents"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await listAgentViews(dbOf(c), companyId, requireActor(c)), 200);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/agents/me",
    tags,
    summary: "The calling agent's own record (agent callers only)",
    responses: { 200: jsonContent(AgentSchema, "The calling agent"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const actor = requireAgent(c);
    return c.json(await ownAgentView(dbOf(c), actor.agentId), 200);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/agents/{agentId}",
    tags,
    summary: "Get an agent by UUID or shortname, with chainOfCommand and access",
    description:
      "A shortname needs company context (`?companyId=` or agent auth). Terminated agents can still be fetched. A peer's record is redacted (no configuration) rather than refused when the caller cannot read configuration.",
    request: { params: AgentIdParam, query: AgentLookupQuery },
    responses: { 200: jsonContent(AgentSchema, "The agent"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    return c.json(await agentViewFor(dbOf(c), agent, requireActor(c)), 200);
  },
);

// ---- create and hire -------------------------------------------------------------------

function toFields<T extends z.infer<typeof CreateAgentSchema>>(body: T) {
  const { sourceIssueId: _a, sourceIssueIds: _b, ...fields } = body as T & { sourceIssueId?: string; sourceIssueIds?: string[] };
  return fields;
}

agentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/agents",
    tags,
    summary: "Create an agent (board; status idle)",
    description:
      "A duplicate name gets a numeric suffix (`Name 2`); the URL key is derived from the name. reportsTo must be an agent of the company (no cycles). The CEO role gets canCreateAgents. A budget > 0 creates a monthly agent budget policy. adapterConfig is validated per adapterType (see /api/llms/agent-configuration.txt); env secret references must belong to the company, raw secret-looking values become company secrets. desiredSkills are stored as canonical keys under adapterConfig.paperclipSkillSync.desiredSkills.",
    request: { params: CompanyIdParam, body: jsonBody(CreateAgentSchema) },
    responses: { 201: jsonContent(AgentSchema, "The new agent"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const actor = await requireBoardAgentManager(c, companyId);
    const result = await runCompanyCommand(c.env, companyId, createAgent, actor, { fields: c.req.valid("json"), mode: "create" });
    return c.json(result.agent, 201);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/agent-hires",
    tags,
    summary: "Hire an agent (approval-aware)",
    description:
      "Same fields and validation as create, plus sourceIssueId/sourceIssueIds. When the company requires board approval for new agents, the agent is created `pending_approval` together with a pending `hire_agent` approval carrying a (redacted) config snapshot, linked to the source issues; otherwise the agent is created `idle` and `approval` is null. Board callers with agents:create, or agents with agents:create / legacy canCreateAgents (the CEO).",
    request: { params: CompanyIdParam, body: jsonBody(HireAgentSchema) },
    responses: { 201: jsonContent(AgentHireResultSchema, "The agent and its approval (if any)"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const actor = await requireAgentManager(c, companyId);
    const body = c.req.valid("json");
    const sourceIssueIds = [...(body.sourceIssueId ? [body.sourceIssueId] : []), ...(body.sourceIssueIds ?? [])];
    const result = await runCompanyCommand(c.env, companyId, createAgent, actor, { fields: toFields(body), mode: "hire", sourceIssueIds });
    return c.json(result, 201);
  },
);

// ---- updates -------------------------------------------------------------------------------

/** Fields an agent without agents:create may not change on its own record (authority, budget, state). */
const SELF_RESERVED_FIELDS = ["role", "reportsTo", "status", "budgetMonthlyCents"] as const;

agentsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/agents/{agentId}",
    tags,
    summary: "Update an agent",
    description:
      "adapterConfig merges into the stored config (a null value removes a key) unless replaceAdapterConfig is true. `permissions` is rejected (use /permissions). Renaming onto another live agent's shortname is 409. A status patch cannot move a terminated agent, nor activate one awaiting hire approval (409). Callers: agents:create holders (board or agent) and the agent itself (which may not change its own role, reportsTo, status or budget). budgetMonthlyCents is board-only.",
    request: { params: AgentIdParam, query: AgentLookupQuery, body: jsonBody(UpdateAgentSchema) },
    responses: { 200: jsonContent(AgentSchema, "The updated agent"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    const { permissions, replaceAdapterConfig, ...patch } = c.req.valid("json");
    if (permissions !== undefined) throw badRequest("permissions cannot be changed here; use PATCH /api/agents/{agentId}/permissions");
    const actor = requireActor(c);
    const manager = await canManageAgents(dbOf(c), actor, agent.companyId);
    if (!manager) {
      if (!(actor.type === "agent" && actor.agentId === agent.id)) await requireAgentManager(c, agent.companyId);
      const reserved = SELF_RESERVED_FIELDS.filter((k) => patch[k] !== undefined);
      if (reserved.length) throw forbidden(`An agent may not change its own ${reserved.join(", ")}`, { fields: reserved });
    }
    if (patch.budgetMonthlyCents !== undefined && actor.type !== "board") throw forbidden("Only the board may change an agent's budget");
    const view = await runCompanyCommand(c.env, agent.companyId, updateAgent, actor, { agentId: agent.id, patch, replaceAdapterConfig });
    return c.json(view, 200);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/agents/{agentId}/permissions",
    tags,
    summary: "Set canCreateAgents / canAssignTasks (board with agents:create, or the company's CEO agent)",
    description:
      "canAssignTasks: true ensures an active company membership for the agent (role member) and a company-wide tasks:assign grant; false removes its tasks:assign grants. authorizationPolicy stores the agent's assignment policy blocks (stored under permissions.authorizationPolicy; unknown keys or modes are rejected with 422; null clears).",
    request: { params: AgentIdParam, query: AgentLookupQuery, body: jsonBody(AgentPermissionsSchema) },
    responses: { 200: jsonContent(AgentSchema, "The updated agent"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    const actor = requireActor(c);
    if (actor.type === "agent") {
      if (!(await isCompanyCeoAgent(dbOf(c), actor.agentId, agent.companyId)))
        throw forbidden("Only the board or the company's CEO agent may change agent permissions");
    } else {
      await requireBoardAgentManager(c, agent.companyId);
    }
    const view = await runCompanyCommand(c.env, agent.companyId, updateAgentPermissions, actor, { agentId: agent.id, ...c.req.valid("json") });
    return c.json(view, 200);
  },
);

const lifecycleDescriptions = {
  pause:
    "Any non-terminated agent → paused (waiting wake-ups cancelled). Pausing an agent awaiting hire approval keeps that fact: resume returns it to pending_approval. Terminated → 409.",
  resume: "paused or error → idle (paused while awaiting approval → pending_approval); already working → unchanged. Terminated or pending_approval → 409.",
  terminate: "Any → terminated: every API key revoked, waiting wake-ups and queued runs cancelled. Terminating again is a no-op.",
} as const;

for (const action of ["pause", "resume", "terminate"] as const) {
  agentsRouter.openapi(
    createRoute({
      method: "post",
      path: `/api/agents/{agentId}/${action}`,
      tags,
      summary: `${action[0].toUpperCase()}${action.slice(1)} an agent (agents:create holders)`,
      description: lifecycleDescriptions[action],
      request: { params: AgentIdParam, query: AgentLookupQuery },
      responses: { 200: jsonContent(AgentSchema, "The agent"), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const { agentId } = c.req.valid("param");
      const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
      const actor = await requireAgentManager(c, agent.companyId);
      const view = await runCompanyCommand(c.env, agent.companyId, changeAgentLifecycle, actor, { agentId: agent.id, action });
      return c.json(view, 200);
    },
  );
}

agentsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/agents/{agentId}",
    tags,
    summary: "Hard-delete an agent (board with agents:create)",
    description:
      "Removes the agent with its API keys, heartbeat runs, wake-up requests, grants, membership and budget policy; issues assigned to it are unassigned (in-progress ones back to todo). Irreversible.",
    request: { params: AgentIdParam, query: AgentLookupQuery },
    responses: { 200: jsonContent(DeletedAgentSchema, "Deleted"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    const actor = await requireBoardAgentManager(c, agent.companyId);
    return c.json(await runCompanyCommand(c.env, agent.companyId, deleteAgent, actor, { agentId: agent.id }), 200);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/agents/{agentId}/budgets",
    tags,
    summary: "Set the agent's monthly budget (board with agents:create); syncs its budget policy",
    description: "A positive amount must be above the agent's observed spend this month (else 422); 0 removes the budget.",
    request: { params: AgentIdParam, query: AgentLookupQuery, body: jsonBody(AgentBudgetSchema) },
    responses: { 200: jsonContent(AgentSchema, "The updated agent"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    const actor = await requireBoardAgentManager(c, agent.companyId);
    const view = await runCompanyCommand(c.env, agent.companyId, updateAgentBudget, actor, {
      agentId: agent.id,
      budgetMonthlyCents: c.req.valid("json").budgetMonthlyCents,
    });
    return c.json(view, 200);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/agents/{agentId}/keys",
    tags,
    summary: "Create an agent API key (the token is returned once)",
    description: "Optional body { name }. Refused (409) for terminated agents and agents awaiting hire approval. Callers: agents:create holders.",
    request: {
      params: AgentIdParam,
      query: AgentLookupQuery,
      body: { required: false, content: { "application/json": { schema: CreateAgentKeySchema } } },
    },
    responses: { 201: jsonContent(AgentKeySchema, "The new key with its token"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    const actor = await requireAgentManager(c, agent.companyId);
    const body = (c.req.valid("json") ?? {}) as z.infer<typeof CreateAgentKeySchema>;
    const key = await runCompanyCommand(c.env, agent.companyId, createAgentKey, actor, { agentId: agent.id, name: body.name ?? null });
    return c.json(key, 201);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/agents/{agentId}/keys",
    operationId: "listAgentKeys",
    tags,
    summary: "The agent's API keys, newest first (never a token)",
    description:
      "Name, a short prefix of the token (keys made before prefixes were recorded have none), created, last used, revoked. Callers: agents:create holders.",
    request: { params: AgentIdParam, query: AgentLookupQuery },
    responses: { 200: jsonContent(z.array(AgentKeyInfoSchema), "The keys"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const agent = await resolveAgent(c, c.req.valid("param").agentId, c.req.valid("query").companyId);
    await requireAgentManager(c, agent.companyId);
    return c.json(await listAgentKeys(dbOf(c), agent.companyId, agent.id), 200);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/agents/{agentId}/keys/{keyId}",
    operationId: "revokeAgentKey",
    tags,
    summary: "Revoke one of the agent's API keys",
    description:
      "Refused at once by the isolate that revoked it; other isolates cache a resolved key for at most 5 s (CREDENTIAL_CACHE_MS), so it stops working everywhere within seconds. " +
      "An unknown key: 404; a key already revoked: 409. Callers: agents:create holders.",
    request: { params: AgentKeyIdParam, query: AgentLookupQuery },
    responses: { 200: jsonContent(AgentKeyInfoSchema, "The revoked key"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { agentId, keyId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    const actor = await requireAgentManager(c, agent.companyId);
    return c.json(await runCompanyCommand(c.env, agent.companyId, revokeAgentKey, actor, { agentId: agent.id, keyId }), 200);
  },
);

// ---- skills ----------------------------------------------------------------------------------

agentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/agents/{agentId}/skills",
    tags,
    summary: "The agent's skill snapshot",
    description: "Board members of the company, the agent itself, and agents:create holders.",
    request: { params: AgentIdParam, query: AgentLookupQuery },
    responses: { 200: jsonContent(AgentSkillSnapshotSchema, "AgentSkillSnapshot"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    if (!(await canReadAgentConfig(dbOf(c), requireActor(c), agent.companyId, agent.id))) {
      throw forbidden("Reading another agent's skills requires agents:create (or legacy canCreateAgents)");
    }
    return c.json(skillSnapshot(agent, await companySkillChoices(dbOf(c), agent.companyId)), 200);
  },
);

agentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/agents/{agentId}/skills/sync",
    tags,
    summary: "Set the agent's skills to exactly this list (empty detaches all)",
    description:
      'References resolve by library skill UUID, canonical key or unique slug; unknown or ambiguous ones fail with 422 naming them and nothing changes. An extra `mode: "replace"` is accepted. Callers: agents:create holders.',
    request: { params: AgentIdParam, query: AgentLookupQuery, body: jsonBody(SkillsSyncSchema) },
    responses: { 200: jsonContent(AgentSkillSnapshotSchema, "AgentSkillSnapshot"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { agentId } = c.req.valid("param");
    const agent = await resolveAgent(c, agentId, c.req.valid("query").companyId);
    const actor = await requireAgentManager(c, agent.companyId);
    const snapshot = await runCompanyCommand(c.env, agent.companyId, syncAgentSkills, actor, {
      agentId: agent.id,
      desiredSkills: c.req.valid("json").desiredSkills,
    });
    return c.json(snapshot, 200);
  },
);
