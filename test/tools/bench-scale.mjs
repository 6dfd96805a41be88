// Scale for `npm run bench`: companies of 1,000, 10,000 and 100,000 issues (BENCH_SCALE) seeded
// straight into the dev server's local D1 before it starts (multi-row INSERTs through
// `wrangler d1 execute`; the search triggers index them as they go), then list, get and `q` measured
// at each size, with the largest/smallest cost ratio (target ≤ 1.5×). `q`: foxtrot (in a quarter of
// the issues and, as the seed derives words and priority from the same number, in no critical one:
// the search's worst case), a selective term (kumquat, in 20 issues at every size) and a common one
// (details, in every description; also with the console's limit of 500). One more company, as big
// as the largest, is seeded and not measured: every one of its issues says "details" and "kumquat"
// too, so its postings would cost the others if the search index were shared.
// Alone: `BENCH_SCALE=1000,100000 node test/tools/bench-scale.mjs` (Node 22; with the read ceiling).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { wrangler } from "./server.mjs";

const WORDS = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
];
const PRIORITIES = ["critical", "high", "medium", "low"];
const STATUSES = ["backlog", "todo", "in_progress", "in_review", "done"];
export const scaleSizes = () =>
  (process.env.BENCH_SCALE ?? "1000,10000,100000")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);

const q = (s) => `'${String(s).replace(/'/g, "''")}'`;

/** The selective term: in the descriptions of issues 1–20 of every measured company. */
export const SELECTIVE = "kumquat";
const SELECTIVE_COUNT = 20;

/**
 * Writes and applies the seed; returns the measured companies (the other company, as big as the
 * largest, is seeded but not returned). The companies live on the first company shard bound in
 * wrangler.toml (`DB_SHARD_0`, or `DB` itself when none is), their directory rows in `DB` (src/db/shards.ts).
 */
export async function seedScale(persistDir, sizes) {
  const now = new Date().toISOString();
  const companies = sizes.map((size, i) => ({ id: crypto.randomUUID(), prefix: `SC${String.fromCharCode(65 + i)}`, size }));
  const other = { id: crypto.randomUUID(), prefix: "SCZ", size: Math.max(...sizes), other: true };
  const toml = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "../../wrangler.toml"), "utf8");
  const SHARD = /^\[\[d1_databases\]\][^[]*?binding\s*=\s*"(DB_SHARD_0)"/m.exec(toml)?.[1] ?? "DB";
  const lines = [];
  const directory = [];
  for (const c of [...companies, other]) {
    const name = c.other ? "Scale other company" : `Scale ${c.size}`;
    lines.push(
      `INSERT INTO companies (id, name, status, issue_prefix, issue_counter, created_at, updated_at) VALUES (${q(c.id)}, ${q(name)}, 'active', ${q(c.prefix)}, ${c.size}, ${q(now)}, ${q(now)});`,
    );
    directory.push(
      `INSERT INTO directory_companies (id, shard, name, issue_prefix, status, created_at, updated_at) VALUES (${q(c.id)}, ${q(SHARD)}, ${q(name)}, ${q(c.prefix)}, 'active', ${q(now)}, ${q(now)});`,
    );
    for (let start = 1; start <= c.size; start += 150) {
      const rows = [];
      for (let n = start; n < Math.min(start + 150, c.size + 1); n++) {
        const title = c.other ? `details ${SELECTIVE} ${WORDS[n % 16]} task ${n}` : `${WORDS[n % 16]} ${WORDS[(n * 7) % 16]} task ${n}`;
        const marker = c.other || n <= SELECTIVE_COUNT ? ` ${SELECTIVE}` : "";
        const description = `Work item ${n}: ${WORDS[(n * 5) % 16]} ${WORDS[(n * 3) % 16]} details${marker}`;
        const at = new Date(Date.parse(now) - n * 1000).toISOString();
        rows.push(
          `(${q(crypto.randomUUID())}, ${q(c.id)}, ${n}, ${q(`${c.prefix}-${n}`)}, ${q(title)}, ${q(description)}, ${q(STATUSES[n % 5])}, ${q(PRIORITIES[n % 4])}, ${q(at)}, ${q(at)})`,
        );
      }
      lines.push(
        `INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, created_at, updated_at) VALUES ${rows.join(", ")};`,
      );
    }
  }
  const file = path.join(persistDir, "scale-seed.sql");
  writeFileSync(file, lines.join("\n"));
  const directoryFile = path.join(persistDir, "scale-directory.sql");
  writeFileSync(directoryFile, directory.join("\n"));
  for (const db of new Set(["DB", SHARD])) await wrangler(["d1", "migrations", "apply", db, "--local", "--persist-to", persistDir]);
  await wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistDir, "--file", directoryFile, "--yes"]);
  const started = performance.now();
  await wrangler(["d1", "execute", SHARD, "--local", "--persist-to", persistDir, "--file", file, "--yes"]);
  console.log(
    `seeded ${sizes.join(" / ")} issues (and ${other.size} of another company) straight into local D1 in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return companies;
}

/** list, get and q per seeded company; rows carry `scale` for the ratio summary. */
export async function benchScale(companies, { measure, request, withCpu }) {
  const rows = [];
  for (const c of companies) {
    const label = c.size.toLocaleString("en");
    rows.push(
      await withCpu(() => measure(`scale ${label}: issue list limit=50`, 100, 8, () => request("GET", `/api/companies/${c.id}/issues?limit=50`)), {
        scale: c.size,
        op: "list",
        kind: "read",
      }),
    );
    rows.push(
      await withCpu(
        () => measure(`scale ${label}: issue get (detail)`, 100, 8, (i) => request("GET", `/api/issues/${c.prefix}-${((i * 7919) % c.size) + 1}`)),
        { scale: c.size, op: "get", kind: "read" },
      ),
    );
    const search = async (op, q, expected, limit = 50) =>
      rows.push(
        await withCpu(
          () =>
            measure(`scale ${label}: ${op}`, 100, 8, async () => {
              const page = await request("GET", `/api/companies/${c.id}/issues?q=${encodeURIComponent(q)}&limit=${limit}`);
              if (expected !== undefined && page.length !== expected) throw new Error(`q=${q}: ${page.length} issues, expected ${expected}`);
            }),
          { scale: c.size, op, kind: "read" },
        ),
      );
    await search("q=foxtrot", "foxtrot");
    await search(`q selective (${SELECTIVE}, ${SELECTIVE_COUNT} matches)`, SELECTIVE, SELECTIVE_COUNT);
    await search("q common (details, every issue)", "details", 50);
    await search("q common, limit=500 (the console's page)", "details", 500, 500);
    // Company export (issues read in pages of 500): one at a time, a few times, up to 10,000 issues.
    if (c.size <= 10_000) {
      let bytes = 0;
      const row = await withCpu(() =>
        measure(`scale ${label}: company export`, 3, 1, async () => {
          const pkg = await request("POST", `/api/companies/${c.id}/export`, { body: {} });
          bytes = JSON.stringify(pkg).length;
        }),
      );
      if (!row.errors) row.note = `package ${(bytes / 1024 / 1024).toFixed(1)} MiB`;
      rows.push(Object.assign(row, { kind: "read" }));
    }
  }
  return rows;
}

/** Largest/smallest mean latency (and CPU) per operation across the sizes. */
export function scaleSummary(rows) {
  const ops = new Map();
  for (const r of rows) if (r.scale) ops.set(r.op, [...(ops.get(r.op) ?? []), r]);
  const lines = [];
  for (const [op, list] of ops) {
    list.sort((a, b) => a.scale - b.scale);
    const small = list[0];
    const large = list[list.length - 1];
    const latency = large.mean / small.mean;
    const p99 = large.p99 / small.p99;
    const cpu = large.cpuMsPerReq / small.cpuMsPerReq;
    lines.push(
      `${op}: ${small.scale.toLocaleString("en")} → ${large.scale.toLocaleString("en")} issues: mean latency ×${latency.toFixed(2)}, p99 ×${p99.toFixed(2)}, CPU/request ×${cpu.toFixed(2)} (target ≤ 1.5×)`,
    );
  }
  return lines;
}

// Alone: seeds, starts the dev server, measures the read ceiling and the scale rows, prints them.
// Not awaited at the top level: bench.mjs imports this module, so it must finish loading first.
async function runAlone() {
  const { startCeilingServer, startDevServer } = await import("./server.mjs");
  const { measure } = await import("./bench.mjs");
  const { treeCpuMs } = await import("./bench-cpu.mjs");
  const sizes = scaleSizes();
  let companies = [];
  const withCpu =
    (pid) =>
    async (fn, extra = {}) => {
      const before = treeCpuMs(pid);
      const row = await fn();
      row.cpuMsPerReq = (treeCpuMs(pid) - before) / row.count;
      return Object.assign(row, extra);
    };
  const requestOf = (base) => async (method, route) => {
    const res = await fetch(`${base}${route}`, { method });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route} → ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
  const ceiling = await startCeilingServer();
  let read;
  try {
    read = await withCpu(ceiling.pid)(() => measure("ceiling: one D1 read", 1000, 16, () => requestOf(ceiling.base)("GET", "/read?id=seed")));
  } finally {
    ceiling.stop();
  }
  const server = await startDevServer({ beforeStart: async (dir) => (companies = await seedScale(dir, sizes)) });
  try {
    const rows = [read, ...(await benchScale(companies, { measure, request: requestOf(server.base), withCpu: withCpu(server.pid) }))];
    console.log("| operation | count | err | req/s | p50 ms | p99 ms | CPU ms/req | × ceiling |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of rows) {
      const ratio = r === read ? "–" : (r.rps / read.rps).toFixed(2);
      console.log(
        `| ${r.name} | ${r.count} | ${r.errors} | ${r.rps.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuMsPerReq.toFixed(2)} | ${ratio} |${r.note ? ` ${r.note}` : ""}`,
      );
    }
    for (const line of scaleSummary(rows)) console.log(line);
  } finally {
    server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  runAlone().catch((err) => {
    console.error(err);
    process.exit(1);
  });
