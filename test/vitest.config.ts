// Vitest in the Workers runtime: real local D1, R2 and Durable Objects.
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "..");

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  return {
    root,
    plugins: [
      cloudflareTest({
        wrangler: { configPath: path.join(root, "wrangler.toml") },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            AGENT_JWT_SECRET: "test-agent-jwt-secret-0123456789abcdef0123456789",
            BETTER_AUTH_SECRET: "test-better-auth-secret-0123456789abcdef012345",
            SECRETS_MASTER_KEY: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: ["test/setup/apply-migrations.ts"],
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  };
});
