// The ready plugins' tools on /mcp, for agent callers: `<pluginKey>__<tool>` (MCP tool names take
// no colon), each a call of POST /api/plugins/tools/execute as the caller, in its run and company
// (companyId defaults to the agent's). A disabled plugin's tools are not registered at all.
import type { McpToolServer } from "../mcp/server";
import type { AgentActor } from "../actor";
import type { ApiCall } from "../mcp/tools";
import type { PluginDefinition } from "./definition";

export const mcpToolName = (pluginKey: string, tool: string) => `${pluginKey}__${tool}`;

export function registerPluginTools(server: McpToolServer, actor: AgentActor, api: ApiCall, plugins: readonly PluginDefinition[]) {
  for (const plugin of plugins) {
    for (const tool of plugin.tools) {
      const shape = tool.parameters.partial({ companyId: true }).shape;
      server.registerTool(
        mcpToolName(plugin.key, tool.name),
        { title: tool.displayName, description: tool.description, inputSchema: shape },
        async (args: Record<string, unknown>) => {
          const runId = actor.runId ?? "";
          const response = await api("POST", "/api/plugins/tools/execute", {
            tool: `${plugin.key}:${tool.name}`,
            parameters: { ...args, companyId: args.companyId ?? actor.companyId },
            runContext: { agentId: actor.agentId, runId, companyId: actor.companyId },
          });
          const body = response.body as { error?: string; details?: unknown; result?: { content: string; data: unknown } } | null;
          if (response.status >= 300 || !body?.result) {
            const message = typeof body?.error === "string" ? body.error : `HTTP ${response.status}`;
            return {
              isError: true,
              content: [{ type: "text" as const, text: `${message} (HTTP ${response.status})${body?.details ? `\n${JSON.stringify(body.details)}` : ""}` }],
            };
          }
          return { content: [{ type: "text" as const, text: body.result.content }], structuredContent: { data: body.result.data } as Record<string, unknown> };
        },
      );
    }
  }
}
