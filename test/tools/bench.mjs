#!/usr/bin/env node
// `npm run bench`: starts the real dev server (wrangler dev, local D1 and Durable Objects) and
// prints throughput and latency percentiles per operation:
//   issue create · issue list over BENCH_SEED issues (default 10,000; plain, filtered, `q`) ·
//   checkout/release cycles on one company versus spread over 10 companies.
// Other areas plug in: if test/tools/bench-costs.mjs (export benchCostEvents(base, opts)) or
// test/tools/bench-documents.mjs (export benchDocuments(base, opts)) exist, they are run too.
// They receive opts = { measure, request, createCompany, concurrency } and return result rows
// (from `measure`) to add to the table.
// test/tools/bench-runs.mjs (export benchRuns) measures wake-up → run-start latency and runs dispatched per second.
// Env: BENCH_SEED (issues in the big company), BENCH_CONCURRENCY (default 16), BENCH_CYCLES (default 300), BENCH_RUNS (default 300).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startDevServer } from "./server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SEED = Number(process.env.BENCH_SEED ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 300);

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/** Runs `fn(i)` for i in [0, total) with at most `concurrency` in flight; a result row with latency percentiles. */
export async function measure(name, total, concurrency, fn) {
  const latencies = [];
  let errors = 0;
  let firstError = null;
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      try {
        await fn(i);
      } catch (err) {
        errors++;
        firstError ??= err.message;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    count: total,
    errors,
    seconds,
    rps: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    note: firstError ? `first error: ${firstError.slice(0, 120)}` : "",
  };
}

function makeRequest(base) {
  return async function request(method, route, { body, token, runId, expect = [200, 201] } = {}) {
    const headers = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    if (runId) headers["x-service-run-id"] = runId;
    const res = await fetch(`${base}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!expect.includes(res.status)) throw new Error(`${method} ${route} → ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Rows from plug-ins may say requests/throughput instead of count/rps. */
function normaliseRow(r) {
  const count = r.count ?? r.requests ?? 0;
  const seconds = Number(r.seconds ?? 0);
  const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : NaN);
  return {
    name: String(r.name ?? "?"),
    count,
    errors: r.errors ?? 0,
    seconds,
    rps: num(r.rps ?? r.throughput ?? (seconds ? count / seconds : NaN)),
    p50: num(r.p50),
    p95: num(r.p95),
    p99: num(r.p99),
    note: r.note ?? "",
  };
}

function printTable(rawRows) {
  const rows = rawRows.map(normaliseRow);
  const header = ["operation", "count", "errors", "seconds", "req/s", "p50 ms", "p95 ms", "p99 ms"];
  const lines = rows.map((r) => [
    r.name,
    String(r.count),
    String(r.errors),
    r.seconds.toFixed(1),
    r.rps.toFixed(1),
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    r.p99.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
  for (const r of rows) if (r.note) console.log(`note: ${r.name}: ${r.note}`);
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];
const PRIORITIES = ["critical", "high", "medium", "low"];
const STATUSES = ["backlog", "todo", "in_review", "blocked"];

async function main() {
  const server = await startDevServer();
  const request = makeRequest(server.base);
  const createCompany = (name) => request("POST", "/api/companies", { body: { name } });
  const rows = [];
  try {
    async function agentWithKey(companyId, name) {
      const agent = await request("POST", `/api/companies/${companyId}/agents`, { body: { name, adapterType: "process", adapterConfig: { command: "true" } } });
      const key = await request("POST", `/api/agents/${agent.id}/keys`, { body: { name: "bench" } });
      return { id: agent.id, token: key.token };
    }

    // --- issue create and list over a big company -------------------------------------
    const big = await createCompany("Bench Big Co");
    const assignees = [];
    for (let i = 0; i < 4; i++) assignees.push(await agentWithKey(big.id, `Bench Worker ${i}`));
    const label = await request("POST", `/api/companies/${big.id}/labels`, { body: { name: "bench" } });
    console.log(`seeding ${SEED} issues with ${CONCURRENCY} concurrent creates…`);
    rows.push(
      await measure(`issue create (seed ${SEED})`, SEED, CONCURRENCY, (i) =>
        (i > 0 && i % 1000 === 0 ? console.log(`  … ${i} created`) : undefined,
        request("POST", `/api/companies/${big.id}/issues`, {
          body: {
            title: `${WORDS[i % WORDS.length]} task ${i} ${WORDS[(i * 7) % WORDS.length]}`,
            description: `Work item ${i}: ${WORDS[(i * 5) % WORDS.length]} details`,
            priority: PRIORITIES[i % 4],
            status: STATUSES[i % 4],
            assigneeAgentId: i % 3 === 0 ? assignees[i % assignees.length].id : undefined,
            labelIds: i % 10 === 0 ? [label.id] : undefined,
          },
        })),
      ),
    );
    const list = (qs) => () => request("GET", `/api/companies/${big.id}/issues?${qs}`);
    rows.push(await measure("issue list limit=50", 200, 8, list("limit=50")));
    rows.push(await measure("issue list limit=500", 50, 4, list("limit=500")));
    rows.push(await measure("issue list status+assignee", 200, 8, list(`status=todo,blocked&assigneeAgentId=${assignees[1].id}&limit=100`)));
    rows.push(await measure("issue list labelId", 200, 8, list(`labelId=${label.id}&limit=100`)));
    rows.push(await measure("issue list q=foxtrot", 200, 8, list("q=foxtrot&limit=50")));
    rows.push(await measure("issue list q (description)", 100, 8, list("q=details&limit=50")));
    rows.push(await measure("issue detail", 200, 8, (i) => request("GET", `/api/issues/${big.issuePrefix}-${(i % SEED) + 1}`)));

    // --- checkout/release cycles ---------------------------------------------------------
    async function cycleSetup(companyCount, agentsPerCompany) {
      const workers = [];
      for (let c = 0; c < companyCount; c++) {
        const company = await createCompany(`Bench Cycle ${companyCount}x${c}`);
        for (let a = 0; a < agentsPerCompany; a++) {
          const agent = await agentWithKey(company.id, `Cycler ${a}`);
          const issue = await request("POST", `/api/companies/${company.id}/issues`, { body: { title: `cycle ${a}`, status: "todo" } });
          workers.push({ ...agent, issueId: issue.id });
        }
      }
      return workers;
    }
    const cycle = (workers) => async (i) => {
      const w = workers[i % workers.length];
      // Each worker has its own issue; the workers pool keeps one cycle per worker in flight.
      const runId = crypto.randomUUID();
      await request("POST", `/api/issues/${w.issueId}/checkout`, { body: { agentId: w.id, expectedStatuses: ["todo"] }, token: w.token, runId });
      await request("POST", `/api/issues/${w.issueId}/release`, { token: w.token, runId });
    };
    const oneCompany = await cycleSetup(1, 10);
    rows.push(await measure("checkout+release, 1 company", CYCLES, oneCompany.length, cycle(oneCompany)));
    const tenCompanies = await cycleSetup(10, 1);
    rows.push(await measure("checkout+release, 10 companies", CYCLES, tenCompanies.length, cycle(tenCompanies)));

    // --- other areas' benchmarks ---------------------------------------------------------
    const plugins = [
      ["bench-costs.mjs", "benchCostEvents"],
      ["bench-documents.mjs", "benchDocuments"],
      ["bench-runs.mjs", "benchRuns"],
    ];
    for (const [file, exportName] of plugins) {
      const full = path.join(here, file);
      if (!existsSync(full)) continue;
      const mod = await import(pathToFileURL(full).href);
      if (typeof mod[exportName] !== "function") {
        console.log(`note: ${file} does not export ${exportName}; skipped`);
        continue;
      }
      const result = await mod[exportName](server.base, { measure, request, createCompany, concurrency: CONCURRENCY });
      if (Array.isArray(result)) rows.push(...result);
      else if (result) rows.push(result);
    }
  } catch (err) {
    console.error(`bench failed: ${err.message}`);
    printTable(rows);
    console.error(server.output().slice(-4000));
    server.stop();
    process.exit(1);
  }
  server.stop();
  console.log("");
  printTable(rows);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
