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

/** A JSON call to the dev server at `base` (with `token` as the bearer key); a non-2xx answer throws with the API's body. */
export async function devApi(base: string, method: string, route: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
