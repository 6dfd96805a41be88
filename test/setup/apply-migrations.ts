// Applies D1 migrations once per isolated storage (a no-op when already applied), to the directory
// and to every company shard (they share the migrations: src/db/shards.ts).
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { shardNames } from "../../src/db/shards";

const bindings = env as unknown as Record<string, D1Database>;
for (const name of new Set(["DB", ...shardNames(env)])) await applyD1Migrations(bindings[name], env.TEST_MIGRATIONS);
