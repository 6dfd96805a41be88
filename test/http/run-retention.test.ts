// Run retention: the cron tick deletes finished runs (their events and issue links) and settled
// wake-ups older than RUN_RETENTION_DAYS; live runs, waiting wake-ups and recent history stay.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { post, unique, get } from "../helpers/api";
import { createCompany, insertAgent } from "../helpers/fixtures";
import { runScheduledTick } from "../../src/scheduler/tick";

async function insertRun(companyId: string, agentId: string, status: string, finishedDaysAgo: number | null) {
  const id = crypto.randomUUID();
  const finishedAt = finishedDaysAgo === null ? null : new Date(Date.now() - finishedDaysAgo * 86_400_000).toISOString();
  const created = new Date(Date.now() - (finishedDaysAgo ?? 0) * 86_400_000 - 60_000).toISOString();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO heartbeat_runs (id, company_id, agent_id, status, adapter_type, invocation_source, finished_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'http', 'on_demand', ?5, ?6, ?6)",
    ).bind(id, companyId, agentId, status, finishedAt, created),
    env.DB.prepare("INSERT INTO heartbeat_run_events (id, company_id, run_id, seq, kind, message, created_at) VALUES (?1, ?2, ?3, 1, 'log', 'x', ?4)").bind(crypto.randomUUID(), companyId, id, created),
    env.DB.prepare(
      "INSERT INTO agent_wakeup_requests (id, company_id, agent_id, status, reason, source, run_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'on_demand', 'manual', ?5, ?6, ?7)",
    ).bind(crypto.randomUUID(), companyId, agentId, status === "running" ? "claimed" : "completed", id, created, finishedAt ?? created),
  ]);
  return id;
}

const count = async (sql: string, id: string) => (await env.DB.prepare(sql).bind(id).first<{ n: number }>())!.n;

describe("run retention", () => {
  it("prunes finished runs, their events, links and settled wake-ups past the retention window; keeps live and recent ones", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id, { adapterType: "http" });
    const old = await insertRun(company.id, agent.id, "succeeded", 45);
    const recent = await insertRun(company.id, agent.id, "failed", 3);
    const live = await insertRun(company.id, agent.id, "running", null);
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("R") })).body;
    await env.DB.prepare("INSERT INTO issue_run_links (issue_id, run_id, company_id, created_at) VALUES (?1, ?2, ?3, ?4)").bind(issue.id, old, company.id, new Date().toISOString()).run();

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
