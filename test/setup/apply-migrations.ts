// Applies D1 migrations once per isolated storage (a no-op when already applied), to the directory
// and to every company shard (they share the migrations: src/db/shards.ts).
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { shardNames } from "../../src/db/shards";

const bindings = env as unknown as Record<string, D1Database>;
for (const name of new Set(["DB", ...shardNames(env)])) await applyD1Migrations(bindings[name], env.TEST_MIGRATIONS);

// The modules the Worker imports lazily (on first use: src/index.ts, src/domain/yaml.ts, …), loaded
// here once per worker: a first use inside work that outlives its test (a waitUntil, an alarm)
// would otherwise resolve the module while vitest tears the file's environment down
// ("Closing rpc while resolve was pending", reported as an unhandled error of a passing file).
await Promise.all([
  import("../../src/app"),
  import("yaml"),
  import("../../src/domain/skills/catalog-content"),
  import("../../src/domain/mcp/tools"),
  import("../../src/domain/plugins/mcp"),
  import("../../src/domain/svg/sanitize"),
]);
