// Vitest projects: pure logic in Node; HTTP behaviour in the Workers runtime sharing one
// module graph and one storage across files (each test makes its own company); the few
// tests of instance-wide singletons in isolated storage.
import path from "node:path";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, defineProject } from "vitest/config";
import { startFakeAgentServer } from "./setup/fake-agent-server";

const root = path.resolve(import.meta.dirname, "..");

// wrangler.toml binds two company shards; TEST_SHARDS=1 runs the Workers projects with DB as the only
// database, as a deployment that has not added shards (the same configuration without DB_SHARD_n).
const defaultConfig = process.env.TEST_SHARDS === "1" ? singleDatabaseConfig() : path.join(root, "wrangler.toml");

/** wrangler.toml without its shard bindings (paths made absolute), written to a temporary file. */
function singleDatabaseConfig(): string {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8")
    .replace(/\[\[d1_databases\]\]\nbinding = "DB_SHARD_\d+"\n(?:[^[\n][^\n]*\n)*/g, "")
    .replace(/^(main|directory|migrations_dir|watch_dir) = "(?:\.\/)?([^"]+)"/gm, (_, key, value) => `${key} = "${path.join(root, value)}"`)
    .replace(/= "\.\/src\//g, `= "${path.join(root, "src")}/`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "acp-single-db-")), "wrangler.toml");
  writeFileSync(file, toml);
  return file;
}

/** The stub AI binding's Worker: run(model, inputs) → the fake model server's Workers AI answer (or its error, thrown). */
const FAKE_WORKERS_AI = `
import { WorkerEntrypoint } from "cloudflare:workers";
export default class FakeWorkersAi extends WorkerEntrypoint {
  async run(model, inputs) {
    const res = await fetch(this.env.FAKE_AGENT_URL + "/llm-workers-ai/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model, inputs }) });
    const body = await res.json();
    if (!res.ok) throw new Error("AiError: " + (body.error && body.error.message ? body.error.message : res.status));
    return body;
  }
}
`;

async function workersProject(name: string, isolate: boolean, fakeAgentUrl: string, configPath = defaultConfig) {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  return defineProject({
    root,
    plugins: [
      cloudflareTest({
        wrangler: { configPath },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            AGENT_JWT_SECRET: "test-agent-jwt-secret-0123456789abcdef0123456789",
            BETTER_AUTH_SECRET: "test-better-auth-secret-0123456789abcdef012345",
            SECRETS_MASTER_KEY: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            // The fake agent endpoint (test/setup/fake-agent-server.ts) the http adapter calls.
            FAKE_AGENT_URL: fakeAgentUrl,
            // Skill imports fetch from a fake GitHub on the same server (test/setup/fake-github.ts).
            GITHUB_API_URL: `${fakeAgentUrl}/gh-api`,
            GITHUB_RAW_URL: `${fakeAgentUrl}/gh-raw`,
            // The run dispatcher's alarms are set an hour ahead; tests fire them by hand (deterministic, no sleeps).
            DISPATCH_DELAY_MS: "3600000",
            // A disconnected runner's runs are lost at the next dispatch (no grace period to wait out).
            RUNNER_GRACE_MS: "0",
            // Test-only fault injection (src/db/faults.ts): the x-test-fault header and armFaults. Never in wrangler.toml.
            TEST_FAULTS: "1",
          },
          // Workers AI for llm_api agents: a stub with the binding's run() that asks the fake model server
          // (test/setup/fake-llm.ts). wrangler.toml binds the real one in production only.
          serviceBindings: { AI: "fake-workers-ai" },
          workers: [
            {
              name: "fake-workers-ai",
              modules: true,
              compatibilityDate: "2026-08-01",
              bindings: { FAKE_AGENT_URL: fakeAgentUrl },
              script: FAKE_WORKERS_AI,
            },
          ],
        },
      }),
    ],
    test: {
      name,
      include: [`test/${name}/**/*.test.ts`],
      isolate,
      setupFiles: ["test/setup/apply-migrations.ts"],
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  });
}

export default defineConfig(async () => {
  const fakeAgent = await startFakeAgentServer();
  return {
    test: {
      // Both cores: the http project's worker and the other projects' run side by side.
      maxWorkers: 2,
      projects: [
        // Pure logic: no Workers runtime, milliseconds per file.
        { test: { name: "unit", root, include: ["test/unit/**/*.test.ts"], environment: "node" } },
        // HTTP behaviour: one warm module graph and one storage per worker, shared across files.
        await workersProject("http", false, fakeAgent.url),
        // Instance-wide singletons (bootstrap, board claim, instance admins and settings): fresh storage per file.
        await workersProject("isolated", true, fakeAgent.url),
        // Shards (src/db/shards.ts): placement, routing, the directory, moves (they need two shards).
        ...(process.env.TEST_SHARDS === "1" ? [] : [await workersProject("sharding", false, fakeAgent.url)]),
      ],
    },
  };
});
