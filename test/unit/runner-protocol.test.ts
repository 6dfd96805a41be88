// The runner protocol (src/protocol/runner.ts) is the one definition both sides use: what the CLI
// builds passes the service's parser, what the service sends passes the CLI's, and a runner of
// another protocol version is told which one the service speaks.
import { describe, expect, it } from "vitest";
import {
  parseMessage,
  RUNNER_ERROR_CODES,
  RUNNER_PROTOCOL_VERSION,
  RUN_EVENT_KINDS,
  RunnerToServiceMessage,
  ServiceToRunnerMessage,
  type ServiceToRunner,
} from "../../src/protocol/runner";
import { RUN_ERROR_CODES } from "../../src/db/schema/runs";
import { helloMessage } from "../../src/cli/runner";

describe("runner protocol", () => {
  it("the CLI's hello is what the service accepts, at the shared version", () => {
    const hello = helloMessage({ agents: ["a-1", "a-2"], name: "laptop" }, "instance-1234", ["run-1"]);
    const parsed = parseMessage(RunnerToServiceMessage, JSON.stringify(hello));
    expect(parsed).toEqual({
      ok: true,
      message: { type: "hello", version: RUNNER_PROTOCOL_VERSION, agents: ["a-1", "a-2"], name: "laptop", instanceId: "instance-1234", runs: ["run-1"] },
    });
  });

  it("another version is refused with the version the service speaks; bad frames say why, with the run id when there is one", () => {
    const old = parseMessage(RunnerToServiceMessage, JSON.stringify({ type: "hello", version: 0, agents: [] }));
    expect(old).toMatchObject({ ok: false, error: expect.stringContaining(`this service speaks version ${RUNNER_PROTOCOL_VERSION}`) });
    expect(parseMessage(RunnerToServiceMessage, "{nope")).toEqual({ ok: false, error: "Messages are JSON text" });
    expect(parseMessage(RunnerToServiceMessage, JSON.stringify({ type: "run.complete", runId: "r-9", status: "exploded" }))).toMatchObject({
      ok: false,
      runId: "r-9",
      error: expect.stringContaining("status"),
    });
    // run.event's kind defaults to log.
    expect(parseMessage(RunnerToServiceMessage, JSON.stringify({ type: "run.event", runId: "r", message: "hi" }))).toMatchObject({
      ok: true,
      message: { kind: "log" },
    });
  });

  it("every message the service sends parses on the runner's side; fields a newer service adds are kept, not refused", () => {
    const sent: ServiceToRunner[] = [
      { type: "ready", version: RUNNER_PROTOCOL_VERSION, runnerId: "rn-1", agents: ["a-1"], refused: [{ agentId: "a-2", reason: "not yours" }], runs: [] },
      {
        type: "run.start",
        version: RUNNER_PROTOCOL_VERSION,
        runId: "r-1",
        agentId: "a-1",
        companyId: "c-1",
        adapterType: "process",
        adapterConfig: { command: "echo" },
        context: { wakeReason: "on_demand" },
        env: { A: "1" },
        apiUrl: "http://127.0.0.1:8787",
        apiToken: "jwt",
        skills: [],
        prompt: "You are Ada…",
        taskKey: "issue:i-1",
        session: { id: "sess-1", params: { cwd: "/srv/app", model: "m" } },
      },
      { type: "env.test", requestId: "q-1", adapterType: "claude_local", adapterConfig: { model: "m" }, probe: false },
      { type: "run.completed", runId: "r-1" },
      { type: "run.cancel", runId: "r-1" },
      { type: "error", error: "The completion could not be recorded; send it again", runId: "r-1", retryable: true },
      { type: "pong" },
    ];
    for (const message of sent) expect(parseMessage(ServiceToRunnerMessage, JSON.stringify(message))).toEqual({ ok: true, message });
    const newer = parseMessage(ServiceToRunnerMessage, JSON.stringify({ type: "run.cancel", runId: "r-1", reason: "budget" }));
    expect(newer).toEqual({ ok: true, message: { type: "run.cancel", runId: "r-1", reason: "budget" } });
  });

  it("a version-1 runner is told to upgrade; the codes a runner reports are run error codes", () => {
    const old = parseMessage(RunnerToServiceMessage, JSON.stringify({ type: "hello", version: 1, agents: [] }));
    expect(old).toMatchObject({ ok: false, error: expect.stringMatching(/version 2: upgrade the runner/) });
    for (const code of RUNNER_ERROR_CODES) expect(RUN_ERROR_CODES).toContain(code);
  });

  it("version 2: a completion carries its error code, session, usage and retry time; transcript kinds and batched events", () => {
    const complete = {
      type: "run.complete",
      runId: "r-1",
      status: "failed",
      errorCode: "provider_rate_limited",
      error: "You've hit your usage limit",
      sessionId: "thread-1",
      sessionParams: { cwd: "/srv/app", model: "gpt-5-codex" },
      usage: { inputTokens: 10, cachedInputTokens: 2, outputTokens: 4, costUsd: 0.01, model: "gpt-5-codex", provider: "openai", billingType: "metered_api" },
      nextRetryAt: "2026-11-27T15:15:00.000Z",
    };
    expect(parseMessage(RunnerToServiceMessage, JSON.stringify(complete))).toEqual({ ok: true, message: complete });
    expect(parseMessage(RunnerToServiceMessage, JSON.stringify({ ...complete, errorCode: "rate_limited" }))).toMatchObject({ ok: false, runId: "r-1" });
    expect(parseMessage(RunnerToServiceMessage, JSON.stringify({ ...complete, usage: { inputTokens: -1 } }))).toMatchObject({ ok: false });
    const events = { type: "run.events", runId: "r-1", events: RUN_EVENT_KINDS.map((kind) => ({ kind, message: kind })) };
    expect(parseMessage(RunnerToServiceMessage, JSON.stringify(events))).toEqual({ ok: true, message: events });
    expect(parseMessage(RunnerToServiceMessage, JSON.stringify({ type: "run.events", runId: "r-1", events: [] }))).toMatchObject({ ok: false });
  });
});
