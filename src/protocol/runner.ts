// The runner protocol: JSON text messages over the WebSocket between a runner (`acp runner`, on a
// user's machine) and the company object (src/company/runs/runners.ts). Every message both ways is
// defined here once, with zod; the Worker and the CLI parse and build through this module, so they
// cannot drift (test/unit/runner-protocol.test.ts). Only zod is imported, as `zod/mini` (tree-shakable:
// the CLI bundles this file and stays small).
//
//   runner → hello, run.started, run.event, run.complete, ping, pong
//   object → ready, run.start, run.completed, run.cancel, error, ping, pong
//
// A run.start not acknowledged (run.started) within RUNNER_ACK_MS is sent once more, then handed to
// another runner serving the agent. A completion is confirmed with run.completed; an `error` with
// `retryable: true` means "recording failed: send the completion again". `runs` in hello reclaims
// runs the runner still executes (or finished unconfirmed) after a reconnect.
import * as z from "zod/mini";

/** The protocol version both sides speak; hello and ready carry it, and run.start too. */
export const RUNNER_PROTOCOL_VERSION = 1;

/**
 * Adapter types runners execute on users' machines (`process`, `<runtime>_local`); the rest run at
 * the edge. The CLI picks the agents it serves with this; the service asks its adapter registry
 * (src/adapters, `where: "runner"`), and test/unit/adapters.test.ts keeps the two in agreement.
 */
export const isRunnerAdapter = (adapterType: string) => adapterType === "process" || adapterType.endsWith("_local");

const Id = z.string().check(z.minLength(1), z.maxLength(200));
export const RUN_OUTCOMES = ["succeeded", "failed", "timed_out"] as const;
export const RUN_EVENT_KINDS = ["log", "progress", "status"] as const;

// ---- runner → object ---------------------------------------------------------------------------

export const HelloMessage = z.object({
  type: z.literal("hello"),
  version: z.literal(RUNNER_PROTOCOL_VERSION, { error: `Unsupported protocol version; this service speaks version ${RUNNER_PROTOCOL_VERSION}` }),
  agents: z.array(Id).check(z.maxLength(200)),
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  /** Stable id of the runner process across its reconnects. */
  instanceId: z.optional(z.string().check(z.trim(), z.minLength(8), z.maxLength(100))),
  /** Runs it still executes, or finished without a confirmation. */
  runs: z.optional(z.array(Id).check(z.maxLength(200))),
});
export const RunStartedMessage = z.object({ type: z.literal("run.started"), runId: Id });
export const RunEventMessage = z.object({
  type: z.literal("run.event"),
  runId: Id,
  kind: z._default(z.enum(RUN_EVENT_KINDS), "log"),
  message: z.string().check(z.maxLength(64 * 1024)),
  data: z.optional(z.unknown()),
});
export const RunCompleteMessage = z.object({
  type: z.literal("run.complete"),
  runId: Id,
  status: z.enum(RUN_OUTCOMES),
  summary: z.nullish(z.string().check(z.maxLength(10_000))),
  error: z.nullish(z.string().check(z.maxLength(10_000))),
  exitCode: z.nullish(z.int()),
  usage: z.nullish(z.record(z.string(), z.unknown())),
});
const PingMessage = z.object({ type: z.literal("ping") });
const PongMessage = z.object({ type: z.literal("pong") });

export const RunnerToServiceMessage = z.discriminatedUnion("type", [
  HelloMessage,
  RunStartedMessage,
  RunEventMessage,
  RunCompleteMessage,
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
});
export const RunCompletedMessage = z.looseObject({ type: z.literal("run.completed"), runId: Id });
export const RunCancelMessage = z.looseObject({ type: z.literal("run.cancel"), runId: Id });
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
  ErrorMessage,
  PingMessage,
  PongMessage,
]);
/** A message the service sends. */
export type ServiceToRunner = z.input<typeof ServiceToRunnerMessage>;
export type RunStart = z.output<typeof RunStartMessage>;

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
