// The six local runtimes end to end: the real CLI (`acp runner`, built) against the real dev server,
// with fake CLIs (test/fixtures/runtimes/bin, first on the runner's PATH) that print each CLI's real
// JSON output. For each runtime: an issue is assigned → the CLI receives the service's prompt and
// its non-interactive flags → the transcript, summary, session and cost are recorded → a new
// comment wakes the agent again: the prompt carries the comment and the CLI resumes the session.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devApi, devBase } from "./dev-server";
import { eventually } from "../helpers/eventually";
import { LOCAL_RUNTIMES, type LocalRuntime } from "../../src/protocol/local-runtimes";
import { FAKE_SUMMARY, promptOf, RESUME_FLAG } from "../helpers/local-runtimes";

const root = path.resolve(import.meta.dirname, "../..");
const cli = path.join(root, "dist/cli.cjs");
const fakeBin = path.join(root, "test/fixtures/runtimes/bin");
let base = "";
let token = "";
let companyId = "";
let runner: ChildProcess | null = null;
let runnerLog = "";
const agents = new Map<LocalRuntime, { id: string; capture: string }>();

const api = (method: string, route: string, body?: unknown) => devApi(base, method, route, body, token);

const until = <T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 45_000) => eventually(fn, { what, timeoutMs, intervalMs: 200 });

/** A board key through the device flow, approved as the local board. */
async function boardKey(): Promise<string> {
  const challenge = await api("POST", "/api/cli-auth/challenges", { clientName: "e2e", keyName: "runtimes" });
  await api("POST", `/api/cli-auth/challenges/${challenge.id}/approve`, { userCode: challenge.userCode });
  const res = await fetch(`${base}/api/cli-auth/challenges/${challenge.id}`, { headers: { "x-challenge-secret": challenge.pollSecret } });
  return ((await res.json()) as any).boardApiKey.token;
}

const SUMMARY = FAKE_SUMMARY;
const invocations = (capture: string) =>
  readdirSync(capture)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(capture, f), "utf8")));

async function finishedRun(agentId: string, issueId: string, after: string[]) {
  return until(`a finished run of ${agentId}`, async () => {
    const { runs } = await api("GET", `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`);
    const found = runs.find((r: any) => r.issueId === issueId && !after.includes(r.id));
    return found && !["queued", "running", "scheduled_retry"].includes(found.status) ? found : null;
  });
}

describe("acp runner with the six coding-agent CLIs (fakes printing their real output)", () => {
  beforeAll(async () => {
    base = await devBase();
    const company = await api("POST", "/api/companies", { name: `Runtimes Co ${Date.now()}` });
    companyId = company.id;
    token = await boardKey();
    const scratch = mkdtempSync(path.join(tmpdir(), "acp-e2e-runtimes-"));
    const home = path.join(scratch, "home");
    mkdirSync(path.join(home, ".codex"), { recursive: true });
    writeFileSync(path.join(home, ".codex/auth.json"), "{}"); // Codex's plan login (it refuses to start without one)
    for (const runtime of LOCAL_RUNTIMES) {
      const capture = path.join(scratch, `capture-${runtime}`);
      const agent = await api("POST", `/api/companies/${companyId}/agents`, {
        name: `${runtime} dev`,
        role: "engineer",
        adapterType: `${runtime}_local`,
        adapterConfig: { cwd: path.join(scratch, `work-${runtime}`), env: { FAKE_CAPTURE: capture }, timeoutSec: 60 },
      });
      agents.set(runtime, { id: agent.id, capture });
    }
    const ids = [...agents.values()].map((a) => a.id);
    runner = spawn(process.execPath, [cli, "runner", "--url", base, "--token", token, "--company", companyId, "--name", "e2e-runtimes", "--agent", ...ids], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH}`, HOME: home, ACP_CONFIG_DIR: path.join(scratch, "acp") },
    });
    runner.stdout!.on("data", (d) => (runnerLog += d));
    runner.stderr!.on("data", (d) => (runnerLog += d));
    await until("the runner to serve the six agents", async () => {
      const runners = await api("GET", `/api/companies/${companyId}/runners`);
      return runners.find((r: any) => r.name === "e2e-runtimes" && ids.every((id) => r.agents.includes(id)));
    });
  }, 120_000);

  afterAll(() => {
    if (runner && runner.exitCode === null) runner.kill("SIGTERM");
    if (process.env.DEBUG_E2E) console.log(runnerLog);
  });

  it.each(LOCAL_RUNTIMES)(
    "%s_local: assigned an issue, runs with the prompt; transcript, summary, session and cost come back; a comment resumes the session",
    async (runtime) => {
      const { id: agentId, capture } = agents.get(runtime)!;
      const issue = await api("POST", `/api/companies/${companyId}/issues`, {
        title: `Fix the ${runtime} login`,
        description: `The ${runtime} login is broken.`,
        assigneeAgentId: agentId,
        status: "todo",
      });
      const first = await finishedRun(agentId, issue.id, []);
      expect(first).toMatchObject({ status: "succeeded", summary: SUMMARY, adapterType: `${runtime}_local` });
      const [one] = invocations(capture);
      expect(promptOf(runtime, one)).toContain(`You were assigned ${issue.identifier}`);
      expect(promptOf(runtime, one)).toContain(`The ${runtime} login is broken.`);
      expect(one.env).toMatchObject({ SERVICE_RUN_ID: first.id, SERVICE_TASK_ID: issue.id, SERVICE_API_URL: base });
      expect(one.argv).toContain("--model");

      const events = await api("GET", `/api/heartbeat-runs/${first.id}/events`);
      const kinds = new Set(events.map((e: any) => e.kind));
      for (const kind of ["assistant", "tool_call", "tool_result", "log"]) expect(kinds).toContain(kind);
      const state = await api("GET", `/api/agents/${agentId}/runtime-state`);
      const session = state.sessions.find((s: any) => s.issueId === issue.id);
      expect(session).toMatchObject({ sessionId: expect.any(String), params: { runtime } });
      const costs = (await api("GET", `/api/companies/${companyId}/cost-events`)).filter((c: any) => c.heartbeatRunId === first.id);
      expect(costs).toEqual([expect.objectContaining({ inputTokens: 1200, cachedInputTokens: 300, outputTokens: 450 })]);

      await api("POST", `/api/issues/${issue.id}/comments`, { body: `Please also cover ${runtime} password resets.` });
      const second = await finishedRun(agentId, issue.id, [first.id]);
      expect(second.status).toBe("succeeded");
      const two = invocations(capture)[1];
      expect(promptOf(runtime, two)).toContain(`Please also cover ${runtime} password resets.`);
      expect(two.argv[two.argv.indexOf(RESUME_FLAG[runtime]) + 1]).toBe(session.sessionId);
    },
  );
});
