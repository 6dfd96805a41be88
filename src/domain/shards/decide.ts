// Whether a company may be moved to a shard now (src/domain/shards/move.ts): a pure decision on its
// directory entry.

/** A fence older than this belongs to a move that died (no move runs this long): a new move may take it over. */
export const STALE_FENCE_MS = 10 * 60_000;

export interface DirectoryEntry {
  shard: string;
  fencedAt: string | null;
}

export type MoveDecision = { ok: true; from: string; takesOverFence: string | null } | { ok: false; status: 400 | 404 | 409; error: string };

export function decideMove(entry: DirectoryEntry | null, to: string, shards: readonly string[], now: number): MoveDecision {
  if (shards.length < 2)
    return { ok: false, status: 400, error: "This deployment has a single database (no DB_SHARD_<n> bindings): there is nowhere to move to" };
  if (!shards.includes(to)) return { ok: false, status: 400, error: `Unknown shard ${to}: this deployment's shards are ${shards.join(", ")}` };
  if (!entry) return { ok: false, status: 404, error: "Company not found" };
  if (entry.fencedAt && now - Date.parse(entry.fencedAt) < STALE_FENCE_MS)
    return { ok: false, status: 409, error: `A move of the company is in progress (since ${entry.fencedAt})` };
  if (entry.shard === to) return { ok: false, status: 409, error: `The company is already on ${to}` };
  return { ok: true, from: entry.shard, takesOverFence: entry.fencedAt };
}
