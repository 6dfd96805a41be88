// Runs one bench plug-in on its own: starts a dev server, calls `bench(base, helpers)` with the same
// helpers bench.mjs passes (no CPU sampling), prints its rows, stops the server.
import { startDevServer } from "./server.mjs";

export async function runAlone(bench) {
  const { makeRequest, measure } = await import("./bench.mjs");
  const server = await startDevServer();
  try {
    const request = makeRequest(server.base);
    const rows = await bench(server.base, {
      measure,
      withCpu: (fn) => fn(),
      request,
      createCompany: (name) => request("POST", "/api/companies", { body: { name } }),
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? 16),
    });
    for (const r of rows) console.log(`${r.name}: ${r.rps.toFixed(1)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}`);
  } finally {
    server.stop();
  }
}
