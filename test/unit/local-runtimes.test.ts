// The six local runtimes through the runner's own code (src/cli/local-run.ts) against fake CLIs that
// print each CLI's real output format (test/fixtures/runtimes/): the command line and prompt each
// receives, the transcript, summary, session and usage; resuming; each failure class; the turn
// limit; timeouts; 5 MiB of output; the child's environment.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { LOCAL_RUNTIMES, type LocalRuntime } from "../../src/protocol/local-runtimes";
import { FAKE_SUMMARY, promptOf, RESUME_FLAG, runLocal, tempDir } from "../helpers/local-runtimes";

const SUMMARY = FAKE_SUMMARY;

/** Each CLI's non-interactive, structured-output flags. */
const MODE_FLAGS: Record<LocalRuntime, string[]> = {
  claude: ["--print", "-", "--output-format", "stream-json", "--verbose"],
  codex: ["exec", "--json"],
  gemini: ["--output-format", "stream-json"],
  opencode: ["run", "--format", "json"],
  cursor: ["-p", "--output-format", "stream-json"],
  pi: ["--mode", "json", "-p"],
};

const TOKENS = { inputTokens: 1200, cachedInputTokens: 300, outputTokens: 450 };

describe.each(LOCAL_RUNTIMES)("%s_local on a runner", (runtime) => {
  it("runs non-interactively with the prompt and model; the transcript, summary, session and usage come back", async () => {
    const { outcome, events, invocations } = await runLocal(runtime, { prompt: "You are Ada. Do ACME-1 now." });
    expect(invocations).toHaveLength(1);
    const [inv] = invocations;
    for (const flag of MODE_FLAGS[runtime]) expect(inv.argv).toContain(flag);
    expect(promptOf(runtime, inv)).toBe("You are Ada. Do ACME-1 now.");
    expect(inv.argv).toContain("--model");
    expect(outcome).toMatchObject({ status: "succeeded", summary: SUMMARY, sessionId: expect.any(String) });
    expect(outcome.sessionParams).toMatchObject({ cwd: inv.cwd, runtime });
    const kinds = new Set(events.map((e) => e.kind));
    for (const kind of ["assistant", "tool_call", "tool_result"]) expect(kinds).toContain(kind);
    expect(events.find((e) => e.kind === "tool_call")?.message).toContain("step 1");
    expect(outcome.usage).toMatchObject(TOKENS);
    // Codex and Gemini report no cost (their tokens are still recorded).
    if (runtime === "codex" || runtime === "gemini") expect(outcome.usage?.costUsd).toBeUndefined();
    else expect(outcome.usage?.costUsd).toBe(0.0123);
  });

  it("resumes the saved session of the same directory and model; not one saved for another directory", async () => {
    const cwd = tempDir("acp-resume-");
    const model = {
      claude: "claude-sonnet-4-5",
      codex: "gpt-5-codex",
      gemini: "gemini-2.5-pro",
      opencode: "anthropic/claude-sonnet-4-5",
      cursor: "auto",
      pi: "anthropic/claude-sonnet-4-5",
    }[runtime];
    const same = await runLocal(runtime, { config: { cwd }, session: { id: "sess-keep-1", params: { cwd, model } } });
    const argv = same.invocations[0].argv;
    expect(argv[argv.indexOf(RESUME_FLAG[runtime]) + 1]).toBe("sess-keep-1");
    expect(same.outcome).toMatchObject({ status: "succeeded", sessionId: "sess-keep-1" });
    const other = await runLocal(runtime, { config: { cwd }, session: { id: "sess-keep-2", params: { cwd: "/elsewhere", model } } });
    expect(other.invocations[0].argv).not.toContain("sess-keep-2");
    expect(other.events.find((e) => e.message.includes("saved for /elsewhere"))).toBeTruthy();
    expect(other.outcome.sessionId).not.toBe("sess-keep-2");
  });

  it("an unknown session is retried once without resuming; the new session replaces it", async () => {
    const cwd = tempDir("acp-stale-");
    const { outcome, invocations, events } = await runLocal(runtime, {
      scenario: "unknown_session",
      config: { cwd, model: runtime === "opencode" || runtime === "pi" ? "anthropic/claude-sonnet-4-5" : undefined },
      session: { id: "sess-gone", params: { cwd } },
    });
    expect(invocations).toHaveLength(2);
    expect(invocations[0].argv).toContain("sess-gone");
    expect(invocations[1].argv).not.toContain("sess-gone");
    expect(events.find((e) => e.message.includes("cannot be resumed"))).toBeTruthy();
    expect(outcome.status).toBe("succeeded");
    expect(outcome.sessionId).toBeTruthy();
    expect(outcome.sessionId).not.toBe("sess-gone");
  });

  it("not signed in: auth_required with how to sign in", async () => {
    const { outcome } = await runLocal(runtime, { scenario: "auth" });
    expect(outcome).toMatchObject({ status: "failed", errorCode: "auth_required" });
    expect(outcome.error).toMatch(/login|API_KEY/);
  });

  it("a usage limit: provider_rate_limited, with the reset time the CLI printed (or none for a back-off)", async () => {
    const now = new Date("2026-11-27T15:15:00Z");
    const { outcome } = await runLocal(runtime, { scenario: "limit", now });
    expect(outcome).toMatchObject({ status: "failed", errorCode: "provider_rate_limited" });
    const expected: Record<LocalRuntime, string> = {
      claude: "2026-11-27T22:00:00.000Z", // 4pm America/Chicago (UTC-6 in November)
      codex: "2026-11-28T15:15:00.000Z", // 3:15 PM UTC has just passed: tomorrow's
      gemini: "2026-11-27T15:15:30.000Z", // retry in 30s
      opencode: "2026-11-27T15:17:00.000Z", // in 2 minutes
      cursor: "2026-11-28T09:00:00.000Z", // 9:00 AM UTC
      pi: "2026-11-27T15:15:45.000Z", // in 45 seconds
    };
    expect(outcome.nextRetryAt).toBe(expected[runtime]);
  });

  it("a turn limit: max_turns (Claude's own limit and Gemini's exit 53; the runner counts turns for the others)", async () => {
    const { outcome, invocations } = await runLocal(runtime, { scenario: "max_turns", config: { maxTurnsPerRun: 2 } });
    expect(outcome).toMatchObject({ status: "failed", errorCode: "max_turns" });
    if (runtime === "claude") expect(invocations[0].argv.join(" ")).toContain("--max-turns 2");
    else expect(invocations[0].argv).not.toContain("--max-turns");
  });

  it("a crash fails the run with its exit code and what it printed; a hang is timed out", async () => {
    const crash = await runLocal(runtime, { scenario: "crash" });
    expect(crash.outcome).toMatchObject({ status: "failed", errorCode: "process_failed", exitCode: 139 });
    expect(crash.outcome.error).toContain("Segmentation fault");
    const hang = await runLocal(runtime, { scenario: "hang", config: { timeoutSec: 1, graceSec: 1 } });
    expect(hang.outcome).toMatchObject({ status: "timed_out", errorCode: "timeout" });
  });

  it("5 MiB of output: the session from the first line and the result from the last are both kept", async () => {
    const { outcome, log } = await runLocal(runtime, { scenario: "big" });
    expect(log.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(outcome).toMatchObject({ status: "succeeded", summary: SUMMARY, sessionId: expect.any(String) });
    expect(outcome.usage).toMatchObject(TOKENS);
  });

  it("each config field changes the command line or the run", async () => {
    const cwd = tempDir("acp-fields-");
    const instructions = path.join(cwd, "AGENTS.md");
    writeFileSync(instructions, "Always write tests first.");
    const custom = path.join(tempDir("acp-cmd-"), "my-cli");
    const bin = path.resolve(import.meta.dirname, "../fixtures/runtimes/bin", runtime === "cursor" ? "agent" : runtime);
    writeFileSync(custom, `#!/bin/sh\nexec ${bin} "$@"\n`, { mode: 0o755 });
    const model = runtime === "opencode" || runtime === "pi" ? "openrouter/some-model" : "special-model";
    const { invocations, outcome } = await runLocal(runtime, {
      config: { cwd, model, command: custom, extraArgs: ["--extra-flag"], instructionsFilePath: "AGENTS.md" },
      env: { AGENT_SETTING: "from-agent-env" },
    });
    expect(outcome.status).toBe("succeeded");
    const [inv] = invocations;
    expect(inv.cwd).toBe(cwd);
    expect(inv.argv[inv.argv.indexOf("--model") + 1]).toBe(model);
    expect(inv.argv).toContain("--extra-flag");
    expect(inv.env.AGENT_SETTING).toBe("from-agent-env");
    // The model the CLI says it used, else the configured one.
    expect(outcome.usage?.model).toBeTruthy();
    if (runtime === "claude") expect(inv.argv[inv.argv.indexOf("--append-system-prompt-file") + 1]).toBe(instructions);
    else if (runtime === "pi") expect(inv.argv[inv.argv.indexOf("--append-system-prompt") + 1]).toBe(instructions);
    else expect(promptOf(runtime, inv)).toMatch(/^Always write tests first\.\n\nThe above agent instructions were loaded from .*AGENTS\.md/);
    // The custom command ran (the default on PATH would not have been given --extra-flag by this wrapper).
    expect(outcome.result).toBeDefined();
  });

  it("the child's environment is an allowlist: no runner secrets, no runner key, no nested-session variables", async () => {
    const { invocations } = await runLocal(runtime, {
      baseEnv: {
        RUNNER_DB_PASSWORD: "hunter2",
        ACP_TOKEN: "svc_board_runner",
        CLAUDECODE: "1",
        CLAUDE_CODE_ENTRYPOINT: "cli",
        LC_ALL: "C.UTF-8",
        LANG: "C.UTF-8",
      },
      env: { ANTHROPIC_API_KEY: "sk-agent", OPENAI_API_KEY: "sk-agent-openai" },
    });
    const env = invocations[0].env;
    expect(env.RUNNER_DB_PASSWORD).toBeUndefined();
    expect(env.ACP_TOKEN).toBeUndefined();
    expect(env.CLAUDECODE).toBeUndefined();
    expect(env.CLAUDE_CODE_ENTRYPOINT).toBeUndefined();
    expect(env).toMatchObject({
      LC_ALL: "C.UTF-8",
      LANG: "C.UTF-8",
      ANTHROPIC_API_KEY: "sk-agent",
      SERVICE_API_URL: "http://127.0.0.1:8787",
      SERVICE_API_KEY: "run-jwt",
      SERVICE_RUN_ID: "run-1",
      SERVICE_TASK_ID: "issue-1",
    });
    expect(env.PATH).toContain("fixtures/runtimes/bin");
    expect(env.HOME).toBeTruthy();
    // Nothing else of the runner's environment.
    const allowed = /^(PATH|HOME|LANG|LC_ALL|FAKE_.*|SERVICE_.*|ANTHROPIC_API_KEY|OPENAI_API_KEY|AGENT_.*|GEMINI_CLI_TRUST_WORKSPACE)$/;
    expect(Object.keys(env).filter((k) => !allowed.test(k) && !["PWD", "SHLVL", "_", "OLDPWD"].includes(k))).toEqual([]);
  });
});

describe("runtime-specific fields", () => {
  it("claude: dangerouslySkipPermissions (on unless false); an API key bills metered, a plan login is included", async () => {
    const on = await runLocal("claude");
    expect(on.invocations[0].argv).toContain("--dangerously-skip-permissions");
    expect(on.outcome.usage).toMatchObject({ billingType: "subscription_included", provider: "anthropic" });
    const off = await runLocal("claude", { config: { dangerouslySkipPermissions: false }, env: { ANTHROPIC_API_KEY: "sk-x" } });
    expect(off.invocations[0].argv).not.toContain("--dangerously-skip-permissions");
    expect(off.outcome.usage).toMatchObject({ billingType: "metered_api", costUsd: 0.0123 });
  });

  it("codex: bypass and git-repo check by default, a sandbox when bypass is off; no credentials → auth_required without starting it", async () => {
    const on = await runLocal("codex");
    expect(on.invocations[0].argv).toEqual(expect.arrayContaining(["--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check"]));
    expect(on.invocations[0].argv[on.invocations[0].argv.length - 1]).toBe("-");
    const off = await runLocal("codex", { config: { dangerouslyBypassApprovalsAndSandbox: false, skipGitRepoCheck: false } });
    expect(off.invocations[0].argv).not.toContain("--dangerously-bypass-approvals-and-sandbox");
    expect(off.invocations[0].argv).not.toContain("--skip-git-repo-check");
    expect(off.invocations[0].argv.join(" ")).toContain("--sandbox workspace-write");
    const unsigned = await runLocal("codex", { home: tempDir("acp-no-codex-") });
    expect(unsigned.invocations).toHaveLength(0);
    expect(unsigned.outcome).toMatchObject({ status: "failed", errorCode: "auth_required" });
    expect(unsigned.outcome.error).toContain("codex login");
  });

  it("gemini: approvalMode (yolo trusts the directory), sandbox", async () => {
    const yolo = await runLocal("gemini");
    expect(yolo.invocations[0].argv.join(" ")).toContain("--approval-mode yolo");
    expect(yolo.invocations[0].env.GEMINI_CLI_TRUST_WORKSPACE).toBe("true");
    const careful = await runLocal("gemini", { config: { approvalMode: "auto_edit", sandbox: true } });
    expect(careful.invocations[0].argv.join(" ")).toContain("--approval-mode auto_edit");
    expect(careful.invocations[0].argv).toContain("--sandbox");
    expect(careful.invocations[0].env.GEMINI_CLI_TRUST_WORKSPACE).toBeUndefined();
  });

  it("opencode and cursor: dangerouslySkipPermissions (on unless false)", async () => {
    expect((await runLocal("opencode")).invocations[0].argv).toContain("--auto");
    expect((await runLocal("opencode", { config: { dangerouslySkipPermissions: false } })).invocations[0].argv).not.toContain("--auto");
    expect((await runLocal("cursor")).invocations[0].argv).toContain("--yolo");
    expect((await runLocal("cursor", { config: { dangerouslySkipPermissions: false } })).invocations[0].argv).not.toContain("--yolo");
  });

  it("pi: tools; a Pi error on exit 0 still fails the run", async () => {
    const tools = await runLocal("pi", { config: { tools: ["read", "bash"] } });
    expect(tools.invocations[0].argv.join(" ")).toContain("--tools read,bash");
    const limited = await runLocal("pi", { scenario: "limit" });
    expect(limited.outcome.status).toBe("failed");
  });

  it("cursor: `agent` on PATH is the default command; graceSec bounds a CLI that ignores SIGTERM", async () => {
    const run = await runLocal("cursor");
    expect(run.events.find((e) => e.kind === "status" && e.message.startsWith("Starting"))?.message).toMatch(/bin\/agent /);
    const stubborn = await runLocal("claude", { scenario: "stubborn", config: { timeoutSec: 1, graceSec: 1 } });
    expect(stubborn.outcome.status).toBe("timed_out");
  });

  it("a missing CLI fails with how to install it", async () => {
    const { outcome } = await runLocal("claude", { config: { command: "/nonexistent/claude" } });
    expect(outcome).toMatchObject({ status: "failed", errorCode: "process_failed" });
    expect(outcome.error).toContain("Install the Claude Code CLI");
  });
});
