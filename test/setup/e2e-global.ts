// The e2e project's global setup: builds the CLI (dist/cli.cjs) from the current source and
// starts one real dev server (wrangler dev, local D1/R2/Durable Objects) for all e2e files.
import type { TestProject } from "vitest/node";
// @ts-expect-error plain JavaScript tool module
import { startDevServer } from "../tools/server.mjs";
// @ts-expect-error plain JavaScript build module
import { buildCli } from "../../src/cli/build.mjs";

export default async function setup(project: TestProject) {
  await buildCli();
  const server = await startDevServer();
  project.provide("devBase", server.base);
  return () => server.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    devBase: string;
  }
}
