// The runner's process handling: environment, exit-code mapping, and killing the whole process
// group on timeout and on cancel (a grandchild must not survive).
import { describe, expect, it } from "vitest";
import { alive } from "../helpers/processes";
import { eventually } from "../helpers/eventually";
import { commandLine, startProcess } from "../../src/cli/process-run";
import { processEnvironment } from "../../src/cli/runtimes/environment";
import { RUNNER_PROTOCOL_VERSION, type RunStart } from "../../src/protocol/runner";
import type { RunOutput } from "../../src/cli/run-output";
import { connectUrl } from "../../src/cli/runner";

const start = (adapterConfig: Record<string, unknown>, adapterType = "process"): RunStart => ({
  type: "run.start",
  version: RUNNER_PROTOCOL_VERSION,
  runId: "run-1",
  agentId: "agent-1",
  companyId: "company-1",
  adapterType,
  adapterConfig,
  context: { issueId: "issue-1", wakeReason: "issue_assigned" },
  env: { SECRET_THING: "s3cret", SERVICE_APPROVAL_ID: "ap-1" },
  apiUrl: "https://api.example.com",
  apiToken: "jwt-token",
  prompt: "Do the work",
  taskKey: "issue:issue-1",
  session: null,
});

/** Output that only collects the log (or nothing). */
const logTo = (onLog: (stream: string, text: string) => void = () => {}): RunOutput => ({ log: onLog, events: () => {} });

describe("runner processes", () => {
  it("the environment carries the run's variables and resolved env over the runner's own, never the runner's key", () => {
    const env = processEnvironment(start({ command: "x" }), { PATH: "/bin", SERVICE_RUN_ID: "spoofed", ACP_TOKEN: "svc_board_runner-key" });
    expect(env.ACP_TOKEN).toBeUndefined();
    expect(env).toMatchObject({
      PATH: "/bin",
      SECRET_THING: "s3cret",
      SERVICE_APPROVAL_ID: "ap-1",
      SERVICE_AGENT_ID: "agent-1",
      SERVICE_COMPANY_ID: "company-1",
      SERVICE_RUN_ID: "run-1",
      SERVICE_API_URL: "https://api.example.com",
      SERVICE_API_KEY: "jwt-token",
      SERVICE_TASK_ID: "issue-1",
      SERVICE_WAKE_REASON: "issue_assigned",
    });
    expect(commandLine({ adapterConfig: { command: "/bin/agent", args: ["--once", 3] } })).toEqual({
      command: "/bin/agent",
      args: ["--once"],
    });
    expect(connectUrl("https://api.example.com/", "c 1")).toBe("wss://api.example.com/api/companies/c%201/runners/connect");
    expect(connectUrl("http://127.0.0.1:8787", "c")).toBe("ws://127.0.0.1:8787/api/companies/c/runners/connect");
  });

  it("exit 0 succeeds with the last stdout line; a non-zero exit fails with its code; a missing command fails", async () => {
    const output: string[] = [];
    const ok = await startProcess(
      start({ command: "sh", args: ["-c", "echo one; echo two >&2; echo last line"] }),
      logTo((stream, text) => output.push(`${stream}:${text}`)),
    ).done;
    expect(ok).toEqual({ status: "succeeded", exitCode: 0, summary: "last line" });
    expect(output.join("")).toContain("stderr:two");
    expect(await startProcess(start({ command: "sh", args: ["-c", "exit 7"] }), logTo()).done).toMatchObject({
      status: "failed",
      exitCode: 7,
      error: "The process exited with code 7",
    });
    expect((await startProcess(start({ command: "/nonexistent/agent-binary" }), logTo()).done).status).toBe("failed");
  });

  it("past timeoutSec the whole process group is killed and the run is timed_out", async () => {
    const marker = `sleep 31.${process.pid}1`;
    const run = startProcess(start({ command: "sh", args: ["-c", `${marker} & ${marker}; echo never`], timeoutSec: 1, graceSec: 1 }), logTo());
    const outcome = await run.done;
    expect(outcome.status).toBe("timed_out");
    await eventually(() => !alive(marker), { what: "the process group to end" });
  });

  it("cancel kills the process group", async () => {
    const marker = `sleep 32.${process.pid}2`;
    const run = startProcess(start({ command: "sh", args: ["-c", `${marker} & ${marker}`], graceSec: 1 }), logTo());
    await eventually(() => alive(marker), { what: "the process group to start" });
    run.cancel();
    expect((await run.done).status).toBe("failed");
    await eventually(() => !alive(marker), { what: "the process group to end" });
  });

  it("a background grandchild holding stdout does not hang the run: the group is ended after the main process exits", async () => {
    const marker = `sleep 33.${process.pid}3`;
    const outcome = await startProcess(start({ command: "sh", args: ["-c", `${marker} & echo started`] }), logTo()).done;
    expect(outcome).toMatchObject({ status: "succeeded", exitCode: 0, summary: "started" });
    await eventually(() => !alive(marker), { what: "the process group to end" });
  });
});
