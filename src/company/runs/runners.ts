// Runners: processes on users' machines that execute the company's local agents (`process`,
// `<runtime>_local`) and hold a WebSocket to the company object. The object accepts them with the
// Hibernation API: an idle runner costs nothing, and everything the object knows about a socket
// lives in its attachment (who connected, which agents it serves), so nothing is lost when the
// object sleeps. Pings are answered by the runtime itself (auto-response) without waking it.
//
// The messages both ways are defined in src/protocol/runner.ts (protocol v1).
// `runs` in hello reclaims runs the runner still executes after a reconnect: runs already lost
// (their socket closed), or bound to an earlier socket of the same runner process (`instanceId`).
// Events and completions are accepted only from the socket a run is bound to. The credential a
// socket connected with is checked again before every run.start (a revoked key, a removed member
// or a terminated agent gets no more runs and its socket is closed); run tokens cannot connect.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { inIds } from "../../db/id-list";
import type { CompanyStorage } from "../storage";
import type { RunEventInput } from "../../domain/runs/events";
import type { RemoteRunReport } from "../../domain/runs/remote";
import { newId } from "../../crypto/random";
import type { z } from "zod";
import {
  type EnvCheck,
  type EnvTest,
  type HelloMessage,
  parseMessage,
  type RunComplete,
  RUNNER_PROTOCOL_VERSION,
  RunnerToServiceMessage,
  type ServiceToRunner,
} from "../../protocol/runner";
import { isNull } from "drizzle-orm";
import { findAdapter } from "../../adapters";

export const RUNNER_TAG = "runner";

/** Who opened the socket, as the Worker authenticated it before the upgrade. */
export type RunnerPrincipal = { type: "board"; userId: string } | { type: "agent"; agentId: string };

/** The credential a socket connected with (re-checked before each run.start). */
export interface RunnerCredential {
  source: "local_implicit" | "board_key" | "agent_key";
  keyId: string | null;
}

/** A socket silent (no message, no answered ping) for this long is dead: its runs are lost. */
export const RUNNER_STALE_MS = 90_000;
/** At most this many event messages are recorded per run (a chatty or hostile runner cannot flood the company). */
export const MAX_EVENT_MESSAGES_PER_RUN = 5_000;

export interface RunnerAttachment {
  runnerId: string;
  name: string;
  principal: RunnerPrincipal;
  credential: RunnerCredential;
  /** Stable id of the runner process across its reconnects (hello). */
  instanceId: string | null;
  /** Last message from the runner (ms). */
  lastSeenAt: number;
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
  /** The least busy live runner serving `agentId` (other than `except`), or null. */
  pick(agentId: string, except?: string | null): RunnerAttachment | null;
  /** The attachment of a connected runner socket, or null. */
  find(runnerId: string): RunnerAttachment | null;
  /** Closes a runner's socket (its credential is no longer valid, or it went silent). */
  close(runnerId: string, code: number, reason: string): void;
  /** Sends a message to one runner; false when it is not connected. */
  send(runnerId: string, message: ServiceToRunner): boolean;
}

/** What a runner's doctor found (env.test.result), or why no runner could say. */
export interface EnvTestResult {
  status: "pass" | "warn" | "fail";
  checks: EnvCheck[];
  runner: { runnerId: string; name: string } | null;
}

export class Runners implements RunnerHub {
  /** env.test requests sent and not answered yet (in memory: the caller waits on the object meanwhile). */
  private readonly pendingTests = new Map<string, { runnerId: string; resolve: (result: EnvTestResult) => void }>();

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

  /** When the runner last showed it is alive: a message, or a ping the runtime answered for it. */
  private lastSeen(ws: WebSocket, attachment: RunnerAttachment): number {
    const pinged = this.state.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0;
    return Math.max(attachment.lastSeenAt ?? 0, pinged);
  }

  /** Closes sockets silent for longer than RUNNER_STALE_MS (their runs become lost); the live ones. */
  private live(now = Date.now()): Array<{ ws: WebSocket; attachment: RunnerAttachment }> {
    const live: Array<{ ws: WebSocket; attachment: RunnerAttachment }> = [];
    for (const socket of this.sockets()) {
      if (now - this.lastSeen(socket.ws, socket.attachment) > RUNNER_STALE_MS) this.closeSocket(socket, 4008, "No message or ping for too long");
      else live.push(socket);
    }
    return live;
  }

  private closeSocket({ ws, attachment }: { ws: WebSocket; attachment: RunnerAttachment }, code: number, reason: string) {
    this.storage.remoteRuns.markLost(attachment.runnerId, Date.now());
    try {
      ws.close(code, reason);
    } catch {
      /* already closed */
    }
  }

  close(runnerId: string, code: number, reason: string): void {
    const socket = this.sockets().find(({ attachment }) => attachment.runnerId === runnerId);
    if (socket) this.closeSocket(socket, code, reason);
  }

  /** The attachment of a connected runner socket, or null. */
  find(runnerId: string): RunnerAttachment | null {
    return this.sockets().find(({ attachment }) => attachment.runnerId === runnerId)?.attachment ?? null;
  }

  list(): ConnectedRunner[] {
    return this.sockets().map(({ attachment: a }) => ({
      runnerId: a.runnerId,
      name: a.name,
      principal: a.principal,
      agents: a.agents,
      connectedAt: a.connectedAt,
      activeRuns: this.storage.remoteRuns.countFor(a.runnerId),
    }));
  }

  servedAgents(): Map<string, string[]> {
    const served = new Map<string, string[]>();
    for (const { attachment } of this.live())
      for (const agentId of attachment.agents) served.set(agentId, [...(served.get(agentId) ?? []), attachment.runnerId]);
    return served;
  }

  pick(agentId: string, except: string | null = null): RunnerAttachment | null {
    const candidates = this.live()
      .filter(({ attachment }) => attachment.agents.includes(agentId) && attachment.runnerId !== except)
      .map(({ attachment }) => ({ attachment, load: this.storage.remoteRuns.countFor(attachment.runnerId) }))
      .sort((x, y) => x.load - y.load);
    return candidates[0]?.attachment ?? null;
  }

  /**
   * Asks a live runner serving one of `agentIds` to check its environment (env.test); its answer,
   * or a `fail` when none serves them or it does not answer within `timeoutMs`.
   */
  async testEnvironment(agentIds: string[], message: Omit<EnvTest, "requestId" | "type">, timeoutMs: number): Promise<EnvTestResult> {
    const runner = agentIds.map((id) => this.pick(id)).find((r) => r !== null) ?? null;
    if (!runner)
      return {
        status: "fail",
        runner: null,
        checks: [
          {
            code: "no_runner",
            level: "error",
            message: `No connected runner serves an agent of type ${message.adapterType} in this company`,
            hint: "Start `acp runner` on the machine where the CLI is installed (with an agent key, or a board key and --agent), then test again.",
          },
        ],
      };
    const requestId = newId();
    const answered = new Promise<EnvTestResult>((resolve) => this.pendingTests.set(requestId, { runnerId: runner.runnerId, resolve }));
    if (!this.send(runner.runnerId, { type: "env.test", requestId, ...message })) this.answerTest(requestId, runner.runnerId, null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<EnvTestResult>((resolve) => {
      timer = setTimeout(() => {
        this.pendingTests.delete(requestId);
        resolve({
          status: "fail",
          runner: { runnerId: runner.runnerId, name: runner.name },
          checks: [
            { code: "runner_timeout", level: "error", message: `Runner ${runner.name} did not answer within ${Math.round(timeoutMs / 1000)} s`, hint: null },
          ],
        });
      }, timeoutMs);
    });
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A runner's env.test.result (null: the request could not be sent). Only the runner asked may answer. */
  answerTest(requestId: string, runnerId: string, result: { status: EnvTestResult["status"]; checks: EnvCheck[] } | null): void {
    const pending = this.pendingTests.get(requestId);
    if (!pending || pending.runnerId !== runnerId) return;
    this.pendingTests.delete(requestId);
    const runner = this.find(runnerId);
    pending.resolve(
      result
        ? { ...result, runner: { runnerId, name: runner?.name ?? "runner" } }
        : { status: "fail", runner: null, checks: [{ code: "runner_unreachable", level: "error", message: "The runner's connection closed", hint: null }] },
    );
  }

  send(runnerId: string, message: ServiceToRunner): boolean {
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
export const newRunnerAttachment = (principal: RunnerPrincipal, credential: RunnerCredential, apiUrl: string, now: Date): RunnerAttachment => ({
  runnerId: newId(),
  name: "runner",
  principal,
  credential,
  instanceId: null,
  lastSeenAt: now.getTime(),
  agents: [],
  apiUrl,
  connectedAt: now.toISOString(),
});

/**
 * Whether the credential a runner connected with still holds: the key is neither revoked nor
 * expired, a board user is still a non-viewer member (or an instance admin), an agent is still
 * active in this company. One D1 round trip; checked before each run.start.
 */
export async function runnerStillAuthorized(db: Db, companyId: string, attachment: RunnerAttachment, now = new Date().toISOString()): Promise<boolean> {
  const { credential, principal } = attachment;
  if (credential.source === "local_implicit") return true;
  if (!credential.keyId) return false;
  if (credential.source === "agent_key" && principal.type === "agent") {
    const k = schema.agentApiKeys;
    const rows = await db
      .select({ status: schema.agents.status })
      .from(k)
      .innerJoin(schema.agents, eq(schema.agents.id, k.agentId))
      .where(and(eq(k.id, credential.keyId), isNull(k.revokedAt), eq(k.agentId, principal.agentId), eq(schema.agents.companyId, companyId)));
    return !!rows[0] && !["terminated", "pending_approval"].includes(rows[0].status);
  }
  if (credential.source === "board_key" && principal.type === "board") {
    const k = schema.boardApiKeys;
    const m = schema.companyMemberships;
    const [key, membership, admin] = await db.batch([
      db
        .select({ expiresAt: k.expiresAt })
        .from(k)
        .where(and(eq(k.id, credential.keyId), isNull(k.revokedAt), eq(k.userId, principal.userId))),
      db
        .select({ role: m.membershipRole })
        .from(m)
        .where(and(eq(m.companyId, companyId), eq(m.principalType, "user"), eq(m.principalId, principal.userId), eq(m.status, "active"))),
      db.select({ userId: schema.instanceAdmins.userId }).from(schema.instanceAdmins).where(eq(schema.instanceAdmins.userId, principal.userId)),
    ]);
    if (!key[0] || key[0].expiresAt <= now) return false;
    return !!admin[0] || ["owner", "admin", "member"].includes(String(membership[0]?.role));
  }
  return false;
}

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

const send = (ws: WebSocket, message: ServiceToRunner) => {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    /* closed meanwhile */
  }
};

export async function onRunnerMessage(host: RunnerHost, ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
  const attachment = ws.deserializeAttachment() as RunnerAttachment | null;
  if (!attachment) return;
  attachment.lastSeenAt = Date.now();
  ws.serializeAttachment(attachment);
  const parsed = parseMessage(RunnerToServiceMessage, typeof raw === "string" ? raw : new TextDecoder().decode(raw));
  if (!parsed.ok) return send(ws, { type: "error", error: parsed.error, ...(parsed.runId ? { runId: parsed.runId } : {}) });
  const { message } = parsed;
  switch (message.type) {
    case "ping":
      return send(ws, { type: "pong" });
    case "pong":
      return;
    case "hello":
      return hello(host, ws, attachment, message);
    case "env.test.result":
      host.runners.answerTest(message.requestId, attachment.runnerId, { status: message.status, checks: message.checks });
      return;
    case "run.started":
    case "run.event":
    case "run.events":
    case "run.complete": {
      const tracked = host.storage.remoteRuns.get(message.runId);
      // Only the socket the run is bound to reports on it (a reconnecting runner reclaims it in its hello).
      if (tracked?.kind !== "runner" || tracked.runnerId !== attachment.runnerId || !attachment.agents.includes(tracked.agentId)) {
        return send(ws, { type: "error", runId: message.runId, error: "Unknown run, or not a run bound to this runner" });
      }
      // run.started, or any report on the run, acknowledges its run.start.
      if (tracked.startSentAt !== null) host.storage.remoteRuns.acknowledge(message.runId);
      if (message.type === "run.started") return;
      if (message.type === "run.event" || message.type === "run.events") {
        const events = boundedByCount(host, message.runId, message.type === "run.event" ? [message] : message.events);
        if (!events.length) return;
        const answer = await host.report({ runId: message.runId, events });
        if (!answer.live) {
          host.storage.remoteRuns.forget(message.runId);
          send(ws, { type: "run.cancel", runId: message.runId });
        }
        return;
      }
      try {
        await host.report(completionReport(message, attachment.name));
      } catch (err) {
        // Not recorded (the run is still tracked): the runner keeps the completion and sends it again on this socket.
        console.error(`recording the completion of run ${message.runId} failed`, err);
        return send(ws, { type: "error", runId: message.runId, error: "The completion could not be recorded; send it again", retryable: true });
      }
      // Recorded (the report forgot the run): the runner may drop its copy of the completion.
      host.storage.remoteRuns.forget(message.runId);
      return send(ws, { type: "run.completed", runId: message.runId });
    }
  }
}

/** The events of a run message that fit under the run's cap (MAX_EVENT_MESSAGES_PER_RUN), with a note when it is reached. */
function boundedByCount(host: RunnerHost, runId: string, events: RunEventInput[]): RunEventInput[] {
  const counter = `run_events:${runId}`;
  const seen = host.storage.counters.get(counter);
  if (seen >= MAX_EVENT_MESSAGES_PER_RUN) return [];
  const room = MAX_EVENT_MESSAGES_PER_RUN - seen;
  const kept: RunEventInput[] = events.slice(0, room).map((e) => ({ kind: e.kind, message: e.message, data: e.data ?? null }));
  host.storage.counters.raise(counter, seen + kept.length);
  if (seen + kept.length >= MAX_EVENT_MESSAGES_PER_RUN)
    kept[kept.length - 1] = {
      kind: "status",
      message: `Event limit reached (${MAX_EVENT_MESSAGES_PER_RUN} events); further output of this run is not recorded`,
    };
  return kept;
}

/** A runner's run.complete as the run's report: its end (or, rate-limited, its next attempt), usage and session. */
export function completionReport(message: RunComplete, runnerName: string): RemoteRunReport {
  const failed = message.status !== "succeeded";
  const session = message.sessionId
    ? { id: message.sessionId, params: message.sessionParams ?? {} }
    : message.clearSession
      ? ({ clear: true } as const)
      : undefined;
  const usage = message.usage ?? null;
  const error =
    message.error ?? (message.exitCode !== undefined && message.exitCode !== null ? `The process exited with code ${message.exitCode}` : "The process failed");
  const base = { runId: message.runId, ...(session ? { session } : {}) };
  if (failed && message.errorCode === "provider_rate_limited") {
    return {
      ...base,
      reschedule: {
        ...(message.nextRetryAt ? { at: message.nextRetryAt } : {}),
        errorCode: "provider_rate_limited",
        error,
        usage,
        summary: message.summary ?? null,
      },
    };
  }
  return {
    ...base,
    ending: {
      status: message.status,
      summary: message.summary ?? null,
      usage,
      result: { ...(message.result ?? {}), exitCode: message.exitCode ?? null, runner: runnerName },
      ...(failed ? { errorCode: message.errorCode ?? (message.status === "timed_out" ? "timeout" : "process_failed"), error } : {}),
    },
  };
}

async function hello(host: RunnerHost, ws: WebSocket, attachment: RunnerAttachment, message: z.output<typeof HelloMessage>) {
  const a = schema.agents;
  const requested = [...new Set(message.agents)];
  const rows = requested.length
    ? await host.db
        .select({ id: a.id, adapterType: a.adapterType, status: a.status })
        .from(a)
        .where(and(eq(a.companyId, host.companyId), inIds(a.id, requested)))
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const agents: string[] = [];
  const refused: Array<{ agentId: string; reason: string }> = [];
  for (const agentId of requested) {
    const row = byId.get(agentId);
    if (!row) refused.push({ agentId, reason: "Agent not found in this company" });
    else if (attachment.principal.type === "agent" && attachment.principal.agentId !== agentId)
      refused.push({ agentId, reason: "An agent key serves only its own agent" });
    else if (findAdapter(row.adapterType)?.where !== "runner")
      refused.push({ agentId, reason: `Adapter ${row.adapterType} is not run by runners (only process and <runtime>_local)` });
    else if (row.status === "terminated") refused.push({ agentId, reason: "Agent is terminated" });
    else agents.push(agentId);
  }
  const next: RunnerAttachment = { ...attachment, agents, name: message.name ?? attachment.name, instanceId: message.instanceId ?? attachment.instanceId };
  ws.serializeAttachment(next);
  const reclaimed: string[] = [];
  for (const runId of message.runs ?? []) {
    const tracked = host.storage.remoteRuns.get(runId);
    if (tracked?.kind !== "runner" || !agents.includes(tracked.agentId)) continue;
    // Reclaimable: lost (its socket closed), bound to a socket that is gone, or to an earlier socket of this same runner process.
    const bound = tracked.runnerId ? host.runners.find(tracked.runnerId) : null;
    const sameProcess = !!bound && !!next.instanceId && bound.instanceId === next.instanceId && bound.runnerId !== next.runnerId;
    if (tracked.lostAt === null && bound && !sameProcess) continue;
    if (sameProcess) host.runners.close(bound!.runnerId, 4009, "Replaced by a newer connection of the same runner");
    host.storage.remoteRuns.bind(runId, next.runnerId);
    reclaimed.push(runId);
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
