#!/usr/bin/env node
// `npm run smoke`: starts the real dev server on a free port and drives a short scenario over HTTP.
import { startDevServer } from "./server.mjs";

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
    if (company.issuePrefix !== "SMO") throw new Error(`issuePrefix ${company.issuePrefix}`);
  });
  await step("read company back", async () => {
    const body = await expectStatus(await fetch(`${server.base}/api/companies/${company.id}`), 200);
    if (body.name !== "Smoke Test Co") throw new Error(`name ${body.name}`);
  });
  await step("list activity", async () => {
    const body = await expectStatus(await fetch(`${server.base}/api/companies/${company.id}/activity`), 200);
    if (!body.some((a) => a.action === "company.created")) throw new Error("no company.created entry");
  });
  await step("openapi document", async () => {
    const body = await expectStatus(await fetch(`${server.base}/api/openapi.json`), 200);
    if (!body.paths["/api/companies"]) throw new Error("missing /api/companies");
  });
} finally {
  server.stop();
}
if (failed) {
  console.log(server.output());
  process.exit(1);
}
console.log("smoke passed");
