// Runners over WebSockets to the company object, driven by real WebSocket clients through the
// Worker's fetch: authentication before the upgrade, hello/ready, run.start → run.event →
// run.complete, cancel, a disconnect mid-run (grace period 0 in tests: RUNNER_GRACE_MS), reclaiming
// a run after a reconnect, two runners for different agents, and an idle period.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { AUTHENTICATED, get, post, unique } from "../helpers/api";
import { agentJwt, boardUser, createCompany, insertAgentKey, schema, testDb, updateRow, dispatch } from "../helpers/fixtures";
import { connect, processAgent, type RunnerClient } from "../helpers/runners";
import { eventually } from "../helpers/eventually";

const run = async (runId: string) => (await get(`/api/heartbeat-runs/${runId}`)).body;

describe("runner connection", () => {
  it("authenticates before the upgrade: no key 401, another company's keys 403, a viewer 403, a non-upgrade 426", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await processAgent(company.id);
    const otherAgent = await processAgent(other.id);
    const stranger = await boardUser(other.id);
    const viewer = await boardUser(company.id, "viewer");
    const member = await boardUser(company.id, "member");
    const otherKey = await insertAgentKey(otherAgent.id, other.id);
    const ownKey = await insertAgentKey(agent.id, company.id);

    expect((await connect(company.id, { env: AUTHENTICATED })).status).toBe(401);
    expect((await connect(company.id, { env: AUTHENTICATED, token: stranger.token })).status).toBe(403);
    expect((await connect(company.id, { env: AUTHENTICATED, token: otherKey.token, query: true })).status).toBe(403);
    expect((await connect(company.id, { env: AUTHENTICATED, token: "svc_agent_not-a-key", query: true })).status).toBe(401);
    const refused = await connect(company.id, { env: AUTHENTICATED, token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBeTruthy();
    expect((await connect(company.id, { env: AUTHENTICATED, token: member.token, upgrade: false })).status).toBe(426);

    // A run token cannot hold a runner socket; nor may a page of another origin open one.
    const runToken = await agentJwt(agent.id, company.id, { runId: crypto.randomUUID() });
    const byRunToken = await connect(company.id, { env: AUTHENTICATED, token: runToken });
    expect(byRunToken.status).toBe(403);
    expect(byRunToken.body.error).toMatch(/run token/);
    const crossOrigin = await connect(company.id, { env: AUTHENTICATED, token: member.token, origin: "https://evil.example" });
    expect(crossOrigin.status).toBe(403);
    expect((await connect(company.id, { origin: "https://evil.example" })).status).toBe(403);

    const viaQuery = await connect(company.id, { env: AUTHENTICATED, token: ownKey.token, query: true });
    expect(viaQuery.status).toBe(101);
    const viaHeader = await connect(company.id, { env: AUTHENTICATED, token: member.token });
    expect(viaHeader.status).toBe(101);
    viaQuery.client!.close();
    viaHeader.client!.close();
  });

  it("hello: an agent key serves only its own agent; only process and <runtime>_local agents; bad messages get an error", async () => {
    const company = await createCompany();
    const mine = await processAgent(company.id);
    const sibling = await processAgent(company.id);
    const http = await post(`/api/companies/${company.id}/agents`, {
      name: unique("Http"),
      adapterType: "http",
      adapterConfig: { url: `${env.FAKE_AGENT_URL}/agent/x` },
    });
    const key = await insertAgentKey(mine.id, company.id);
    const { client } = await connect(company.id, { env: AUTHENTICATED, token: key.token });
    const ready = await client!.hello([mine.id, sibling.id, http.body.id, "missing-agent"]);
    expect(ready).toMatchObject({ type: "ready", version: 2, agents: [mine.id] });
    expect(ready.refused.map((r: any) => r.agentId)).toEqual([sibling.id, http.body.id, "missing-agent"]);
    expect(ready.refused[0].reason).toContain("only its own agent");

    // A runner of the previous protocol version is told to upgrade.
    client!.send({ type: "hello", version: 1, agents: [] });
    expect((await client!.next((m) => m.type === "error")).error).toMatch(/version 2: upgrade the runner/);
    client!.ws.send("not json");
    expect((await client!.next((m) => m.type === "error")).error).toContain("JSON");
    client!.send({ type: "ping" });
    expect(await client!.next((m) => m.type === "pong")).toEqual({ type: "pong" });
    client!.send({ type: "run.event", runId: "someone-elses-run", kind: "log", message: "x" });
    expect((await client!.next((m) => m.type === "error")).runId).toBe("someone-elses-run");

    const board = await boardUser(company.id);
    const listed = await get(`/api/companies/${company.id}/runners`, { env: AUTHENTICATED, token: board.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ name: "test-runner", agents: [mine.id], principal: { type: "agent", agentId: mine.id }, activeRuns: 0 }),
    ]);
    const stranger = await boardUser((await createCompany()).id);
    expect((await get(`/api/companies/${company.id}/runners`, { env: AUTHENTICATED, token: stranger.token })).status).toBe(403);
    client!.close();
  });
});

describe("runs on a runner", () => {
  it("run.start carries the run's context, env with resolved secrets, API URL and run token; events and completion end the run with its cost", async () => {
    const company = await createCompany();
    const secret = await post(`/api/companies/${company.id}/secrets`, { name: unique("TOKEN").toUpperCase().replace(/-/g, "_"), value: "runner-secret-value" });
    const agent = await processAgent(company.id, { env: { PLAIN: "p", API_TOKEN: { type: "secret_ref", secretId: secret.body.id } }, timeoutSec: 60 });
    const { client } = await connect(company.id);
    await client!.hello([agent.id]);
    const issue = await post(`/api/companies/${company.id}/issues`, { title: "Run locally" });
    const woke = await post(`/api/agents/${agent.id}/wakeup`, { issueId: issue.body.id, payload: { hello: "runner" } });
    await dispatch(company.id);

    const start = await client!.next((m) => m.type === "run.start");
    expect(start).toMatchObject({
      version: 2,
      runId: woke.body.id,
      agentId: agent.id,
      companyId: company.id,
      adapterType: "process",
      adapterConfig: { command: "/bin/echo", args: ["hi"], timeoutSec: 60 },
      context: { issueId: issue.body.id, payload: { hello: "runner" } },
      env: { PLAIN: "p", API_TOKEN: "runner-secret-value" },
      apiUrl: "http://localhost",
    });
    expect(start.adapterConfig.env).toBeUndefined();
    // The run token works against the API as the agent, in its run.
    const me = await get("/api/agents/me", { token: start.apiToken });
    expect(me.body.id).toBe(agent.id);
    expect((await get(`/api/companies/${company.id}/runners`)).body[0].activeRuns).toBe(1);

    client!.send({ type: "run.event", runId: start.runId, kind: "log", message: "hello from stdout", data: { stream: "stdout" } });
    client!.send({
      type: "run.complete",
      runId: start.runId,
      status: "succeeded",
      summary: "echoed",
      exitCode: 0,
      usage: { provider: "local", model: "m", costUsd: 0.03, billingType: "metered_api" },
    });
    expect(await client!.next((m) => m.type === "run.completed")).toEqual({ type: "run.completed", runId: start.runId });
    expect(await run(start.runId)).toMatchObject({ status: "succeeded", summary: "echoed" });
    const events = (await get(`/api/heartbeat-runs/${start.runId}/events`)).body as any[];
    expect(events.find((e) => e.message === "hello from stdout")).toMatchObject({ kind: "log", data: { stream: "stdout" } });
    const costs = await testDb().select().from(schema.costEvents).where(eq(schema.costEvents.heartbeatRunId, start.runId));
    expect(costs.map((c) => c.costCents)).toEqual([3]);
    client!.close();
  });

  it("a failed exit code fails the run; cancelling sends run.cancel to the runner", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const { client } = await connect(company.id);
    await client!.hello([agent.id]);
    await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    const first = await client!.next((m) => m.type === "run.start");
    client!.send({ type: "run.complete", runId: first.runId, status: "failed", exitCode: 3 });
    await eventually(async () => (await run(first.runId)).status !== "running");
    expect(await run(first.runId)).toMatchObject({ status: "failed", errorCode: "process_failed", error: "The process exited with code 3" });

    await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    const second = await client!.next((m) => m.type === "run.start");
    expect((await post(`/api/heartbeat-runs/${second.runId}/cancel`)).status).toBe(200);
    expect(await client!.next((m) => m.type === "run.cancel")).toEqual({ type: "run.cancel", runId: second.runId });
    // A late completion of a cancelled run changes nothing.
    client!.send({ type: "run.complete", runId: second.runId, status: "succeeded" });
    expect((await client!.next((m) => m.type === "error")).runId).toBe(second.runId);
    expect((await run(second.runId)).status).toBe("cancelled");
    client!.close();
  });

  it("two runners serving different agents of one company each get only their agent's runs", async () => {
    const company = await createCompany();
    const a = await processAgent(company.id);
    const b = await processAgent(company.id, { command: "/bin/true" });
    const first = (await connect(company.id)).client!;
    const second = (await connect(company.id)).client!;
    await first.hello([a.id]);
    await second.hello([b.id], { name: "second" });
    const runA = await post(`/api/agents/${a.id}/wakeup`, {});
    const runB = await post(`/api/agents/${b.id}/wakeup`, {});
    await dispatch(company.id);
    expect((await first.next((m) => m.type === "run.start")).runId).toBe(runA.body.id);
    expect((await second.next((m) => m.type === "run.start")).runId).toBe(runB.body.id);
    expect(first.received.filter((m) => m.type === "run.start")).toHaveLength(0);
    expect(second.received.filter((m) => m.type === "run.start")).toHaveLength(0);
    const listed = (await get(`/api/companies/${company.id}/runners`)).body as any[];
    expect(listed.map((r) => r.agents).sort()).toEqual([[a.id], [b.id]].sort());
    // Another runner may not report on a run of an agent it does not serve.
    second.send({ type: "run.complete", runId: runA.body.id, status: "succeeded" });
    expect((await second.next((m) => m.type === "error")).runId).toBe(runA.body.id);
    expect((await run(runA.body.id)).status).toBe("running");
    first.close();
    second.close();
  });

  it("a runner that disconnects mid-run: after the grace period the run is process_lost and retried on the next runner", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const gone = (await connect(company.id)).client!;
    await gone.hello([agent.id]);
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await gone.next((m) => m.type === "run.start");
    gone.close();
    await eventually(async () => (await get(`/api/companies/${company.id}/runners`)).body.length === 0);
    await dispatch(company.id);
    const lost = await run(woke.body.id);
    expect(lost).toMatchObject({ status: "scheduled_retry", errorCode: "process_lost", retryCount: 1 });

    const next = (await connect(company.id)).client!;
    await next.hello([agent.id]);
    await updateRow(schema.heartbeatRuns, woke.body.id, { nextRetryAt: new Date(Date.now() - 1000).toISOString() });
    await dispatch(company.id);
    const restarted = await next.next((m) => m.type === "run.start");
    expect(restarted.runId).toBe(woke.body.id);
    next.send({ type: "run.complete", runId: woke.body.id, status: "succeeded", summary: "second try" });
    await eventually(async () => (await run(woke.body.id)).status === "succeeded");
    expect(await run(woke.body.id)).toMatchObject({ status: "succeeded", summary: "second try", retryCount: 1 });
    next.close();
  });

  it("a runner that reconnects within the grace period reclaims its run (hello runs) and completes it", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const first = (await connect(company.id)).client!;
    await first.hello([agent.id]);
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await first.next((m) => m.type === "run.start");
    first.close();
    const again = (await connect(company.id)).client!;
    const ready = await again.hello([agent.id], { runs: [woke.body.id] });
    expect(ready.runs).toEqual([woke.body.id]);
    await dispatch(company.id);
    expect((await run(woke.body.id)).status).toBe("running");
    again.send({ type: "run.complete", runId: woke.body.id, status: "succeeded" });
    await eventually(async () => (await run(woke.body.id)).status === "succeeded");
    expect((await run(woke.body.id)).status).toBe("succeeded");
    again.close();
  });

  it("after an idle period the runner still gets its runs, and keep-alive pings are answered", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const client = (await connect(company.id)).client!;
    await client.hello([agent.id]);
    // The idle period is the subject here (the object may hibernate): a deliberate quiet wait.
    await new Promise((r) => setTimeout(r, 1500));
    client.send({ type: "ping" });
    await client.next((m) => m.type === "pong");
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    expect((await client.next((m) => m.type === "run.start")).runId).toBe(woke.body.id);
    client.close();
  });

  it("wake-ups of a local agent wait queued until a runner serves it", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    expect((await run(woke.body.id)).status).toBe("queued");
    const client = (await connect(company.id)).client!;
    await client.hello([agent.id]);
    await dispatch(company.id);
    expect((await client.next((m) => m.type === "run.start")).runId).toBe(woke.body.id);
    client.close();
  });

  it("a runner whose key is revoked gets no more runs: its socket is closed before run.start and the run goes to a valid runner", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    const revoked = (await connect(company.id, { env: AUTHENTICATED, token: key.token })).client!;
    await revoked.hello([agent.id]);
    await updateRow(schema.agentApiKeys, key.id, { revokedAt: new Date().toISOString() });
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await eventually(() => revoked.closed);
    expect(revoked.closed).toBe(true);
    expect(revoked.received.filter((m) => m.type === "run.start")).toEqual([]);
    await dispatch(company.id); // the alarm that follows at once: the lost attempt goes through the retry policy
    expect(await run(woke.body.id)).toMatchObject({ status: "scheduled_retry", errorCode: "process_lost" });

    const fresh = await insertAgentKey(agent.id, company.id);
    const valid = (await connect(company.id, { env: AUTHENTICATED, token: fresh.token })).client!;
    await valid.hello([agent.id]);
    await updateRow(schema.heartbeatRuns, woke.body.id, { nextRetryAt: new Date(Date.now() - 1000).toISOString() });
    await dispatch(company.id);
    expect((await valid.next((m) => m.type === "run.start")).runId).toBe(woke.body.id);
    valid.close();
  });

  it("a run bound to a live runner cannot be completed or reclaimed by another; the same runner process reconnecting reclaims it", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const bound = (await connect(company.id)).client!;
    await bound.hello([agent.id], { instanceId: "runner-process-aaaa" });
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await bound.next((m) => m.type === "run.start");

    const other = (await connect(company.id)).client!;
    const otherReady = await other.hello([agent.id], { instanceId: "runner-process-bbbb", runs: [woke.body.id] });
    expect(otherReady.runs).toEqual([]);
    other.send({ type: "run.complete", runId: woke.body.id, status: "succeeded" });
    expect((await other.next((m) => m.type === "error")).runId).toBe(woke.body.id);
    expect((await run(woke.body.id)).status).toBe("running");

    // The same process on a new socket (its old one not noticed closed yet) takes the run back; the old socket is closed.
    const again = (await connect(company.id)).client!;
    const ready = await again.hello([agent.id], { instanceId: "runner-process-aaaa", runs: [woke.body.id] });
    expect(ready.runs).toEqual([woke.body.id]);
    await eventually(() => bound.closed);
    expect(bound.closed).toBe(true);
    again.send({ type: "run.complete", runId: woke.body.id, status: "succeeded", summary: "reclaimed" });
    expect((await again.next((m) => m.type === "run.completed")).runId).toBe(woke.body.id);
    expect(await run(woke.body.id)).toMatchObject({ status: "succeeded", summary: "reclaimed" });
    other.close();
    again.close();
  });

  it("a runner silent for longer than the stale limit counts as gone: its socket is closed and its run lost", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const silent = (await connect(company.id)).client!;
    await silent.hello([agent.id]);
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await silent.next((m) => m.type === "run.start");
    // Nothing heard from it for 100 s (no message, no answered ping).
    const stub = env.COMPANY.getByName(company.id);
    await runInDurableObject(stub, async (_instance, state) => {
      for (const ws of state.getWebSockets("runner")) ws.serializeAttachment({ ...ws.deserializeAttachment(), lastSeenAt: Date.now() - 100_000 });
    });
    await dispatch(company.id);
    await eventually(() => silent.closed);
    expect(silent.closed).toBe(true);
    expect((await get(`/api/companies/${company.id}/runners`)).body).toEqual([]);
    await dispatch(company.id);
    expect(await run(woke.body.id)).toMatchObject({ status: "scheduled_retry", errorCode: "process_lost" });
  });
});

/** Moves the company's unacknowledged run.start messages `ms` into the past (instead of waiting out the 10 s). */
const backdateStarts = (companyId: string, ms = 11_000) =>
  runInDurableObject(env.COMPANY.getByName(companyId), (_instance, state) => {
    state.storage.sql.exec("UPDATE remote_runs SET start_sent_at = start_sent_at - ? WHERE start_sent_at IS NOT NULL", ms);
  });

/** Everything the service sent this client before now has arrived (a socket keeps order): a ping's pong comes after it. */
async function drained(client: RunnerClient) {
  client.send({ type: "ping" });
  await client.next((m) => m.type === "pong");
}

const events = async (runId: string) => ((await get(`/api/heartbeat-runs/${runId}/events`)).body as any[]).map((e) => e.message as string);

describe("run.start acknowledgement (run.started)", () => {
  it("an unacknowledged run.start goes once more to the same runner after 10 s, then to another runner serving the agent (the first is told run.cancel)", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const silent = (await connect(company.id)).client!;
    await silent.hello([agent.id], { name: "silent" });
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    const first = await silent.next((m) => m.type === "run.start");
    expect(first.runId).toBe(woke.body.id);
    // The object's alarm is what looks again: due when the acknowledgement is.
    const alarmAt = await runInDurableObject(env.COMPANY.getByName(company.id), (_instance, state) => state.storage.getAlarm());
    expect(alarmAt).not.toBeNull();
    expect(alarmAt!).toBeLessThanOrEqual(Date.now() + 10_000);

    // Within the 10 s nothing is sent again.
    await dispatch(company.id);
    await drained(silent);
    expect(silent.received.filter((m) => m.type === "run.start")).toEqual([]);

    await backdateStarts(company.id);
    await dispatch(company.id);
    const again = await silent.next((m) => m.type === "run.start");
    expect(again).toMatchObject({ runId: woke.body.id, agentId: agent.id });
    expect((await run(woke.body.id)).status).toBe("running");

    // Still nothing: the next runner serving the agent gets it, the silent one is told to drop it.
    const other = (await connect(company.id)).client!;
    await other.hello([agent.id], { name: "other" });
    await backdateStarts(company.id);
    await dispatch(company.id);
    expect((await other.next((m) => m.type === "run.start")).runId).toBe(woke.body.id);
    expect(await silent.next((m) => m.type === "run.cancel")).toEqual({ type: "run.cancel", runId: woke.body.id });
    // The first runner can no longer report on it.
    silent.send({ type: "run.complete", runId: woke.body.id, status: "succeeded" });
    expect((await silent.next((m) => m.type === "error")).runId).toBe(woke.body.id);

    // Acknowledged: never sent again, however long it runs.
    other.send({ type: "run.started", runId: woke.body.id });
    await drained(other);
    await backdateStarts(company.id, 60_000);
    await dispatch(company.id);
    await drained(other);
    expect(other.received.filter((m) => m.type === "run.start")).toEqual([]);
    other.send({ type: "run.complete", runId: woke.body.id, status: "succeeded", summary: "on the other runner" });
    expect((await other.next((m) => m.type === "run.completed")).runId).toBe(woke.body.id);
    expect(await run(woke.body.id)).toMatchObject({ status: "succeeded", summary: "on the other runner", retryCount: 0 });
    const log = await events(woke.body.id);
    expect(log.some((m) => m.includes("did not acknowledge run.start within 10 s; sent again"))).toBe(true);
    expect(log.some((m) => m.includes("handed to runner other"))).toBe(true);
    silent.close();
    other.close();
  });

  it("a report on the run acknowledges it too; with no other runner an unacknowledged start is lost at once and retried", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const client = (await connect(company.id)).client!;
    await client.hello([agent.id]);
    const reported = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await client.next((m) => m.type === "run.start");
    client.send({ type: "run.event", runId: reported.body.id, kind: "log", message: "working" });
    await eventually(async () => (await events(reported.body.id)).includes("working"));
    await backdateStarts(company.id);
    await dispatch(company.id);
    await drained(client);
    expect(client.received.filter((m) => m.type === "run.start")).toEqual([]);
    client.send({ type: "run.complete", runId: reported.body.id, status: "succeeded" });
    await client.next((m) => m.type === "run.completed");

    // A runner that takes the start but never answers, and no other runner: sent twice, then lost (retry policy).
    const ignored = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await client.next((m) => m.type === "run.start" && m.runId === ignored.body.id);
    await backdateStarts(company.id);
    await dispatch(company.id);
    await client.next((m) => m.type === "run.start" && m.runId === ignored.body.id);
    await backdateStarts(company.id);
    await dispatch(company.id);
    expect(await client.next((m) => m.type === "run.cancel")).toEqual({ type: "run.cancel", runId: ignored.body.id });
    await dispatch(company.id); // the grace period is 0 in tests
    expect(await run(ignored.body.id)).toMatchObject({ status: "scheduled_retry", errorCode: "process_lost", retryCount: 1 });
    client.close();
  });
});

describe("a completion whose recording fails", () => {
  it("is answered with a retryable error on the same socket, stays the runner's, and is recorded when sent again", async () => {
    const company = await createCompany();
    const agent = await processAgent(company.id);
    const client = (await connect(company.id)).client!;
    await client.hello([agent.id]);
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    await dispatch(company.id);
    await client.next((m) => m.type === "run.start");
    client.send({ type: "run.started", runId: woke.body.id });
    await drained(client);
    // The next D1 write of the company object fails: the completion's batch (test-only fault, src/db/faults.ts).
    await env.COMPANY.getByName(company.id).armFaults("d1-write:1");
    client.send({ type: "run.complete", runId: woke.body.id, status: "succeeded", summary: "done", usage: { costUsd: 0.02, billingType: "metered_api" } });
    expect(await client.next((m) => m.type === "error")).toMatchObject({ runId: woke.body.id, retryable: true });
    expect((await run(woke.body.id)).status).toBe("running");

    client.send({ type: "run.complete", runId: woke.body.id, status: "succeeded", summary: "done", usage: { costUsd: 0.02, billingType: "metered_api" } });
    expect(await client.next((m) => m.type === "run.completed")).toEqual({ type: "run.completed", runId: woke.body.id });
    expect(await run(woke.body.id)).toMatchObject({ status: "succeeded", summary: "done" });
    const costs = await testDb().select().from(schema.costEvents).where(eq(schema.costEvents.heartbeatRunId, woke.body.id));
    expect(costs.map((c) => c.costCents)).toEqual([2]);
    expect(client.closed).toBe(false);
    client.close();
  });
});
