// Bench plug-in: the same mutation load on 10 companies spread over the two shards, then on the
// same 10 companies after moving them all onto one shard (POST /api/instance/companies/{id}/move).
// Every request is an issue create in one of the 10 companies, round-robin, 16 at a time.
import { fileURLToPath } from "node:url";

const CREATES = Number(process.env.BENCH_SHARD_CREATES ?? 600);
const COMPANIES = 10;

export async function benchShards(base, { measure, withCpu, request, createCompany, concurrency }) {
  const companies = [];
  for (let i = 0; i < COMPANIES; i++) companies.push(await createCompany(`Bench Shards ${i}`));
  const shards = await request("GET", "/api/instance/shards");
  const create = (label) => async (i) => {
    const company = companies[i % companies.length];
    await request("POST", `/api/companies/${company.id}/issues`, { body: { title: `${label} ${i}` } });
  };
  const rows = [];
  // Warm every company's object and the isolate first, so neither measured round starts cold.
  await measure("warm-up", 200, concurrency, create("warm-up"));
  const spread = shards.filter((s) => s.companies > 0).length;
  rows.push(await withCpu(() => measure(`issue create, 10 companies on ${spread} shards`, CREATES, concurrency, create("spread")), { kind: "write" }));
  // All onto the first shard (a company already there answers 409).
  const target = shards.find((s) => s.shard !== "DB")?.shard ?? shards[0].shard;
  for (const company of companies) {
    try {
      await request("POST", `/api/instance/companies/${company.id}/move`, { body: { shard: target } });
    } catch (err) {
      if (!String(err).includes("409")) throw err;
    }
  }
  rows.push(await withCpu(() => measure("issue create, 10 companies on 1 shard", CREATES, concurrency, create("together")), { kind: "write" }));
  // And spread again (half moved back), so the order of the rounds does not decide.
  const other = shards.find((s) => s.shard !== target && s.shard !== "DB")?.shard;
  if (other) {
    for (const company of companies.filter((_, i) => i % 2 === 1))
      await request("POST", `/api/instance/companies/${company.id}/move`, { body: { shard: other } });
    rows.push(
      await withCpu(() => measure("issue create, 10 companies on 2 shards (after moving back)", CREATES, concurrency, create("again")), { kind: "write" }),
    );
  }
  return rows;
}

// Alone: `node test/tools/bench-shards.mjs` on Node 22 (starts its own dev server; prints the rows).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runAlone } = await import("./bench-alone.mjs");
  await runAlone(benchShards);
}
