// Issue documents and attachments benchmark against a running dev server:
//   document writes (each worker chains revisions on its own document, so every PUT carries
//   the current baseRevisionId and all of them run through the company's Durable Object),
//   document reads and lists, and 5 MiB attachment uploads/downloads (time and MiB/s).
// `test/tools/bench.mjs` imports benchDocuments when present; run alone with
// `node test/tools/bench-documents.mjs [writes] [concurrency]` (starts its own dev server).
import { fileURLToPath } from "node:url";

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : NaN);
const MIB = 1024 * 1024;

async function call(base, method, path, { body, form, headers = {}, expect = [200, 201] } = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (form) init.body = form;
  const res = await fetch(`${base}${path}`, init);
  const buffer = await res.arrayBuffer();
  if (!expect.includes(res.status)) {
    throw new Error(`${method} ${path} → ${res.status} ${new TextDecoder().decode(buffer.slice(0, 200))}`);
  }
  const type = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    bytes: buffer.byteLength,
    json: type.includes("json") && buffer.byteLength ? JSON.parse(new TextDecoder().decode(buffer)) : null,
  };
}

/**
 * Runs `total` operations with `concurrency` workers; `fn(i, worker)` gets the worker number,
 * so a worker can own state (its document). Returns a result row in the shape bench.mjs prints
 * (count, errors, rps, note) and the one this module documents (requests, throughput).
 */
async function run(name, total, concurrency, fn, { bytesPerOp = 0 } = {}) {
  const latencies = [];
  let errors = 0;
  let firstError = null;
  let next = 0;
  const started = performance.now();
  async function worker(w) {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      try {
        await fn(i, w);
      } catch (err) {
        errors++;
        firstError ??= err.message;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, (_, w) => worker(w)));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const throughput = total / seconds;
  const mibPerSecond = bytesPerOp ? (bytesPerOp * (total - errors)) / MIB / seconds : undefined;
  const notes = [];
  if (mibPerSecond !== undefined) notes.push(`${mibPerSecond.toFixed(1)} MiB/s`);
  if (firstError) notes.push(`first error: ${firstError.slice(0, 120)}`);
  return {
    name,
    requests: total,
    count: total,
    errors,
    seconds,
    throughput,
    rps: throughput,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    ...(mibPerSecond !== undefined ? { mibPerSecond } : {}),
    note: notes.join("; "),
  };
}

/** Measures document write/read throughput and 5 MiB attachment transfer on one fresh company. */
export async function benchDocuments(base, opts = {}) {
  // With opts.withCpu (from bench.mjs) every operation gets its own server CPU per request.
  const timed = (...args) => (opts.withCpu ? opts.withCpu(() => run(...args)) : run(...args));
  const concurrency = opts.documentConcurrency ?? Math.min(opts.concurrency ?? 8, 8);
  const writes = opts.documentWrites ?? Number(process.env.BENCH_DOC_WRITES ?? 300);
  const reads = opts.documentReads ?? Number(process.env.BENCH_DOC_READS ?? 300);
  const transfers = opts.attachmentTransfers ?? Number(process.env.BENCH_ATTACHMENTS ?? 5);

  const company = (await call(base, "POST", "/api/companies", { body: { name: `Bench Docs ${Date.now()}` } })).json;
  const issue = (await call(base, "POST", `/api/companies/${company.id}/issues`, { body: { title: "Document bench", status: "todo" } })).json;
  const docPath = (key) => `/api/issues/${issue.id}/documents/${key}`;
  const paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(16);
  const body = (i) => `# Plan ${i}\n\n${paragraph}\n\n${paragraph}\n\n${paragraph}\n`; // about 3 KiB

  const rows = [];
  // One document per worker: each PUT carries the revision its worker wrote last.
  const latest = new Map();
  rows.push(
    await timed(`document PUT (${concurrency} docs)`, writes, concurrency, async (i, w) => {
      const key = `bench-${w}`;
      const res = await call(base, "PUT", docPath(key), {
        body: { body: body(i), changeSummary: `write ${i}`, ...(latest.has(key) ? { baseRevisionId: latest.get(key) } : {}) },
      });
      latest.set(key, res.json.latestRevisionId);
    }),
  );
  rows.push(await timed("document GET", reads, concurrency, (i) => call(base, "GET", docPath(`bench-${i % concurrency}`))));
  rows.push(await timed("document list (all bodies)", Math.ceil(reads / 3), concurrency, () => call(base, "GET", `/api/issues/${issue.id}/documents`)));
  rows.push(await timed("document revisions list", Math.ceil(reads / 3), concurrency, () => call(base, "GET", `${docPath("bench-0")}/revisions`)));

  // 5 MiB attachments, one at a time: time per transfer and MiB/s.
  const payload = new Uint8Array(5 * MIB);
  for (let i = 0; i < payload.length; i += 4096) payload[i] = i & 0xff;
  const uploaded = [];
  rows.push(
    await timed(
      "attachment upload 5 MiB",
      transfers,
      1,
      async (i) => {
        const form = new FormData();
        form.append("file", new Blob([payload], { type: "application/octet-stream" }), `bench-${i}.bin`);
        const res = await call(base, "POST", `/api/companies/${company.id}/issues/${issue.id}/attachments`, { form });
        uploaded.push(res.json.id);
      },
      { bytesPerOp: payload.length },
    ),
  );
  rows.push(
    await timed(
      "attachment download 5 MiB",
      transfers,
      1,
      async (i) => {
        const res = await call(base, "GET", `/api/attachments/${uploaded[i % uploaded.length]}/content`);
        if (res.bytes !== payload.length) throw new Error(`downloaded ${res.bytes} bytes`);
      },
      { bytesPerOp: payload.length },
    ),
  );
  rows.push(
    await timed("attachment range 64 KiB", 100, concurrency, (i) =>
      call(base, "GET", `/api/attachments/${uploaded[i % uploaded.length]}/content`, {
        headers: { range: `bytes=${(i * 65536) % (4 * MIB)}-${((i * 65536) % (4 * MIB)) + 65535}` },
        expect: [206],
      }),
    ),
  );
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startDevServer } = await import("./server.mjs");
  const server = await startDevServer();
  try {
    const rows = await benchDocuments(server.base, {
      documentWrites: Number(process.argv[2] ?? 300),
      documentConcurrency: Number(process.argv[3] ?? 8),
    });
    console.table(
      rows.map((r) => ({
        operation: r.name,
        requests: r.requests,
        errors: r.errors,
        seconds: r.seconds.toFixed(2),
        "req/s": r.throughput.toFixed(1),
        "p50 ms": r.p50.toFixed(1),
        "p95 ms": r.p95.toFixed(1),
        "p99 ms": r.p99.toFixed(1),
        note: r.note,
      })),
    );
  } finally {
    server.stop();
  }
}
