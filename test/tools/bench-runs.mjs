// Bench plug-in: wake-up → run-start latency (the http agent's endpoint being called) and runs
// dispatched per second, on one company and spread over ten. A local Node endpoint plays the
// agent (answers 200 at once) and notes when each run reached it (X-Service-Run-Id).
import { createServer } from "node:http";

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

export async function benchRuns(base, { request, createCompany, concurrency }) {
  const arrived = new Map();
  const server = createServer((req, res) => {
    arrived.set(req.headers["x-service-run-id"], performance.now());
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end('{"summary":"bench"}');
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/wake`;
  const runtimeConfig = { heartbeat: { enabled: false, maxConcurrentRuns: 50, maxRunsPerHour: 10000 } };

  async function scenario(name, companies, agentsPerCompany) {
    const agents = [];
    for (let c = 0; c < companies; c++) {
      const company = await createCompany(`Bench Runs ${name} ${c}`);
      for (let a = 0; a < agentsPerCompany; a++) {
        agents.push(
          await request("POST", `/api/companies/${company.id}/agents`, {
            body: { name: `Runner ${c}-${a}`, adapterType: "http", adapterConfig: { url }, runtimeConfig },
          }),
        );
      }
    }
    const sent = new Map();
    let next = 0;
    let errors = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < RUNS) {
          const i = next++;
          const t0 = performance.now();
          try {
            const run = await request("POST", `/api/agents/${agents[i % agents.length].id}/wakeup`, {
              body: { idempotencyKey: `${name}-${i}` },
              expect: [202],
            });
            sent.set(run.id, t0);
          } catch {
            errors++;
          }
        }
      }),
    );
    // Wait (bounded) until every run reached the endpoint.
    const deadline = performance.now() + 60_000;
    while ([...sent.keys()].some((id) => !arrived.has(id)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const latencies = [...sent]
      .filter(([id]) => arrived.has(id))
      .map(([id, t0]) => arrived.get(id) - t0)
      .sort((a, b) => a - b);
    const last = Math.max(...[...sent.keys()].map((id) => arrived.get(id) ?? 0));
    const seconds = (last - started) / 1000;
    const missing = sent.size - latencies.length;
    return {
      name: `wake-up → run start, ${name}`,
      count: RUNS,
      errors: errors + missing,
      seconds,
      rps: latencies.length / seconds,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      note: missing ? `${missing} runs never reached the endpoint within 60 s` : "req/s = runs dispatched per second",
    };
  }

  try {
    return [await scenario("1 company (10 agents)", 1, 10), await scenario("10 companies", 10, 1)];
  } finally {
    server.close();
  }
}
