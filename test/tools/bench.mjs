#!/usr/bin/env node
// `npm run bench`: starts the real dev server (wrangler dev, local D1 and Durable Objects) and
// prints throughput and latency percentiles per operation:
//   issue create · issue list over BENCH_SEED issues (default 10,000; plain, filtered, `q`) ·
//   checkout/release cycles on one company versus spread over 10 companies.
// Other areas plug in: if test/tools/bench-costs.mjs (export benchCostEvents(base, opts)) or
// test/tools/bench-documents.mjs (export benchDocuments(base, opts)) exist, they are run too.
// They receive opts = { measure, withCpu, request, createCompany, concurrency } and return result rows
// (from `measure`) to add to the table.
// test/tools/bench-runs.mjs (export benchRuns) measures wake-up → run-start latency and runs dispatched per second;
// test/tools/bench-routines.mjs (export benchRoutines) public webhook fires per second on one routine.
// test/tools/bench-wiki.mjs (export benchWiki) wiki_write_page throughput and wiki_search p50/p99 over 10,000 pages.
// test/tools/bench-shards.mjs (export benchShards) issue creates on 10 companies over two shards vs one.
// test/tools/bench-edge.mjs (export benchEdge) the edge agent's turn overhead and a 30-turn run's wall time and CPU.
// Each operation is also compared with a ceiling — a minimal Worker with the same bindings doing one
// D1 read, or one serialised Durable Object command with one D1 batch (test/tools/ceiling) — driven
// by the same client in the same run, first and again last (throughput and CPU per request as ratios
// of the mean of the ceiling's two measurements); mutations also against the floor of a real one —
// a D1 read in the Worker, then the serialised command (the "CPU × floor" column);
// with the server's CPU per request (/proc) and the previous
// run's figures (.bench/last.json). Scale: list/get/q over 1k/10k/100k issues seeded straight into
// local D1 (test/tools/bench-scale.mjs, BENCH_SCALE). The end is a markdown table for the README.
// Env: BENCH_SEED (issues in the big company), BENCH_CONCURRENCY (default 16), BENCH_CYCLES (default 300), BENCH_RUNS (default 300),
// BENCH_PLUGINS (comma list of plug-ins to run, e.g. "documents"; default all), BENCH_SCALE ("" skips the scale companies).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { startCeilingServer, startDevServer } from "./server.mjs";
import { treeCpuMs } from "./bench-cpu.mjs";
import { benchScale, scaleSizes, scaleSummary, seedScale } from "./bench-scale.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SEED = Number(process.env.BENCH_SEED ?? 2_000);
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
    mean: latencies.reduce((sum, x) => sum + x, 0) / (latencies.length || 1),
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

export function makeRequest(base) {
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

/** Which ceiling an operation is compared with, and how many serialised commands one request is. */
function ceilingOf(row) {
  if (row.kind === "read") return { ceiling: "read", per: 1 };
  if (row.kind === "write") return { ceiling: "write", per: row.commands ?? 1 };
  return null;
}

function printTable(rawRows, ceilings, previous) {
  const rows = rawRows.map((r) => ({ ...normaliseRow(r), kind: r.kind, commands: r.commands, cpuMsPerReq: r.cpuMsPerReq }));
  const header = ["operation", "count", "err", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "CPU × ceiling", "CPU × floor", "× ceiling", "× previous"];
  const lines = rows.map((r) => {
    const c = ceilingOf(r);
    const ceiling = c && ceilings[c.ceiling] ? (r.rps * c.per) / ceilings[c.ceiling] : NaN;
    // CPU per request against the matching ceiling's (per command: checkout+release is two).
    const ceilingCpu = c ? ceilings[`${c.ceiling}Cpu`] * c.per : NaN;
    const prev = previous[r.name];
    return [
      r.name,
      String(r.count),
      String(r.errors),
      r.rps.toFixed(1),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      Number.isFinite(r.cpuMsPerReq) ? r.cpuMsPerReq.toFixed(2) : "–",
      Number.isFinite(r.cpuMsPerReq / ceilingCpu) ? (r.cpuMsPerReq / ceilingCpu).toFixed(2) : "–",
      // A mutation's CPU against the floor of a real one (a read in the Worker, then a command), per command.
      c?.ceiling === "write" && Number.isFinite(r.cpuMsPerReq / (ceilings.floorCpu * c.per)) ? (r.cpuMsPerReq / (ceilings.floorCpu * c.per)).toFixed(2) : "–",
      Number.isFinite(ceiling) ? ceiling.toFixed(2) : "–",
      prev ? (r.rps / prev).toFixed(2) : "–",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
  for (const r of rows) if (r.note) console.log(`note: ${r.name}: ${r.note}`);
  return { header, lines };
}

function printMarkdown({ header, lines }) {
  const machine = `${cpus()[0]?.model?.trim() ?? "unknown CPU"}, ${cpus().length} cores`;
  console.log(`\nMarkdown (${machine}; ${new Date().toISOString().slice(0, 10)}; concurrency ${CONCURRENCY}):\n`);
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
  for (const l of lines) console.log(`| ${l.join(" | ")} |`);
}

const LAST = path.join(here, "../../.bench/last.json");
function readPrevious() {
  try {
    return JSON.parse(readFileSync(LAST, "utf8"));
  } catch {
    return {};
  }
}
function savePrevious(rows) {
  mkdirSync(path.dirname(LAST), { recursive: true });
  writeFileSync(LAST, JSON.stringify(Object.fromEntries(rows.map((r) => [r.name, normaliseRow(r).rps])), null, 1));
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];
const PRIORITIES = ["critical", "high", "medium", "low"];
const STATUSES = ["backlog", "todo", "in_review", "blocked"];

async function main() {
  const sizes = scaleSizes();
  let scaled = [];
  const server = await startDevServer({ beforeStart: async (dir) => (scaled = sizes.length ? await seedScale(dir, sizes) : []) });
  const request = makeRequest(server.base);
  const createCompany = (name) => request("POST", "/api/companies", { body: { name } });
  const rows = [];
  const ceilings = {};
  const previous = readPrevious();
  /** Runs a measurement and adds the server's CPU per request (and labels) to its row. */
  const withCpu = async (fn, extra = {}, pid = server.pid) => {
    const before = treeCpuMs(pid);
    const row = await fn();
    row.cpuMsPerReq = (treeCpuMs(pid) - before) / row.count;
    return Object.assign(row, extra);
  };
  // --- the ceiling: same client, same run; measured first and again last, the ratios use the mean
  // of the two (a shared machine's noise at either end moves every ratio otherwise) --------------
  const ceilingRuns = [];
  async function measureCeiling(suffix) {
    const ceiling = await startCeilingServer();
    try {
      const cReq = makeRequest(ceiling.base);
      const read = await withCpu(() => measure(`ceiling: one D1 read${suffix}`, 1000, CONCURRENCY, () => cReq("GET", "/read?id=seed")), {}, ceiling.pid);
      const write = await withCpu(
        () => measure(`ceiling: DO command + one D1 batch${suffix}`, 1000, CONCURRENCY, () => cReq("POST", "/write?co=one")),
        {},
        ceiling.pid,
      );
      const floor = await withCpu(
        () => measure(`floor: D1 read, then DO command + one D1 batch${suffix}`, 1000, CONCURRENCY, () => cReq("POST", "/mutate?co=one")),
        {},
        ceiling.pid,
      );
      ceilingRuns.push({ read, write, floor });
      const mean = (pick) => ceilingRuns.reduce((sum, run) => sum + pick(run), 0) / ceilingRuns.length;
      ceilings.read = mean((run) => run.read.rps);
      ceilings.write = mean((run) => run.write.rps);
      ceilings.readCpu = mean((run) => run.read.cpuMsPerReq);
      ceilings.writeCpu = mean((run) => run.write.cpuMsPerReq);
      ceilings.floorCpu = mean((run) => run.floor.cpuMsPerReq);
      return [read, write, floor];
    } finally {
      ceiling.stop();
    }
  }
  try {
    rows.push(...(await measureCeiling("")));

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
      await withCpu(
        () =>
          measure(
            `issue create (seed ${SEED})`,
            SEED,
            CONCURRENCY,
            (i) => (
              i > 0 && i % 1000 === 0 ? console.log(`  … ${i} created`) : undefined,
              request("POST", `/api/companies/${big.id}/issues`, {
                body: {
                  title: `${WORDS[i % WORDS.length]} task ${i} ${WORDS[(i * 7) % WORDS.length]}`,
                  description: `Work item ${i}: ${WORDS[(i * 5) % WORDS.length]} details`,
                  priority: PRIORITIES[i % 4],
                  status: STATUSES[i % 4],
                  assigneeAgentId: i % 3 === 0 ? assignees[i % assignees.length].id : undefined,
                  labelIds: i % 10 === 0 ? [label.id] : undefined,
                },
              })
            ),
          ),
        { kind: "write" },
      ),
    );
    const list = (qs) => () => request("GET", `/api/companies/${big.id}/issues?${qs}`);
    rows.push(await withCpu(() => measure("issue list limit=50", 200, 8, list("limit=50")), { kind: "read" }));
    rows.push(await withCpu(() => measure("issue list limit=500", 50, 4, list("limit=500")), { kind: "read" }));
    rows.push(
      await withCpu(() => measure("issue list status+assignee", 200, 8, list(`status=todo,blocked&assigneeAgentId=${assignees[1].id}&limit=100`)), {
        kind: "read",
      }),
    );
    rows.push(await withCpu(() => measure("issue list labelId", 200, 8, list(`labelId=${label.id}&limit=100`)), { kind: "read" }));
    rows.push(await withCpu(() => measure("issue list q=foxtrot", 200, 8, list("q=foxtrot&limit=50")), { kind: "read" }));
    rows.push(await withCpu(() => measure("issue list q (description)", 100, 8, list("q=details&limit=50")), { kind: "read" }));
    rows.push(
      await withCpu(() => measure("issue detail", 200, 8, (i) => request("GET", `/api/issues/${big.issuePrefix}-${(i % SEED) + 1}`)), { kind: "read" }),
    );

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
    rows.push(await withCpu(() => measure("checkout+release, 1 company", CYCLES, oneCompany.length, cycle(oneCompany)), { kind: "write", commands: 2 }));
    const tenCompanies = await cycleSetup(10, 1);
    rows.push(await withCpu(() => measure("checkout+release, 10 companies", CYCLES, tenCompanies.length, cycle(tenCompanies)), { kind: "write", commands: 2 }));

    // --- patch and comment on one company -------------------------------------------------
    const patchTargets = [];
    for (let i = 0; i < 20; i++) patchTargets.push(await request("POST", `/api/companies/${big.id}/issues`, { body: { title: `patch target ${i}` } }));
    rows.push(
      await withCpu(
        () =>
          measure("issue patch", 300, CONCURRENCY, (i) =>
            request("PATCH", `/api/issues/${patchTargets[i % 20].id}`, { body: { priority: PRIORITIES[i % 4] } }),
          ),
        { kind: "write" },
      ),
    );
    rows.push(
      await withCpu(
        () =>
          measure("comment create", 300, CONCURRENCY, (i) =>
            request("POST", `/api/issues/${patchTargets[i % 20].id}/comments`, { body: { body: `note ${i}` } }),
          ),
        { kind: "write" },
      ),
    );

    // --- scale: list, get and q over the seeded companies -----------------------------------
    if (scaled.length) rows.push(...(await benchScale(scaled, { measure, request, withCpu })));

    // --- other areas' benchmarks ---------------------------------------------------------
    const plugins = [
      ["bench-costs.mjs", "benchCostEvents"],
      ["bench-documents.mjs", "benchDocuments"],
      ["bench-runs.mjs", "benchRuns"],
      ["bench-routines.mjs", "benchRoutines"],
      ["bench-events.mjs", "benchEvents"],
      ["bench-wiki.mjs", "benchWiki"],
      ["bench-shards.mjs", "benchShards"],
      ["bench-edge.mjs", "benchEdge"],
    ];
    // BENCH_PLUGINS: a comma list of plug-in names (costs, documents, runs, …) to run only those.
    const only = process.env.BENCH_PLUGINS?.split(",").map((s) => s.trim());
    for (const [file, exportName] of plugins) {
      const full = path.join(here, file);
      if (!existsSync(full) || (only && !only.includes(file.replace(/^bench-|\.mjs$/g, "")))) continue;
      const mod = await import(pathToFileURL(full).href);
      if (typeof mod[exportName] !== "function") {
        console.log(`note: ${file} does not export ${exportName}; skipped`);
        continue;
      }
      const before = treeCpuMs(server.pid);
      // Plug-ins wrap each measurement in withCpu, so every operation gets its own CPU per request.
      const result = await mod[exportName](server.base, { measure, withCpu, request, createCompany, concurrency: CONCURRENCY, serverPid: server.pid });
      const list = Array.isArray(result) ? result : result ? [result] : [];
      const total = list.reduce((n, r) => n + (r.count ?? r.requests ?? 0), 0);
      // Rows measured without withCpu (cost events, wake-up latency) share the CPU of the whole plug-in run.
      for (const r of list) {
        r.cpuMsPerReq ??= total ? (treeCpuMs(server.pid) - before) / total : NaN;
        // Compared with the write ceiling unless it is a read; wake-up latency has no ceiling.
        if (!r.name.startsWith("wake-up") && !r.name.startsWith("SSE") && !r.name.startsWith("edge agent"))
          r.kind ??= /\b(GET|download|range read|list|read)\b/i.test(r.name) ? "read" : "write";
      }
      rows.push(...list);
    }
  } catch (err) {
    console.error(`bench failed: ${err.message}`);
    printTable(rows, ceilings, previous);
    console.error(server.output().slice(-4000));
    server.stop();
    process.exit(1);
  }
  // Stopped first: the plug-ins leave work behind (runs, the wiki maintainer) that would share the
  // machine with the second ceiling measurement; the first had an idle server beside it.
  server.stop();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  rows.splice(3, 0, ...(await measureCeiling(" (again, last)")));
  console.log("");
  const table = printTable(rows, ceilings, previous);
  for (const line of scaleSummary(rows)) console.log(line);
  printMarkdown(table);
  savePrevious(rows);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
