// The local runtimes' service side through the Worker and real runner WebSockets: run.start carries
// the rendered prompt, the task and the session to resume; a completion's transcript, session,
// usage and error code are recorded (cost event, runtime state); a rate-limited run waits for its
// reset time and no other run of its agent starts before; the board clears sessions; the
// environment test is carried out by a connected runner.
import { describe, expect, it } from "vitest";
import { get, post, unique, AUTHENTICATED } from "../helpers/api";
import { agentJwt, boardUser, createCompany, dispatch } from "../helpers/fixtures";
import { connect, type RunnerClient } from "../helpers/runners";
import { eventually } from "../helpers/eventually";

async function claudeAgent(companyId: string, config: Record<string, unknown> = {}, runtimeConfig?: Record<string, unknown>) {
  const res = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Claude"),
    role: "engineer",
    title: "Engineer",
    adapterType: "claude_local",
    adapterConfig: { cwd: "/srv/app", ...config },
    ...(runtimeConfig ? { runtimeConfig } : {}),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; adapterConfig: Record<string, unknown> };
}

async function runner(companyId: string, agents: string[]): Promise<RunnerClient> {
  const { client } = await connect(companyId);
  await client!.hello(agents);
  return client!;
}

/** Assigns a new issue to the agent and dispatches: the run.start the runner gets. */
async function assign(companyId: string, agentId: string, client: RunnerClient, fields: Record<string, unknown> = {}) {
  const issue = await post(`/api/companies/${companyId}/issues`, {
    title: unique("Fix the login"),
    description: "Users cannot log in.",
    assigneeAgentId: agentId,
    status: "todo",
    ...fields,
  });
  expect(issue.status).toBe(201);
  await dispatch(companyId);
  const start = await client.next((m) => m.type === "run.start" && m.context.issueId === issue.body.id);
  return { issue: issue.body, start };
}

const completion = (runId: string, fields: Record<string, unknown> = {}) => ({
  type: "run.complete",
  runId,
  status: "succeeded",
  summary: "Fixed the login; tests added.",
  exitCode: 0,
  sessionId: "3f1c2a9e-0000-4000-8000-000000000001",
  sessionParams: { cwd: "/srv/app", model: "claude-sonnet-4-5" },
  usage: {
    inputTokens: 1200,
    cachedInputTokens: 300,
    outputTokens: 450,
    costUsd: 0.0123,
    model: "claude-sonnet-4-5",
    provider: "anthropic",
    billingType: "metered_api",
  },
  ...fields,
});

const runOf = async (runId: string) => (await get(`/api/heartbeat-runs/${runId}`)).body;
const costsOf = async (companyId: string, runId: string) =>
  ((await get(`/api/companies/${companyId}/cost-events`)).body as any[]).filter((e) => e.heartbeatRunId === runId);

describe("local runtimes: the service side", () => {
  it("run.start carries the prompt, the task and no session; the completion records transcript, summary, session and cost; the next wake on the issue resumes it with the new comment", async () => {
    const company = await createCompany();
    const agent = await claudeAgent(company.id);
    expect(agent.adapterConfig.model).toBe("claude-sonnet-4-5");
    const client = await runner(company.id, [agent.id]);
    // A comment made before the first run is part of the issue, not "new" for the second.
    const { issue, start } = await assign(company.id, agent.id, client);
    expect(start).toMatchObject({ version: 2, taskKey: `issue:${issue.id}`, session: null, adapterType: "claude_local" });
    expect(start.prompt).toContain(`You were assigned ${issue.identifier}`);
    expect(start.prompt).toContain("Users cannot log in.");
    expect(start.prompt).toContain(`You are ${agent.name}, Engineer (role: engineer)`);
    expect(start.prompt).toContain("$SERVICE_API_KEY");

    client.send({
      type: "run.events",
      runId: start.runId,
      events: [
        { kind: "status", message: "Session 3f1c… (claude-sonnet-4-5)" },
        { kind: "assistant", message: "Looking at the login code." },
        { kind: "tool_call", message: 'Bash {"command":"npm test"}', data: { id: "toolu_1" } },
        { kind: "tool_result", message: "1 failing", data: { id: "toolu_1", isError: false } },
        { kind: "log", message: '{"type":"assistant"}\n', data: { stream: "stdout" } },
      ],
    });
    client.send(completion(start.runId));
    await client.next((m) => m.type === "run.completed" && m.runId === start.runId);
    expect(await runOf(start.runId)).toMatchObject({ status: "succeeded", summary: "Fixed the login; tests added.", errorCode: null });
    const events = (await get(`/api/heartbeat-runs/${start.runId}/events`)).body as any[];
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(["assistant", "tool_call", "tool_result", "log", "status"]));
    expect(await costsOf(company.id, start.runId)).toEqual([
      expect.objectContaining({
        costCents: 1,
        inputTokens: 1200,
        cachedInputTokens: 300,
        outputTokens: 450,
        billingType: "metered_api",
        model: "claude-sonnet-4-5",
        provider: "anthropic",
      }),
    ]);
    const state = (await get(`/api/agents/${agent.id}/runtime-state`)).body;
    expect(state).toMatchObject({ agentId: agent.id, adapterType: "claude_local" });
    expect(state.sessions).toEqual([
      expect.objectContaining({
        taskKey: `issue:${issue.id}`,
        issueId: issue.id,
        sessionId: "3f1c2a9e-0000-4000-8000-000000000001",
        params: { cwd: "/srv/app", model: "claude-sonnet-4-5" },
        runId: start.runId,
      }),
    ]);

    const comment = await post(`/api/issues/${issue.id}/comments`, { body: "Please also cover the password reset." });
    expect(comment.status).toBe(201);
    await dispatch(company.id);
    const next = await client.next((m) => m.type === "run.start" && m.runId !== start.runId);
    expect(next.session).toEqual({ id: "3f1c2a9e-0000-4000-8000-000000000001", params: { cwd: "/srv/app", model: "claude-sonnet-4-5" } });
    expect(next.prompt).toContain("There is a new comment on");
    expect(next.prompt).toContain("Please also cover the password reset.");
    expect(next.prompt).toContain(`(comment ${comment.body.id})`);
    client.close();
  });

  it("the board clears sessions (all, or one task's); another company cannot; an agent may read its own state", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await claudeAgent(company.id);
    const client = await runner(company.id, [agent.id]);
    const { start } = await assign(company.id, agent.id, client);
    client.send(completion(start.runId));
    await client.next((m) => m.type === "run.completed");
    const stranger = await boardUser(other.id);
    expect((await post(`/api/agents/${agent.id}/runtime-state/reset-session`, {}, { env: AUTHENTICATED, token: stranger.token })).status).toBe(404);
    const own = await agentJwt(agent.id, company.id);
    expect((await get(`/api/agents/${agent.id}/runtime-state`, { token: own })).status).toBe(200);
    expect((await post(`/api/agents/${agent.id}/runtime-state/reset-session`, {}, { token: own })).status).toBe(403);
    expect((await post(`/api/agents/${agent.id}/runtime-state/reset-session`, { taskKey: "" })).status).toBe(400);
    expect((await post(`/api/agents/${agent.id}/runtime-state/reset-session`, { surprise: 1 })).status).toBe(400);
    expect((await post(`/api/agents/${agent.id}/runtime-state/reset-session`, { taskKey: "issue:none" })).body).toEqual({ agentId: agent.id, cleared: 0 });
    expect((await post(`/api/agents/${agent.id}/runtime-state/reset-session`)).body).toEqual({ agentId: agent.id, cleared: 1 });
    expect((await get(`/api/agents/${agent.id}/runtime-state`)).body.sessions).toEqual([]);
    const activity = (await get(`/api/companies/${company.id}/activity`)).body as any[];
    expect(activity.find((a) => a.action === "agent.sessions_reset")).toMatchObject({ entityId: agent.id, details: { cleared: 1 } });
    client.close();
  });

  it("a rate-limited run waits in scheduled_retry until its reset time; no other run of the agent starts before; then it runs again", async () => {
    const company = await createCompany();
    const agent = await claudeAgent(company.id, {}, { heartbeat: { maxConcurrentRuns: 3 } });
    const client = await runner(company.id, [agent.id]);
    const { start } = await assign(company.id, agent.id, client);
    const resetAt = new Date(Date.now() + 3000).toISOString();
    client.send(
      completion(start.runId, {
        status: "failed",
        errorCode: "provider_rate_limited",
        error: "You're out of extra usage · resets 4pm (America/Chicago)",
        summary: null,
        nextRetryAt: resetAt,
        usage: { inputTokens: 10, outputTokens: 0, billingType: "subscription_included", model: "claude-sonnet-4-5" },
      }),
    );
    await client.next((m) => m.type === "run.completed" && m.runId === start.runId);
    expect(await runOf(start.runId)).toMatchObject({ status: "scheduled_retry", errorCode: "provider_rate_limited", nextRetryAt: resetAt, retryCount: 1 });
    // Its tokens are recorded at 0 cents (a plan login).
    expect(await costsOf(company.id, start.runId)).toEqual([expect.objectContaining({ costCents: 0, inputTokens: 10, billingType: "subscription_included" })]);

    // Another issue for the same agent: no run starts before the reset time, although a slot is free.
    const second = await post(`/api/companies/${company.id}/issues`, { title: "Another", assigneeAgentId: agent.id, status: "todo" });
    await dispatch(company.id);
    const runs = async () => ((await get(`/api/companies/${company.id}/heartbeat-runs`)).body.runs as any[]).filter((r) => r.agentId === agent.id);
    expect((await runs()).map((r) => r.status)).toEqual(["scheduled_retry"]);
    expect(client.received.filter((m) => m.type === "run.start")).toEqual([]);

    await eventually(() => Date.now() > Date.parse(resetAt), { timeoutMs: 10_000, what: "the reset time" });
    await dispatch(company.id);
    const again = await client.next((m) => m.type === "run.start" && m.runId === start.runId, 10_000);
    expect(again.context.issueId).toBe(start.context.issueId);
    await dispatch(company.id);
    await client.next((m) => m.type === "run.start" && m.context.issueId === second.body.id, 10_000);
    client.close();
  });

  it("a rate limit with no reset time backs off; one past the retries fails; auth_required and max_turns end the run with their code", async () => {
    const company = await createCompany();
    // One agent per case: an agent's consecutive failures make it back off (consecutiveFailureBackoff).
    const [agent, second, third, fourth] = await Promise.all([1, 2, 3, 4].map(() => claudeAgent(company.id)));
    const client = await runner(company.id, [agent.id, second.id, third.id, fourth.id]);
    const a = await assign(company.id, agent.id, client);
    client.send(completion(a.start.runId, { status: "failed", errorCode: "provider_rate_limited", error: "429 Too Many Requests", nextRetryAt: null }));
    await client.next((m) => m.type === "run.completed");
    const waiting = await runOf(a.start.runId);
    expect(waiting.status).toBe("scheduled_retry");
    expect(Date.parse(waiting.nextRetryAt)).toBeGreaterThan(Date.now());

    const b = await assign(company.id, second.id, client);
    client.send(
      completion(b.start.runId, {
        status: "failed",
        errorCode: "auth_required",
        error: "Not signed in. Run `claude` once and sign in.",
        sessionId: null,
        usage: null,
      }),
    );
    await client.next((m) => m.type === "run.completed" && m.runId === b.start.runId);
    expect(await runOf(b.start.runId)).toMatchObject({ status: "failed", errorCode: "auth_required", error: expect.stringContaining("sign in") });
    expect(await costsOf(company.id, b.start.runId)).toEqual([]);

    const c = await assign(company.id, third.id, client);
    client.send(completion(c.start.runId, { status: "failed", errorCode: "max_turns", error: "Stopped after 5 turns", clearSession: true, sessionId: null }));
    await client.next((m) => m.type === "run.completed" && m.runId === c.start.runId);
    expect(await runOf(c.start.runId)).toMatchObject({ status: "failed", errorCode: "max_turns" });
    // An error code outside the protocol's list is refused, naming the run.
    const d = await assign(company.id, fourth.id, client);
    client.send(completion(d.start.runId, { status: "failed", errorCode: "rate_limited" }));
    expect(await client.next((m) => m.type === "error" && m.runId === d.start.runId)).toMatchObject({ error: expect.stringContaining("errorCode") });
    client.close();
  });

  it("a prompt template replaces the default prompt (dotted paths)", async () => {
    const company = await createCompany();
    const agent = await claudeAgent(company.id, { promptTemplate: "{{agent.name}} works on {{issue.identifier}} ({{wakeReason}}) for {{company.name}}" });
    const client = await runner(company.id, [agent.id]);
    const { issue, start } = await assign(company.id, agent.id, client);
    const companyRow = (await get(`/api/companies/${company.id}`)).body;
    expect(start.prompt).toBe(`${agent.name} works on ${issue.identifier} (assignment) for ${companyRow.name}`);
    client.close();
  });

  it("the adapter validates its fields: OpenCode and Pi take provider/model, Gemini's approval mode, Pi's tools", async () => {
    const company = await createCompany();
    const create = (adapterType: string, adapterConfig: Record<string, unknown>) =>
      post(`/api/companies/${company.id}/agents`, { name: unique("A"), adapterType, adapterConfig });
    expect((await create("opencode_local", { model: "claude-sonnet" })).status).toBe(422);
    const opencode = await create("opencode_local", {});
    expect(opencode.body.adapterConfig.model).toBe("anthropic/claude-sonnet-4-5");
    expect((await create("pi_local", { model: "openrouter/meta-llama/llama-4" })).status).toBe(201);
    expect((await create("gemini_local", { approvalMode: "sometimes" })).status).toBe(422);
    expect((await create("pi_local", { tools: ["Read Files"] })).status).toBe(422);
    expect((await create("claude_local", { maxTurnsPerRun: 0 })).status).toBe(422);
    expect((await create("codex_local", { dangerouslyBypassApprovalsAndSandbox: "yes" })).status).toBe(422);
    const cursor = await create("cursor_local", {});
    expect(cursor.body.adapterConfig.model).toBe("auto");
  });
});

describe("POST /api/companies/{companyId}/adapters/{type}/test-environment", () => {
  it("no runner serving such an agent: fail with no_runner; a connected runner carries it out with the agent's config and env", async () => {
    const company = await createCompany();
    const path = (type: string) => `/api/companies/${company.id}/adapters/${type}/test-environment`;
    const none = await post(path("claude_local"), { probe: false });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ status: "fail", runner: null, checks: [expect.objectContaining({ code: "no_runner", level: "error" })] });

    const secret = await post(`/api/companies/${company.id}/secrets`, { name: unique("ANTHROPIC_KEY").toUpperCase().replace(/-/g, "_"), value: "sk-ant-test" });
    const agent = await claudeAgent(company.id, { model: "claude-opus-4", env: { ANTHROPIC_API_KEY: { type: "secret_ref", secretId: secret.body.id } } });
    const client = await runner(company.id, [agent.id]);
    const answer = post(path("claude_local"), { adapterConfig: { command: "/opt/claude" } });
    const request = await client.next((m) => m.type === "env.test");
    expect(request).toMatchObject({
      adapterType: "claude_local",
      probe: true,
      adapterConfig: { model: "claude-opus-4", command: "/opt/claude", cwd: "/srv/app" },
      env: { ANTHROPIC_API_KEY: "sk-ant-test" },
    });
    expect(request.adapterConfig.env).toBeUndefined();
    client.send({
      type: "env.test.result",
      requestId: request.requestId,
      status: "warn",
      checks: [
        { code: "claude_command_found", level: "info", message: "Found /opt/claude" },
        { code: "claude_hello_probe_usage_limited", level: "warn", message: "A usage or rate limit", hint: null },
      ],
    });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "warn",
      runner: { name: "test-runner" },
      checks: [{ code: "claude_command_found" }, { code: "claude_hello_probe_usage_limited" }],
    });
    client.close();
  });

  it("bad input is refused: an unknown or non-runner type 422, a bad body 400; viewers, agents and other companies are refused", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const agent = await claudeAgent(company.id);
    const path = (type: string) => `/api/companies/${company.id}/adapters/${type}/test-environment`;
    expect((await post(path("nope_local"), {})).status).toBe(422);
    expect((await post(path("http"), {})).status).toBe(422);
    expect((await post(path("claude_local"), { probe: "yes" })).status).toBe(400);
    expect((await post(path("claude_local"), { agentId: "nope" })).status).toBe(400);
    const viewer = await boardUser(company.id, "viewer");
    expect((await post(path("claude_local"), {}, { env: AUTHENTICATED, token: viewer.token })).status).toBe(403);
    expect((await post(path("claude_local"), {}, { token: await agentJwt(agent.id, company.id) })).status).toBe(403);
    const stranger = await boardUser(other.id);
    expect((await post(path("claude_local"), {}, { env: AUTHENTICATED, token: stranger.token })).status).toBe(403);
    expect((await post(path("claude_local"), {}, { env: AUTHENTICATED })).status).toBe(401);
  });
});
