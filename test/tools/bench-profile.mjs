#!/usr/bin/env node
// CPU profiles of the hot request paths: starts the dev server with the V8 inspector on, drives one
// operation at a time (the bench's own requests) and records a sampling profile of the Worker's
// isolate (the Worker and its Durable Objects run in one isolate locally) through the Chrome
// DevTools protocol. Prints, per operation, JS CPU per request split by where it is spent (hono,
// zod, drizzle, auth, our modules, GC) — mapped through the bundle's esbuild module markers — and
// the heaviest functions; writes each profile to .bench/profiles/<operation>.cpuprofile (open it in
// Chrome DevTools → Performance).
// Samples are taken in wall time: on a busy machine a sample can land while the thread waits for a
// core, so compare the split (which share goes where), not absolute milliseconds, across runs.
// Run: `node test/tools/bench-profile.mjs [operation …]` (Node 22). Operations: create, checkout,
// patch, comment, document, list, list500, detail, cost, dashboard (default: all). BENCH_PROFILE_N sets requests per
// operation; BENCH_PROFILE_CPU=1 skips the profiler and prints only the process tree's CPU per request.
// startServer, prepareOperations and drive are exported for A/B comparisons of two checkouts.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startDevServer } from "./server.mjs";
import { makeRequest } from "./bench.mjs";
import { treeCpuMs } from "./bench-cpu.mjs";
import WebSocket from "ws";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const N = Number(process.env.BENCH_PROFILE_N ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SAMPLING_US = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 100);
/** BENCH_PROFILE_CPU=1: no profiler, only the process tree's CPU per request (quick before/after checks). */
const CPU_ONLY = process.env.BENCH_PROFILE_CPU === "1";

export async function startServer(dir = root) {
  const inspectorPort = await freePort();
  const server = await startDevServer({ dir, args: ["--inspector-port", String(inspectorPort)] });
  return { ...server, inspectorPort };
}

/** A minimal Chrome DevTools protocol session over the inspector's WebSocket. */
async function inspect(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => /agent-control-plane/.test(`${t.title} ${t.url}`)) ?? targets[0];
  // The inspector proxy accepts local origins only.
  const ws = new WebSocket(target.webSocketDebuggerUrl, { origin: "http://localhost", maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 1_000_000; // the inspector proxy sends its own keep-alives with small ids
  const pending = new Map();
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      message.error ? reject(new Error(message.error.message)) : resolve(message.result);
    }
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      pending.set(n, { resolve, reject });
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  return { send, close: () => ws.close(), target };
}

export { makeRequest };

export async function drive(total, concurrency, fn) {
  let next = 0;
  const worker = async (w) => {
    while (next < total) await fn(next++, w);
  };
  await Promise.all(Array.from({ length: Math.min(total, concurrency) }, (_, w) => worker(w)));
}

// --- bundle → module map ------------------------------------------------------------------
// wrangler bundles the Worker into .wrangler/tmp/dev-*/index.js (deleted when it stops): read at start.
let bundleMarkers = null;
function readBundle(startedAt) {
  const dir = path.join(root, ".wrangler/tmp");
  const candidates = readdirSync(dir)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => path.join(dir, d, "index.js"))
    .filter((f) => existsSync(f) && statSync(f).mtimeMs >= startedAt - 1000)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!candidates.length) return;
  bundleMarkers = [];
  readFileSync(candidates[0], "utf8")
    .split("\n")
    .forEach((text, i) => {
      const m = /^\/\/ ((?:node_modules|src|\.\.\/)[^\s]*\.(?:m?js|ts|cjs|json))$/.exec(text);
      if (m) bundleMarkers.push([i, m[1]]);
    });
}
function moduleAt(url, line) {
  if (url !== "index.js" || !bundleMarkers) return url || "(native)";
  const markers = bundleMarkers;
  let lo = 0;
  let hi = markers.length - 1;
  let found = "(bundle)";
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (markers[mid][0] <= line) {
      found = markers[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Where a module's time is counted. */
function categoryOf(module, fn) {
  if (fn === "(garbage collector)") return "GC";
  if (fn === "(program)" || fn === "(idle)" || fn === "(root)") return fn;
  const m = module.replace(/^.*node_modules\//, "node_modules/");
  if (m.startsWith("node_modules/@hono/zod-openapi")) return "zod-openapi";
  if (m.startsWith("node_modules/zod")) return "zod";
  if (m.startsWith("node_modules/hono")) return "hono";
  if (m.startsWith("node_modules/drizzle-orm")) return "drizzle";
  if (m.startsWith("node_modules/"))
    return m
      .split("/")
      .slice(0, m.includes("/@") ? 3 : 2)
      .join("/");
  if (m.startsWith("src/http/") || m.startsWith("src/crypto/")) return "auth+http (src/http, src/crypto)";
  if (m.startsWith("src/")) return m.split("/").slice(0, 2).join("/");
  if (module === "(native)") return "native/builtins";
  if (module.startsWith("cloudflare-internal:")) return "platform JS (d1-api…)";
  return module.includes("wrangler") || module.includes("miniflare") ? "wrangler shims" : module;
}

function summarise(profile, requests) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const self = new Map();
  const byCategory = new Map();
  const inclusive = new Map();
  const drizzleBy = new Map();
  let busy = 0;
  for (const [id, ms] of dt) {
    const n = nodes.get(id);
    const fn = n.callFrame.functionName || "(anonymous)";
    if (fn === "(idle)") continue;
    busy += ms;
    const module = moduleAt(n.callFrame.url, n.callFrame.lineNumber);
    const key = `${fn} ${module}:${n.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    const category = categoryOf(module, fn);
    byCategory.set(category, (byCategory.get(category) ?? 0) + ms);
    // Statement building and row mapping: which of our functions asked drizzle for it.
    if (category === "drizzle") {
      for (let cur = parent.get(id); cur !== undefined; cur = parent.get(cur)) {
        const f = nodes.get(cur).callFrame;
        const m = moduleAt(f.url, f.lineNumber);
        if (!m.startsWith("src/")) continue;
        const k = `${f.functionName || "(anonymous)"} ${m}:${f.lineNumber + 1}`;
        drizzleBy.set(k, (drizzleBy.get(k) ?? 0) + ms);
        break;
      }
    }
    // Inclusive time per (function, module), counted once per sample stack.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const f = nodes.get(cur).callFrame;
      const k = `${f.functionName || "(anonymous)"} ${moduleAt(f.url, f.lineNumber)}:${f.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
    }
  }
  const per = (ms) => (ms / requests).toFixed(3);
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`  JS busy in the isolate: ${per(busy)} ms/req`);
  console.log("  by category (self time, ms/req):");
  for (const [k, v] of top(byCategory, 20)) console.log(`    ${per(v).padStart(7)}  ${k}`);
  console.log("  heaviest functions (self, ms/req):");
  for (const [k, v] of top(self, 25)) console.log(`    ${per(v).padStart(7)}  ${k}`);
  console.log("  drizzle self time by the nearest of our functions (ms/req):");
  for (const [k, v] of top(drizzleBy, 12)) console.log(`    ${per(v).padStart(7)}  ${k}`);
  console.log("  inclusive (ms/req), our modules and entry points:");
  for (const [k, v] of top(new Map([...inclusive].filter(([k]) => / src\/|zod-openapi|hono\/dist\/(hono-base|compose|validator)/.test(k))), 40))
    console.log(`    ${per(v).padStart(7)}  ${k}`);
}

/** A company with agents, issues and documents, and the operations to drive (each `run(i, worker)`). */
export async function prepareOperations(request) {
  const company = await request("POST", "/api/companies", { body: { name: "Profile Co" } });
  const agents = [];
  for (let a = 0; a < 8; a++) {
    const agent = await request("POST", `/api/companies/${company.id}/agents`, {
      body: { name: `Prof ${a}`, adapterType: "process", adapterConfig: { command: "true" } },
    });
    const key = await request("POST", `/api/agents/${agent.id}/keys`, { body: { name: "prof" } });
    const issue = await request("POST", `/api/companies/${company.id}/issues`, { body: { title: `cycle ${a}`, status: "todo" } });
    agents.push({ id: agent.id, token: key.token, issueId: issue.id });
  }
  const label = await request("POST", `/api/companies/${company.id}/labels`, { body: { name: "prof" } });
  const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
  const create = (i) =>
    request("POST", `/api/companies/${company.id}/issues`, {
      body: {
        title: `${WORDS[i % 6]} task ${i}`,
        description: `Work item ${i}: ${WORDS[(i * 5) % 6]} details`,
        priority: ["critical", "high", "medium", "low"][i % 4],
        status: ["backlog", "todo", "in_review", "blocked"][i % 4],
        assigneeAgentId: i % 3 === 0 ? agents[i % agents.length].id : undefined,
        labelIds: i % 10 === 0 ? [label.id] : undefined,
      },
    });
  await drive(600, CONCURRENCY, create);
  const targets = [];
  for (let i = 0; i < 20; i++) targets.push(await request("POST", `/api/companies/${company.id}/issues`, { body: { title: `patch target ${i}` } }));
  const docIssue = await request("POST", `/api/companies/${company.id}/issues`, { body: { title: "docs", status: "todo" } });
  const latest = new Map();
  const paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(16);

  return {
    create: { n: N, run: (i) => create(1000 + i) },
    checkout: {
      n: Math.ceil(N / 2),
      concurrency: agents.length,
      per: 2,
      run: async (_i, w) => {
        const a = agents[w];
        const runId = crypto.randomUUID();
        await request("POST", `/api/issues/${a.issueId}/checkout`, { body: { agentId: a.id, expectedStatuses: ["todo"] }, token: a.token, runId });
        await request("POST", `/api/issues/${a.issueId}/release`, { token: a.token, runId });
      },
    },
    patch: { n: N, run: (i) => request("PATCH", `/api/issues/${targets[i % 20].id}`, { body: { priority: ["critical", "high", "medium", "low"][i % 4] } }) },
    comment: { n: N, run: (i) => request("POST", `/api/issues/${targets[i % 20].id}/comments`, { body: { body: `note ${i}` } }) },
    document: {
      n: N,
      run: async (i, w) => {
        const key = `prof-${w}`;
        const res = await request("PUT", `/api/issues/${docIssue.id}/documents/${key}`, {
          body: {
            body: `# Plan ${i}\n\n${paragraph}\n\n${paragraph}\n`,
            changeSummary: `write ${i}`,
            ...(latest.has(key) ? { baseRevisionId: latest.get(key) } : {}),
          },
        });
        latest.set(key, res.latestRevisionId);
      },
    },
    list: { n: N, run: () => request("GET", `/api/companies/${company.id}/issues?limit=50`) },
    list500: { n: Math.ceil(N / 4), concurrency: 4, run: () => request("GET", `/api/companies/${company.id}/issues?limit=500`) },
    detail: { n: N, run: (i) => request("GET", `/api/issues/${company.issuePrefix}-${(i % 600) + 1}`) },
    // The side-by-side workload's cost event and dashboard (../shared/peer/workload.mjs), board caller.
    cost: {
      n: N,
      concurrency: 16,
      run: (i) =>
        request("POST", `/api/companies/${company.id}/cost-events`, {
          body: { agentId: agents[i % agents.length].id, provider: "openai", model: "gpt", costCents: 1, occurredAt: new Date().toISOString() },
        }),
    },
    dashboard: { n: N, run: () => request("GET", `/api/companies/${company.id}/dashboard`) },
  };
}

async function main() {
  const wanted = process.argv.slice(2);
  const startedAt = Date.now();
  const server = await startServer();
  readBundle(startedAt);
  const request = makeRequest(server.base);
  const inspector = await inspect(server.inspectorPort);
  console.log(`profiling ${inspector.target.title ?? inspector.target.url}`);
  try {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: SAMPLING_US });

    const operations = await prepareOperations(request);
    mkdirSync(path.join(root, ".bench/profiles"), { recursive: true });
    for (const [name, op] of Object.entries(operations)) {
      if (wanted.length && !wanted.includes(name)) continue;
      const concurrency = op.concurrency ?? CONCURRENCY;
      await drive(Math.min(op.n, 40), concurrency, op.run); // warm
      await new Promise((r) => setTimeout(r, 300));
      const cpuBefore = treeCpuMs(server.pid);
      const t0 = performance.now();
      if (!CPU_ONLY) await inspector.send("Profiler.start");
      await drive(op.n, concurrency, op.run);
      await new Promise((r) => setTimeout(r, 200)); // alarms and waitUntil work that follows
      const profile = CPU_ONLY ? null : (await inspector.send("Profiler.stop")).profile;
      const seconds = (performance.now() - t0) / 1000;
      const requests = op.n * (op.per ?? 1);
      const cpu = (treeCpuMs(server.pid) - cpuBefore) / requests;
      console.log(
        `\n== ${name}: ${requests} requests in ${seconds.toFixed(1)} s; process tree CPU ${cpu.toFixed(2)} ms/req${CPU_ONLY ? "" : " (profiler on)"}`,
      );
      if (!profile) continue;
      writeFileSync(path.join(root, `.bench/profiles/${name}.cpuprofile`), JSON.stringify(profile));
      summarise(profile, requests);
    }
  } finally {
    inspector.close();
    server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
