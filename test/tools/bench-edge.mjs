// Bench plug-in: the edge agent (llm_api). A local fake model server (the OpenAI shape) scripts a
// 30-turn run — 29 turns each calling show_issue on the run's issue, then a final answer — for
// several agents at once. Reported: the turn overhead, from the model's answer leaving the fake to
// the loop's next model request arriving (the tool call through the agent's own API, the journal,
// the budget check, the usage report and the next alarm), p50/p99 over every turn; and each 30-turn
// run's wall time and the server's CPU per run.
import { createServer } from "node:http";
import { treeCpuMs } from "./bench-cpu.mjs";

const RUNS = Number(process.env.BENCH_EDGE_RUNS ?? 4);
const TURNS = 30;
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

export async function benchEdge(base, { request, createCompany, serverPid }) {
  const timings = new Map(); // run id (URL) → { answered: [t], asked: [t] }
  const server = createServer(async (req, res) => {
    const asked = performance.now();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const id = req.url.split("/")[2];
    const t = timings.get(id) ?? { answered: [], asked: [] };
    timings.set(id, t);
    t.asked.push(asked);
    const turn = body.messages.filter((m) => m.role === "assistant").length;
    const ref = /## The issue: (\S+) —/.exec(body.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n"))?.[1];
    const message =
      turn < TURNS - 1
        ? {
            role: "assistant",
            content: null,
            tool_calls: [{ id: `call_${turn}`, type: "function", function: { name: "show_issue", arguments: JSON.stringify({ issue: ref }) } }],
          }
        : { role: "assistant", content: "Read it thirty times." };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: 500, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 0 } },
      }),
    );
    t.answered.push(performance.now());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const fake = `http://127.0.0.1:${server.address().port}`;
  try {
    const company = await createCompany("Bench Edge");
    const issues = [];
    const cpuBefore = treeCpuMs(serverPid);
    const started = performance.now();
    for (let i = 0; i < RUNS; i++) {
      const agent = await request("POST", `/api/companies/${company.id}/agents`, {
        body: {
          name: `Edge ${i}`,
          adapterType: "llm_api",
          adapterConfig: { provider: "openai_compatible", baseUrl: `${fake}/r/edge-${i}/v1`, model: "bench", maxTurns: TURNS, stream: false },
        },
      });
      issues.push(await request("POST", `/api/companies/${company.id}/issues`, { body: { title: `Read ${i}`, status: "todo", assigneeAgentId: agent.id } }));
    }
    // Every run answered its last turn, or a minute passed.
    const deadline = performance.now() + 120_000;
    const finished = () => [...timings.values()].filter((t) => t.asked.length >= TURNS).length;
    while (finished() < RUNS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // The last answer's ending recorded: the runs' statuses.
    await new Promise((r) => setTimeout(r, 500));
    const seconds = (performance.now() - started) / 1000;
    const cpuPerRun = (treeCpuMs(serverPid) - cpuBefore) / RUNS;
    const gaps = [];
    const walls = [];
    for (const t of timings.values()) {
      for (let i = 1; i < t.asked.length; i++) gaps.push(t.asked[i] - t.answered[i - 1]);
      walls.push(t.answered.at(-1) - t.asked[0]);
    }
    gaps.sort((a, b) => a - b);
    walls.sort((a, b) => a - b);
    const page = await request("GET", `/api/companies/${company.id}/heartbeat-runs?limit=50`);
    const succeeded = page.runs.filter((r) => r.status === "succeeded").length;
    const missing = RUNS - finished();
    return [
      {
        name: "edge agent turn overhead (answer → next model request, with a show_issue call)",
        count: gaps.length,
        errors: RUNS - succeeded,
        seconds,
        rps: gaps.length / seconds,
        p50: percentile(gaps, 50),
        p95: percentile(gaps, 95),
        p99: percentile(gaps, 99),
        cpuMsPerReq: cpuPerRun / (TURNS - 1),
        note: `${RUNS} runs at once; req/s = turns per second${missing ? `; ${missing} runs did not finish` : ""}`,
      },
      {
        name: `edge agent ${TURNS}-turn run (wall, first request → last answer)`,
        count: RUNS,
        errors: RUNS - succeeded,
        seconds,
        rps: RUNS / seconds,
        p50: percentile(walls, 50),
        p95: percentile(walls, 95),
        p99: percentile(walls, 99),
        cpuMsPerReq: cpuPerRun,
        note: `CPU per request = the server's CPU per ${TURNS}-turn run`,
      },
    ];
  } finally {
    server.close();
  }
}
