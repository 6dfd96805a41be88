// The runner through the real CLI against the real dev server: `acp runner` with an agent key
// connects over a WebSocket, the agent is assigned an issue, the local process runs with the run's
// environment, comments through the API with SERVICE_API_KEY, exits 0, and the run is succeeded.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { devApi, devBase } from "./dev-server";
import { eventually } from "../helpers/eventually";

let base = "";
const root = path.resolve(import.meta.dirname, "../..");
const cli = path.join(root, "dist/cli.cjs");

const api = (method: string, route: string, body?: unknown, token?: string) => devApi(base, method, route, body, token);

/** Polls the dev server (200 ms apart, up to 30 s: the real CLI and processes are slow to start). */
const until = <T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000) => eventually(fn, { what, timeoutMs, intervalMs: 200 });

describe("acp runner (real CLI, real dev server)", () => {
  beforeAll(async () => {
    base = await devBase();
  }, 120_000);

  it("runs an assigned issue as a local process with the run's environment; the process comments with SERVICE_API_KEY; the run succeeds", async () => {
    const company = await api("POST", "/api/companies", { name: `Runner Co ${Date.now()}` });
    const secret = await api("POST", `/api/companies/${company.id}/secrets`, { name: `RUNNER_SECRET_${Date.now()}`, value: "from-the-vault" });
    const out = path.join(mkdtempSync(path.join(tmpdir(), "acp-runner-")), "seen.json");
    const agent = await api("POST", `/api/companies/${company.id}/agents`, {
      name: "Local Worker",
      adapterType: "process",
      adapterConfig: {
        command: process.execPath,
        args: [path.join(root, "test/e2e/fixtures/agent.mjs"), out],
        env: { PLAIN_SETTING: "plain", RUNNER_SECRET: { type: "secret_ref", secretId: secret.id } },
        timeoutSec: 60,
      },
    });
    const key = await api("POST", `/api/agents/${agent.id}/keys`, { name: "runner" });

    const child = spawn(process.execPath, [cli, "runner", "--url", base, "--token", key.token, "--name", "e2e-runner", "--max-runs", "1"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await until("the runner to connect", async () => {
        const runners = await api("GET", `/api/companies/${company.id}/runners`);
        return runners.find((r: any) => r.name === "e2e-runner" && r.agents.includes(agent.id));
      });
      const issue = await api("POST", `/api/companies/${company.id}/issues`, { title: "Say hello", assigneeAgentId: agent.id, status: "todo" });
      expect(await exited).toBe(0);
      const run = await until("the run to finish", async () => {
        const runs = await api("GET", `/api/companies/${company.id}/heartbeat-runs`);
        const found = runs.runs.find((r: any) => r.agentId === agent.id && r.issueId === issue.id);
        return found && !["queued", "running"].includes(found.status) ? found : null;
      });
      expect(run).toMatchObject({ status: "succeeded", summary: "local agent done", adapterType: "process" });

      expect(existsSync(out)).toBe(true);
      const seen = JSON.parse(readFileSync(out, "utf8"));
      expect(seen.env).toMatchObject({
        SERVICE_AGENT_ID: agent.id,
        SERVICE_COMPANY_ID: company.id,
        SERVICE_RUN_ID: run.id,
        SERVICE_API_URL: base,
        SERVICE_TASK_ID: issue.id,
        SERVICE_WAKE_REASON: expect.stringMatching(/assign/),
        PLAIN_SETTING: "plain",
        RUNNER_SECRET: "from-the-vault",
      });
      expect(seen.env.SERVICE_API_KEY).toMatch(/^ey/);
      expect(seen.commentStatus).toBe(201);
      const comments = await api("GET", `/api/issues/${issue.id}/comments`);
      expect(comments.find((c: any) => c.body.startsWith("Hello from the local agent"))).toMatchObject({ authorAgentId: agent.id });
      const events = await api("GET", `/api/heartbeat-runs/${run.id}/events`);
      const output = events
        .filter((e: any) => e.kind === "log")
        .map((e: any) => `${e.data?.stream}:${e.message}`)
        .join("");
      expect(output).toContain("stdout:working on it");
      expect(output).toContain("stderr:a warning on stderr");
      // The CLI follows the (finished) run's events.
      const logs = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [cli, "run", "logs", run.id, "--follow", "--url", base], (error, stdout) => (error ? reject(error) : resolve(stdout))),
      );
      expect(logs).toContain("working on it");
      expect(logs).toMatch(/status\s+Completed: succeeded/);
    } finally {
      if (child.exitCode === null) child.kill("SIGTERM");
      if (process.env.DEBUG_E2E) console.log(log);
    }
  });
});
