// Plain-text guides for LLM agents that configure other agents: adapters and icons.
import { createRoute } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireActor } from "../http/access";
import { forbidden, notFound } from "../domain/errors";
import { canManageAgents } from "../domain/authorization/agent-management";
import { findAdapter } from "../adapters";
import { adapterGuide, agentConfigurationGuide, agentIconsGuide } from "../domain/agents/guides";
import { AdapterTypeParam } from "../schemas/agents";
import { errors } from "../schemas/common";

const tags = ["LLM guides"];
export const llmsRouter = createRouter();

const text = (description: string) => ({ description, content: { "text/plain": { schema: z.string() } } });

/** Board callers, and agents allowed to create agents (agents:create grant, canCreateAgents, CEO). */
async function requireGuideReader(c: Context<AppEnv>) {
  const actor = requireActor(c);
  if (actor.type === "board") return;
  if (!(await canManageAgents(dbOf(c), actor, actor.companyId))) {
    throw forbidden("Agent configuration guides need the agents:create permission (or legacy canCreateAgents)");
  }
}

llmsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/llms/agent-configuration.txt",
    tags,
    summary: "Agent configuration guide (plain text): fields, adapter types and their config",
    description: "Board callers and agents with agents:create or canCreateAgents.",
    responses: { 200: text("Plain-text guide"), ...errors(401, 403) },
  }),
  async (c) => {
    await requireGuideReader(c);
    return c.text(await agentConfigurationGuide(), 200);
  },
);

// Hono reads `:adapterType.txt` as one parameter name, so the handler matches the file name and
// the OpenAPI entry is registered beside it.
llmsRouter.openAPIRegistry.registerPath({
  method: "get",
  path: "/api/llms/agent-configuration/{adapterType}.txt",
  tags,
  summary: "Configuration guide for one adapter type (plain text)",
  description: "Board callers and agents with agents:create or canCreateAgents; 404 for an unknown adapter type.",
  request: { params: AdapterTypeParam },
  responses: { 200: text("Plain-text guide"), ...errors(401, 403, 404) },
});

llmsRouter.get("/api/llms/agent-configuration/:file{[^/]+\\.txt}", async (c) => {
  await requireGuideReader(c);
  const definition = findAdapter(c.req.param("file").replace(/\.txt$/, ""));
  if (!definition) throw notFound("Unknown adapter type");
  return c.text(adapterGuide(definition), 200);
});

llmsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/llms/agent-icons.txt",
    tags,
    summary: "Icons an agent may use (plain text)",
    description: "Board callers and agents with agents:create or canCreateAgents.",
    responses: { 200: text("Plain-text icon list"), ...errors(401, 403) },
  }),
  async (c) => {
    await requireGuideReader(c);
    return c.text(agentIconsGuide(), 200);
  },
);
