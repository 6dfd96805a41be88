// Database backup: every D1 table exported as JSON lines into R2 under backups/<timestamp>/,
// read page by page (SELECT * ... LIMIT/OFFSET by rowid), with a manifest; afterwards only the
// newest `keepLast` backup folders are kept. Raw SQL here because the tables are dumped by name
// (whatever sqlite_master lists), which drizzle's typed tables cannot express.
const PAGE_SIZE = 200;
const BACKUP_ROOT = "backups/";

export interface BackupResult {
  backupDirectory: string;
  retentionPolicy: { keepLast: number; deletedBackups: string[]; description: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  tables: Array<{ name: string; rows: number; objectKey: string }>;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function listTables(db: D1Database): Promise<Array<{ name: string; withoutRowid: boolean }>> {
  const { results } = await db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    )
    .all<{ name: string; sql: string | null }>();
  return results.map((r) => ({ name: r.name, withoutRowid: /WITHOUT\s+ROWID/i.test(r.sql ?? "") }));
}

async function exportTable(db: D1Database, table: string, withoutRowid: boolean): Promise<{ body: string; rows: number }> {
  const chunks: string[] = [];
  let rows = 0;
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const order = withoutRowid ? "" : " ORDER BY rowid";
    const { results } = await db.prepare(`SELECT * FROM ${quoteIdent(table)}${order} LIMIT ?1 OFFSET ?2`).bind(PAGE_SIZE, offset).all();
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
  for (const table of await listTables(env.DB)) {
    const { body, rows } = await exportTable(env.DB, table.name, table.withoutRowid);
    const objectKey = `${backupDirectory}${table.name}.jsonl`;
    await env.FILES.put(objectKey, body, { httpMetadata: { contentType: "application/x-ndjson" } });
    tables.push({ name: table.name, rows, objectKey });
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
