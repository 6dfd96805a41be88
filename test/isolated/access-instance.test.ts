import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertIssue as issueFixture, insertRun as runFixture, testD1 } from "../helpers/fixtures";
import type { ISSUE_STATUSES } from "../../src/db/schema/issues";
import type { HEARTBEAT_RUN_STATUSES } from "../../src/db/schema/runs";
import { runScheduledTick } from "../../src/scheduler/tick";
import { shardNames } from "../../src/db/shards";

const BOGUS = { token: "svc_agent_bogus" };

async function actors() {
  const company = await createCompany();
  const plain = await boardUser(company.id, "owner");
  const agent = await insertAgent(company.id);
  const { token: agentToken } = await insertAgentKey(agent.id, company.id);
  return { company, plain, agentToken };
}

async function insertIssue(
  companyId: string,
  fields: { status?: (typeof ISSUE_STATUSES)[number]; assigneeAgentId?: string | null; checkoutRunId?: string | null; assigneeUserId?: string | null },
) {
  return (await issueFixture(companyId, { title: "Stuck?", ...fields, status: fields.status ?? "in_progress" })).id;
}

const insertRun = (companyId: string, agentId: string, status: (typeof HEARTBEAT_RUN_STATUSES)[number], lastActivityAt: string) =>
  runFixture(companyId, agentId, {
    status,
    invocationSource: "timer",
    startedAt: lastActivityAt,
    lastActivityAt,
    createdAt: lastActivityAt,
    updatedAt: lastActivityAt,
  });

describe("instance", () => {
  it("scheduler heartbeats come from the cron tick", async () => {
    const { agentToken } = await actors();
    await runScheduledTick(env, new Date());
    const res = await get("/api/instance/scheduler-heartbeats");
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual(expect.objectContaining({ name: "cron", tickCount: expect.any(Number) }));
    expect((await get("/api/instance/scheduler-heartbeats", { token: agentToken })).status).toBe(403);
    expect((await get("/api/instance/scheduler-heartbeats", BOGUS)).status).toBe(401);
  });

  it("general and experimental settings: defaults, partial patch by instance admins, validation", async () => {
    const { plain, agentToken } = await actors();
    const general = await get("/api/instance/settings/general", { token: plain.token });
    expect(general.status).toBe(200);
    expect(general.body).toEqual({ instanceName: "Agent Control Plane", supportEmail: null, defaultInviteExpiryHours: 168, backupRetentionCount: 7 });
    expect((await get("/api/instance/settings/experimental")).body).toEqual({ issueGraphLivenessAutoRecovery: false, issueGraphLivenessStaleAfterMinutes: 60 });
    expect((await patch("/api/instance/settings/general", { instanceName: "Mine" }, { token: plain.token })).status).toBe(403);
    expect((await patch("/api/instance/settings/general", { instanceName: "Mine" }, { token: agentToken })).status).toBe(403);
    expect((await patch("/api/instance/settings/general", { instanceName: "Mine" }, BOGUS)).status).toBe(401);
    expect((await get("/api/instance/settings/general", { token: agentToken })).status).toBe(403);
    for (const body of [{}, { instanceName: "" }, { defaultInviteExpiryHours: 0 }, { colour: "red" }, { supportEmail: "nope" }]) {
      expect((await patch("/api/instance/settings/general", body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await patch("/api/instance/settings/experimental", { issueGraphLivenessStaleAfterMinutes: -1 })).status).toBe(400);
    // Two concurrent partial patches of different fields both land.
    await Promise.all([
      patch("/api/instance/settings/general", { instanceName: "Mine" }),
      patch("/api/instance/settings/general", { supportEmail: "ops@example.com" }),
    ]);
    const after = await patch("/api/instance/settings/general", { defaultInviteExpiryHours: 24 });
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ instanceName: "Mine", supportEmail: "ops@example.com", defaultInviteExpiryHours: 24, backupRetentionCount: 7 });
    // The setting drives new invites' expiry.
    const company = await createCompany();
    const invite = await post(`/api/companies/${company.id}/invites`, {});
    expect(Date.parse(invite.body.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect((await patch("/api/instance/settings/general", { supportEmail: null, defaultInviteExpiryHours: 168 })).body.supportEmail).toBeNull();
    const exp = await patch("/api/instance/settings/experimental", { issueGraphLivenessStaleAfterMinutes: 30 });
    expect(exp.body).toEqual({ issueGraphLivenessAutoRecovery: false, issueGraphLivenessStaleAfterMinutes: 30 });
    await patch("/api/instance/settings/experimental", { issueGraphLivenessStaleAfterMinutes: 60 });
  });

  it("liveness recovery: preview lists stuck issues, run releases them and logs activity", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const old = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const fresh = new Date().toISOString();
    const finished = await insertIssue(company.id, { assigneeAgentId: agent.id, checkoutRunId: await insertRun(company.id, agent.id, "succeeded", fresh) });
    const missing = await insertIssue(company.id, { assigneeAgentId: agent.id, checkoutRunId: crypto.randomUUID() });
    const idle = await insertIssue(company.id, { assigneeAgentId: agent.id, checkoutRunId: await insertRun(company.id, agent.id, "running", old) });
    const alive = await insertIssue(company.id, { assigneeAgentId: agent.id, checkoutRunId: await insertRun(company.id, agent.id, "running", fresh) });
    const unlocked = await insertIssue(company.id, { status: "todo" });
    const base = "/api/instance/settings/experimental/issue-graph-liveness-auto-recovery";

    const preview = await post(`${base}/preview`, { companyId: company.id });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ dryRun: true, staleAfterMinutes: 60, recoveredCount: 0 });
    const reasons = Object.fromEntries(preview.body.issues.map((i: any) => [i.issueId, i.reason]));
    expect(reasons).toEqual({ [finished]: "run_finished", [missing]: "run_missing", [idle]: "run_idle" });
    expect((await testD1.prepare("SELECT status FROM issues WHERE id = ?1").bind(finished).first())?.status).toBe("in_progress");
    // A larger threshold keeps the idle run alive.
    const lenient = await post(`${base}/preview`, { companyId: company.id, staleAfterMinutes: 600 });
    expect(lenient.body.issues.map((i: any) => i.issueId).sort()).toEqual([finished, missing].sort());

    const run = await post(`${base}/run`, { companyId: company.id });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ dryRun: false, recoveredCount: 3 });
    for (const id of [finished, missing, idle]) {
      const row = await testD1.prepare("SELECT status, assignee_agent_id, checkout_run_id FROM issues WHERE id = ?1").bind(id).first();
      expect(row).toEqual({ status: "todo", assignee_agent_id: null, checkout_run_id: null });
    }
    expect((await testD1.prepare("SELECT status FROM issues WHERE id = ?1").bind(alive).first())?.status).toBe("in_progress");
    expect((await testD1.prepare("SELECT status FROM issues WHERE id = ?1").bind(unlocked).first())?.status).toBe("todo");
    const logged = await testD1
      .prepare("SELECT COUNT(*) AS n FROM activity_log WHERE company_id = ?1 AND action = 'issue.liveness_recovered'")
      .bind(company.id)
      .first<{ n: number }>();
    expect(logged?.n).toBe(3);
    expect((await post(`${base}/run`, { companyId: company.id })).body.recoveredCount).toBe(0);
    // Body optional: scans every company.
    expect((await post(`${base}/preview`)).status).toBe(200);
  });

  it("liveness recovery guards and validation", async () => {
    const { plain, agentToken } = await actors();
    const base = "/api/instance/settings/experimental/issue-graph-liveness-auto-recovery";
    for (const mode of ["preview", "run"]) {
      expect((await post(`${base}/${mode}`, { companyId: crypto.randomUUID() })).status).toBe(404);
      expect((await post(`${base}/${mode}`, { staleAfterMinutes: 0 })).status).toBe(400);
      expect((await post(`${base}/${mode}`, { bogus: true })).status).toBe(400);
      expect((await post(`${base}/${mode}`, {}, { token: plain.token })).status).toBe(403);
      expect((await post(`${base}/${mode}`, {}, { token: agentToken })).status).toBe(403);
      expect((await post(`${base}/${mode}`, {}, BOGUS)).status).toBe(401);
    }
  });

  it("the cron runs liveness auto-recovery when the experimental switch is on", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const stuck = await insertIssue(company.id, { assigneeAgentId: agent.id, checkoutRunId: crypto.randomUUID() });
    await runScheduledTick(env, new Date());
    expect((await testD1.prepare("SELECT status FROM issues WHERE id = ?1").bind(stuck).first())?.status).toBe("in_progress");
    await patch("/api/instance/settings/experimental", { issueGraphLivenessAutoRecovery: true });
    await runScheduledTick(env, new Date());
    expect((await testD1.prepare("SELECT status FROM issues WHERE id = ?1").bind(stuck).first())?.status).toBe("todo");
    await patch("/api/instance/settings/experimental", { issueGraphLivenessAutoRecovery: false });
  });

  it("database backups export every table to R2 and keep the newest N", async () => {
    const { plain, agentToken } = await actors();
    expect((await post("/api/instance/database-backups", undefined, { token: plain.token })).status).toBe(403);
    expect((await post("/api/instance/database-backups", undefined, { token: agentToken })).status).toBe(403);
    expect((await post("/api/instance/database-backups", undefined, BOGUS)).status).toBe(401);
    await patch("/api/instance/settings/general", { backupRetentionCount: 2 });
    const first = await post("/api/instance/database-backups");
    expect(first.status).toBe(201);
    expect(first.body.backupDirectory).toMatch(/^backups\/\d{4}-\d\d-\d\dT/);
    expect(first.body.retentionPolicy.keepLast).toBe(2);
    expect(first.body.durationMs).toBeGreaterThanOrEqual(0);
    // Every database is backed up: the directory and each company shard, each table in its own object.
    expect(new Set(first.body.tables.map((t: any) => t.database))).toEqual(new Set(["DB", ...shardNames(env)]));
    const companyTables = first.body.tables.filter((t: any) => t.name === "companies" && t.rows > 0);
    const count = await testD1.prepare("SELECT COUNT(*) AS n FROM companies").first<{ n: number }>();
    expect(companyTables.reduce((sum: number, t: any) => sum + t.rows, 0)).toBe(count?.n);
    const companies = companyTables[0];
    expect(companies.objectKey).toBe(`${first.body.backupDirectory}${companies.database}/companies.jsonl`);
    const object = await env.FILES.get(companies.objectKey);
    const lines = (await object!.text()).trim().split("\n");
    expect(lines).toHaveLength(companies.rows);
    expect(JSON.parse(lines[0])).toHaveProperty("issue_prefix");
    expect(first.body.tables.map((t: any) => t.name)).toEqual(expect.arrayContaining(["users", "company_memberships", "company_invites", "instance_settings"]));
    expect(await env.FILES.get(`${first.body.backupDirectory}manifest.json`)).not.toBeNull();
    await post("/api/instance/database-backups");
    const third = await post("/api/instance/database-backups");
    expect(third.body.retentionPolicy.deletedBackups).toContain(first.body.backupDirectory);
    const listing = await env.FILES.list({ prefix: "backups/", delimiter: "/" });
    expect(listing.delimitedPrefixes).toHaveLength(2);
    expect(await env.FILES.get(companies.objectKey)).toBeNull();
    await patch("/api/instance/settings/general", { backupRetentionCount: 7 });
  });
});
