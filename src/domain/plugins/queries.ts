// Plugin reads: the installed plugins, one by id or key, and the gate every plugin call passes
// (404 unknown or uninstalled, 503 not ready, naming its status).
import { eq, or, asc } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { ReadBatch } from "../../db/read-batch";
import { HttpError, notFound } from "../errors";
import type { PLUGIN_STATUSES } from "../../db/schema/plugins";
import { shippedPlugin } from "./registry";
import type { PluginDefinition } from "./definition";

export type PluginRow = typeof schema.plugins.$inferSelect;
const t = schema.plugins;

export const pluginView = (row: PluginRow) => ({
  id: row.id,
  pluginKey: row.pluginKey,
  packageName: row.packageName,
  version: row.version,
  status: row.status,
  lastError: row.lastError,
  manifest: row.manifest,
  installedAt: row.installedAt,
  updatedAt: row.updatedAt,
});

export const pluginQuery = (db: Db, idOrKey: string) =>
  db
    .select()
    .from(t)
    .where(or(eq(t.id, idOrKey), eq(t.pluginKey, idOrKey)));

export async function listPlugins(db: Db, status?: (typeof PLUGIN_STATUSES)[number]) {
  const rows = await db
    .select()
    .from(t)
    .where(status ? eq(t.status, status) : undefined)
    .orderBy(asc(t.pluginKey));
  return rows.map(pluginView);
}

export async function requirePlugin(db: Db, idOrKey: string): Promise<PluginRow> {
  const [row] = await pluginQuery(db, idOrKey);
  if (!row) throw notFound(`Plugin ${idOrKey} is not installed`);
  return row;
}

/** Adds the plugin's read to `batch`; the check (after the batch ran) answers its definition and row, or 404/503. */
export function addReadyPluginCheck(batch: ReadBatch, idOrKey: string, expectedKey?: string) {
  const row = batch.add(pluginQuery(batch.db, idOrKey));
  return (): { plugin: PluginDefinition; row: PluginRow } => requireReady(row.value[0], idOrKey, expectedKey);
}

/** Adds the plugin's read to `batch`; after it ran: whether the plugin is installed, shipped with this build and ready. */
export function addPluginReadyRead(batch: ReadBatch, key: string) {
  const row = batch.add(pluginQuery(batch.db, key));
  return (): boolean => {
    const found = row.value[0];
    return found?.pluginKey === key && found.status === "ready" && shippedPlugin(key) !== null;
  };
}

export function requireReady(row: PluginRow | undefined, idOrKey: string, expectedKey?: string) {
  const plugin = row ? shippedPlugin(row.pluginKey) : null;
  if (!row || !plugin || (expectedKey && row.pluginKey !== expectedKey)) throw notFound(`Plugin ${idOrKey} not found`);
  if (row.status !== "ready") {
    throw new HttpError(503, `Plugin ${row.pluginKey} is ${row.status}${row.lastError ? `: ${row.lastError}` : ""}`, {
      pluginKey: row.pluginKey,
      status: row.status,
      lastError: row.lastError,
    });
  }
  return { plugin, row };
}

/** The ready plugins (shipped in this build) with their rows: whose tools agents get. */
export async function readyPlugins(db: Db): Promise<Array<{ plugin: PluginDefinition; row: PluginRow }>> {
  const rows = await db.select().from(t).where(eq(t.status, "ready"));
  return rows.flatMap((row) => {
    const plugin = shippedPlugin(row.pluginKey);
    return plugin ? [{ plugin, row }] : [];
  });
}

/** Names (`<pluginKey>:<tool>`) of every tool agents have now: what a run's context lists. */
export async function enabledToolNames(db: Db): Promise<string[]> {
  return (await readyPlugins(db)).flatMap(({ plugin }) => plugin.tools.map((tool) => `${plugin.key}:${tool.name}`));
}
