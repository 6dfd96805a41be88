// What the runner knows of one coding-agent CLI (a driver per runtime, src/cli/runtimes/<runtime>.ts):
// how to launch it for a run, how to read its structured output as it arrives, and how to tell its
// failures apart. src/cli/local-run.ts runs them all the same way.
import type { LocalConfig, LocalRuntime } from "../../protocol/local-runtimes";
import type { RunEventKind } from "../../protocol/runner";

/** One transcript entry parsed from the CLI's output (a run event). */
export interface TranscriptEvent {
  kind: Exclude<RunEventKind, "log" | "progress">;
  message: string;
  data?: unknown;
}

export interface Tokens {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** What the whole output said, once the CLI is done. */
export interface ParsedOutput {
  sessionId: string | null;
  model: string | null;
  /** The CLI's final result text. */
  summary: string | null;
  tokens: Tokens;
  /** The CLI's own cost, when it reports one. */
  costUsd: number | null;
  /** Error messages the output carried. */
  errors: string[];
  /** Whether the CLI's final word was a success (null: it printed none; the exit code decides). */
  succeeded: boolean | null;
  /** Why the CLI stopped when it says so (`max_turns`, `refusal`, …). */
  stopReason: string | null;
  /** Model turns that called tools (the runner's turn limit for CLIs without one). */
  toolTurns: number;
  /** Lines that were JSON of a type this parser does not know (kept raw in the log). */
  unknownEvents: number;
  /** Lines that were not JSON at all. */
  plainLines: number;
}

export interface StreamParser {
  /** One line of stdout: the transcript entries it adds. */
  line(text: string): TranscriptEvent[];
  /** Whatever is still buffered (coalesced text deltas), at the end. */
  flush(): TranscriptEvent[];
  result(): ParsedOutput;
}

export interface LaunchInput {
  config: LocalConfig;
  command: string;
  model: string;
  prompt: string;
  /** The session to resume, or null for a new one. */
  resume: string | null;
  cwd: string;
  /** The instructions file (path and text), given on new sessions only. */
  instructions: { path: string; text: string } | null;
}

export interface Launch {
  args: string[];
  /** Written to the CLI's stdin, then closed (null: stdin is not used). */
  stdin: string | null;
  /** Variables the runtime needs on top of the child's environment. */
  env: Record<string, string>;
  /** What the runner decided, for the run's log ("Auto-added --dangerously-skip-permissions", …). */
  notes: string[];
}

export type FailureCode = "auth_required" | "provider_rate_limited" | "max_turns" | "model_not_found" | "unknown_session" | null;

export interface RuntimeDriver {
  runtime: LocalRuntime;
  /** Credential and configuration variables the CLI reads, passed through to it. */
  credentialEnv: readonly string[];
  launch(input: LaunchInput): Launch;
  parser(): StreamParser;
  /** Refuses to start without credentials (a CLI that would otherwise retry forever): the hint, or null. */
  preflight?(env: Record<string, string>, home: string): string | null;
  /** How the run is billed with this environment. */
  billing(env: Record<string, string>): "metered_api" | "subscription_included" | "unknown";
  provider(model: string): string;
  /** A failure code the exit code alone tells (Gemini's 53 = turn limit, 41 = not signed in). */
  exitCodeMeaning?(code: number | null): FailureCode;
  /** How the CLI is signed in (the doctor), or null when it is not. */
  signedIn(env: Record<string, string>, home: string): string | null;
  /** The command that signs in, for hints. */
  loginHint: string;
}

export const emptyTokens = (): Tokens => ({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 });

export function emptyOutput(): ParsedOutput {
  return {
    sessionId: null,
    model: null,
    summary: null,
    tokens: emptyTokens(),
    costUsd: null,
    errors: [],
    succeeded: null,
    stopReason: null,
    toolTurns: 0,
    unknownEvents: 0,
    plainLines: 0,
  };
}
