// The edge agent (llm_api) in tests: an agent pointed at the fake model APIs (test/setup/fake-llm.ts),
// its run's loop object driven alarm by alarm, and what the fake received.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { get, post, unique } from "./api";
import { dispatch } from "./fixtures";

export const FAKE = env.FAKE_AGENT_URL;
export const API_KEY = "sk-test-edge-0123456789abcdefSECRET";

export type Provider = "openai_compatible" | "anthropic" | "workers_ai";

export interface LlmRequest {
  path: string;
  headers: Record<string, string>;
  body: any;
  aborted: boolean;
}

/** What the fake model API received for `fakeId`, oldest first. */
export const llmRequests = async (fakeId: string): Promise<LlmRequest[]> => (await fetch(`${FAKE}/__llm/${fakeId}`)).json();

/** The adapterConfig of an agent talking to the fake `scenario` of `provider`. */
export function fakeModelConfig(provider: Provider, scenario: string, fakeId: string): Record<string, unknown> {
  if (provider === "anthropic") return { provider, baseUrl: `${FAKE}/llm-anthropic/${scenario}/${fakeId}/v1`, model: "claude-sonnet-4-5", apiKey: API_KEY };
  if (provider === "workers_ai") return { provider, model: `@cf/test/${scenario}/${fakeId}` };
  return { provider, baseUrl: `${FAKE}/llm/${scenario}/${fakeId}/v1`, model: "gpt-test", apiKey: API_KEY };
}

/** Creates an llm_api agent on the fake `scenario`; returns it with the id its requests are logged under. */
export async function llmAgent(companyId: string, scenario: string, config: Record<string, unknown> = {}, provider: Provider = "openai_compatible") {
  const fakeId = unique("llm");
  const res = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Edge"),
    adapterType: "llm_api",
    adapterConfig: { ...fakeModelConfig(provider, scenario, fakeId), ...config },
  });
  if (res.status !== 201) throw new Error(`agent create failed: ${res.status} ${res.text}`);
  return { agent: res.body as { id: string; adapterConfig: Record<string, unknown> }, fakeId };
}

export const loopObject = (runId: string) => env.AGENT_LOOPS.getByName(runId);

/** Assigns a new issue to the agent, dispatches, and returns the issue and its run id. */
export async function assignIssue(companyId: string, agentId: string, fields: Record<string, unknown> = {}) {
  const issue = await post(`/api/companies/${companyId}/issues`, { title: unique("Fix the build"), status: "todo", assigneeAgentId: agentId, ...fields });
  if (issue.status !== 201) throw new Error(`issue create failed: ${issue.status} ${issue.text}`);
  await dispatch(companyId);
  const runs = await get(`/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`);
  const run = (runs.body.runs as Array<{ id: string; status: string }>).find((r) => r.status === "running");
  if (!run) throw new Error(`no running run: ${JSON.stringify(runs.body)}`);
  return { issue: issue.body as { id: string; identifier: string }, runId: run.id };
}

/** Fires the loop's alarm until it is done (or `steps` alarms ran); returns how many ran. */
export async function driveLoop(runId: string, steps = 30): Promise<number> {
  const stub = loopObject(runId);
  for (let i = 0; i < steps; i++) {
    const state = await stub.describe();
    if (!state || state.done) return i;
    if (!(await runDurableObjectAlarm(stub))) return i;
  }
  return steps;
}

export const runOf = async (runId: string) => (await get(`/api/heartbeat-runs/${runId}`)).body;
export const runEvents = async (runId: string) =>
  (await get(`/api/heartbeat-runs/${runId}/events`)).body as Array<{ kind: string; message: string; data: any }>;
