// Running a `<runtime>_local` run through the runner's own code (src/cli/local-run.ts) against the
// fake CLIs (test/fixtures/runtimes/): the outcome, the transcript and log it produced, and what
// each CLI invocation received (argv, stdin, env, cwd).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startLocalRun } from "../../src/cli/local-run";
import type { RunOutcome } from "../../src/cli/run-output";
import type { TranscriptEvent } from "../../src/cli/runtimes/types";
import { RUNNER_PROTOCOL_VERSION, type RunStart } from "../../src/protocol/runner";
import type { LocalRuntime } from "../../src/protocol/local-runtimes";

export const FAKE_BIN = path.resolve(import.meta.dirname, "../fixtures/runtimes/bin");

export interface Invocation {
  runtime: string;
  argv: string[];
  stdin: string;
  env: Record<string, string>;
  cwd: string;
}

export interface LocalRunResult {
  outcome: RunOutcome;
  events: TranscriptEvent[];
  log: string;
  invocations: Invocation[];
}

export interface LocalRunOptions {
  config?: Record<string, unknown>;
  scenario?: string;
  session?: { id: string; params: Record<string, unknown> } | null;
  prompt?: string;
  /** The agent's env (reaches the CLI). */
  env?: Record<string, string>;
  /** The runner's own environment on top of PATH (with the fakes first) and a fresh HOME. */
  baseEnv?: Record<string, string>;
  home?: string;
  now?: Date;
}

export const tempDir = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

export async function runLocal(runtime: LocalRuntime, options: LocalRunOptions = {}): Promise<LocalRunResult> {
  const capture = tempDir("acp-fake-capture-");
  const home = options.home ?? tempDir("acp-fake-home-");
  // Codex refuses to start unsigned (it would retry for ever): a plan login unless a test brings its own HOME.
  if (runtime === "codex" && !options.home) {
    mkdirSync(path.join(home, ".codex"), { recursive: true });
    writeFileSync(path.join(home, ".codex/auth.json"), "{}");
  }
  const start: RunStart = {
    type: "run.start",
    version: RUNNER_PROTOCOL_VERSION,
    runId: "run-1",
    agentId: "agent-1",
    companyId: "company-1",
    adapterType: `${runtime}_local`,
    adapterConfig: { cwd: tempDir("acp-fake-cwd-"), ...options.config },
    context: { issueId: "issue-1", wakeReason: "assignment" },
    env: { FAKE_CAPTURE: capture, ...(options.scenario ? { FAKE_SCENARIO: options.scenario } : {}), ...options.env },
    apiUrl: "http://127.0.0.1:8787",
    apiToken: "run-jwt",
    prompt: options.prompt ?? "You are Ada. Do ACME-1.",
    taskKey: "issue:issue-1",
    session: options.session ?? null,
  };
  const events: TranscriptEvent[] = [];
  let log = "";
  const run = startLocalRun(
    start,
    { log: (_stream, text) => (log += text), events: (e) => events.push(...e) },
    { env: { PATH: `${FAKE_BIN}:${process.env.PATH}`, HOME: home, ...options.baseEnv }, home, now: options.now ? () => options.now! : undefined },
  );
  const outcome = await run.done;
  const invocations = readdirSync(capture)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(capture, f), "utf8")) as Invocation);
  return { outcome, events, log, invocations };
}

/** What the fake CLIs answer a normal run with. */
export const FAKE_SUMMARY = "Finished: checked out the issue, commented and set it done.";

/** The flag (or subcommand word) each CLI resumes a session with. */
export const RESUME_FLAG: Record<LocalRuntime, string> = {
  claude: "--resume",
  codex: "resume",
  gemini: "--resume",
  opencode: "--session",
  cursor: "--resume",
  pi: "--session",
};

/** Where each CLI got the prompt: Gemini's --prompt, Pi's last argument, else stdin. */
export const promptOf = (runtime: LocalRuntime, inv: { argv: string[]; stdin: string }) =>
  runtime === "gemini" ? inv.argv[inv.argv.indexOf("--prompt") + 1] : runtime === "pi" ? inv.argv[inv.argv.length - 1] : inv.stdin;
