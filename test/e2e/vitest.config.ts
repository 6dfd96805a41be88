// `npm run test:e2e`: the end-to-end flows — the built CLI (login, daily commands, `acp runner` with a
// local process and with the six coding-agent CLIs) against one real dev server (wrangler dev), and
// the typed client generated from the live document. Not part of `npm test` (a dev server competing
// for the 2 cores slows everything else down); .ci/run runs it after the suite.
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  test: {
    name: "e2e",
    root,
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    // One worker for all files: they share one dev server (test/e2e/dev-server.ts).
    isolate: false,
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
