// Runners: processes on users' machines that execute the company's local agents (`process`,
// `<runtime>_local`) and hold a WebSocket to the company object. The object accepts them with the
// Hibernation API: an idle runner costs nothing, and everything the object knows about a socket
// lives in its attachment (who connected, which agents it serves), so nothing is lost when the
// object sleeps. Pings are answered by the runtime itself (auto-response) without waking it.
//
// Protocol v1 (JSON text messages with a `type`):
//   runner → { type: "hello", version: 1, agents: [agentId…], name?, runs?: [runId…] }
//   object → { type: "ready", version: 1, runnerId, agents: [...], refused: [{ agentId, reason }], runs: [...] }
//   object → { type: "run.start", version: 1, runId, agentId, companyId, adapterType, adapterConfig, context, env, apiUrl, apiToken, skills }
//   runner → { type: "run.event", runId, kind: "log" | "progress" | "status", message, data? }
//   runner → { type: "run.complete", runId, status: "succeeded" | "failed" | "timed_out", summary?, usage?, exitCode?, error? }
//   object → { type: "run.cancel", runId }
//   either → { type: "ping" } answered by { type: "pong" };  object → { type: "error", error, runId? }
// `runs` in hello reclaims runs the runner still executes after a reconnect (within the grace period).
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { schema, type Db } from "../db/client";
import { inIds } from "../db/id-list";
import type { CompanyStorage } from "./storage";
import type { RunEventInput } from "../domain/runs/events";
import type { RemoteRunReport } from "../domain/runs/remote";
import { newId } from "../crypto/random";

export const RUNNER_PROTOCOL_VERSION = 1;
export const RUNNER_TAG = "runner";

/** Adapter types a runner executes (the rest run at the edge). */
export const isRunnerAdapter = (adapterType: string) => adapterType === "process" || adapterType.endsWith("_local");

/** Who opened the socket, as the Worker authenticated it before the upgrade. */
export type RunnerPrincipal = { type: "board"; userId: string } | { type: "agent"; agentId: string };

export interface RunnerAttachment {
  runnerId: string;
  name: string;
  principal: RunnerPrincipal;
  /** Agents this runner serves (after hello). */
  agents: string[];
  /** The API origin the runner reached (run.start's apiUrl when no public URL is configured). */
  apiUrl: string;
  connectedAt: string;
}

export interface ConnectedRunner {
  runnerId: string;
  name: string;
  principal: RunnerPrincipal;
  agents: string[];
  connectedAt: string;
  activeRuns: number;
}

/** What the dispatcher needs of the connected runners. */
export interface RunnerHub {
  /** agentId → ids of the runners serving it. */
  servedAgents(): Map<string, string[]>;
  /** The least busy runner serving `agentId`, or null. */
  pick(agentId: string): RunnerAttachment | null;
  /** Sends a message to one runner; false when it is not connected. */
  send(runnerId: string, message: unknown): boolean;
}

export class Runners implements RunnerHub {
  constructor(
    private readonly state: DurableObjectState,
    private readonly storage: CompanyStorage,
  ) {}

  private sockets(): Array<{ ws: WebSocket; attachment: RunnerAttachment }> {
    const out: Array<{ ws: WebSocket; attachment: RunnerAttachment }> = [];
    for (const ws of this.state.getWebSockets(RUNNER_TAG)) {
      const attachment = ws.deserializeAttachment() as RunnerAttachment | null;
      if (attachment && ws.readyState === WebSocket.OPEN) out.push({ ws, attachment });
    }
    return out;
  }

  list(): ConnectedRunner[] {
    return this.sockets().map(({ attachment: a }) => ({ runnerId: a.runnerId, name: a.name, principal: a.principal, agents: a.agents, connectedAt: a.connectedAt, activeRuns: this.storage.remoteRuns.countFor(a.runnerId) }));
  }

  servedAgents(): Map<string, string[]> {
    const served = new Map<string, string[]>();
    for (const { attachment } of this.sockets()) for (const agentId of attachment.agents) served.set(agentId, [...(served.get(agentId) ?? []), attachment.runnerId]);
    return served;
  }

  pick(agentId: string): RunnerAttachment | null {
    const candidates = this.sockets()
      .filter(({ attachment }) => attachment.agents.includes(agentId))
      .map(({ attachment }) => ({ attachment, load: this.storage.remoteRuns.countFor(attachment.runnerId) }))
      .sort((x, y) => x.load - y.load);
    return candidates[0]?.attachment ?? null;
  }

  send(runnerId: string, message: unknown): boolean {
    const socket = this.sockets().find(({ attachment }) => attachment.runnerId === runnerId);
    if (!socket) return false;
    try {
      socket.ws.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }
}

/** A new socket's attachment (before hello it serves nothing). */
export const newRunnerAttachment = (principal: RunnerPrincipal, apiUrl: string, now: string): RunnerAttachment => ({
  runnerId: newId(),
  name: "runner",
  principal,
  agents: [],
  apiUrl,
  connectedAt: now,
});

const Hello = z.object({
  type: z.literal("hello"),
  version: z.literal(RUNNER_PROTOCOL_VERSION, { error: `Unsupported protocol version; this service speaks version ${RUNNER_PROTOCOL_VERSION}` }),
  agents: z.array(z.string().min(1).max(200)).max(200),
  name: z.string().trim().min(1).max(100).optional(),
  runs: z.array(z.string().min(1).max(200)).max(200).optional(),
});
const RunEventMessage = z.object({
  type: z.literal("run.event"),
  runId: z.string().min(1),
  kind: z.enum(["log", "progress", "status"]).default("log"),
  message: z.string(),
  data: z.unknown().optional(),
});
const RunCompleteMessage = z.object({
  type: z.literal("run.complete"),
  runId: z.string().min(1),
  status: z.enum(["succeeded", "failed", "timed_out"]),
  summary: z.string().max(10_000).nullish(),
  error: z.string().max(10_000).nullish(),
  exitCode: z.number().int().nullish(),
  usage: z.record(z.string(), z.unknown()).nullish(),
});
const RunnerMessage = z.discriminatedUnion("type", [Hello, RunEventMessage, RunCompleteMessage, z.object({ type: z.literal("ping") }), z.object({ type: z.literal("pong") })]);

/** What handling a runner's message needs from the company object. */
export interface RunnerHost {
  companyId: string;
  db: Db;
  storage: CompanyStorage;
  runners: Runners;
  /** Runs a company command serialised, as the service itself. */
  report(input: RemoteRunReport): Promise<{ live: boolean }>;
  /** Asks for a dispatch soon (queued wake-ups of newly served agents). */
  requestDispatch(): Promise<void>;
}

const send = (ws: WebSocket, message: unknown) => {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    /* closed meanwhile */
  }
};

export async function onRunnerMessage(host: RunnerHost, ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
  const attachment = ws.deserializeAttachment() as RunnerAttachment | null;
  if (!attachment) return;
  let json: unknown;
  try {
    json = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
  } catch {
    return send(ws, { type: "error", error: "Messages are JSON text" });
  }
  const parsed = RunnerMessage.safeParse(json);
  if (!parsed.success) {
    const runId = json && typeof json === "object" && typeof (json as Record<string, unknown>).runId === "string" ? (json as Record<string, unknown>).runId : undefined;
    return send(ws, { type: "error", error: `Invalid message: ${parsed.error.issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; ")}`, ...(runId ? { runId } : {}) });
  }
  const message = parsed.data;
  switch (message.type) {
    case "ping":
      return send(ws, { type: "pong" });
    case "pong":
      return;
    case "hello":
      return hello(host, ws, attachment, message);
    case "run.event":
    case "run.complete": {
      const tracked = host.storage.remoteRuns.get(message.runId);
      if (!tracked || tracked.kind !== "runner" || !attachment.agents.includes(tracked.agentId)) {
        return send(ws, { type: "error", runId: message.runId, error: "Unknown run, or not a run of an agent this runner serves" });
      }
      // A reconnected runner reporting on its run reclaims it.
      if (tracked.runnerId !== attachment.runnerId || tracked.lostAt !== null) host.storage.remoteRuns.bind(message.runId, attachment.runnerId);
      if (message.type === "run.event") {
        const event: RunEventInput = { kind: message.kind, message: message.message, data: message.data ?? null };
        const answer = await host.report({ runId: message.runId, events: [event] });
        if (!answer.live) {
          host.storage.remoteRuns.forget(message.runId);
          send(ws, { type: "run.cancel", runId: message.runId });
        }
        return;
      }
      const failed = message.status !== "succeeded";
      // Forgotten first: the ending is the runner's own news, not something to cancel back to it.
      host.storage.remoteRuns.forget(message.runId);
      await host.report({
        runId: message.runId,
        ending: {
          status: message.status,
          summary: message.summary ?? null,
          usage: message.usage ?? null,
          result: { exitCode: message.exitCode ?? null, runner: attachment.name },
          ...(failed
            ? {
                errorCode: message.status === "timed_out" ? "timeout" : "process_failed",
                error: message.error ?? (message.exitCode !== undefined && message.exitCode !== null ? `The process exited with code ${message.exitCode}` : "The process failed"),
              }
            : {}),
        },
      });
      return;
    }
  }
}

async function hello(host: RunnerHost, ws: WebSocket, attachment: RunnerAttachment, message: z.infer<typeof Hello>) {
  const a = schema.agents;
  const requested = [...new Set(message.agents)];
  const rows = requested.length
    ? await host.db.select({ id: a.id, adapterType: a.adapterType, status: a.status }).from(a).where(and(eq(a.companyId, host.companyId), inIds(a.id, requested)))
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const agents: string[] = [];
  const refused: Array<{ agentId: string; reason: string }> = [];
  for (const agentId of requested) {
    const row = byId.get(agentId);
    if (!row) refused.push({ agentId, reason: "Agent not found in this company" });
    else if (attachment.principal.type === "agent" && attachment.principal.agentId !== agentId) refused.push({ agentId, reason: "An agent key serves only its own agent" });
    else if (!isRunnerAdapter(row.adapterType)) refused.push({ agentId, reason: `Adapter ${row.adapterType} is not run by runners (only process and <runtime>_local)` });
    else if (row.status === "terminated") refused.push({ agentId, reason: "Agent is terminated" });
    else agents.push(agentId);
  }
  const next: RunnerAttachment = { ...attachment, agents, name: message.name ?? attachment.name };
  ws.serializeAttachment(next);
  const reclaimed: string[] = [];
  for (const runId of message.runs ?? []) {
    const tracked = host.storage.remoteRuns.get(runId);
    if (tracked?.kind === "runner" && agents.includes(tracked.agentId)) {
      host.storage.remoteRuns.bind(runId, next.runnerId);
      reclaimed.push(runId);
    }
  }
  send(ws, { type: "ready", version: RUNNER_PROTOCOL_VERSION, runnerId: next.runnerId, agents, refused, runs: reclaimed });
  if (agents.length) await host.requestDispatch();
}

/** A runner's socket closed: its runs are lost unless a runner reclaims them within the grace period. */
export function onRunnerClosed(storage: CompanyStorage, ws: WebSocket, now: number): number {
  const attachment = ws.deserializeAttachment() as RunnerAttachment | null;
  if (!attachment) return 0;
  return storage.remoteRuns.markLost(attachment.runnerId, now);
}
