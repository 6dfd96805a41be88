// Keeps the directory (src/db/schema/directory.ts) in step with the shards: triggers on a shard
// write what changed in companies, user memberships, agent keys, agent statuses and public trigger
// ids to `directory_outbox` in the changing transaction (migrations/0020_directory_shards.sql); the
// writer applies those rows to the directory right after. A company object reads the outbox at the
// end of every command's own batch (no extra round trip when nothing changed) and deletes the
// applied rows in its next batch; the minute cron drains every shard too, so a row whose writer
// failed half-way is applied within a minute. Applying is idempotent (upserts of the latest state).
import { and, eq, lte } from "drizzle-orm";
import type { Statement, Trailing } from "./batch";
import { runBatch } from "./batch";
import { schema, type Db } from "./client";
import { forgetPlacement } from "./placement";
import { parseOutboxRow } from "./directory-outbox";

type OutboxRow = typeof schema.directoryOutbox.$inferSelect;

/** The directory statements that apply outbox rows, in order. */
export function directoryStatements(db: Db, rows: readonly OutboxRow[]): Statement[] {
  const statements: Statement[] = [];
  for (const outboxRow of rows) {
    const row = parseOutboxRow(outboxRow);
    const company = row.companyId;
    switch (row.kind) {
      case "company":
        statements.push(
          db
            .update(schema.directoryCompanies)
            .set({
              name: row.payload.name,
              issuePrefix: row.payload.issuePrefix,
              status: row.payload.status,
              updatedAt: row.payload.updatedAt ?? new Date().toISOString(),
            })
            .where(eq(schema.directoryCompanies.id, company)),
        );
        break;
      case "company_deleted":
        forgetPlacement(company);
        statements.push(
          db.delete(schema.directoryMemberships).where(eq(schema.directoryMemberships.companyId, company)),
          db.delete(schema.directoryAgentKeys).where(eq(schema.directoryAgentKeys.companyId, company)),
          db.delete(schema.directoryPublicIds).where(eq(schema.directoryPublicIds.companyId, company)),
          db.delete(schema.sidebarPreferences).where(eq(schema.sidebarPreferences.scopeKey, company)),
          db.delete(schema.directoryCompanies).where(eq(schema.directoryCompanies.id, company)),
        );
        break;
      case "membership": {
        const m = schema.directoryMemberships;
        const p = row.payload;
        if (p.status === "deleted") statements.push(db.delete(m).where(and(eq(m.companyId, company), eq(m.userId, p.userId))));
        else
          statements.push(
            db
              .insert(m)
              .values({ companyId: company, userId: p.userId, membershipRole: p.role, status: p.status })
              .onConflictDoUpdate({ target: [m.companyId, m.userId], set: { membershipRole: p.role, status: p.status } }),
          );
        break;
      }
      case "agent_key": {
        const k = schema.directoryAgentKeys;
        const p = row.payload;
        const values = {
          keyHash: p.keyHash,
          keyId: p.keyId,
          agentId: p.agentId,
          companyId: company,
          agentStatus: p.agentStatus ?? "idle",
          revokedAt: p.revokedAt ?? null,
        };
        statements.push(db.insert(k).values(values).onConflictDoUpdate({ target: k.keyHash, set: values }));
        break;
      }
      case "agent_key_deleted":
        statements.push(db.delete(schema.directoryAgentKeys).where(eq(schema.directoryAgentKeys.keyHash, row.payload.keyHash)));
        break;
      case "agent_status":
        statements.push(
          db.update(schema.directoryAgentKeys).set({ agentStatus: row.payload.agentStatus }).where(eq(schema.directoryAgentKeys.agentId, row.payload.agentId)),
        );
        break;
      case "public_id": {
        const t = schema.directoryPublicIds;
        statements.push(
          db
            .insert(t)
            .values({ kind: row.payload.kind, publicId: row.payload.publicId, companyId: company })
            .onConflictDoUpdate({ target: [t.kind, t.publicId], set: { companyId: company } }),
        );
        break;
      }
      case "public_id_deleted": {
        const t = schema.directoryPublicIds;
        statements.push(db.delete(t).where(and(eq(t.kind, row.payload.kind), eq(t.publicId, row.payload.publicId), eq(t.companyId, company))));
        break;
      }
    }
  }
  return statements;
}

const readOutbox = (db: Db) => db.select().from(schema.directoryOutbox).orderBy(schema.directoryOutbox.seq).limit(500);

/**
 * The trailing statements of a company object's command batches: delete what the last batch's
 * reading applied, read what this batch (its triggers) wrote; `settle` applies it to the directory.
 */
export class DirectorySync implements Trailing {
  private appliedThrough = 0;
  constructor(private readonly db: Db) {}

  statements(): Statement[] {
    const out = schema.directoryOutbox;
    const list: Statement[] = [];
    if (this.appliedThrough) list.push(this.db.delete(out).where(lte(out.seq, this.appliedThrough)));
    list.push(readOutbox(this.db));
    return list;
  }

  async settle(results: unknown[]): Promise<void> {
    if (results.length > 1) this.appliedThrough = 0;
    const rows = results[results.length - 1] as OutboxRow[];
    if (!rows.length) return;
    try {
      await runBatch(this.db, directoryStatements(this.db, rows));
      this.appliedThrough = rows[rows.length - 1].seq;
    } catch (err) {
      // The rows stay in the outbox: the next command or the minute cron applies them.
      console.error("directory sync failed", err);
    }
  }
}

/** Applies and deletes every outbox row of the current shard scope (the cron; writers outside a company object). */
export async function drainDirectoryOutbox(db: Db): Promise<number> {
  let applied = 0;
  for (;;) {
    const rows = await readOutbox(db);
    if (!rows.length) return applied;
    await runBatch(db, directoryStatements(db, rows));
    await db.delete(schema.directoryOutbox).where(lte(schema.directoryOutbox.seq, rows[rows.length - 1].seq));
    applied += rows.length;
    if (rows.length < 500) return applied;
  }
}
