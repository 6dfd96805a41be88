// Reads about shards: each database companies live on, with how many companies it holds (the directory).
import { count, isNotNull } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { shardNames } from "../../db/shards";

export interface ShardLoad {
  shard: string;
  companies: number;
  /** Companies being moved off it now (fenced). */
  fencedCompanies: number;
}

/** Every shard binding (and any other database the directory places companies on), in binding order. */
export async function listShards(env: object, db: Db): Promise<ShardLoad[]> {
  const d = schema.directoryCompanies;
  const [all, fenced] = await db.batch([
    db.select({ shard: d.shard, companies: count() }).from(d).groupBy(d.shard),
    db.select({ shard: d.shard, companies: count() }).from(d).where(isNotNull(d.fencedAt)).groupBy(d.shard),
  ]);
  const load = new Map(all.map((row) => [row.shard, row.companies]));
  const moving = new Map(fenced.map((row) => [row.shard, row.companies]));
  const names = [...shardNames(env), ...[...load.keys()].filter((name) => !shardNames(env).includes(name)).sort()];
  return names.map((shard) => ({ shard, companies: load.get(shard) ?? 0, fencedCompanies: moving.get(shard) ?? 0 }));
}
