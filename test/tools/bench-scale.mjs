// Scale for `npm run bench`: companies of 1,000, 10,000 and 100,000 issues (BENCH_SCALE) seeded
// straight into the dev server's local D1 before it starts (multi-row INSERTs through
// `wrangler d1 execute`; the FTS triggers index them as they go), then list, get and `q` measured
// at each size, with the largest/smallest cost ratio (target ≤ 1.5×).
import { writeFileSync } from "node:fs";
import path from "node:path";
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

/** Writes and applies the seed; returns the seeded companies. */
export async function seedScale(persistDir, sizes) {
  const now = new Date().toISOString();
  const companies = sizes.map((size, i) => ({ id: crypto.randomUUID(), prefix: `SC${String.fromCharCode(65 + i)}`, size }));
  const lines = [];
  for (const c of companies) {
    lines.push(
      `INSERT INTO companies (id, name, status, issue_prefix, issue_counter, created_at, updated_at) VALUES (${q(c.id)}, ${q(`Scale ${c.size}`)}, 'active', ${q(c.prefix)}, ${c.size}, ${q(now)}, ${q(now)});`,
    );
    for (let start = 1; start <= c.size; start += 150) {
      const rows = [];
      for (let n = start; n < Math.min(start + 150, c.size + 1); n++) {
        const title = `${WORDS[n % 16]} ${WORDS[(n * 7) % 16]} task ${n}`;
        const description = `Work item ${n}: ${WORDS[(n * 5) % 16]} ${WORDS[(n * 3) % 16]} details`;
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
  await wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir]);
  const started = performance.now();
  await wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistDir, "--file", file, "--yes"]);
  console.log(`seeded ${sizes.join(" / ")} issues straight into local D1 in ${((performance.now() - started) / 1000).toFixed(1)} s`);
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
    rows.push(
      await withCpu(() => measure(`scale ${label}: q=foxtrot`, 100, 8, () => request("GET", `/api/companies/${c.id}/issues?q=foxtrot&limit=50`)), {
        scale: c.size,
        op: "q",
        kind: "read",
      }),
    );
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
