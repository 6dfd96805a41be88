// Placement: which shard holds a company (the directory's `directory_companies.shard`), cached per
// isolate for a few seconds, and where a new company goes (the shard holding the fewest companies;
// ties go to the lowest-numbered shard). See src/db/shards.ts.
import { count, eq, inArray } from "drizzle-orm";
import { schema, type Db } from "./client";
import type { ReadBatch } from "./read-batch";
import { companyScope, currentShardScope, narrowShardScope, shardNames, withShardScope } from "./shards";

export interface Placement {
  companyId: string;
  shard: string;
  /** A move is copying the company: its writes answer 503 until the fence lifts. */
  fencedAt: string | null;
}

const TTL_MS = 10_000;
const cache = new Map<string, { placement: Placement; until: number }>();

export function cachedPlacement(companyId: string): Placement | null {
  const hit = cache.get(companyId);
  if (!hit) return null;
  if (hit.until < Date.now()) {
    cache.delete(companyId);
    return null;
  }
  return hit.placement;
}

export function rememberPlacement(placement: Placement) {
  if (cache.size > 10_000) cache.clear();
  cache.set(placement.companyId, { placement, until: Date.now() + TTL_MS });
}

export const forgetPlacement = (companyId: string) => cache.delete(companyId);

const columns = { companyId: schema.directoryCompanies.id, shard: schema.directoryCompanies.shard, fencedAt: schema.directoryCompanies.fencedAt };

/** Adds the placements of `companyIds` not cached to a directory read batch; the returned function answers every one of them. */
export function addPlacementReads(batch: ReadBatch, companyIds: readonly string[]): () => Map<string, Placement> {
  const missing = [...new Set(companyIds)].filter((id) => !cachedPlacement(id));
  const reads = chunks(missing, 90).map((ids) => batch.add(batch.db.select(columns).from(schema.directoryCompanies).where(inArray(columns.companyId, ids))));
  return () => {
    const found = new Map<string, Placement>();
    for (const read of reads)
      for (const row of read.value) {
        rememberPlacement(row);
        found.set(row.companyId, row);
      }
    for (const id of companyIds) {
      const hit = found.get(id) ?? cachedPlacement(id);
      if (hit) found.set(id, hit);
    }
    return found;
  };
}

/** The company's placement (a directory read unless cached), or null for a company that does not exist. */
export async function placementOf(db: Db, companyId: string): Promise<Placement | null> {
  const hit = cachedPlacement(companyId);
  if (hit) return hit;
  const [row] = await db.select(columns).from(schema.directoryCompanies).where(eq(columns.companyId, companyId));
  if (row) rememberPlacement(row);
  return row ?? null;
}

/** Where a new company goes: the shard with the fewest companies. */
export async function chooseShard(env: object, db: Db): Promise<string> {
  const names = shardNames(env);
  if (names.length === 1) return names[0];
  const counts = await db
    .select({ shard: schema.directoryCompanies.shard, companies: count() })
    .from(schema.directoryCompanies)
    .where(inArray(schema.directoryCompanies.shard, names))
    .groupBy(schema.directoryCompanies.shard);
  const load = new Map(counts.map((c) => [c.shard, c.companies]));
  return names.reduce((best, name) => ((load.get(name) ?? 0) < (load.get(best) ?? 0) ? name : best), names[0]);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Narrows the current scope to the company's shard (a directory read unless cached); null when the company does not exist. */
export async function scopeToCompany(db: Db, companyId: string): Promise<Placement | null> {
  const placement = await placementOf(db, companyId);
  if (placement) narrowShardScope(companyId, placement.shard);
  return placement;
}

/**
 * Runs `fn` with company-table statements on `companyId`'s shard (a directory read unless cached):
 * code that needs a company's database other than its scope's says so by name (objects, the cron,
 * a company being created).
 */
export async function onShardOf<T>(db: Db, companyId: string, fn: () => Promise<T>): Promise<T> {
  const scope = currentShardScope();
  if (scope?.companyId === companyId && scope.shard) return fn();
  const placement = await placementOf(db, companyId);
  if (!placement) throw new Error(`Company ${companyId} has no placement in the directory`);
  return withShardScope(companyScope(companyId, placement.shard), async () => await fn());
}
