// One real dev server (wrangler dev, local D1/R2/Durable Objects) and a freshly built CLI for all
// e2e files: started by the first file that asks, inside the test run (so its start-up overlaps
// the other projects' tests instead of delaying them all, as a global setup would), and stopped
// when the worker process exits. The e2e project runs its files in one worker (isolate: false).
// @ts-expect-error plain JavaScript tool module
import { startDevServer } from "../tools/server.mjs";
// @ts-expect-error plain JavaScript build module
import { buildCli } from "../../src/cli/build.mjs";

let started: Promise<{ base: string; stop: () => void }> | null = null;

export async function devBase(): Promise<string> {
  started ??= (async () => {
    await buildCli();
    const server = await startDevServer();
    process.once("exit", () => server.stop());
    return server;
  })();
  return (await started).base;
}
