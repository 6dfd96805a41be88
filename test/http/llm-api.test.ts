// The edge agent (llm_api) end to end against the fake model APIs (test/setup/fake-llm.ts): the
// dispatcher hands the run to its AgentLoopObject, whose alarms the tests fire by hand.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { get } from "../helpers/api";
import { createCompany, schema, testDb } from "../helpers/fixtures";
import { API_KEY, assignIssue, driveLoop, llmAgent, llmRequests, runEvents, runOf, type Provider } from "../helpers/llm-agents";

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
