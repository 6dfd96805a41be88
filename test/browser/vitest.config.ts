// `npm run test:browser`: the board console in Debian's Chromium against real dev servers. Not part
// of `npm test` (it needs Chromium and starts its own servers); .ci/run runs it after the suite.
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  test: {
    name: "browser",
    root,
    include: ["test/browser/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/browser/build-console.ts"],
    // One file at a time: each starts a dev server and a browser on a 2-core machine.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
