// Database backup: every table of every D1 database (the directory `DB` and each company shard,
// src/db/shards.ts) exported as JSON lines into R2 under backups/<timestamp>/<database>/, read page
// by page (SELECT * ... LIMIT/OFFSET by rowid), with a manifest; afterwards only the newest
// `keepLast` backup folders are kept.
import { and, asc, eq, notLike, sql } from "drizzle-orm";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createDb, type Db } from "../../db/client";
import { databaseNamed } from "../../db/round-trips";
import { DIRECTORY_BINDING, shardNames } from "../../db/shards";

const PAGE_SIZE = 200;
const BACKUP_ROOT = "backups/";

export interface BackupResult {
  backupDirectory: string;
  retentionPolicy: { keepLast: number; deletedBackups: string[]; description: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  tables: Array<{ name: string; database: string; rows: number; objectKey: string }>;
}

/** SQLite's catalogue, declared here only to read it (not part of the app schema, so no migration knows it). */
const sqliteMaster = sqliteTable("sqlite_master", { type: text("type").notNull(), name: text("name").notNull(), sql: text("sql") });

async function listTables(db: Db): Promise<Array<{ name: string; withoutRowid: boolean }>> {
  const m = sqliteMaster;
  const rows = await db
    .select({ name: m.name, sql: m.sql })
    .from(m)
    .where(and(eq(m.type, "table"), notLike(m.name, "sqlite_%"), notLike(m.name, "_cf_%")))
    .orderBy(asc(m.name));
  return rows.map((r) => ({ name: r.name, withoutRowid: /WITHOUT\s+ROWID/i.test(r.sql ?? "") }));
}

async function exportTable(db: Db, table: string, withoutRowid: boolean): Promise<{ body: string; rows: number }> {
  const chunks: string[] = [];
  let rows = 0;
  const order = withoutRowid ? sql`` : sql` ORDER BY rowid`;
  for (let offset = 0; ; offset += PAGE_SIZE) {
    // Raw SQL: the table is whatever sqlite_master lists, read as SELECT * with rows keyed by column
    // name; drizzle selects only from tables it has column definitions for.
    const results = await db.all<Record<string, unknown>>(sql`SELECT * FROM ${sql.identifier(table)}${order} LIMIT ${PAGE_SIZE} OFFSET ${offset}`);
    for (const row of results) chunks.push(JSON.stringify(row));
    rows += results.length;
    if (results.length < PAGE_SIZE) break;
  }
  return { body: chunks.length ? chunks.join("\n") + "\n" : "", rows };
}

/** Deletes every backup folder but the newest `keepLast` (folder names sort by time). */
async function applyRetention(files: R2Bucket, keepLast: number): Promise<string[]> {
  const folders: string[] = [];
  let cursor: string | undefined;
  do {
    const listing = await files.list({ prefix: BACKUP_ROOT, delimiter: "/", cursor });
    folders.push(...listing.delimitedPrefixes);
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  folders.sort();
  const doomed = folders.slice(0, Math.max(0, folders.length - keepLast));
  for (const folder of doomed) {
    let inner: string | undefined;
    do {
      const listing = await files.list({ prefix: folder, cursor: inner });
      if (listing.objects.length) await files.delete(listing.objects.map((o) => o.key));
      inner = listing.truncated ? listing.cursor : undefined;
    } while (inner);
  }
  return doomed;
}

export async function runDatabaseBackup(env: Env, options: { keepLast: number; requestedByUserId: string }): Promise<BackupResult> {
  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, "-");
  const backupDirectory = `${BACKUP_ROOT}${stamp}-${crypto.randomUUID().slice(0, 8)}/`;
  const tables: BackupResult["tables"] = [];
  const databases = [...new Set([DIRECTORY_BINDING, ...shardNames(env)])];
  for (const database of databases) {
    // Each database whole, unrouted: a restore loads each folder back into its own database.
    const db = createDb(databaseNamed(env, database));
    for (const table of await listTables(db)) {
      const { body, rows } = await exportTable(db, table.name, table.withoutRowid);
      const objectKey = `${backupDirectory}${database}/${table.name}.jsonl`;
      await env.FILES.put(objectKey, body, { httpMetadata: { contentType: "application/x-ndjson" } });
      tables.push({ name: table.name, database, rows, objectKey });
    }
  }
  const finished = new Date();
  await env.FILES.put(
    `${backupDirectory}manifest.json`,
    JSON.stringify(
      {
        format: "jsonl-per-table",
        startedAt: started.toISOString(),
        finishedAt: finished.toISOString(),
        requestedByUserId: options.requestedByUserId,
        databases,
        tables,
      },
      null,
      2,
    ),
    { httpMetadata: { contentType: "application/json" } },
  );
  const deletedBackups = await applyRetention(env.FILES, options.keepLast);
  const done = new Date();
  return {
    backupDirectory,
    retentionPolicy: {
      keepLast: options.keepLast,
      deletedBackups,
      description: `Keeps the newest ${options.keepLast} backup folders under ${BACKUP_ROOT}; older ones are deleted after each backup (instance setting general.backupRetentionCount).`,
    },
    startedAt: started.toISOString(),
    finishedAt: done.toISOString(),
    durationMs: done.getTime() - started.getTime(),
    tables,
  };
}
