// Plugin tools for agents: the listing (ready plugins only, so a disabled plugin's tools are gone)
// and execution. A call names the calling agent's own run (`runContext`) in its own company; the
// tool's parameters are validated by its schema and must name the same company.
import { z } from "zod";
import type { Db } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import type { AgentActor, BoardActor } from "../actor";
import { badRequest, forbidden, notFound } from "../errors";
import { addReadyPluginCheck, readyPlugins } from "./queries";
import { shippedPlugin } from "./registry";
import type { PluginTool, ToolResult } from "./definition";

const schemas = new WeakMap<PluginTool, Record<string, unknown>>();
/** The tool's parameters as JSON Schema (computed once per tool). */
export function parametersSchema(tool: PluginTool): Record<string, unknown> {
  const cached = schemas.get(tool);
  if (cached) return cached;
  const schema = z.toJSONSchema(tool.parameters, { io: "input" }) as Record<string, unknown>;
  schemas.set(tool, schema);
  return schema;
}

export async function listTools(db: Db, pluginId?: string) {
  const ready = await readyPlugins(db);
  return ready
    .filter(({ row }) => !pluginId || row.id === pluginId || row.pluginKey === pluginId)
    .flatMap(({ plugin, row }) =>
      plugin.tools.map((tool) => ({
        name: `${plugin.key}:${tool.name}`,
        displayName: tool.displayName,
        description: tool.description,
        parametersSchema: parametersSchema(tool),
        pluginId: row.id,
      })),
    );
}

export interface ExecuteToolInput {
  tool: string;
  parameters: Record<string, unknown>;
  runContext: { agentId: string; runId: string; companyId: string; projectId?: string | null };
}

/** The caller must be the agent of `runContext`, in its run and its company. */
function requireOwnRunContext(actor: AgentActor | BoardActor, runContext: ExecuteToolInput["runContext"]): AgentActor {
  if (actor.type !== "agent") throw forbidden("Plugin tools run as an agent: runContext names the calling agent and its run");
  if (runContext.agentId !== actor.agentId) throw forbidden("runContext.agentId must be the calling agent");
  if (runContext.companyId !== actor.companyId) throw forbidden("runContext.companyId must be the calling agent's company");
  if (!actor.runId) throw forbidden("runContext.runId must be the caller's run: call with the run's JWT or send X-Service-Run-Id");
  if (runContext.runId !== actor.runId) throw forbidden("runContext.runId must be the caller's run");
  return actor;
}

export async function executeTool(
  env: Env,
  db: Db,
  actor: AgentActor | BoardActor,
  input: ExecuteToolInput,
): Promise<{ pluginId: string; toolName: string; result: ToolResult }> {
  const agent = requireOwnRunContext(actor, input.runContext);
  const [pluginKey, toolName, ...rest] = input.tool.split(":");
  const plugin = pluginKey ? shippedPlugin(pluginKey) : null;
  const tool = plugin && !rest.length ? plugin.tools.find((t) => t.name === toolName) : undefined;
  if (!plugin || !tool) throw notFound(`Unknown tool ${input.tool}: tools are named <pluginKey>:<tool> (GET /api/plugins/tools lists them)`);
  const batch = new ReadBatch(db);
  const ready = addReadyPluginCheck(batch, plugin.key);
  await batch.run();
  const { row } = ready();
  const parsed = tool.parameters.safeParse(input.parameters);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const parts = issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join(".") : "parameters"}: ${i.message}`);
    throw badRequest(
      `Invalid parameters: ${parts.join("; ")}`,
      issues.map((i) => ({ path: ["parameters", ...i.path], message: i.message, code: i.code })),
    );
  }
  const parameters = parsed.data as Record<string, unknown>;
  if (parameters.companyId !== agent.companyId) throw forbidden("parameters.companyId must be the company of runContext");
  const result = await tool.run({ env, db, actor: agent, companyId: agent.companyId }, parameters);
  return { pluginId: row.id, toolName: tool.name, result };
}
