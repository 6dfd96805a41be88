// Bench plug-in: public webhook fires per second on one routine (every fire is decided in the
// company's Durable Object), with latency percentiles. Two shapes: bearer secret with the default
// coalesce_if_active policy (a storm folding into one execution issue), and HMAC-signed bodies
// with always_enqueue (each fire creates an execution issue and wakes the agent).
import { createHmac } from "node:crypto";
import { fileURLToPath } from "node:url";

const FIRES = Number(process.env.BENCH_WEBHOOK_FIRES ?? 400);

export async function benchRoutines(base, { measure, withCpu, request, createCompany, concurrency }) {
  const company = await createCompany("Bench Routines");
  const agent = await request("POST", `/api/companies/${company.id}/agents`, {
    body: { name: "Routine Runner", adapterType: "process", adapterConfig: { command: "true" } },
  });
  const rows = [];
  for (const [label, policy, signingMode] of [
    ["bearer, coalesce_if_active", "coalesce_if_active", "bearer"],
    ["hmac_sha256, always_enqueue", "always_enqueue", "hmac_sha256"],
  ]) {
    const routine = await request("POST", `/api/companies/${company.id}/routines`, {
      body: { title: `Webhook ${label}`, assigneeAgentId: agent.id, concurrencyPolicy: policy },
    });
    const trigger = await request("POST", `/api/routines/${routine.id}/triggers`, { body: { kind: "webhook", signingMode } });
    const url = new URL(trigger.webhookUrl);
    const target = `${base}${url.pathname}`;
    const fire = async (i) => {
      const body = JSON.stringify({ delivery: i, event: "push" });
      const headers = { "content-type": "application/json" };
      if (signingMode === "bearer") headers.authorization = `Bearer ${trigger.webhookSecret}`;
      else headers["x-hub-signature-256"] = `sha256=${createHmac("sha256", trigger.webhookSecret).update(body).digest("hex")}`;
      const res = await fetch(target, { method: "POST", headers, body });
      await res.arrayBuffer();
      if (res.status !== 202) throw new Error(`webhook fire → ${res.status}`);
    };
    rows.push(await withCpu(() => measure(`webhook fire (${label}), 1 routine`, FIRES, concurrency, fire), { kind: "write" }));
  }
  return rows;
}

// Alone: `node test/tools/bench-routines.mjs` (starts its own dev server; prints the rows).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runAlone } = await import("./bench-alone.mjs");
  await runAlone(benchRoutines);
}
