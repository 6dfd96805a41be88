// Plugin host request and response schemas: installed plugins, lifecycle, agent tools.
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp, Uuid } from "./common";
import { PLUGIN_STATUSES } from "../db/schema/plugins";

export const PluginStatusSchema = z
  .enum(PLUGIN_STATUSES)
  .openapi({ description: "installed → ready | error; ready → disabled | error | upgrade_pending; disabled | error | upgrade_pending → ready" });

export const PluginSchema = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    pluginKey: z.string().openapi({ example: "knowledge-wiki" }),
    packageName: z.string(),
    version: z.string(),
    status: PluginStatusSchema,
    lastError: z.string().nullable().openapi({ description: "Why the plugin is in `error`" }),
    manifest: JsonObject.openapi({ description: "The installed version's manifest: capabilities, scoped API routes, tools" }),
    installedAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Plugin");

export const UninstalledPluginSchema = PluginSchema.extend({
  uninstalled: z.literal(true),
  purged: z.boolean(),
  dataKept: z.boolean().openapi({ description: "Without purge the plugin's data stays: installing it again brings it back" }),
}).openapi("UninstalledPlugin");

export const PluginListQuery = z.object({ status: PluginStatusSchema.optional() });
export const PluginIdParam = z.object({
  pluginId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "pluginId", in: "path" }, description: "The plugin's id or key", example: "knowledge-wiki" }),
});
export const InstallPluginSchema = z
  .object({
    packageName: z.string().trim().min(1).max(214).openapi({ description: "A plugin this build ships: its package name or key", example: "knowledge-wiki" }),
  })
  .strict()
  .openapi("InstallPlugin");
export const UninstallQuery = z.object({
  purge: z.enum(["true", "false"]).optional().openapi({ description: "`true` deletes the plugin's data in every company" }),
});

export const PluginToolSchema = z
  .object({
    name: z.string().openapi({ example: "knowledge-wiki:wiki_search" }),
    displayName: z.string(),
    description: z.string(),
    parametersSchema: JsonObject.openapi({ description: "JSON Schema of `parameters`" }),
    pluginId: z.string(),
  })
  .openapi("PluginTool");
export const ToolsQuery = z.object({ pluginId: z.string().min(1).max(200).optional().openapi({ description: "Only this plugin's tools (id or key)" }) });

export const ExecuteToolSchema = z
  .object({
    tool: z.string().min(1).max(200).openapi({ example: "knowledge-wiki:wiki_search" }),
    parameters: JsonObject.openapi({ description: "The tool's parameters (its parametersSchema); companyId must be runContext's" }),
    runContext: z
      .object({
        agentId: Uuid.openapi({ description: "The calling agent" }),
        runId: z.string().min(1).max(200).openapi({ description: "The calling agent's current run (its JWT's or X-Service-Run-Id)" }),
        companyId: Uuid,
        projectId: Uuid.nullish(),
      })
      .strict(),
  })
  .strict()
  .openapi("ExecutePluginTool");

export const ToolExecutionSchema = z
  .object({
    pluginId: z.string(),
    toolName: z.string(),
    result: z.object({
      content: z.string().openapi({ description: "Text for the model" }),
      data: z.unknown().openapi({ description: "The structured result" }),
    }),
  })
  .openapi("PluginToolExecution");
