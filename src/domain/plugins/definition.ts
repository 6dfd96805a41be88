// What a plugin is here: a first-party module shipped with the Worker (a Worker cannot install npm
// packages at run time). Its definition names it, describes it (the manifest shown by the host),
// lists its scoped API routes (mounted under /api/plugins/{pluginKey}/api) and its agent tools.
import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Actor, AgentActor, BoardActor } from "../actor";

export interface ToolContext {
  env: Env;
  db: Db;
  /** The agent running the tool (its run is `actor.runId`). */
  actor: AgentActor | BoardActor;
  companyId: string;
}

/** What every tool answers: text for the model, and the structured result. */
export interface ToolResult {
  content: string;
  data: unknown;
}

export interface PluginTool<P extends z.ZodObject = z.ZodObject> {
  /** Unqualified name (`wiki_search`); listed as `<pluginKey>:<name>`. */
  name: string;
  displayName: string;
  description: string;
  /** Validates the call's `parameters` (also their JSON Schema in the listing, and the MCP input schema). */
  parameters: P;
  run(ctx: ToolContext, parameters: z.infer<P>): Promise<ToolResult>;
}

/** A scoped API route of a plugin, declared once: the manifest lists it, the host mounts and gates it by it. */
export interface PluginRouteDeclaration {
  pluginKey: string;
  method: "GET" | "POST" | "PATCH";
  /** Under /api/plugins/{pluginKey}/api, with `:name` parameters. */
  path: string;
  /** board: board callers only; board-or-agent: any caller with access to the company. */
  auth: "board" | "board-or-agent";
}

export interface PluginDefinition {
  key: string;
  packageName: string;
  version: string;
  displayName: string;
  description: string;
  capabilities: readonly string[];
  apiRoutes: readonly PluginRouteDeclaration[];
  tools: readonly PluginTool[];
  /** Why the plugin cannot run in this deployment (activation then ends in `error`), or null. */
  activationProblem(env: Env): string | null;
  /** Deletes the plugin's data in every company (uninstall with purge). */
  purgeData?(env: Env, actor: Actor): Promise<{ companies: number }>;
}

/** The manifest stored with an installed plugin and shown by the host. */
export const manifestOf = (plugin: PluginDefinition) => ({
  id: plugin.key,
  packageName: plugin.packageName,
  version: plugin.version,
  displayName: plugin.displayName,
  description: plugin.description,
  capabilities: [...plugin.capabilities],
  apiRoutes: plugin.apiRoutes.map((r) => ({ method: r.method, path: `/api/plugins/${plugin.key}/api${r.path}`, auth: r.auth })),
  tools: plugin.tools.map((t) => ({ name: t.name, displayName: t.displayName, description: t.description })),
});
