// Run retention: the cron tick deletes finished runs (their events and issue links) and settled
// wake-ups older than RUN_RETENTION_DAYS; live runs, waiting wake-ups and recent history stay.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { post, unique, get } from "../helpers/api";
import { createCompany, insertAgent, insertRow, insertRun as runFixture, insertWakeup, schema, testD1 } from "../helpers/fixtures";
import type { HEARTBEAT_RUN_STATUSES } from "../../src/db/schema/runs";
import { runScheduledTick } from "../../src/scheduler/tick";

async function insertRun(companyId: string, agentId: string, status: (typeof HEARTBEAT_RUN_STATUSES)[number], finishedDaysAgo: number | null) {
  const finishedAt = finishedDaysAgo === null ? null : new Date(Date.now() - finishedDaysAgo * 86_400_000).toISOString();
  const created = new Date(Date.now() - (finishedDaysAgo ?? 0) * 86_400_000 - 60_000).toISOString();
  const id = await runFixture(companyId, agentId, { status, adapterType: "http", finishedAt, createdAt: created, updatedAt: created });
  await insertRow(schema.heartbeatRunEvents, { id: crypto.randomUUID(), companyId, runId: id, seq: 1, kind: "log", message: "x", createdAt: created });
  await insertWakeup(companyId, agentId, {
    status: status === "running" ? "claimed" : "completed",
    reason: "on_demand",
    source: "manual",
    runId: id,
    createdAt: created,
    updatedAt: finishedAt ?? created,
  });
  return id;
}

const count = async (sql: string, id: string) => (await testD1.prepare(sql).bind(id).first<{ n: number }>())!.n;

describe("run retention", () => {
  it("prunes finished runs, their events, links and settled wake-ups past the retention window; keeps live and recent ones", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id, { adapterType: "http" });
    const old = await insertRun(company.id, agent.id, "succeeded", 45);
    const recent = await insertRun(company.id, agent.id, "failed", 3);
    const live = await insertRun(company.id, agent.id, "running", null);
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("R") })).body;
    await insertRow(schema.issueRunLinks, { issueId: issue.id, runId: old, companyId: company.id, createdAt: new Date().toISOString() });

    await runScheduledTick(env, new Date());

    expect(await count("SELECT COUNT(*) AS n FROM heartbeat_runs WHERE id = ?", old)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM heartbeat_run_events WHERE run_id = ?", old)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM issue_run_links WHERE run_id = ?", old)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM agent_wakeup_requests WHERE run_id = ?", old)).toBe(0);
    for (const kept of [recent, live]) {
      expect(await count("SELECT COUNT(*) AS n FROM heartbeat_runs WHERE id = ?", kept)).toBe(1);
      expect(await count("SELECT COUNT(*) AS n FROM agent_wakeup_requests WHERE run_id = ?", kept)).toBe(1);
    }
    expect((await get(`/api/issues/${issue.id}/runs`)).status).toBe(200);
    expect((await get(`/api/issues/${issue.id}/runs`)).body).toEqual([]);
  });
});
