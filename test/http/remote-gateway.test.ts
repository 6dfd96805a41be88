// The remote_gateway adapter against a fake gateway (test/setup/fake-gateway.ts) implementing the
// spec's run protocol. The company object's dispatcher hands the run to its GatewayRunObject; the
// tests fire that object's alarm by hand (it follows the stream to the end), so nothing sleeps.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { AUTHENTICATED, get, post, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgentKey, schema, testDb, dispatch } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";

const FAKE = env.FAKE_AGENT_URL;

const gatewayCalls = async (
  id: string,
): Promise<{ calls: Array<{ method: string; path: string; headers: Record<string, string>; body: any }>; runs: number }> =>
  (await fetch(`${FAKE}/__gw/${id}`)).json();

async function gatewayAgent(companyId: string, scenario: string, config: Record<string, unknown> = {}) {
  const id = unique("gw");
  const res = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Remote"),
    adapterType: "remote_gateway",
    adapterConfig: { apiBaseUrl: `${FAKE}/gw/${scenario}/${id}`, apiKey: "gw-live-key-0123456789", eventReconnectMs: 20, ...config },
  });
  if (res.status !== 201) throw new Error(`agent create failed: ${res.status} ${res.text}`);
  return { agent: res.body as { id: string; adapterConfig: Record<string, unknown> }, gatewayId: id };
}

/** Wakes the agent (optionally on an issue), dispatches, and returns the run id. */
async function startRun(companyId: string, agentId: string, body: Record<string, unknown> = {}) {
  const woke = await post(`/api/agents/${agentId}/wakeup`, body);
  expect(woke.status).toBe(202);
  await dispatch(companyId);
  return woke.body.id as string;
}

const followRun = (runId: string) => runDurableObjectAlarm(env.GATEWAY_RUNS.getByName(runId));
const run = async (runId: string) => (await get(`/api/heartbeat-runs/${runId}`)).body;
const events = async (runId: string) => (await get(`/api/heartbeat-runs/${runId}/events`)).body as Array<{ kind: string; message: string; data: any }>;

describe("remote_gateway adapter", () => {
  it("creates the remote run with the protocol's headers and body, relays the SSE events and completes with a cost event", async () => {
    const company = await createCompany();
    const { agent, gatewayId } = await gatewayAgent(company.id, "complete", {
      headers: { "x-team": "core" },
      instructions: "You are the remote worker.",
      paperclipApiUrl: "https://control.example.com",
    });
    expect(agent.adapterConfig.apiKey).toMatchObject({ type: "secret_ref" });
    const issue = await post(`/api/companies/${company.id}/issues`, { title: "Remote work" });
    const runId = await startRun(company.id, agent.id, { issueId: issue.body.id, reason: "issue_assigned" });
    expect(await followRun(runId)).toBe(true);

    const { calls } = await gatewayCalls(gatewayId);
    const create = calls.find((c) => c.method === "POST" && c.path === "/v1/runs")!;
    expect(create.headers["idempotency-key"]).toBe(runId);
    expect(create.headers.authorization).toBe("Bearer gw-live-key-0123456789");
    expect(create.headers["x-gateway-session-key"]).toBe(`issue:${issue.body.id}`);
    expect(create.headers["x-team"]).toBe("core");
    expect(create.body).toMatchObject({
      instructions: "You are the remote worker.",
      paperclipApiUrl: "https://control.example.com",
      context: { runId, agentId: agent.id, companyId: company.id, issueId: issue.body.id, wakeReason: "issue_assigned" },
      input: { issueId: issue.body.id, wakeReason: "issue_assigned" },
    });
    expect(typeof create.body.apiToken).toBe("string");
    expect(calls.filter((c) => c.path.endsWith("/events"))).toHaveLength(1);
    expect(calls.filter((c) => c.path.endsWith("/stop"))).toHaveLength(0);

    const finished = await run(runId);
    expect(finished).toMatchObject({ status: "succeeded", summary: "done remotely" });
    const relayed = (await events(runId)).filter((e) => e.data?.event);
    expect(relayed.map((e) => [e.data.event, e.data.id])).toEqual([
      ["run.started", "1"],
      ["message", "2"],
      ["run.completed", "3"],
    ]);
    expect(relayed[1].message).toBe("message: working on it");
    const costs = await testDb().select().from(schema.costEvents).where(eq(schema.costEvents.heartbeatRunId, runId));
    expect(costs).toHaveLength(1);
    expect(costs[0]).toMatchObject({
      costCents: 12,
      inputTokens: 1200,
      outputTokens: 340,
      provider: "remote-llm",
      model: "remote-model-1",
      agentId: agent.id,
      issueId: issue.body.id,
    });
  });

  it("a stream that drops twice resumes with Last-Event-ID after eventReconnectMs and completes", async () => {
    const company = await createCompany();
    const { agent, gatewayId } = await gatewayAgent(company.id, "drops", { sessionKeyStrategy: "agent" });
    const runId = await startRun(company.id, agent.id);
    await followRun(runId);
    const { calls } = await gatewayCalls(gatewayId);
    const streams = calls.filter((c) => c.path.endsWith("/events"));
    expect(streams.map((c) => c.headers["last-event-id"] ?? null)).toEqual([null, "1", "2"]);
    expect(streams[0].headers["x-gateway-session-key"]).toBe(`agent:${agent.id}`);
    expect(await run(runId)).toMatchObject({ status: "succeeded", summary: "done after reconnects" });
    const log = await events(runId);
    expect(log.filter((e) => e.message.startsWith("Event stream disconnected"))).toHaveLength(2);
    expect(log.filter((e) => e.data?.event === "message").map((e) => e.data.id)).toEqual(["1", "2"]);
  });

  it("an object evicted mid-run resumes from its storage: no second create, the stream reopens from the last event id", async () => {
    const company = await createCompany();
    const { agent, gatewayId } = await gatewayAgent(company.id, "drops");
    const runId = await startRun(company.id, agent.id);
    const stub = env.GATEWAY_RUNS.getByName(runId);
    // What a previous instance had stored when it was evicted: the remote run, event 2 relayed.
    await runInDurableObject(stub, async (_instance, state) => {
      const stored = (await state.storage.get<Record<string, unknown>>("state"))!;
      await state.storage.put("state", { ...stored, remoteRunId: `remote-${gatewayId}-1`, lastEventId: "2" });
    });
    expect(await followRun(runId)).toBe(true);
    const { calls } = await gatewayCalls(gatewayId);
    expect(calls.filter((c) => c.method === "POST" && c.path === "/v1/runs")).toHaveLength(0);
    expect(calls.map((c) => [c.path, c.headers["last-event-id"] ?? null])).toEqual([[`/v1/runs/remote-${gatewayId}-1/events`, "2"]]);
    expect(await run(runId)).toMatchObject({ status: "succeeded", summary: "done after reconnects" });
  });

  it("a stream that cannot be opened falls back to polling GET /v1/runs/{id} until a terminal status", async () => {
    const company = await createCompany();
    const { agent, gatewayId } = await gatewayAgent(company.id, "poll", { sessionKeyStrategy: "none" });
    const runId = await startRun(company.id, agent.id);
    await followRun(runId);
    const { calls } = await gatewayCalls(gatewayId);
    const polls = calls.filter((c) => c.method === "GET" && /^\/v1\/runs\/[^/]+$/.test(c.path));
    expect(polls.length).toBe(2);
    expect(calls.every((c) => c.headers["x-gateway-session-key"] === undefined)).toBe(true);
    expect(await run(runId)).toMatchObject({ status: "succeeded", summary: "done by polling" });
    expect((await events(runId)).some((e) => e.message.includes("polling GET /v1/runs/"))).toBe(true);
    const costs = await testDb().select().from(schema.costEvents).where(eq(schema.costEvents.heartbeatRunId, runId));
    expect(costs.map((c) => c.costCents)).toEqual([5]);
  });

  it("past timeoutSec the adapter calls stop and the run ends timed_out", async () => {
    const company = await createCompany();
    const { agent, gatewayId } = await gatewayAgent(company.id, "hang", { timeoutSec: 1 });
    const runId = await startRun(company.id, agent.id);
    await followRun(runId);
    const { calls } = await gatewayCalls(gatewayId);
    const stop = calls.find((c) => c.method === "POST" && c.path.endsWith("/stop"));
    expect(stop?.path).toBe(`/v1/runs/remote-${gatewayId}-1/stop`);
    expect(stop?.headers.authorization).toBe("Bearer gw-live-key-0123456789");
    expect(await run(runId)).toMatchObject({ status: "timed_out", errorCode: "timeout" });
  });

  it("cancelling the service run stops the remote run", async () => {
    const company = await createCompany();
    const { agent, gatewayId } = await gatewayAgent(company.id, "hang");
    const runId = await startRun(company.id, agent.id);
    const following = followRun(runId);
    await eventually(async () => (await gatewayCalls(gatewayId)).calls.some((c) => c.path.endsWith("/events")));
    const cancelled = await post(`/api/heartbeat-runs/${runId}/cancel`);
    expect(cancelled.status).toBe(200);
    await following;
    // The stop is sent once the cancel has been answered (outside the company's command queue).
    await eventually(async () => (await gatewayCalls(gatewayId)).calls.some((c) => c.path.endsWith("/stop")));
    const { calls } = await gatewayCalls(gatewayId);
    expect(calls.filter((c) => c.path.endsWith("/stop"))).toHaveLength(1);
    expect(await run(runId)).toMatchObject({ status: "cancelled" });
    expect(await env.GATEWAY_RUNS.getByName(runId).describe()).toMatchObject({ done: true, cancelled: true });
  });

  it("a create that fails with 503 is retried with the same Idempotency-Key: the remote creates one run", async () => {
    const company = await createCompany();
    const { agent, gatewayId } = await gatewayAgent(company.id, "flaky");
    const runId = await startRun(company.id, agent.id);
    await followRun(runId);
    const { calls, runs } = await gatewayCalls(gatewayId);
    const creates = calls.filter((c) => c.method === "POST" && c.path === "/v1/runs");
    expect(creates).toHaveLength(2);
    expect(creates.map((c) => c.headers["idempotency-key"])).toEqual([runId, runId]);
    expect(runs).toBe(1);
    expect(await run(runId)).toMatchObject({ status: "succeeded" });
    // Starting the same run again (a dispatch delivered twice) changes nothing.
    const stub = env.GATEWAY_RUNS.getByName(runId);
    await stub.start({ companyId: company.id, runId, agentId: agent.id, issueId: null, adapterConfig: {}, body: {}, deadline: Date.now() });
    expect(await stub.describe()).toMatchObject({ done: true, remoteRunId: `remote-${gatewayId}-1` });
    // The finished run's only alarm is its retention: it forgets the state (context, token).
    expect(await followRun(runId)).toBe(true);
    expect(await stub.describe()).toBeNull();
    expect((await gatewayCalls(gatewayId)).calls.filter((c) => c.method === "POST" && c.path === "/v1/runs")).toHaveLength(2);
  });

  it("a remote failure status ends the run failed with the remote's error", async () => {
    const company = await createCompany();
    const { agent } = await gatewayAgent(company.id, "failing");
    const runId = await startRun(company.id, agent.id);
    await followRun(runId);
    expect(await run(runId)).toMatchObject({ status: "failed", errorCode: "gateway_failed", error: "model overloaded" });
  });

  it("protected headers cannot be overridden by the config, and a dashboard URL maps to its /api", async () => {
    const company = await createCompany();
    for (const header of ["Authorization", "X-Gateway-Session-Key", "Idempotency-Key"]) {
      const res = await post(`/api/companies/${company.id}/agents`, {
        name: unique("Remote"),
        adapterType: "remote_gateway",
        adapterConfig: { apiBaseUrl: "https://gateway.example.com/", apiKey: "k-0123456789", headers: { [header]: "forged" } },
      });
      expect(res.status).toBe(422);
      expect(res.body.error).toContain("security-critical headers");
    }
    const mapped = await post(`/api/companies/${company.id}/agents`, {
      name: unique("Remote"),
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "https://gateway.example.com/chat/abc", apiKey: "k-0123456789" },
    });
    expect(mapped.status).toBe(201);
    expect(mapped.body.adapterConfig.apiBaseUrl).toBe("https://gateway.example.com/api");
    const insecure = await post(`/api/companies/${company.id}/agents`, {
      name: unique("Remote"),
      adapterType: "remote_gateway",
      adapterConfig: { apiBaseUrl: "http://gateway.example.com", apiKey: "k-0123456789" },
    });
    expect(insecure.status).toBe(422);
  });

  it("another company's callers cannot read, cancel or see the gateway run", async () => {
    const company = await createCompany();
    const owner = await boardUser(company.id);
    const other = await createCompany();
    const stranger = await boardUser(other.id);
    const { agent } = await gatewayAgent(company.id, "complete");
    const runId = await startRun(company.id, agent.id);
    await followRun(runId);
    const otherAgent = await post(`/api/companies/${other.id}/agents`, { name: unique("A"), adapterType: "http", adapterConfig: { url: `${FAKE}/agent/x` } });
    const otherAgentKey = await insertAgentKey(otherAgent.body.id, other.id);
    const as = (token: string) => ({ env: AUTHENTICATED, token });
    expect((await get(`/api/heartbeat-runs/${runId}`, as(stranger.token))).status).toBe(404);
    expect((await get(`/api/heartbeat-runs/${runId}/events`, as(otherAgentKey.token))).status).toBe(404);
    expect((await post(`/api/heartbeat-runs/${runId}/cancel`, {}, as(otherAgentKey.token))).status).toBe(404);
    expect((await get(`/api/companies/${company.id}/heartbeat-runs`, as(stranger.token))).status).toBe(403);
    expect((await get(`/api/heartbeat-runs/${runId}`, as(owner.token))).body.status).toBe("succeeded");
  });
});
