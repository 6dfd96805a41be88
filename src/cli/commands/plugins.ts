// `acp plugin`: the instance's plugins (board reads, instance admins change): list, install one
// this build ships, enable, disable, upgrade, uninstall, and the agent tools of the ready ones.
import type { Command } from "commander";
import type { components } from "../../client";
import { cliContext, unwrap } from "../context";
import { minute, type Column } from "../output";

type Plugin = components["schemas"]["Plugin"];

const pluginColumns: Array<Column<Plugin>> = [
  ["Id", "id"],
  ["Key", "pluginKey"],
  ["Version", "version"],
  ["Status", "status"],
  ["Last error", "lastError"],
  ["Updated", (p) => minute(p.updatedAt)],
];

const summary = (p: Plugin) => `${p.pluginKey} ${p.version} (${p.id}): ${p.status}${p.lastError ? ` — ${p.lastError}` : ""}`;

export function pluginCommands(program: Command) {
  const plugin = program.command("plugin").description("The instance's plugins and their agent tools (changes need an instance admin)");
  plugin
    .command("list")
    .description("Installed plugins with their status")
    .option("--status <status>", "only this status: installed, ready, disabled, error or upgrade_pending")
    .action(async (opts: { status?: Plugin["status"] }, command: Command) => {
      const ctx = cliContext(command);
      const plugins = await unwrap(ctx.api.GET("/api/plugins", { params: { query: { status: opts.status } } }));
      ctx.out.table(plugins, pluginColumns);
    });
  plugin
    .command("install")
    .description("Install a plugin this build ships, by package name or key (e.g. knowledge-wiki)")
    .argument("<packageName>")
    .action(async (packageName: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const installed = await unwrap(ctx.api.POST("/api/plugins/install", { body: { packageName } }));
      ctx.out.value(installed, () => `Installed ${summary(installed)}`);
    });
  const lifecycle = {
    enable: ["Enabled", "Enable a plugin (disabled, error or upgrade_pending → ready): its routes and tools come back"],
    disable: ["Disabled", "Disable a ready plugin: its routes answer 503 and its tools go"],
    upgrade: ["Upgraded", "Upgrade a ready plugin to the version this build ships"],
  } as const;
  for (const action of ["enable", "disable", "upgrade"] as const) {
    const [done, description] = lifecycle[action];
    plugin
      .command(action)
      .description(description)
      .argument("<pluginId>", "the plugin's id or key")
      .action(async (pluginId: string, _o: unknown, command: Command) => {
        const ctx = cliContext(command);
        const changed = await unwrap(ctx.api.POST(`/api/plugins/{pluginId}/${action}`, { params: { path: { pluginId } } }));
        ctx.out.value(changed, () => `${done} ${summary(changed)}`);
      });
  }
  plugin
    .command("uninstall")
    .description("Uninstall a plugin; its data stays (installing it again brings it back) unless --purge")
    .argument("<pluginId>", "the plugin's id or key")
    .option("--purge", "also delete the plugin's data in every company")
    .action(async (pluginId: string, opts: { purge?: boolean }, command: Command) => {
      const ctx = cliContext(command);
      const removed = await unwrap(ctx.api.DELETE("/api/plugins/{pluginId}", { params: { path: { pluginId }, query: opts.purge ? { purge: "true" } : {} } }));
      ctx.out.value(removed, () => `Uninstalled ${removed.pluginKey} (${removed.id}); ${removed.dataKept ? "its data stays" : "its data was deleted"}`);
    });
  plugin
    .command("tools")
    .description("Agent tools of the ready plugins, named <pluginKey>:<tool>")
    .option("--plugin <pluginId>", "only this plugin's tools (id or key)")
    .action(async (opts: { plugin?: string }, command: Command) => {
      const ctx = cliContext(command);
      const tools = await unwrap(ctx.api.GET("/api/plugins/tools", { params: { query: { pluginId: opts.plugin } } }));
      ctx.out.table(tools, [
        ["Tool", "name"],
        ["Name", "displayName"],
        ["Description", "description"],
      ]);
    });
}
