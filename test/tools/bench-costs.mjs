// Cost-event ingestion benchmark against a running dev server: one company, one agent,
// `requests` POST /cost-events with `concurrency` in flight (all serialised by the company's
// Durable Object). Run alone with `node test/tools/bench-costs.mjs [requests] [concurrency]`.
import { fileURLToPath } from "node:url";

async function json(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, text };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Measures cost-event ingestion on one company; latencies in milliseconds. */
export async function benchCostEvents(base, { requests = 500, concurrency = 20 } = {}) {
  const company = await json(base, "POST", "/api/companies", { name: `Bench Costs ${Date.now()}`, budgetMonthlyCents: 1_000_000_000 });
  if (company.status !== 201) throw new Error(`bench-costs: company create failed: ${company.status} ${company.text}`);
  const companyId = company.body.id;
  const agent = await json(base, "POST", `/api/companies/${companyId}/agents`, {
    name: "Bench Agent",
    role: "engineer",
    adapterType: "process",
    adapterConfig: { command: "echo" },
    budgetMonthlyCents: 1_000_000_000,
  });
  if (agent.status !== 201) throw new Error(`bench-costs: agent create failed: ${agent.status} ${agent.text}`);
  return measureCostEvents(base, companyId, agent.body.id, { requests, concurrency });
}

/** The measurement part alone, for an existing company and agent. */
export async function measureCostEvents(base, companyId, agentId, { requests = 500, concurrency = 20 } = {}) {
  const path = `/api/companies/${companyId}/cost-events`;
  const event = () => ({
    agentId,
    provider: "anthropic",
    model: "claude-sonnet",
    costCents: 1,
    inputTokens: 1000,
    outputTokens: 200,
    billingType: "metered_api",
    occurredAt: new Date().toISOString(),
  });

  // Warm-up: module graph, DO instance, statement caches.
  for (let i = 0; i < Math.min(5, requests); i++) {
    const res = await json(base, "POST", path, event());
    if (res.status !== 201) throw new Error(`bench-costs: warm-up failed: ${res.status} ${res.text}`);
  }

  const latencies = [];
  let next = 0;
  let failures = 0;
  let firstFailure = null;
  const started = performance.now();
  async function worker() {
    while (next < requests) {
      next++;
      const t0 = performance.now();
      const res = await json(base, "POST", path, event());
      latencies.push(performance.now() - t0);
      if (res.status !== 201) {
        failures++;
        firstFailure ??= `${res.status} ${res.text}`;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, requests)) }, worker));
  const seconds = (performance.now() - started) / 1000;
  if (failures) throw new Error(`bench-costs: ${failures}/${requests} requests failed, first: ${firstFailure}`);

  latencies.sort((a, b) => a - b);
  return {
    name: "cost-events",
    requests,
    seconds: round(seconds, 3),
    throughput: round(requests / seconds, 1),
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startDevServer } = await import("./server.mjs");
  const requests = Number(process.argv[2] ?? 500);
  const concurrency = Number(process.argv[3] ?? 20);
  const server = await startDevServer();
  try {
    console.log(await benchCostEvents(server.base, { requests, concurrency }));
  } finally {
    server.stop();
  }
}
