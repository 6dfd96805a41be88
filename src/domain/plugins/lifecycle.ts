// The plugin host's lifecycle (instance admins): install, enable, disable, upgrade, uninstall.
// A plugin is instance-wide, so each change is one D1 batch — guarded on the plugin row being as
// read (a concurrent change rolls it back: 409) — that also writes the change's activity entry
// and its event into every company (plugin.installed, plugin.status_changed, plugin.uninstalled:
// every company's agents gain or lose the plugin's tools). The companies' event hubs are told
// afterwards, in the background.
import { eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { schema, type Db } from "../../db/client";
import { runBatch, type Statement } from "../../db/batch";
import { forEachShard, statementHome } from "../../db/shards";
import { rowExists } from "../../db/guards";
import { actorRef, type BoardActor } from "../actor";
import { badRequest, conflict } from "../errors";
import { newId } from "../../crypto/random";
import { eventsFromActivity } from "../events/from-activity";
import { eventsHub } from "../../company/client";
import { manifestOf, type PluginDefinition } from "./definition";
import { pluginQuery, pluginView, requirePlugin, type PluginRow } from "./queries";
import { SHIPPED_PLUGINS, shippedPlugin } from "./registry";
import { requireTransition, type PluginStatus } from "./status";

export interface PluginHost {
  env: Env;
  db: Db;
  actor: BoardActor;
  /** Work after the response (telling the event hubs). */
  waitUntil(promise: Promise<unknown>): void;
}

interface Announcement {
  action: "plugin.installed" | "plugin.status_changed" | "plugin.uninstalled";
  details: Record<string, unknown>;
}

/** A fresh UUID per row of an INSERT … SELECT (random functions are evaluated per row). */
const rowUuid = sql`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

/**
 * `INSERT INTO table SELECT … FROM companies`: one row per company, `values` by field name (the
 * company's id fills `companyId`; fields not given are NULL).
 */
function forEveryCompany<T extends SQLiteTable>(db: Db, table: T, values: Partial<Record<keyof T["$inferInsert"], SQL | string | null>>) {
  const c = schema.companies;
  const given = values as Record<string, SQL | string | null>;
  const list = Object.keys(getTableColumns(table)).map((field) => (field === "companyId" ? sql`${c.id}` : field in given ? sql`${given[field]}` : sql`NULL`));
  return db.insert(table).select(sql`SELECT ${sql.join(list, sql`, `)} FROM ${c}`);
}

/** The announcement's activity entry and events, one of each per company. */
function announceStatements(db: Db, actor: BoardActor, now: string, pluginId: string, announcement: Announcement): Statement[] {
  const { actorType, actorId } = actorRef(actor);
  const statements: Statement[] = [
    forEveryCompany(db, schema.activityLog, {
      id: rowUuid,
      actorType,
      actorId,
      action: announcement.action,
      entityType: "plugin",
      entityId: pluginId,
      details: JSON.stringify(announcement.details),
      createdAt: now,
    }),
  ];
  for (const draft of eventsFromActivity({ action: announcement.action, entityType: "plugin", entityId: pluginId, details: announcement.details })) {
    statements.push(
      forEveryCompany(db, schema.companyEvents, {
        id: rowUuid,
        type: draft.type,
        actorType,
        actorId,
        subjectType: draft.subject.type,
        subjectId: draft.subject.id,
        data: JSON.stringify(draft.data),
        occurredAt: now,
      }),
    );
  }
  return statements;
}

/** The batch's precondition (the same `command_guards` row commands use: the batch rolls back unless it holds). */
const guard = (db: Db, condition: SQL) =>
  db
    .insert(schema.commandGuards)
    .values({ id: 1, held: sql`CASE WHEN ${condition} THEN 1 ELSE 0 END` })
    .onConflictDoUpdate({ target: schema.commandGuards.id, set: { held: sql`excluded.held` } });

const isGuardFailure = (err: unknown) => /CHECK constraint failed: held/.test(`${(err as Error)?.message ?? ""} ${(err as { cause?: unknown })?.cause ?? ""}`);

/** Tells every company's event hub (after the response): their streams carry the new events. */
function notifyHubs(host: PluginHost) {
  host.waitUntil(
    (async () => {
      const ids = (await host.db.select({ id: schema.companies.id }).from(schema.companies)).map((r) => r.id);
      for (let i = 0; i < ids.length; i += 8) {
        await Promise.all(
          ids.slice(i, i + 8).map((id) =>
            eventsHub(host.env, id)
              .notify(id)
              .catch((err) => console.error(`event hub ${id}`, err)),
          ),
        );
      }
    })(),
  );
}

/**
 * The plugin row (guarded) in the directory, then its announcements to every company on each
 * shard (src/db/shards.ts): a plugin is instance-wide, its activity and events company-scoped.
 */
async function commit(host: PluginHost, statements: Statement[]) {
  const home = (s: Statement) => statementHome((s as unknown as { toSQL(): { sql: string } }).toSQL().sql);
  try {
    await runBatch(
      host.db,
      statements.filter((s) => home(s) === "directory"),
    );
  } catch (err) {
    if (isGuardFailure(err)) throw conflict("The plugin changed concurrently; try again");
    throw err;
  }
  const announcements = statements.filter((s) => home(s) === "company");
  await forEachShard(host.env, () => runBatch(host.db, announcements));
  notifyHubs(host);
}

const statusChange = (row: PluginRow, from: PluginStatus, to: PluginStatus, lastError: string | null = null): Announcement => ({
  action: "plugin.status_changed",
  details: { pluginKey: row.pluginKey, version: row.version, from, to, lastError },
});

function shippedOf(row: PluginRow): PluginDefinition {
  const plugin = shippedPlugin(row.pluginKey);
  if (!plugin) throw conflict(`Plugin ${row.pluginKey} is not shipped in this build`, { pluginKey: row.pluginKey });
  return plugin;
}

/** Moves the row to `changes.status` (and the rest of `changes`), announcing `announcements`. */
async function change(host: PluginHost, row: PluginRow, changes: Partial<PluginRow>, announcements: Announcement[]) {
  const now = new Date().toISOString();
  const updated: PluginRow = { ...row, ...changes, updatedAt: now };
  const t = schema.plugins;
  await commit(host, [
    guard(host.db, rowExists(t, { id: row.id, status: row.status, updatedAt: row.updatedAt })),
    host.db
      .update(t)
      .set({ ...changes, updatedAt: now })
      .where(eq(t.id, row.id)),
    ...announcements.flatMap((a) => announceStatements(host.db, host.actor, now, row.id, a)),
  ]);
  return pluginView(updated);
}

export async function installPlugin(host: PluginHost, packageName: string) {
  const plugin = shippedPlugin(packageName);
  if (!plugin) {
    throw badRequest(`Only the plugins this build ships can be installed: ${SHIPPED_PLUGINS.map((p) => `${p.packageName} (${p.key})`).join(", ")}`, {
      packageName,
      shipped: SHIPPED_PLUGINS.map((p) => ({ pluginKey: p.key, packageName: p.packageName, version: p.version })),
    });
  }
  const [existing] = await pluginQuery(host.db, plugin.key);
  if (existing) throw conflict(`Plugin ${plugin.key} is already installed (${existing.status})`, { pluginKey: plugin.key, status: existing.status });
  const now = new Date().toISOString();
  const problem = plugin.activationProblem(host.env);
  // installed → ready (activation passed) or error (with the reason).
  const status: PluginStatus = problem ? "error" : "ready";
  const row: PluginRow = {
    id: newId(),
    pluginKey: plugin.key,
    packageName: plugin.packageName,
    version: plugin.version,
    status,
    lastError: problem,
    manifest: manifestOf(plugin),
    installedAt: now,
    updatedAt: now,
  };
  const t = schema.plugins;
  try {
    await commit(host, [
      guard(host.db, sql`NOT EXISTS (SELECT 1 FROM ${t} WHERE ${t.pluginKey} = ${plugin.key})`),
      host.db.insert(t).values(row),
      ...announceStatements(host.db, host.actor, now, row.id, {
        action: "plugin.installed",
        details: { pluginKey: plugin.key, version: plugin.version, status: "installed" },
      }),
      ...announceStatements(host.db, host.actor, now, row.id, statusChange(row, "installed", status, problem)),
    ]);
  } catch (err) {
    if (err instanceof Error && /UNIQUE|changed concurrently/.test(err.message))
      throw conflict(`Plugin ${plugin.key} is already installed`, { pluginKey: plugin.key });
    throw err;
  }
  return pluginView(row);
}

export async function enablePlugin(host: PluginHost, idOrKey: string) {
  const row = await requirePlugin(host.db, idOrKey);
  if (row.status === "ready") return pluginView(row);
  const plugin = shippedOf(row);
  requireTransition(row.pluginKey, row.status, "ready");
  const problem = plugin.activationProblem(host.env);
  if (problem) throw conflict(`Plugin ${row.pluginKey} cannot be enabled: ${problem}`, { pluginKey: row.pluginKey, status: row.status });
  return change(host, row, { status: "ready", lastError: null }, [statusChange(row, row.status, "ready")]);
}

export async function disablePlugin(host: PluginHost, idOrKey: string) {
  const row = await requirePlugin(host.db, idOrKey);
  if (row.status === "disabled") return pluginView(row);
  requireTransition(row.pluginKey, row.status, "disabled");
  return change(host, row, { status: "disabled" }, [statusChange(row, row.status, "disabled")]);
}

/** ready → upgrade_pending → ready at the version this build ships (error when it cannot activate). */
export async function upgradePlugin(host: PluginHost, idOrKey: string) {
  const row = await requirePlugin(host.db, idOrKey);
  const plugin = shippedOf(row);
  if (row.version === plugin.version)
    throw conflict(`Plugin ${row.pluginKey} is already at ${plugin.version}, the version this build ships`, { pluginKey: row.pluginKey, version: row.version });
  requireTransition(row.pluginKey, row.status, "upgrade_pending");
  const problem = plugin.activationProblem(host.env);
  const to: PluginStatus = problem ? "error" : "ready";
  const upgraded = { ...row, version: plugin.version };
  return change(host, row, { status: to, lastError: problem, version: plugin.version, manifest: manifestOf(plugin) }, [
    {
      ...statusChange(row, row.status, "upgrade_pending"),
      details: { ...statusChange(row, row.status, "upgrade_pending").details, fromVersion: row.version, toVersion: plugin.version },
    },
    statusChange(upgraded, "upgrade_pending", to, problem),
  ]);
}

/** Uninstalls; the plugin's data stays unless `purge` (then the plugin deletes it in every company first). */
export async function uninstallPlugin(host: PluginHost, idOrKey: string, purge: boolean) {
  const row = await requirePlugin(host.db, idOrKey);
  const plugin = shippedPlugin(row.pluginKey);
  const purged = purge && plugin?.purgeData ? await plugin.purgeData(host.env, host.actor) : null;
  const now = new Date().toISOString();
  const t = schema.plugins;
  await commit(host, [
    guard(host.db, rowExists(t, { id: row.id, updatedAt: row.updatedAt })),
    host.db.delete(t).where(eq(t.id, row.id)),
    ...announceStatements(host.db, host.actor, now, row.id, {
      action: "plugin.uninstalled",
      details: { pluginKey: row.pluginKey, version: row.version, from: row.status, purged: purge, purgedCompanies: purged?.companies ?? 0 },
    }),
  ]);
  return { ...pluginView(row), uninstalled: true as const, purged: purge, dataKept: !purge };
}
