// Bench plug-in: the knowledge wiki. (1) wiki_write_page throughput on one company — BENCH_WIKI_PAGES
// (default 10,000) distinct pages written through POST /api/plugins/tools/execute as one agent in
// one run (each write: an R2 put and one guarded batch in the company object), which is also the
// seed of (2) wiki_search p50/p99 over that wiki (FTS5 + bm25 over every page body: a common pair
// of words, a rare word), and (3) wiki_read_page.
const PAGES = Number(process.env.BENCH_WIKI_PAGES ?? 10_000);
const WORDS = [
  "deploy",
  "rollback",
  "incident",
  "billing",
  "customer",
  "latency",
  "cache",
  "queue",
  "schema",
  "release",
  "oncall",
  "runbook",
  "invoice",
  "migration",
  "feature",
  "budget",
];

/** Page i: a heading and ~80 words drawn from the vocabulary, plus one word only it has. */
const pageText = (i) => {
  const words = Array.from({ length: 80 }, (_, k) => WORDS[(i * 31 + k * 7 + ((i * k) % 13)) % WORDS.length]);
  return `# Page ${i}: ${WORDS[i % 16]} ${WORDS[(i * 3) % 16]}\n\n${words.join(" ")} marker${i}.\n\nSee [[pages/page-${(i + 1) % PAGES}]].\n`;
};

export async function benchWiki(base, { measure, withCpu, request, createCompany, concurrency }) {
  const plugin = await request("GET", "/api/plugins/knowledge-wiki", { expect: [200, 404] });
  if (plugin?.error) await request("POST", "/api/plugins/install", { body: { packageName: "knowledge-wiki" } });
  else if (plugin.status !== "ready") await request("POST", "/api/plugins/knowledge-wiki/enable");
  const company = await createCompany("Bench Wiki");
  const agent = await request("POST", `/api/companies/${company.id}/agents`, {
    body: { name: "Bench Wiki Agent", adapterType: "process", adapterConfig: { command: "echo" } },
  });
  const { token } = await request("POST", `/api/agents/${agent.id}/keys`, { body: { name: "bench" } });
  const runId = crypto.randomUUID();
  const tool = (name, parameters) =>
    request("POST", "/api/plugins/tools/execute", {
      body: {
        tool: `knowledge-wiki:${name}`,
        parameters: { companyId: company.id, wikiId: "default", ...parameters },
        runContext: { agentId: agent.id, runId, companyId: company.id },
      },
      token,
      runId,
    });
  const label = PAGES.toLocaleString("en");
  const rows = [];
  rows.push(
    await withCpu(
      () =>
        measure(`wiki_write_page, 1 company (${label} new pages)`, PAGES, concurrency, (i) =>
          tool("wiki_write_page", { path: `wiki/pages/page-${i}.md`, contents: pageText(i) }),
        ),
      { kind: "write" },
    ),
  );
  rows.push(
    await withCpu(
      () =>
        measure(`wiki_search over ${label} pages: two common words`, 300, concurrency, (i) =>
          tool("wiki_search", { query: `${WORDS[i % 16]} ${WORDS[(i + 5) % 16]}`, limit: 10 }),
        ),
      { kind: "read" },
    ),
  );
  rows.push(
    await withCpu(
      () =>
        measure(`wiki_search over ${label} pages: one rare word`, 300, concurrency, (i) =>
          tool("wiki_search", { query: `marker${(i * 7919) % PAGES}`, limit: 10 }),
        ),
      { kind: "read" },
    ),
  );
  rows.push(
    await withCpu(
      () =>
        measure(`wiki_read_page over ${label} pages`, 300, concurrency, (i) => tool("wiki_read_page", { path: `wiki/pages/page-${(i * 104729) % PAGES}.md` })),
      { kind: "read" },
    ),
  );
  return rows;
}
