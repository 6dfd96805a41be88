// The runner protocol: JSON text messages over the WebSocket between a runner (`acp runner`, on a
// user's machine) and the company object (src/company/runs/runners.ts). Every message both ways is
// defined here once, with zod; the Worker and the CLI parse and build through this module, so they
// cannot drift (test/unit/runner-protocol.test.ts). Only zod is imported, as `zod/mini` (tree-shakable:
// the CLI bundles this file and stays small).
//
//   runner → hello, run.started, run.event, run.events, run.complete, env.test.result, ping, pong
//   object → ready, run.start, run.completed, run.cancel, env.test, error, ping, pong
//
// Version 2 (this one) added to version 1: the prompt and the session to resume in run.start; the
// transcript kinds of run.event and the batched run.events; errorCode, the session, typed usage and
// nextRetryAt in run.complete; env.test (the doctor). A version-1 runner's hello is refused with an
// `error` telling it to upgrade (the service speaks one version).
//
// A run.start not acknowledged (run.started) within RUNNER_ACK_MS is sent once more, then handed to
// another runner serving the agent. A completion is confirmed with run.completed; an `error` with
// `retryable: true` means "recording failed: send the completion again". `runs` in hello reclaims
// runs the runner still executes (or finished unconfirmed) after a reconnect.
import * as z from "zod/mini";

/** The protocol version both sides speak; hello and ready carry it, and run.start too. */
export const RUNNER_PROTOCOL_VERSION = 2;

/**
 * Adapter types runners execute on users' machines (`process`, `<runtime>_local`); the rest run at
 * the edge. The CLI picks the agents it serves with this; the service asks its adapter registry
 * (src/adapters, `where: "runner"`), and test/unit/adapters.test.ts keeps the two in agreement.
 */
export const isRunnerAdapter = (adapterType: string) => adapterType === "process" || adapterType.endsWith("_local");

const Id = z.string().check(z.minLength(1), z.maxLength(200));
export const RUN_OUTCOMES = ["succeeded", "failed", "timed_out"] as const;
/**
 * A run event's kind: `log` (raw output), `progress` and `status` (the service's and agents' notes),
 * and the transcript a runtime's structured output is parsed into: the assistant's text, its
 * thinking, a tool call, a tool's result, an error. The run events table uses this list.
 */
export const RUN_EVENT_KINDS = ["log", "progress", "status", "assistant", "thinking", "tool_call", "tool_result", "error"] as const;
export type RunEventKind = (typeof RUN_EVENT_KINDS)[number];

/**
 * Why a runner's run did not succeed; a subset of the service's run error codes (RUN_ERROR_CODES,
 * src/db/schema/runs.ts — test/unit/runner-protocol.test.ts checks). `provider_rate_limited` with
 * `nextRetryAt` schedules the run again at that time.
 */
export const RUNNER_ERROR_CODES = ["auth_required", "provider_rate_limited", "max_turns", "model_not_found", "timeout", "process_failed"] as const;
export type RunnerErrorCode = (typeof RUNNER_ERROR_CODES)[number];

/** The billing of a run's usage (a subset of the cost events' billing types). */
export const RUNNER_BILLING_TYPES = ["metered_api", "subscription_included", "unknown"] as const;

// ---- runner → object ---------------------------------------------------------------------------

export const HelloMessage = z.object({
  type: z.literal("hello"),
  version: z.literal(RUNNER_PROTOCOL_VERSION, {
    error: `Unsupported protocol version; this service speaks version ${RUNNER_PROTOCOL_VERSION}: upgrade the runner (npm install -g the service's CLI, or use the one it serves)`,
  }),
  agents: z.array(Id).check(z.maxLength(200)),
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  /** Stable id of the runner process across its reconnects. */
  instanceId: z.optional(z.string().check(z.trim(), z.minLength(8), z.maxLength(100))),
  /** Runs it still executes, or finished without a confirmation. */
  runs: z.optional(z.array(Id).check(z.maxLength(200))),
});
export const RunStartedMessage = z.object({ type: z.literal("run.started"), runId: Id });
const RunEventFields = {
  kind: z._default(z.enum(RUN_EVENT_KINDS), "log"),
  message: z.string().check(z.maxLength(64 * 1024)),
  data: z.optional(z.unknown()),
};
export const RunEventMessage = z.object({ type: z.literal("run.event"), runId: Id, ...RunEventFields });
/** Several events of one run in one message (a transcript arrives in bursts). */
export const RunEventsMessage = z.object({
  type: z.literal("run.events"),
  runId: Id,
  events: z.array(z.object(RunEventFields)).check(z.minLength(1), z.maxLength(500)),
});
const Count = z.int().check(z.minimum(0));
/** What a run used, as its runtime reported it; becomes the run's cost event. */
export const RunUsageReport = z.object({
  inputTokens: z.optional(Count),
  cachedInputTokens: z.optional(Count),
  outputTokens: z.optional(Count),
  /** The runtime's own cost in US dollars, when it reports one. */
  costUsd: z.optional(z.number().check(z.minimum(0))),
  model: z.optional(z.string().check(z.maxLength(200))),
  provider: z.optional(z.string().check(z.maxLength(100))),
  billingType: z.optional(z.enum(RUNNER_BILLING_TYPES)),
});
export type RunUsageReport = z.output<typeof RunUsageReport>;
export const RunCompleteMessage = z.object({
  type: z.literal("run.complete"),
  runId: Id,
  status: z.enum(RUN_OUTCOMES),
  summary: z.nullish(z.string().check(z.maxLength(10_000))),
  error: z.nullish(z.string().check(z.maxLength(10_000))),
  errorCode: z.nullish(z.enum(RUNNER_ERROR_CODES)),
  exitCode: z.nullish(z.int()),
  usage: z.nullish(RunUsageReport),
  /** The runtime's session, resumed by the next run of this agent on the same task. */
  sessionId: z.nullish(z.string().check(z.minLength(1), z.maxLength(500))),
  /** What the session is valid for (cwd, model, …): a run with other values starts afresh. */
  sessionParams: z.optional(z.record(z.string(), z.unknown())),
  /** The saved session is unusable (unknown, expired, ended by a turn limit): forget it. */
  clearSession: z.optional(z.boolean()),
  /** With `provider_rate_limited`: when the provider lets the agent work again (ISO time). */
  nextRetryAt: z.nullish(z.iso.datetime({ offset: true })),
  /** Details of the outcome (stop reason, events the parser did not know, …). */
  result: z.optional(z.record(z.string(), z.unknown())),
});
export type RunComplete = z.output<typeof RunCompleteMessage>;
/** A check of the doctor (`acp runner doctor`, POST …/adapters/{type}/test-environment). */
export const EnvCheck = z.object({
  code: z.string().check(z.minLength(1), z.maxLength(100)),
  level: z.enum(["info", "warn", "error"]),
  message: z.string().check(z.maxLength(2000)),
  hint: z.nullish(z.string().check(z.maxLength(2000))),
});
export type EnvCheck = z.output<typeof EnvCheck>;
export const ENV_TEST_STATUSES = ["pass", "warn", "fail"] as const;
export const EnvTestResultMessage = z.object({
  type: z.literal("env.test.result"),
  requestId: Id,
  status: z.enum(ENV_TEST_STATUSES),
  checks: z.array(EnvCheck).check(z.maxLength(50)),
});
const PingMessage = z.object({ type: z.literal("ping") });
const PongMessage = z.object({ type: z.literal("pong") });

export const RunnerToServiceMessage = z.discriminatedUnion("type", [
  HelloMessage,
  RunStartedMessage,
  RunEventMessage,
  RunEventsMessage,
  RunCompleteMessage,
  EnvTestResultMessage,
  PingMessage,
  PongMessage,
]);
/** A message a runner sends (as built). */
export type RunnerToService = z.input<typeof RunnerToServiceMessage>;
/** A runner's message as the service reads it (defaults applied). */
export type RunnerToServiceParsed = z.output<typeof RunnerToServiceMessage>;

// ---- object → runner ---------------------------------------------------------------------------
// Loose objects: a runner ignores fields a newer service adds.

export const ReadyMessage = z.looseObject({
  type: z.literal("ready"),
  version: z.literal(RUNNER_PROTOCOL_VERSION),
  runnerId: Id,
  agents: z.array(Id),
  refused: z.array(z.looseObject({ agentId: z.string(), reason: z.string() })),
  /** The runs given back to this runner after a reconnect. */
  runs: z.array(Id),
});
export const RunStartMessage = z.looseObject({
  type: z.literal("run.start"),
  version: z.literal(RUNNER_PROTOCOL_VERSION),
  runId: Id,
  agentId: Id,
  companyId: Id,
  adapterType: z.string().check(z.minLength(1)),
  adapterConfig: z.record(z.string(), z.unknown()),
  context: z.record(z.string(), z.unknown()),
  env: z.record(z.string(), z.string()),
  apiUrl: z.string().check(z.minLength(1)),
  apiToken: z.string().check(z.minLength(1)),
  skills: z.optional(z.array(z.unknown())),
  /** The prompt the service rendered for this wake; the runner delivers it the way the runtime takes it. */
  prompt: z.string(),
  /** Which task the run's session belongs to (`issue:<id>`, or `agent` for a run without an issue). */
  taskKey: z.string(),
  /** The session saved for this agent and task, to resume (null: start a new one). */
  session: z.nullable(z.object({ id: z.string(), params: z.record(z.string(), z.unknown()) })),
});
export const RunCompletedMessage = z.looseObject({ type: z.literal("run.completed"), runId: Id });
export const RunCancelMessage = z.looseObject({ type: z.literal("run.cancel"), runId: Id });
/** Check this machine's environment for an adapter type (the doctor); answered with env.test.result. (Unknown fields are stripped, not refused.) */
export const EnvTestMessage = z.object({
  type: z.literal("env.test"),
  requestId: Id,
  adapterType: z.string().check(z.minLength(1)),
  adapterConfig: z.record(z.string(), z.unknown()),
  /** Run the short hello probe (a real model call). */
  probe: z.boolean(),
  /** The agent's environment (its env bindings resolved), as a run would have it. */
  env: z.optional(z.record(z.string(), z.string())),
});
export const ErrorMessage = z.looseObject({
  type: z.literal("error"),
  error: z.string(),
  runId: z.optional(Id),
  /** Recording a completion failed: send it again. */
  retryable: z.optional(z.boolean()),
});

export const ServiceToRunnerMessage = z.discriminatedUnion("type", [
  ReadyMessage,
  RunStartMessage,
  RunCompletedMessage,
  RunCancelMessage,
  EnvTestMessage,
  ErrorMessage,
  PingMessage,
  PongMessage,
]);
/** A message the service sends. */
export type ServiceToRunner = z.input<typeof ServiceToRunnerMessage>;
export type RunStart = z.output<typeof RunStartMessage>;
export type EnvTest = z.output<typeof EnvTestMessage>;

/** Parses a text frame with `schema`: the message, or why it is not one (`Messages are JSON text`, `Invalid message: …`). */
export function parseMessage<S extends z.ZodMiniType>(
  schema: S,
  text: string,
): { ok: true; message: z.output<S> } | { ok: false; error: string; runId?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: "Messages are JSON text" };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const runId =
    json && typeof json === "object" && typeof (json as Record<string, unknown>).runId === "string"
      ? ((json as Record<string, unknown>).runId as string)
      : undefined;
  const error = `Invalid message: ${parsed.error.issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; ")}`;
  return runId ? { ok: false, error, runId } : { ok: false, error };
}
