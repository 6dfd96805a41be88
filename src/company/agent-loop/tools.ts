// The edge agent's tools: the one catalogue /mcp serves (src/domain/mcp/tools.ts, with the ready
// plugins' tools), offered to the model with the arguments the service fills in left out (the run
// and the company), and executed as the agent — each a call of the agent's own API route with the
// run's token, in this isolate — so a tool can do exactly what the agent's key can do. A tool's
// failure (bad arguments, 403, 409, an unknown name) is its result, for the model to read.
import { buildMcpServer, type ApiCall } from "../../domain/mcp/tools";
import type { McpToolServer } from "../../domain/mcp/server";
import { registerPluginTools } from "../../domain/plugins/mcp";
import type { PluginDefinition } from "../../domain/plugins/definition";
import type { AgentActor } from "../../domain/actor";
import type { ToolCall, ToolResultMessage, ToolSpec } from "../../adapters/llm-api/turns";

/** Not offered: who the agent is (the prompt says) and the board's decisions (an agent gets 403 anyway). */
export const LOOP_EXCLUDED_TOOLS = ["whoami", "decide_approval"];
/** Filled in by the service, never asked of the model. */
export const HIDDEN_ARGUMENTS = ["runId", "companyId"];
/** A tool result longer than this is cut (with a note) before it goes back to the model. */
export const MAX_TOOL_RESULT_CHARS = 16_000;

export function loopToolServer(actor: AgentActor, api: ApiCall, plugins: readonly PluginDefinition[]): McpToolServer {
  const server = buildMcpServer(actor, api);
  registerPluginTools(server, actor, api, plugins);
  return server;
}

/** The tools offered to the model: the catalogue without the excluded ones, narrowed by the agent's allowlist. */
export function loopToolSpecs(server: McpToolServer, allowlist: readonly string[] | null): ToolSpec[] {
  return server
    .list({ hidden: HIDDEN_ARGUMENTS })
    .filter((t) => !LOOP_EXCLUDED_TOOLS.includes(t.name) && (!allowlist || allowlist.includes(t.name)))
    .map((t) => {
      const { $schema: _schema, ...parameters } = t.inputSchema as Record<string, unknown>;
      return { name: t.name, description: t.description, parameters };
    });
}

const cut = (text: string) =>
  text.length > MAX_TOOL_RESULT_CHARS ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n… [cut: ${text.length - MAX_TOOL_RESULT_CHARS} more characters]` : text;

/** Runs one call the model made; `badArguments` when the model's arguments were unusable (or the tool unknown). */
export async function runToolCall(
  server: McpToolServer,
  offered: readonly ToolSpec[],
  call: ToolCall,
): Promise<{ result: ToolResultMessage; badArguments: boolean }> {
  const answer = (content: string, isError: boolean, badArguments = false) => ({
    result: { callId: call.id, name: call.name, content: cut(content), isError },
    badArguments,
  });
  if (!offered.some((t) => t.name === call.name))
    return answer(`Unknown tool "${call.name}". Available tools: ${offered.map((t) => t.name).join(", ")}.`, true, true);
  let args: unknown;
  try {
    args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch (err) {
    return answer(
      `The arguments are not valid JSON (${(err as Error).message}): ${call.arguments.slice(0, 200)}. Call ${call.name} again with a JSON object.`,
      true,
      true,
    );
  }
  if (!args || typeof args !== "object" || Array.isArray(args))
    return answer(`The arguments must be a JSON object; got ${call.arguments.slice(0, 200)}.`, true, true);
  const given = Object.fromEntries(Object.entries(args as Record<string, unknown>).filter(([k]) => !HIDDEN_ARGUMENTS.includes(k)));
  const result = await server.call(call.name, given);
  const text = result.content.map((c) => c.text).join("\n");
  return answer(text, result.isError === true, result.isError === true && /Input validation error/.test(text));
}

/** The names of the tools an edge agent may be given (the built-in catalogue; the ready plugins' tools are added per run). */
export function loopToolNames(): string[] {
  const actor: AgentActor = { type: "agent", source: "agent_jwt", agentId: "", companyId: "", keyId: null, runId: null };
  const unused: ApiCall = async () => ({ status: 500, body: null });
  return buildMcpServer(actor, unused)
    .list()
    .map((t) => t.name)
    .filter((name) => !LOOP_EXCLUDED_TOOLS.includes(name));
}
