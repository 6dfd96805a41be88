#!/usr/bin/env node
// `npm run smoke`: starts the real dev server on a free port and drives a short scenario over HTTP.
import { createServer } from "node:http";
import { startDevServer } from "./server.mjs";

// A fake agent endpoint: answers 202, then completes the run through the API with its run token
// (what a real asynchronous agent does).
const calls = [];
const agentServer = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  calls.push({ at: Date.now(), body });
  res.writeHead(202).end();
  setTimeout(() => {
    fetch(`${body.apiUrl}/api/heartbeat-runs/${body.runId}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${body.apiToken}` },
      body: JSON.stringify({ status: "succeeded", summary: "smoke agent done", usage: { provider: "smoke", model: "m", costCents: 1 } }),
    }).catch(() => {});
  }, 50);
});
await new Promise((resolve) => agentServer.listen(0, "127.0.0.1", resolve));
const agentUrl = `http://127.0.0.1:${agentServer.address().port}/wake`;

const server = await startDevServer();
let failed = false;
const step = async (name, fn) => {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (err) {
    failed = true;
    console.log(`FAIL ${name}: ${err.message}`);
  }
};
const expectStatus = async (res, status) => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return res.json();
};
const json = (body) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

try {
  let company;
  await step("health", async () => {
    const body = await expectStatus(await fetch(`${server.base}/api/health`), 200);
    if (body.status !== "ok") throw new Error(`status ${body.status}`);
  });
  await step("create company", async () => {
    company = await expectStatus(await fetch(`${server.base}/api/companies`, json({ name: "Smoke Test Co", budgetMonthlyCents: 5000 })), 201);
    // At most four letters of the name (SMOK), another combination or a number on a clash; never over 10.
    if (!/^SM[A-Z0-9]{1,8}$/.test(company.issuePrefix)) throw new Error(`issuePrefix ${company.issuePrefix}`);
  });
  await step("read company back", async () => {
    const body = await expectStatus(await fetch(`${server.base}/api/companies/${company.id}`), 200);
    if (body.name !== "Smoke Test Co") throw new Error(`name ${body.name}`);
  });
  await step("list activity", async () => {
    const body = await expectStatus(await fetch(`${server.base}/api/companies/${company.id}/activity`), 200);
    if (!body.some((a) => a.action === "company.created")) throw new Error("no company.created entry");
  });
  await step("an http agent is woken within 2 s by the company object's alarm and completes its run", async () => {
    const agent = await expectStatus(
      await fetch(`${server.base}/api/companies/${company.id}/agents`, json({ name: "Smoke Agent", adapterType: "http", adapterConfig: { url: agentUrl } })),
      201,
    );
    const woke = await expectStatus(await fetch(`${server.base}/api/agents/${agent.id}/wakeup`, json({ payload: { task: "smoke" } })), 202);
    const started = Date.now();
    let run;
    while (Date.now() - started < 10_000) {
      run = await expectStatus(await fetch(`${server.base}/api/heartbeat-runs/${woke.id}`), 200);
      if (run.status === "succeeded") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (run?.status !== "succeeded") throw new Error(`run status ${run?.status} after 10 s`);
    const startLatency = calls[0].at - started;
    if (startLatency > 2000) throw new Error(`the agent was called ${startLatency} ms after the wake-up (more than 2 s)`);
    if (calls[0].body.context?.payload?.task !== "smoke") throw new Error("payload missing from the agent's context");
    console.log(`     wake-up → agent called in ${startLatency} ms; run ${run.status}: ${run.summary}`);
  });
  await step("openapi document", async () => {
    const body = await expectStatus(await fetch(`${server.base}/api/openapi.json`), 200);
    if (!body.paths["/api/companies"]) throw new Error("missing /api/companies");
  });
} finally {
  server.stop();
  agentServer.close();
}
if (failed) {
  console.log(server.output());
  process.exit(1);
}
console.log("smoke passed");
