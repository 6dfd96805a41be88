// A short-lived per-isolate cache of what a credential resolves to (key hash → principal; run id
// → its agent). Bounded staleness: an entry lives CREDENTIAL_CACHE_MS (5 s), so a key revoked or
// an agent terminated through another isolate stops working within seconds everywhere; the
// isolate that performs a revocation, termination or deletion forgets the entries at once.
// Memberships are never cached (they change with every company a user creates or joins).

export const CREDENTIAL_CACHE_MS = 5_000;
const LAST_USED_WRITE_MS = 60_000;
const MAX_ENTRIES = 10_000;

export type CachedCredential =
  | { kind: "board_key"; keyId: string; userId: string; expiresAt: string }
  | { kind: "agent_key"; keyId: string; agentId: string; companyId: string; agentStatus: string }
  | { kind: "agent"; agentId: string; companyId: string; agentStatus: string };

const credentials = new Map<string, { value: CachedCredential; until: number }>();
const runAgents = new Map<string, string>();
const lastUsedWrites = new Map<string, number>();

function remember<K, V>(map: Map<K, V>, key: K, value: V) {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

export function cachedCredential(key: string, now = Date.now()): CachedCredential | undefined {
  const entry = credentials.get(key);
  if (!entry) return undefined;
  if (entry.until <= now) {
    credentials.delete(key);
    return undefined;
  }
  return entry.value;
}

export function cacheCredential(key: string, value: CachedCredential, now = Date.now()) {
  remember(credentials, key, { value, until: now + CREDENTIAL_CACHE_MS });
}

/** Forgets every cached credential (after a revocation, termination or deletion in this isolate). */
export function forgetCachedCredentials() {
  credentials.clear();
}

/** A run's agent never changes once the run exists, so it is kept for the isolate's life (bounded). */
export const cachedRunAgent = (runId: string) => runAgents.get(runId);
export const cacheRunAgent = (runId: string, agentId: string) => remember(runAgents, runId, agentId);

/** Whether `lastUsedAt` of this key should be written now (at most once a minute per key per isolate). */
export function lastUsedWriteDue(keyId: string, now = Date.now()): boolean {
  const last = lastUsedWrites.get(keyId);
  if (last !== undefined && now - last < LAST_USED_WRITE_MS) return false;
  remember(lastUsedWrites, keyId, now);
  return true;
}
