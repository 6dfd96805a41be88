// Heartbeat runs through the HTTP surface: manual and automatic wake-ups become runs of `http`
// agents, dispatched by the company object's alarm (fired by hand here: deterministic, no sleeps)
// against the fake agent endpoint served by the test run (test/setup/fake-agent-server.ts).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch, post, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgentKey, insertApproval, schema, updateRow, dispatch, testD1 } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";

const FAKE = env.FAKE_AGENT_URL;

async function received(endpointId: string): Promise<Array<{ method: string; headers: Record<string, string>; body: any }>> {
  return (await fetch(`${FAKE}/__received/${endpointId}`)).json();
}

async function httpAgent(companyId: string, query = "", extra: Record<string, unknown> = {}) {
  const endpoint = unique("ep");
  const res = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Http"),
    adapterType: "http",
    adapterConfig: { url: `${FAKE}/agent/${endpoint}${query ? `?${query}` : ""}`, ...extra },
    ...(extra.runtimeConfig ? { runtimeConfig: extra.runtimeConfig } : {}),
  });
  if (res.status !== 201) throw new Error(`agent create failed: ${res.status} ${res.text}`);
  const key = await insertAgentKey(res.body.id, companyId);
  return { ...res.body, endpoint, token: key.token } as { id: string; endpoint: string; token: string; [k: string]: any };
}

const run = async (runId: string) => (await get(`/api/heartbeat-runs/${runId}`)).body;

describe("manual wake-up and the http adapter", () => {
  it("on_demand: the run starts, the endpoint gets context, token, API URL and env; a plain 2xx succeeds with its summary and usage", async () => {
    const company = await createCompany();
    const secret = await post(`/api/companies/${company.id}/secrets`, { name: unique("TOKEN").toUpperCase().replace(/-/g, "_"), value: "s3cr3t-value" });
    expect(secret.status).toBe(201);
    const body = encodeURIComponent(JSON.stringify({ summary: "all done", usage: { provider: "anthropic", model: "m", costCents: 7, inputTokens: 10 } }));
    const agent = await httpAgent(company.id, `body=${body}`, {
      headers: { "x-extra": "yes", authorization: "Bearer stolen", "content-type": "text/plain" },
      payloadTemplate: { team: "core" },
      env: { PLAIN: "p", API_TOKEN: { type: "secret_ref", secretId: secret.body.id } },
    });

    const woke = await post(`/api/agents/${agent.id}/wakeup`, { payload: { hello: "world" } });
    expect(woke.status).toBe(202);
    expect(woke.body).toMatchObject({ status: "queued", agentId: agent.id, invocationSource: "on_demand", reason: "on_demand", issueId: null });
    await dispatch(company.id);

    const [call] = await received(agent.endpoint);
    expect(call.method).toBe("POST");
    expect(call.headers["x-service-run-id"]).toBe(woke.body.id);
    expect(call.headers["x-extra"]).toBe("yes");
    expect(call.headers["content-type"]).toBe("application/json");
    expect(call.headers.authorization).toBeUndefined();
    expect(call.body).toMatchObject({
      team: "core",
      runId: woke.body.id,
      agentId: agent.id,
      companyId: company.id,
      context: { wakeReason: "on_demand", issueId: null, payload: { hello: "world" } },
      env: { PLAIN: "p", API_TOKEN: "s3cr3t-value" },
    });
    expect(call.body.apiUrl).toMatch(/^https?:\/\//);
    expect(JSON.stringify(call.body.env)).not.toContain(env.AGENT_JWT_SECRET);

    const done = await run(woke.body.id);
    expect(done).toMatchObject({ status: "succeeded", summary: "all done", usage: { costCents: 7 } });
    expect(done.startedAt).toBeTruthy();
    expect(done.finishedAt).toBeTruthy();
    expect(JSON.stringify(done)).not.toContain("s3cr3t-value");
    const costs = await get(`/api/companies/${company.id}/cost-events?heartbeatRunId=${woke.body.id}`);
    expect(costs.status).toBe(200);
    expect(costs.body).toHaveLength(1);
    expect(costs.body[0]).toMatchObject({ heartbeatRunId: woke.body.id, costCents: 7, agentId: agent.id });

    // The run's token is the agent, for this run: it can read the API.
    const me = await get(`/api/agents/me`, { token: call.body.apiToken });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(agent.id);
  });

  it("202: the run stays running until the agent completes it; a second completion is refused and changes nothing", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=202");
    const other = await httpAgent(company.id);
    const woke = (await post(`/api/agents/${agent.id}/wakeup`, {})).body;
    await dispatch(company.id);
    expect((await run(woke.id)).status).toBe("running");
    const token = (await received(agent.endpoint))[0].body.apiToken as string;

    // Bad input changes nothing.
    expect((await post(`/api/heartbeat-runs/${woke.id}/events`, { events: [{ kind: "shout", message: "x" }] }, { token })).status).toBe(400);
    expect((await post(`/api/heartbeat-runs/${woke.id}/events`, { events: [] }, { token })).status).toBe(400);
    expect((await post(`/api/heartbeat-runs/${woke.id}/complete`, { status: "done" }, { token })).status).toBe(400);
    expect((await post(`/api/heartbeat-runs/${woke.id}/complete`, { status: "succeeded", usage: { costCents: 5 } }, { token })).status).toBe(400);
    expect((await get(`/api/heartbeat-runs/${woke.id}/events?afterSeq=-1`)).status).toBe(400);
    expect((await run(woke.id)).status).toBe("running");
    const progress = await post(
      `/api/heartbeat-runs/${woke.id}/events`,
      {
        events: [
          { kind: "log", message: "step 1" },
          { kind: "progress", message: "half", data: { pct: 50 } },
        ],
      },
      { token },
    );
    expect(progress.status).toBe(202);
    expect((await post(`/api/heartbeat-runs/${woke.id}/complete`, { status: "succeeded" }, { token: other.token })).status).toBe(403);
    expect((await post(`/api/heartbeat-runs/${woke.id}/complete`, { status: "succeeded" })).status).toBe(403);
    // The agent's key without naming the run is not the run.
    expect((await post(`/api/heartbeat-runs/${woke.id}/complete`, { status: "succeeded" }, { token: agent.token })).status).toBe(403);

    const completed = await post(
      `/api/heartbeat-runs/${woke.id}/complete`,
      { status: "succeeded", summary: "shipped", usage: { provider: "openai", model: "x", costCents: 3 } },
      { token },
    );
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ status: "succeeded", summary: "shipped" });
    expect(completed.body.costEventId).toBeTruthy();
    const again = await post(`/api/heartbeat-runs/${woke.id}/complete`, { status: "failed", error: "late" }, { token: agent.token, runId: woke.id });
    expect(again.status).toBe(409);
    expect(await run(woke.id)).toMatchObject({ status: "succeeded", summary: "shipped", error: null });
    expect((await post(`/api/heartbeat-runs/${woke.id}/events`, { events: [{ kind: "log", message: "late" }] }, { token })).status).toBe(409);

    const events = (await get(`/api/heartbeat-runs/${woke.id}/events`)).body;
    expect(events.map((e: any) => e.seq)).toEqual([...events.keys()].map((i) => i + 1));
    expect(events.map((e: any) => e.message)).toEqual(expect.arrayContaining(["step 1", "half", "Completed: succeeded"]));
    const tail = (await get(`/api/heartbeat-runs/${woke.id}/events?afterSeq=2`)).body;
    expect(tail.every((e: any) => e.seq > 2)).toBe(true);
    const costs = (await get(`/api/companies/${company.id}/cost-events?heartbeatRunId=${woke.id}`)).body;
    expect(costs).toHaveLength(1);
    expect((await get(`/api/companies/${company.id}/cost-events?limit=0`)).status).toBe(400);
    const outsider = await boardUser((await createCompany()).id);
    expect((await get(`/api/companies/${company.id}/cost-events`, { token: outsider.token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/cost-events`, { token: "svc_board_bogus" })).status).toBe(401);
  });

  it("202 without a completion before completionTimeoutSec ends the run timed_out", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=202", { completionTimeoutSec: 60 });
    const woke = (await post(`/api/agents/${agent.id}/wakeup`, {})).body;
    await dispatch(company.id);
    expect((await run(woke.id)).status).toBe("running");
    const { runInDurableObject } = await import("cloudflare:test");
    const alarmAt = await runInDurableObject(env.COMPANY.getByName(company.id), (_instance, state) => state.storage.getAlarm());
    expect(alarmAt).toBeGreaterThan(Date.now());
    // The deadline passes (moved into the past rather than waited for).
    await updateRow(schema.heartbeatRuns, woke.id, { deadlineAt: new Date(Date.now() - 1000).toISOString() });
    await dispatch(company.id);
    expect(await run(woke.id)).toMatchObject({ status: "timed_out", errorCode: "completion_timeout" });
    const token = (await received(agent.endpoint))[0].body.apiToken;
    expect((await post(`/api/heartbeat-runs/${woke.id}/complete`, { status: "succeeded" }, { token })).status).toBe(409);
  });

  it("non-2xx fails with adapter_failed; an unreachable endpoint fails; a slow one times out", async () => {
    const company = await createCompany();
    const broken = await httpAgent(company.id, "statuses=500");
    const unreachable = (
      await post(`/api/companies/${company.id}/agents`, { name: unique("Gone"), adapterType: "http", adapterConfig: { url: "http://127.0.0.1:1/agent" } })
    ).body;
    const slow = await httpAgent(company.id, "delayMs=2500", { timeoutSec: 1 });
    const runs = await Promise.all([broken, unreachable, slow].map(async (a) => (await post(`/api/agents/${a.id}/wakeup`, {})).body.id as string));
    await dispatch(company.id);
    expect(await run(runs[0])).toMatchObject({ status: "failed", errorCode: "adapter_failed", error: expect.stringContaining("500") });
    expect(await run(runs[1])).toMatchObject({ status: "failed", errorCode: "adapter_unreachable" });
    expect(await run(runs[2])).toMatchObject({ status: "timed_out", errorCode: "timeout" });
  });

  it("429 with Retry-After puts the same run in scheduled_retry, then dispatches it again", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=429,200&retryAfter=0");
    const woke = (await post(`/api/agents/${agent.id}/wakeup`, {})).body;
    await dispatch(company.id);
    const waiting = await run(woke.id);
    expect(waiting).toMatchObject({ status: "scheduled_retry", retryCount: 1 });
    expect(waiting.nextRetryAt).toBeTruthy();
    await dispatch(company.id);
    // The retry is due at once: the object's own alarm may be the one running it, still in flight.
    await eventually(async () => (await run(woke.id)).status === "succeeded");
    expect(await run(woke.id)).toMatchObject({ status: "succeeded", retryCount: 1 });
    expect(await received(agent.endpoint)).toHaveLength(2);
  });

  it("Retry-After is honoured (capped) for 503", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=503&retryAfter=999999");
    const woke = (await post(`/api/agents/${agent.id}/wakeup`, {})).body;
    await dispatch(company.id);
    const waiting = await run(woke.id);
    expect(waiting.status).toBe("scheduled_retry");
    const delay = Date.parse(waiting.nextRetryAt) - Date.now();
    expect(delay).toBeGreaterThan(3000 * 1000);
    expect(delay).toBeLessThanOrEqual(3600 * 1000);
  });

  it("cancel: board or the run's agent; a finished run answers 409; another agent 403", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    const other = await httpAgent(company.id);
    const woke = (await post(`/api/agents/${agent.id}/wakeup`, {})).body;
    expect((await post(`/api/heartbeat-runs/${woke.id}/cancel`, undefined, { token: other.token })).status).toBe(403);
    const cancelled = await post(`/api/heartbeat-runs/${woke.id}/cancel`, undefined, { token: agent.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    expect((await post(`/api/heartbeat-runs/${woke.id}/cancel`)).status).toBe(409);
    await dispatch(company.id);
    expect(await received(agent.endpoint)).toHaveLength(0);
    expect((await run(woke.id)).status).toBe("cancelled");
  });

  it("the same idempotencyKey returns the same run, also after it finished", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    const first = (await post(`/api/agents/${agent.id}/wakeup`, { idempotencyKey: "k-1" })).body;
    expect((await post(`/api/agents/${agent.id}/wakeup`, { idempotencyKey: "k-1" })).body.id).toBe(first.id);
    await dispatch(company.id);
    const after = await post(`/api/agents/${agent.id}/wakeup`, { idempotencyKey: "k-1" });
    expect(after.status).toBe(202);
    expect(after.body).toMatchObject({ id: first.id, status: "succeeded" });
    expect(await received(agent.endpoint)).toHaveLength(1);
  });

  it("an agent that cannot run gives a skipped wake-up with a reason; who may wake whom", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    const other = await httpAgent(company.id);
    expect((await post(`/api/agents/${agent.id}/wakeup`, {}, { token: other.token })).status).toBe(403);
    expect((await post(`/api/agents/${agent.id}/wakeup`, {}, { token: agent.token })).status).toBe(202);
    const viewer = await boardUser(company.id, "viewer");
    expect((await post(`/api/agents/${agent.id}/wakeup`, {}, { token: viewer.token })).status).toBe(403);

    expect((await post(`/api/agents/${agent.id}/pause`)).status).toBe(200);
    const skipped = await post(`/api/agents/${agent.id}/wakeup`, {});
    expect(skipped.status).toBe(202);
    expect(skipped.body).toMatchObject({ status: "skipped", reason: "agent.not_invokable" });
    expect((await post(`/api/agents/${agent.id}/wakeup`, { bogus: true, issueId: "not-a-uuid" })).status).toBe(400);
  });
});

describe("automatic wake sources", () => {
  it("assignment and comments wake an http agent; queued wakes for the same issue coalesce into one run", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=202");
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("Work"), status: "todo", assigneeAgentId: agent.id })).body;
    const c1 = (await post(`/api/issues/${issue.id}/comments`, { body: "first note" })).body;
    const c2 = (await post(`/api/issues/${issue.id}/comments`, { body: "second note" })).body;
    await dispatch(company.id);

    const page = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body;
    expect(page.runs).toHaveLength(1);
    const [only] = page.runs;
    expect(only).toMatchObject({ status: "running", reason: "assignment", invocationSource: "assignment", issueId: issue.id });
    expect(only.context.commentIds).toEqual([c1.id, c2.id]);
    const calls = await received(agent.endpoint);
    expect(calls).toHaveLength(1);
    expect(calls[0].body.context).toMatchObject({ wakeReason: "assignment", issueId: issue.id });

    // A comment while the run is live merges into it (no second run).
    await post(`/api/issues/${issue.id}/comments`, { body: "third" });
    await dispatch(company.id);
    expect((await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs).toHaveLength(1);
  });

  it("the loop scenario: a mention wakes A; A checks out, comments, marks done and completes — exactly one run, no second wake", async () => {
    const company = await createCompany();
    const a = await httpAgent(company.id, "statuses=202");
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("Loop"), status: "todo" })).body;
    await post(`/api/issues/${issue.id}/comments`, { body: `Please look, @${a.name}` });
    await dispatch(company.id);
    const [call] = await received(a.endpoint);
    expect(call.body.context).toMatchObject({ wakeReason: "mention", issueId: issue.id });
    const token = call.body.apiToken as string;
    expect((await post(`/api/issues/${issue.id}/checkout`, { agentId: a.id, expectedStatuses: ["todo"] }, { token })).status).toBe(200);
    expect((await post(`/api/issues/${issue.id}/comments`, { body: "On it, done soon" }, { token })).status).toBe(201);
    expect((await patch(`/api/issues/${issue.id}`, { status: "done" }, { token })).status).toBe(200);
    expect((await post(`/api/heartbeat-runs/${call.body.runId}/complete`, { status: "succeeded" }, { token })).status).toBe(200);
    await dispatch(company.id);

    const runs = (await get(`/api/companies/${company.id}/heartbeat-runs`)).body.runs;
    expect(runs).toHaveLength(1);
    expect(await received(a.endpoint)).toHaveLength(1);
    const final = (await get(`/api/issues/${issue.id}`)).body;
    expect(final).toMatchObject({ status: "done", checkoutRunId: null, checkedOutAt: null });
  });

  it("maxConcurrentRuns and maxRunsPerHour: extra wakes wait for a slot, then are skipped as rate_limited; every wake-up ends with a reason", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=202", { runtimeConfig: { heartbeat: { enabled: false, maxConcurrentRuns: 1, maxRunsPerHour: 2 } } });
    const issues = [];
    for (let i = 0; i < 4; i++)
      issues.push((await post(`/api/companies/${company.id}/issues`, { title: unique("Q"), status: "todo", assigneeAgentId: agent.id })).body);
    await dispatch(company.id);
    let runs = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs;
    expect(runs).toHaveLength(1);
    const token = (await received(agent.endpoint))[0].body.apiToken;
    await post(`/api/heartbeat-runs/${runs[0].id}/complete`, { status: "succeeded" }, { token });
    await dispatch(company.id);
    runs = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs;
    expect(runs).toHaveLength(2);
    const token2 = (await received(agent.endpoint))[1].body.apiToken;
    await post(`/api/heartbeat-runs/${runs[0].id}/complete`, { status: "failed", error: "x" }, { token: token2 });
    await dispatch(company.id);
    expect((await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs).toHaveLength(2);
    const wakes = (
      await testD1.prepare("SELECT status, skip_reason FROM agent_wakeup_requests WHERE agent_id = ? ORDER BY created_at").bind(agent.id).all<any>()
    ).results;
    expect(wakes.map((w) => w.status)).toEqual(["completed", "failed", "skipped", "skipped"]);
    expect(wakes.filter((w) => w.status === "skipped").every((w) => w.skip_reason === "rate_limited")).toBe(true);
  });
});

describe("more wake sources and what ends a run", () => {
  it("a resolved approval wakes the requester with approvalId/approvalStatus in the context and SERVICE_APPROVAL_* in env", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    const id = await insertApproval(company.id, { requestedByAgentId: agent.id, payload: {} });
    expect((await post(`/api/approvals/${id}/approve`, {})).status).toBe(200);
    await dispatch(company.id);
    const [call] = await received(agent.endpoint);
    expect(call.body.context).toMatchObject({ wakeReason: "approval_resolved", approvalId: id, approvalStatus: "approved" });
    expect(call.body.env).toMatchObject({ SERVICE_APPROVAL_ID: id, SERVICE_APPROVAL_STATUS: "approved" });
    const runs = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs;
    expect(runs[0]).toMatchObject({ reason: "approval_resolved", invocationSource: "automation", context: { approvalId: id, approvalStatus: "approved" } });
  });

  it("pausing an agent cancels its queued and running runs; an interrupt comment cancels the active run on that issue", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=202");
    const running = (await post(`/api/agents/${agent.id}/wakeup`, {})).body;
    await dispatch(company.id);
    expect((await run(running.id)).status).toBe("running");
    expect((await post(`/api/agents/${agent.id}/pause`)).status).toBe(200);
    expect(await run(running.id)).toMatchObject({ status: "cancelled", errorCode: "agent_paused" });
    expect((await post(`/api/agents/${agent.id}/resume`)).status).toBe(200);

    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("Stop"), status: "todo", assigneeAgentId: agent.id })).body;
    await dispatch(company.id);
    const onIssue = (await get(`/api/companies/${company.id}/heartbeat-runs?issueId=${issue.id}`)).body.runs[0];
    expect(onIssue.status).toBe("running");
    expect((await post(`/api/issues/${issue.id}/comments`, { body: "Stop now", interrupt: true })).status).toBe(201);
    expect(await run(onIssue.id)).toMatchObject({ status: "cancelled", errorCode: "interrupted" });
  });

  it("a wake for an issue another agent's live run holds waits, and is dispatched when that issue is released", async () => {
    const company = await createCompany();
    const holder = await httpAgent(company.id, "statuses=202");
    const waiter = await httpAgent(company.id);
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("Held"), status: "todo" })).body;
    const woke = (await post(`/api/agents/${holder.id}/wakeup`, { issueId: issue.id })).body;
    await dispatch(company.id);
    const token = (await received(holder.endpoint))[0].body.apiToken;
    expect((await post(`/api/issues/${issue.id}/checkout`, { agentId: holder.id, expectedStatuses: ["todo"] }, { token })).status).toBe(200);

    await post(`/api/issues/${issue.id}/comments`, { body: `@${waiter.name} please review` });
    const waiting = await testD1.prepare("SELECT status FROM agent_wakeup_requests WHERE agent_id = ?").bind(waiter.id).first<any>();
    expect(waiting.status).toBe("deferred_issue_execution");
    await dispatch(company.id);
    expect(await received(waiter.endpoint)).toHaveLength(0);

    expect((await post(`/api/issues/${issue.id}/release`, {}, { token })).status).toBe(200);
    await dispatch(company.id);
    const calls = await received(waiter.endpoint);
    expect(calls).toHaveLength(1);
    expect(calls[0].body.context).toMatchObject({ wakeReason: "mention", issueId: issue.id });
    expect(woke.status).toBe("queued");
  });
});

describe("the storm", () => {
  it("200 wake-ups for one agent give at most the hourly limit of runs; every other wake-up is coalesced or skipped with a reason", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "", { runtimeConfig: { heartbeat: { enabled: false, maxConcurrentRuns: 50, maxRunsPerHour: 30 } } });
    const issues = await Promise.all(
      Array.from(
        { length: 40 },
        async () => (await post(`/api/companies/${company.id}/issues`, { title: unique("Storm"), status: "todo", assigneeAgentId: agent.id })).body,
      ),
    );
    for (let round = 0; round < 4; round++) {
      await Promise.all(issues.map((issue, i) => post(`/api/issues/${issue.id}/comments`, { body: `storm ${round}-${i}` })));
    }
    await dispatch(company.id);
    await dispatch(company.id);

    const runs = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}&limit=200`)).body.runs;
    expect(runs.length).toBe(30);
    expect(runs.every((r: any) => r.status === "succeeded")).toBe(true);
    const books = (
      await testD1.prepare("SELECT status, skip_reason, run_id, coalesced_into_run_id FROM agent_wakeup_requests WHERE agent_id = ?").bind(agent.id).all<any>()
    ).results;
    expect(books).toHaveLength(200);
    const byStatus = books.reduce((acc: Record<string, number>, w: any) => ((acc[w.status] = (acc[w.status] ?? 0) + 1), acc), {});
    expect(byStatus.queued ?? 0).toBe(0);
    expect((byStatus.completed ?? 0) + (byStatus.coalesced ?? 0) + (byStatus.skipped ?? 0)).toBe(200);
    expect(books.filter((w: any) => w.status === "skipped").every((w: any) => w.skip_reason === "rate_limited")).toBe(true);
    // Wake-ups a run served (its own, or merged into it) complete with that run.
    const served = books.filter((w: any) => w.status !== "skipped");
    expect(served.length).toBeGreaterThan(30);
    expect(served.every((w: any) => runs.some((r: any) => r.id === (w.run_id ?? w.coalesced_into_run_id)))).toBe(true);
    expect(await received(agent.endpoint)).toHaveLength(30);
  });

  it("50 concurrent manual wake-ups give at most maxRunsPerHour runs (default 30), the rest 202 skipped rate_limited; all on_demand with the caller's reason", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "", { runtimeConfig: { heartbeat: { enabled: false, maxConcurrentRuns: 50 } } });
    const wakes = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`/api/agents/${agent.id}/wakeup`, { reason: `loop ${i}` })));
    expect(wakes.every((w) => w.status === 202)).toBe(true);
    const runs = wakes.filter((w) => w.body.id);
    const skipped = wakes.filter((w) => w.body.status === "skipped");
    expect(runs).toHaveLength(30);
    expect(skipped).toHaveLength(20);
    expect(skipped.every((w) => w.body.reason === "rate_limited" && typeof w.body.wakeupId === "string")).toBe(true);
    for (const w of runs) {
      expect(w.body.invocationSource).toBe("on_demand");
      expect(w.body.reason).toMatch(/^loop \d+$/);
      expect(w.body.context.wakeReason).toBe(w.body.reason);
    }
    const listed = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}&limit=200`)).body.runs;
    expect(listed).toHaveLength(30);
    // A lower limit counts the runs already made: nothing more this hour.
    expect((await patch(`/api/agents/${agent.id}`, { runtimeConfig: { heartbeat: { enabled: false, maxRunsPerHour: 5 } } })).status).toBe(200);
    expect((await post(`/api/agents/${agent.id}/wakeup`, {})).body).toMatchObject({ status: "skipped", reason: "rate_limited" });
  });

  it("consecutive failures back the agent off: no new run until the back-off has passed", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=500", { runtimeConfig: { heartbeat: { enabled: false, maxConcurrentRuns: 5 } } });
    const first = (await post(`/api/agents/${agent.id}/wakeup`, { idempotencyKey: "f1" })).body;
    await dispatch(company.id);
    expect((await run(first.id)).status).toBe("failed");
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("After"), status: "todo", assigneeAgentId: agent.id })).body;
    await dispatch(company.id);
    expect(await received(agent.endpoint)).toHaveLength(1);
    const wake = await testD1.prepare("SELECT status FROM agent_wakeup_requests WHERE agent_id = ? AND issue_id = ?").bind(agent.id, issue.id).first<any>();
    expect(wake.status).toBe("queued");
  });
});

describe("timer heartbeats", () => {
  it("runtimeConfig.heartbeat enabled + intervalSec wakes the agent on the interval (timer), driven by the object's alarm", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "", { runtimeConfig: { heartbeat: { enabled: true, intervalSec: 3600 } } });
    await dispatch(company.id);
    const runs = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ reason: "timer", invocationSource: "timer", status: "succeeded" });
    expect((await received(agent.endpoint))[0].body.context).toMatchObject({ wakeReason: "timer" });
    // Not due again for an hour: the next alarm is set for then.
    await dispatch(company.id);
    expect((await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs).toHaveLength(1);
    const { runInDurableObject } = await import("cloudflare:test");
    const alarmAt = await runInDurableObject(env.COMPANY.getByName(company.id), (_instance, state) => state.storage.getAlarm());
    expect(alarmAt).toBeGreaterThan(Date.now() + 3500 * 1000);

    // Disabling the heartbeat stops it.
    expect((await patch(`/api/agents/${agent.id}`, { runtimeConfig: { heartbeat: { enabled: false } } })).status).toBe(200);
    await dispatch(company.id);
    expect((await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs).toHaveLength(1);
  });
});

describe("run listings and isolation", () => {
  it("lists newest first with cursor pages and filters; other companies' callers get 404 on every run route", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(`/api/agents/${agent.id}/wakeup`, { idempotencyKey: `p-${i}` })).body.id);
    const page1 = (await get(`/api/companies/${company.id}/heartbeat-runs?limit=2`)).body;
    expect(page1.runs).toHaveLength(2);
    const page2 = (await get(`/api/companies/${company.id}/heartbeat-runs?limit=2&cursor=${page1.nextCursor}`)).body;
    expect([...page1.runs, ...page2.runs].map((r: any) => r.id).sort()).toEqual([...ids].sort());
    expect(page2.nextCursor).toBeNull();
    expect((await get(`/api/companies/${company.id}/heartbeat-runs?status=queued`)).body.runs).toHaveLength(3);
    expect((await get(`/api/companies/${company.id}/heartbeat-runs?cursor=garbage`)).status).toBe(400);
    expect((await get(`/api/companies/${company.id}/heartbeat-runs?limit=500`)).status).toBe(400);

    const elsewhere = await createCompany();
    const outsider = await boardUser(elsewhere.id);
    const foreignAgent = await httpAgent(elsewhere.id);
    for (const token of [outsider.token, foreignAgent.token]) {
      expect((await get(`/api/heartbeat-runs/${ids[0]}`, { token })).status).toBe(404);
      expect((await get(`/api/heartbeat-runs/${ids[0]}/events`, { token })).status).toBe(404);
      expect((await post(`/api/heartbeat-runs/${ids[0]}/cancel`, undefined, { token })).status).toBe(404);
      expect((await post(`/api/heartbeat-runs/${ids[0]}/events`, { events: [{ kind: "log", message: "x" }] }, { token })).status).toBe(404);
      expect((await post(`/api/heartbeat-runs/${ids[0]}/complete`, { status: "succeeded" }, { token })).status).toBe(404);
      expect((await post(`/api/agents/${agent.id}/wakeup`, {}, { token })).status).toBe(404);
      expect((await get(`/api/companies/${company.id}/heartbeat-runs`, { token })).status).toBe(403);
    }
    expect((await get(`/api/heartbeat-runs/${ids[0]}`, { token: "svc_agent_bogus" })).status).toBe(401);
  });

  it("run events: 64 KiB a request at most (413)", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=202");
    const woke = (await post(`/api/agents/${agent.id}/wakeup`, {})).body;
    await dispatch(company.id);
    const token = (await received(agent.endpoint))[0].body.apiToken;
    const big = await post(
      `/api/heartbeat-runs/${woke.id}/events`,
      {
        events: [
          { kind: "log", message: "x".repeat(15_000) },
          { kind: "log", message: "y".repeat(15_000) },
          { kind: "log", message: "z".repeat(15_000) },
          { kind: "log", message: "w".repeat(15_000) },
          { kind: "log", message: "v".repeat(10_000) },
        ],
      },
      { token },
    );
    expect(big.status).toBe(413);
    expect((await get(`/api/heartbeat-runs/${woke.id}/events`)).body.filter((e: any) => e.kind === "log")).toHaveLength(0);
  });
});

describe("POST /api/heartbeat-runs/{runId}/retry", () => {
  it("runs a finished run again with the same agent, issue, reason and context; refuses live runs, paused agents, agents and other companies", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id, "statuses=500");
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: "Flaky deploy" })).body;
    const first = (await post(`/api/agents/${agent.id}/wakeup`, { reason: "deploy again", issueId: issue.id, payload: { env: "staging" } })).body;
    // Live: not yet.
    expect((await post(`/api/heartbeat-runs/${first.id}/retry`)).status).toBe(409);
    await dispatch(company.id);
    const failed = await eventually(async () => {
      const r = await run(first.id);
      return r.status === "failed" ? r : null;
    });
    const retried = await post(`/api/heartbeat-runs/${first.id}/retry`);
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toMatchObject({ status: "queued", agentId: agent.id, issueId: issue.id, reason: "deploy again" });
    expect(retried.body.id).not.toBe(first.id);
    expect(retried.body.context).toMatchObject({ payload: { env: "staging" }, retryOfRunId: failed.id });
    // The retry is live: a second retry of the first run is refused (a live run of the agent on the issue).
    const again = await post(`/api/heartbeat-runs/${first.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.details).toMatchObject({ runId: retried.body.id });
    // Agents, other companies: refused.
    expect((await post(`/api/heartbeat-runs/${first.id}/retry`, undefined, { token: agent.token })).status).toBe(403);
    const stranger = await boardUser((await createCompany()).id);
    expect([403, 404]).toContain((await post(`/api/heartbeat-runs/${first.id}/retry`, undefined, { token: stranger.token })).status);
    expect((await post(`/api/heartbeat-runs/${crypto.randomUUID()}/retry`)).status).toBe(404);
    // A paused agent cannot run: 409 with the reason.
    expect((await post(`/api/heartbeat-runs/${retried.body.id}/cancel`)).status).toBe(200);
    expect((await post(`/api/agents/${agent.id}/pause`)).status).toBe(200);
    const paused = await post(`/api/heartbeat-runs/${first.id}/retry`);
    expect(paused.status).toBe(409);
    expect(paused.body.details).toMatchObject({ reason: "agent.not_invokable" });
  });
});
