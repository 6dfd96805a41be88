// The edge agent (llm_api) end to end against the fake model APIs (test/setup/fake-llm.ts): the
// dispatcher hands the run to its AgentLoopObject, whose alarms the tests fire by hand.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { AUTHENTICATED, get, patch, post, unique } from "../helpers/api";
import { agentWithKey, createCompany, dispatch, schema, testDb } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";
import { API_KEY, assignIssue, driveLoop, llmAgent, llmRequests, loopObject, runEvents, runOf, type Provider } from "../helpers/llm-agents";

const comments = async (issueId: string) => (await get(`/api/issues/${issueId}/comments`)).body as Array<{ body: string; authorAgentId: string | null }>;
const costs = (runId: string) => testDb().select().from(schema.costEvents).where(eq(schema.costEvents.heartbeatRunId, runId));

describe.each<[Provider, string]>([
  ["openai_compatible", "work"],
  ["openai_compatible", "work-stream"],
  ["anthropic", "work"],
  ["anthropic", "work-stream"],
  ["workers_ai", "work"],
])("llm_api (%s, %s)", (provider, scenario) => {
  it("checks the issue out, comments, sets it done and stops, with its tokens and cost recorded", async () => {
    const company = await createCompany();
    const { agent, fakeId } = await llmAgent(
      company.id,
      scenario,
      { pricing: { inputPerMTokUsd: 3, cachedInputPerMTokUsd: 0.3, outputPerMTokUsd: 15 }, instructions: "Be brief." },
      provider,
    );
    const { issue, runId } = await assignIssue(company.id, agent.id);
    await driveLoop(runId);

    const run = await runOf(runId);
    expect(run).toMatchObject({ status: "succeeded", summary: "Done: fixed and closed." });
    const detail = (await get(`/api/issues/${issue.id}`)).body;
    expect(detail.status).toBe("done");
    const onIssue = await comments(issue.id);
    expect(onIssue.map((c) => c.body)).toEqual(["Working on it: the fix is in."]);
    expect(onIssue[0].authorAgentId).toBe(agent.id);

    const requests = await llmRequests(fakeId);
    expect(requests).toHaveLength(4);
    // One cost event per model call: 1000 in (200 cached) / 50 out each.
    const events = await costs(runId);
    expect(events).toHaveLength(4);
    expect(events.reduce((n, e) => n + e.inputTokens, 0)).toBe(4000);
    expect(events.reduce((n, e) => n + e.outputTokens, 0)).toBe(200);
    // Workers AI reports no cache reads: 4 × (1000 × $3 + 50 × $15) per M = 1.5 cents (rounded at the last call);
    // the others 4 × (800 × $3 + 200 × $0.30 + 50 × $15) per M = 1.284 cents.
    expect(events.reduce((n, e) => n + e.cachedInputTokens, 0)).toBe(provider === "workers_ai" ? 0 : 800);
    expect(events.reduce((n, e) => n + e.costCents, 0)).toBe(provider === "workers_ai" ? 2 : 1);
    expect(run.result).toMatchObject({ turns: 4, inputTokens: 4000, outputTokens: 200 });
    if (provider !== "workers_ai") {
      // The key reached only the model API, in its own header.
      for (const r of requests) {
        if (provider === "anthropic") expect(r.headers["x-api-key"]).toBe(API_KEY);
        else expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
      }
    }
    const all = JSON.stringify({ requests: requests.map((r) => r.body), events: await runEvents(runId), run });
    expect(all).not.toContain(API_KEY);
  });
});

/** One finished run of `scenario` on a new issue: the agent, issue, run and what the fake saw. */
async function runScenario(
  scenario: string,
  config: Record<string, unknown> = {},
  issueFields: Record<string, unknown> = {},
  provider: Provider = "openai_compatible",
) {
  const company = await createCompany();
  const { agent, fakeId } = await llmAgent(company.id, scenario, config, provider);
  const { issue, runId } = await assignIssue(company.id, agent.id, issueFields);
  await driveLoop(runId);
  return { company, agent, fakeId, issue, runId, run: await runOf(runId), requests: await llmRequests(fakeId) };
}

describe("llm_api failures and limits", () => {
  it("a budget hard stop mid-loop ends the run before the next model call: no tool of that turn runs", async () => {
    const company = await createCompany();
    const { agent, fakeId } = await llmAgent(company.id, "pricey", { pricing: { inputPerMTokUsd: 3, outputPerMTokUsd: 15 } });
    expect((await patch(`/api/agents/${agent.id}/budgets`, { budgetMonthlyCents: 100 })).status).toBe(200);
    const { issue, runId } = await assignIssue(company.id, agent.id);
    await driveLoop(runId);
    expect(await runOf(runId)).toMatchObject({ status: "cancelled", errorCode: "budget_blocked" });
    expect(await llmRequests(fakeId)).toHaveLength(1);
    expect((await get(`/api/issues/${issue.id}`)).body).toMatchObject({ status: "todo", checkoutRunId: null });
    expect((await get(`/api/agents/${agent.id}`)).body).toMatchObject({ status: "paused", pauseReason: "budget" });
    expect(await loopObject(runId).describe()).toMatchObject({ done: true, turn: 1 });
  });

  it("an eviction after a tool's side effect, before the journal marks it done, resumes without a second comment or model call", async () => {
    const company = await createCompany();
    const { agent, fakeId } = await llmAgent(company.id, "work");
    const { issue, runId } = await assignIssue(company.id, agent.id);
    const loop = loopObject(runId);
    // Model call 1 (checkout), then checkout + model call 2 (comment): the comment is now pending.
    for (let i = 0; i < 2; i++) await runDurableObjectAlarm(loop);
    expect(await loop.describe()).toMatchObject({ phase: "tools", calls: [{ name: "comment_issue", state: "pending" }] });
    // The comment is made, then the write marking it done fails: the step dies there.
    await loop.armFaults("storage-write/loop_calls:2");
    await runDurableObjectAlarm(loop);
    expect(await loop.describe()).toMatchObject({ phase: "tools", crashes: 1, calls: [{ name: "comment_issue", state: "started" }] });
    expect(await comments(issue.id)).toHaveLength(1);
    await evictDurableObject(loop);
    await driveLoop(runId);
    expect(await runOf(runId)).toMatchObject({ status: "succeeded" });
    expect((await comments(issue.id)).map((c) => c.body)).toEqual(["Working on it: the fix is in."]);
    expect(await llmRequests(fakeId)).toHaveLength(4);
  });

  it("evicted between every step, the loop resumes from its journal and finishes the same way", async () => {
    const company = await createCompany();
    const { agent, fakeId } = await llmAgent(company.id, "work");
    const { issue, runId } = await assignIssue(company.id, agent.id);
    const loop = loopObject(runId);
    for (let i = 0; i < 10 && !(await loop.describe())?.done; i++) {
      await runDurableObjectAlarm(loop);
      await evictDurableObject(loop);
    }
    expect(await runOf(runId)).toMatchObject({ status: "succeeded" });
    expect(await comments(issue.id)).toHaveLength(1);
    expect(await llmRequests(fakeId)).toHaveLength(4);
  });

  it("cancelling the run aborts the model call in flight and nothing more is asked of the model", async () => {
    const company = await createCompany();
    const { agent, fakeId } = await llmAgent(company.id, "hang");
    const { runId } = await assignIssue(company.id, agent.id);
    const step = runDurableObjectAlarm(loopObject(runId));
    await eventually(async () => (await llmRequests(fakeId)).length === 1, { what: "the model call" });
    expect((await post(`/api/heartbeat-runs/${runId}/cancel`, {})).status).toBe(200);
    await dispatch(company.id); // the dispatcher's sweep stops the loop
    await step;
    expect(await runOf(runId)).toMatchObject({ status: "cancelled" });
    await eventually(async () => (await llmRequests(fakeId))[0].aborted, { what: "the aborted request" });
    expect(await loopObject(runId).describe()).toMatchObject({ done: true, cancelled: true });
    expect(await llmRequests(fakeId)).toHaveLength(1);
  });

  it("timeoutSec bounds the whole run: a hanging model call ends it timed_out", async () => {
    const { run, requests } = await runScenario("hang", { timeoutSec: 2, requestTimeoutSec: 60 });
    expect(run).toMatchObject({ status: "timed_out", errorCode: "timeout" });
    expect(requests).toHaveLength(1);
  });

  it("a 429 with Retry-After waits in the object (the run stays running, the wait in its events), then goes on", async () => {
    const company = await createCompany();
    const { agent, fakeId } = await llmAgent(company.id, "rate-limited");
    const { runId } = await assignIssue(company.id, agent.id);
    const before = Date.now();
    await runDurableObjectAlarm(loopObject(runId));
    const state = await loopObject(runId).describe();
    expect(state).toMatchObject({ attempt: 1, done: false });
    // 2 s from the provider's Retry-After (plus the test configuration's dispatch delay).
    expect(state!.nextStepAt! - before).toBeGreaterThanOrEqual(2000 + 3_600_000);
    expect(await runOf(runId)).toMatchObject({ status: "running" });
    const wait = (await runEvents(runId)).find((e) => e.data?.nextRetryAt);
    expect(wait).toMatchObject({ data: { errorCode: "provider_rate_limited", attempt: 1 } });
    await driveLoop(runId);
    expect(await runOf(runId)).toMatchObject({ status: "succeeded" });
    expect(await llmRequests(fakeId)).toHaveLength(5);
  });

  it.each([
    ["quota", "provider_quota", 1],
    ["auth", "auth_required", 1],
    ["filter", "content_filtered", 1],
    ["overloaded-forever", "provider_unavailable", 6],
    ["bad-args-3", "tool_args_invalid", 3],
  ])("%s ends the run with %s after %i model call(s)", async (scenario, errorCode, calls) => {
    const { run, requests, runId } = await runScenario(scenario);
    expect(run).toMatchObject({ status: "failed", errorCode });
    expect(requests).toHaveLength(calls);
    // The auth scenario's provider quotes the key it refused: redacted before it is recorded.
    expect(JSON.stringify({ run, events: await runEvents(runId) })).not.toContain(API_KEY);
    if (scenario === "auth") expect(run.error).toContain("[redacted]");
  });

  it.each([
    ["overloaded", 6],
    ["context", 5],
    ["bad-args", 5],
  ])("%s recovers (retry, compaction, a tool error the model reads) and finishes: %i model calls", async (scenario, calls) => {
    const { run, requests, issue } = await runScenario(scenario);
    expect(run).toMatchObject({ status: "succeeded" });
    expect(requests).toHaveLength(calls);
    expect((await get(`/api/issues/${issue.id}`)).body.status).toBe("done");
    if (scenario === "bad-args") {
      const second = requests[1].body.messages.at(-1);
      expect(second).toMatchObject({ role: "tool", tool_call_id: "call_0_0" });
      expect(second.content).toMatch(/not valid JSON/);
    }
  });

  it("an unknown tool is answered with an error result and the list of tools; maxTurns ends a long run", async () => {
    const unknown = await runScenario("unknown-tool");
    expect(unknown.run).toMatchObject({ status: "succeeded", summary: "That tool does not exist; stopping." });
    expect(unknown.requests[1].body.messages.at(-1).content).toMatch(/Unknown tool "drop_database". Available tools: .*comment_issue/);
    const capped = await runScenario("work", { maxTurns: 2 });
    expect(capped.run).toMatchObject({ status: "failed", errorCode: "max_turns" });
    expect(capped.requests).toHaveLength(2);
  });

  it("the provider's own cost (OpenRouter's usage.cost) is what the cost events record", async () => {
    const { runId } = await runScenario("priced", { pricing: { inputPerMTokUsd: 100, outputPerMTokUsd: 100 } });
    const events = await costs(runId);
    // 4 × $0.0123 = 4.92 cents: whole cents as they accrue, the rest rounded at the last call.
    expect(events.map((e) => e.costCents)).toEqual([1, 1, 1, 2]);
    expect(events.every((e) => e.billingType === "metered_api")).toBe(true);
  });

  it("tools act with the agent's own permissions: another company's issue and an assignment it may not make are tool errors", async () => {
    const other = await createCompany();
    const foreign = await post(`/api/companies/${other.id}/issues`, { title: "Not yours" });
    const company = await createCompany();
    const peer = await post(`/api/companies/${company.id}/agents`, {
      name: unique("Peer"),
      adapterType: "http",
      adapterConfig: { url: "https://agents.example.com/wake" },
    });
    const script = JSON.stringify([
      [{ tool: "show_issue", args: { issue: foreign.body.id } }],
      [{ tool: "create_issue", args: { title: "Delegate", assigneeAgentId: peer.body.id } }],
      [{ tool: "decide_approval", args: { approvalId: "x", decision: "approve" } }],
      { text: "Could not do it." },
    ]);
    const { agent, fakeId } = await llmAgent(company.id, "script");
    const { runId } = await assignIssue(company.id, agent.id, { description: `SCRIPT: ${script}` });
    await driveLoop(runId);
    expect(await runOf(runId)).toMatchObject({ status: "succeeded" });
    const results = (await llmRequests(fakeId)).slice(1).map((r) => r.body.messages.at(-1));
    expect(results[0].content).toMatch(/HTTP 40[34]/);
    expect(results[1].content).toMatch(/HTTP 403/);
    expect(results[2].content).toMatch(/Unknown tool "decide_approval"/);
    expect((await get(`/api/companies/${company.id}/issues`)).body.map((i: { title: string }) => i.title)).not.toContain("Delegate");
    // The tools offered: the catalogue's, without what the service fills in (run, company).
    const offered = (await llmRequests(fakeId))[0].body.tools.map((t: any) => t.function);
    expect(offered.map((t: any) => t.name)).toEqual(expect.arrayContaining(["checkout_issue", "comment_issue", "update_issue", "create_issue", "list_issues"]));
    expect(offered.map((t: any) => t.name)).not.toContain("whoami");
    for (const t of offered) {
      expect(Object.keys(t.parameters.properties ?? {})).not.toContain("runId");
      expect(Object.keys(t.parameters.properties ?? {})).not.toContain("companyId");
    }
  });

  it("the tools allowlist narrows what the model is offered", async () => {
    const { requests } = await runScenario("unknown-tool", { tools: ["show_issue", "comment_issue"] });
    expect(requests[0].body.tools.map((t: any) => t.function.name)).toEqual(["show_issue", "comment_issue"]);
  });

  it("the next comment on the issue wakes the agent with its previous conversation", async () => {
    const { company, agent, fakeId, issue, runId } = await runScenario("work");
    expect((await get(`/api/agents/${agent.id}/runtime-state`)).body.sessions).toMatchObject([{ taskKey: `issue:${issue.id}`, adapterType: "llm_api" }]);
    const comment = await post(`/api/issues/${issue.id}/comments`, { body: "Can you also update the changelog?", reopen: true });
    expect(comment.status).toBe(201);
    await dispatch(company.id);
    const runs = (await get(`/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).body.runs as Array<{ id: string; status: string }>;
    const next = runs.find((r) => r.id !== runId)!;
    await driveLoop(next.id);
    expect(await runOf(next.id)).toMatchObject({ status: "succeeded", summary: "I read the new comment; nothing more to do." });
    const requests = await llmRequests(fakeId);
    expect(requests).toHaveLength(5);
    const messages = requests[4].body.messages;
    // The first run's conversation (its prompt, 4 answers and 3 tool results), then the new wake's prompt.
    expect(messages.filter((m: any) => m.role === "assistant")).toHaveLength(4);
    expect(messages.at(-1).content).toMatch(/Can you also update the changelog\?/);
    expect(JSON.stringify(messages)).toContain("Working on it: the fix is in.");
  });
});

describe("llm_api configuration", () => {
  it("GET /api/adapters lists every type with its fields as JSON (types from the config schemas, credentials marked)", async () => {
    const res = await get("/api/adapters");
    expect(res.status).toBe(200);
    const byType = new Map((res.body as Array<{ type: string }>).map((a) => [a.type, a as any]));
    expect([...byType.keys()]).toEqual(expect.arrayContaining(["http", "process", "claude_local", "codex_local", "remote_gateway", "llm_api"]));
    const llm = byType.get("llm_api");
    expect(llm).toMatchObject({ where: "loop", label: expect.any(String) });
    const field = (name: string) => llm.fields.find((f: { name: string }) => f.name === name);
    expect(field("provider")).toMatchObject({ type: "string", required: true, secret: false, enum: ["openai_compatible", "anthropic", "workers_ai"] });
    expect(field("apiKey")).toMatchObject({ type: "string", secret: true });
    expect(field("maxTurns")).toMatchObject({ type: "integer", default: 20 });
    expect(field("stream")).toMatchObject({ type: "boolean" });
    expect(llm.tools).toEqual(expect.arrayContaining(["checkout_issue", "comment_issue", "write_document", "request_approval"]));
    expect(llm.tools).not.toContain("decide_approval");
    expect(byType.get("http").fields.find((f: { name: string }) => f.name === "method")).toMatchObject({
      enum: ["GET", "POST", "PUT", "PATCH"],
      default: "POST",
    });
    // Agents read it with their own key; nobody without one.
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    expect((await get("/api/adapters", { token: agent.token })).status).toBe(200);
    expect((await get("/api/adapters", { env: AUTHENTICATED })).status).toBe(401);
  });

  it("stores a plaintext apiKey as a company secret and never shows it", async () => {
    const company = await createCompany();
    const { agent } = await llmAgent(company.id, "work");
    expect(agent.adapterConfig.apiKey).toMatchObject({ type: "secret_ref" });
    const reads = await Promise.all([get(`/api/agents/${agent.id}`), get(`/api/companies/${company.id}/agents`), get(`/api/agents/${agent.id}/configuration`)]);
    for (const read of reads) expect(read.text).not.toContain(API_KEY);
  });

  it("refuses what cannot work, with the field named (422) and nothing created", async () => {
    const company = await createCompany();
    const create = (adapterConfig: Record<string, unknown>) =>
      post(`/api/companies/${company.id}/agents`, { name: unique("Edge"), adapterType: "llm_api", adapterConfig });
    const noBaseUrl = await create({ provider: "openai_compatible", model: "gpt-test" });
    expect(noBaseUrl.status).toBe(422);
    expect(noBaseUrl.body.error).toMatch(/baseUrl is required/);
    expect((await create({ provider: "anthropic" })).status).toBe(422);
    expect((await create({ provider: "gemini", model: "x" })).status).toBe(422);
    // (Without the AI binding, or with a private baseUrl under public exposure, the policy refuses: test/unit/llm-api.test.ts.)
    const reserved = await create({
      provider: "openai_compatible",
      baseUrl: "https://openrouter.ai/api/v1",
      model: "x",
      headers: { Authorization: "Bearer y" },
    });
    expect(reserved.status).toBe(422);
    expect((await get(`/api/companies/${company.id}/agents`)).body).toHaveLength(0);
    // Workers AI with the binding needs no key and no URL.
    expect((await create({ provider: "workers_ai" })).status).toBe(201);
  });
});
