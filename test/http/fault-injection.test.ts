// Failures half-way, made with the test-only fault injection (src/db/faults.ts: the `x-test-fault`
// request header and the company object's armFaults, honoured only with TEST_FAULTS = "1"): a
// multi-batch import whose later batch fails leaves nothing behind; a mutation whose batch (with
// its activity row) fails is not applied and can be retried; a company object cut short
// mid-dispatch loses no wake-up and makes exactly one run of it.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, patch, post, unique, type EnvOverrides } from "../helpers/api";
import { createCompany, dispatch, insertAgentKey, testD1 } from "../helpers/fixtures";
import { connect, processAgent } from "../helpers/runners";
import { eventually } from "../helpers/eventually";

const FAULT = "x-test-fault";
const FAKE = env.FAKE_AGENT_URL;
const object = (companyId: string) => env.COMPANY.getByName(companyId);

/** Rows of every table with a company_id column that belong to the company, by table. */
async function companyRows(companyId: string): Promise<Record<string, number>> {
  const { results } = await testD1
    .prepare(
      "SELECT m.name AS name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'company_id')",
    )
    .all<{ name: string }>();
  const counts = await testD1.batch<{ n: number }>(
    results.map((t) => testD1.prepare(`SELECT COUNT(*) AS n FROM "${t.name}" WHERE company_id = ?`).bind(companyId)),
  );
  return Object.fromEntries(results.map((t, i) => [t.name, counts[i].results[0].n]));
}

const activity = async (companyId: string, action: string) =>
  ((await get(`/api/companies/${companyId}/activity`)).body as any[]).filter((a) => a.action === action);

/** Fires the object's alarm (it must be set); a dispatch that failed half-way rejects. */
async function fireAlarm(companyId: string): Promise<"ran" | "failed"> {
  try {
    expect(await runDurableObjectAlarm(object(companyId))).toBe(true);
    return "ran";
  } catch (err) {
    expect(String(err)).toContain("Injected fault");
    return "failed";
  }
}

const alarmAt = (companyId: string) => runInDurableObject(object(companyId), (_instance, state) => state.storage.getAlarm());

async function httpAgent(companyId: string) {
  const endpoint = unique("ep");
  const res = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Http"),
    adapterType: "http",
    adapterConfig: { url: `${FAKE}/agent/${endpoint}` },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, endpoint };
}

const received = async (endpoint: string): Promise<any[]> => (await fetch(`${FAKE}/__received/${endpoint}`)).json();
const agentRuns = async (companyId: string, agentId: string): Promise<any[]> =>
  (await get(`/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.runs;
const wakeups = (companyId: string, agentId: string) =>
  testD1
    .prepare("SELECT status, run_id AS runId FROM agent_wakeup_requests WHERE company_id = ? AND agent_id = ?")
    .bind(companyId, agentId)
    .all<{ status: string; runId: string | null }>()
    .then((r) => r.results);

describe("the fault switch", () => {
  it("fails the named batch of one request only when TEST_FAULTS is set; a malformed rule is a 400", async () => {
    const company = await createCompany();
    const failed = await post(`/api/companies/${company.id}/issues`, { title: "Never" }, { headers: { [FAULT]: "d1-write:1" } });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: expect.any(String) });
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x" }, { headers: { [FAULT]: "d1-write" } })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x" }, { headers: { [FAULT]: "disk:1" } })).status).toBe(400);
    // Without TEST_FAULTS (every deployed environment) the header means nothing.
    const ignored = await post(
      `/api/companies/${company.id}/issues`,
      { title: "Written" },
      { headers: { [FAULT]: "d1-write:1" }, env: { TEST_FAULTS: undefined } as EnvOverrides },
    );
    expect(ignored.status).toBe(201);
  });
});

describe("a multi-batch import that fails half-way", () => {
  /** A package of a small company (agent, goal, project, label, an issue with a comment and a document) plus a 650-issue chain: four write batches. */
  async function bigPackage() {
    const source = await createCompany();
    const agent = (await post(`/api/companies/${source.id}/agents`, { name: "Dev", adapterType: "http", adapterConfig: { url: "http://127.0.0.1:9/dev" } }))
      .body;
    const goal = (await post(`/api/companies/${source.id}/goals`, { title: "Grow" })).body;
    const project = (await post(`/api/companies/${source.id}/projects`, { name: "Site", goalIds: [goal.id] })).body;
    const label = (await post(`/api/companies/${source.id}/labels`, { name: "frontend" })).body;
    const issue = (await post(`/api/companies/${source.id}/issues`, { title: "Seed", projectId: project.id, assigneeAgentId: agent.id, labelIds: [label.id] }))
      .body;
    await post(`/api/issues/${issue.id}/comments`, { body: "a comment" });
    await patch(`/api/issues/${issue.id}`, { status: "in_progress" });
    const exported = await post(`/api/companies/${source.id}/export`, { include: { comments: true, documents: true } });
    expect(exported.status).toBe(200);
    const files: Record<string, string> = { ...exported.body.files };
    const n = 650;
    const ids = Array.from({ length: n }, () => crypto.randomUUID());
    for (let i = n - 1; i >= 0; i--) {
      const fm = [
        `id: ${ids[i]}`,
        `title: Step ${i}`,
        "status: todo",
        "priority: medium",
        `parentId: ${i > 0 ? ids[i - 1] : "null"}`,
        `blockedByIssueIds: [${i + 1 < n ? ids[i + 1] : ""}]`,
      ];
      files[`issues/X-${i}.md`] = `---\n${fm.join("\n")}\n---\n`;
    }
    return files;
  }

  it.each([
    ["the 2nd write batch", "d1-write:2"],
    ["the closing batch (counter, import record, activity)", "d1-write/company_imports:1"],
  ])("%s failing leaves nothing of the import behind, and the retry imports everything", async (_what, fault) => {
    const files = await bigPackage();
    const target = await createCompany();
    const before = await companyRows(target.id);
    const failed = await post(`/api/companies/${target.id}/imports/apply`, { source: { type: "inline", files } }, { headers: { [FAULT]: fault } });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: expect.any(String) });
    expect(await companyRows(target.id)).toEqual(before);
    expect((await get(`/api/companies/${target.id}`)).body.issueCounter ?? 0).toBe(0);

    // The object's issue counter did not move either: the next issue is number 1.
    const first = await post(`/api/companies/${target.id}/issues`, { title: "After the failure" });
    expect(first.body.identifier).toMatch(/-1$/);
    const retried = await post(`/api/companies/${target.id}/imports/apply`, { source: { type: "inline", files } });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ duplicate: false, create: { issues: 651, agents: 1, goals: expect.any(Number), projects: 1, labels: 1 } });
    const after = await companyRows(target.id);
    expect(after.issues).toBe(652);
    expect(after.issue_blockers).toBe(649);
  });
});

describe("a mutation whose write fails", () => {
  it("is not applied — neither the change nor its activity row — the API answers a JSON error, and a retry works", async () => {
    const company = await createCompany();
    const created = await post(`/api/companies/${company.id}/issues`, { title: "Lost create" }, { headers: { [FAULT]: "d1-write:1" } });
    expect(created.status).toBe(500);
    expect(created.body).toEqual({ error: expect.any(String) });
    expect((await get(`/api/companies/${company.id}/issues`)).body).toEqual([]);
    expect(await activity(company.id, "issue.created")).toEqual([]);
    const retried = await post(`/api/companies/${company.id}/issues`, { title: "Lost create" });
    expect(retried.status).toBe(201);
    expect(retried.body.identifier).toMatch(/-1$/);
    expect(await activity(company.id, "issue.created")).toHaveLength(1);

    const before = await activity(company.id, "issue.updated");
    const changed = await patch(`/api/issues/${retried.body.id}`, { status: "in_progress", title: "Renamed" }, { headers: { [FAULT]: "d1-write:1" } });
    expect(changed.status).toBe(500);
    expect((await get(`/api/issues/${retried.body.id}`)).body).toMatchObject({ status: "backlog", title: "Lost create" });
    expect(await activity(company.id, "issue.updated")).toEqual(before);
    const again = await patch(`/api/issues/${retried.body.id}`, { status: "in_progress", title: "Renamed" });
    expect(again.status).toBe(200);
    expect((await get(`/api/issues/${retried.body.id}`)).body).toMatchObject({ status: "in_progress", title: "Renamed" });
    expect((await activity(company.id, "issue.updated")).length).toBeGreaterThan(before.length);
  });

  it("a failing write to the company object's own storage does not wedge the company: issue numbers stay unique", async () => {
    const company = await createCompany();
    expect((await post(`/api/companies/${company.id}/issues`, { title: "One" })).status).toBe(201);
    // The object's counter write after the D1 batch fails (the issue itself was written).
    const failed = await post(`/api/companies/${company.id}/issues`, { title: "Two" }, { headers: { [FAULT]: "storage-write/counters:1" } });
    expect(failed.status).toBe(500);
    const next = await post(`/api/companies/${company.id}/issues`, { title: "Three" });
    expect(next.status).toBe(201);
    const identifiers = ((await get(`/api/companies/${company.id}/issues`)).body as any[]).map((i) => i.identifier);
    expect(new Set(identifiers).size).toBe(identifiers.length);
    // The fence (the first storage write of every command) failing changes nothing.
    const fenced = await post(`/api/companies/${company.id}/issues`, { title: "Four" }, { headers: { [FAULT]: "storage-write:1" } });
    expect(fenced.status).toBe(500);
    expect(((await get(`/api/companies/${company.id}/issues`)).body as any[]).map((i) => i.title)).not.toContain("Four");
  });
});

describe("the company object cut short mid-dispatch", () => {
  it("the dispatch's batch failing: the alarm stays armed, and firing it again makes the wake-up exactly one run", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "Do it", assigneeAgentId: agent.id })).status).toBe(201);
    expect((await wakeups(company.id, agent.id)).map((w) => w.status)).toEqual(["queued"]);
    await object(company.id).armFaults("d1-write:1");
    expect(await fireAlarm(company.id)).toBe("failed");
    expect((await wakeups(company.id, agent.id)).map((w) => w.status)).toEqual(["queued"]);
    expect(await agentRuns(company.id, agent.id)).toEqual([]);
    expect(await alarmAt(company.id)).not.toBeNull();

    expect(await fireAlarm(company.id)).toBe("ran");
    const runs = await agentRuns(company.id, agent.id);
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe("succeeded");
    expect(await wakeups(company.id, agent.id)).toEqual([{ status: "completed", runId: runs[0].id }]);
    expect(await received(agent.endpoint)).toHaveLength(1);
  });

  it("cut short after the run was written and the endpoint called, before its answer was recorded: the next alarm calls it again, still one run", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    await post(`/api/companies/${company.id}/issues`, { title: "Do it", assigneeAgentId: agent.id });
    // Write 1 is the dispatch's batch (the run becomes running); write 2 records the endpoint's answer.
    await object(company.id).armFaults("d1-write:2");
    expect(await fireAlarm(company.id)).toBe("failed");
    const [running] = await agentRuns(company.id, agent.id);
    expect(running.status).toBe("running");
    expect(await received(agent.endpoint)).toHaveLength(1);

    expect(await fireAlarm(company.id)).toBe("ran");
    const runs = await agentRuns(company.id, agent.id);
    expect(runs).toEqual([expect.objectContaining({ id: running.id, status: "succeeded" })]);
    // At least once: the endpoint saw the same run twice, never two runs.
    const calls = await received(agent.endpoint);
    expect(calls.map((c) => c.body.runId)).toEqual([running.id, running.id]);
    // Nothing left to resume: the next alarm (if any) hands out nothing more.
    if (await alarmAt(company.id)) await fireAlarm(company.id);
    expect(await received(agent.endpoint)).toHaveLength(2);
  });

  it("cut short between writing a runner's run and sending run.start: the next alarm sends it, exactly one run", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    const runner = (await connect(company.id, { token: key.token })).client!;
    await runner.hello([agent.id]);
    await post(`/api/companies/${company.id}/issues`, { title: "Run locally", assigneeAgentId: agent.id });
    // The object's record of the hand-out (remote_runs) fails: as if evicted right after the dispatch's batch.
    await object(company.id).armFaults("storage-write/remote_runs:1");
    expect(await fireAlarm(company.id)).toBe("failed");
    const [written] = await agentRuns(company.id, agent.id);
    expect(written.status).toBe("running");
    runner.send({ type: "ping" });
    await runner.next((m) => m.type === "pong");
    expect(runner.received.filter((m) => m.type === "run.start")).toEqual([]);

    expect(await fireAlarm(company.id)).toBe("ran");
    const start = await runner.next((m) => m.type === "run.start");
    expect(start.runId).toBe(written.id);
    runner.send({ type: "run.started", runId: start.runId });
    runner.send({ type: "run.complete", runId: start.runId, status: "succeeded", summary: "once" });
    await runner.next((m) => m.type === "run.completed");
    expect(await agentRuns(company.id, agent.id)).toEqual([expect.objectContaining({ id: written.id, status: "succeeded", summary: "once" })]);
    expect((await wakeups(company.id, agent.id)).map((w) => w.status)).toEqual(["completed"]);
    runner.close();
  });

  it("… and when no runner serves the agent any more, the left-over run is lost and retried instead of staying running", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const runner = (await connect(company.id)).client!;
    await runner.hello([agent.id]);
    await post(`/api/companies/${company.id}/issues`, { title: "Run locally", assigneeAgentId: agent.id });
    await object(company.id).armFaults("storage-write/remote_runs:1");
    expect(await fireAlarm(company.id)).toBe("failed");
    runner.close();
    await eventually(async () => (await get(`/api/companies/${company.id}/runners`)).body.length === 0);
    expect(await fireAlarm(company.id)).toBe("ran");
    // The grace period is 0 in tests: the alarm it sets is due at once (it may fire by itself).
    await dispatch(company.id);
    const runs = await agentRuns(company.id, agent.id);
    expect(runs).toEqual([expect.objectContaining({ status: "scheduled_retry", errorCode: "process_lost", retryCount: 1 })]);
  });
});
