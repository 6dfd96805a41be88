// GatewayRunObject: one Durable Object per `remote_gateway` run, holding the long outbound event
// stream so the company object never waits on it. Everything it needs to resume is in its storage
// (remote run id, last event id, stream or poll mode, deadline): its alarm drives the run, and if
// the object is evicted mid-stream the alarm runs again (alarms are retried) and reconnects with
// Last-Event-ID, or keeps polling. An alarm gives itself ALARM_BUDGET_MS of wall time, then
// re-arms itself and carries on from storage. Events and the ending are recorded through the
// company object (reportRemoteRun); a run that is no longer live there is stopped remotely.
import { DurableObject } from "cloudflare:workers";
import { resolveEnvBindings } from "../domain/secrets/bindings";
import { createDb } from "../db/client";
import { withCountedD1 } from "../db/round-trips";
import { onShardOf } from "../db/placement";
import { boundedEvent, reportRemoteRun, type RemoteRunReport } from "../domain/runs/remote";
import type { RunEventInput } from "../domain/runs/events";
import {
  createRemoteRun,
  followRemoteEvents,
  gatewayHeaders,
  gatewaySessionKey,
  gatewayUsage,
  pollRemoteRun,
  stopRemoteRun,
  type GatewayEvent,
  type TerminalStatus,
} from "../adapters/remote-gateway/protocol";
import { readGatewayConfig, type GatewayConfig } from "../adapters/remote-gateway/config";
import { companyObject } from "./client";
import { isPrivateTarget } from "../net/hosts";
import type { CommandResult } from "./command";
import { runtimeSettings } from "./runs/timing";
import { SYSTEM_ACTOR } from "../domain/actor";
import { ObjectFaults } from "./object-scaffolding";

/** Wall time one alarm spends on a run before handing over to the next alarm. */
const ALARM_BUDGET_MS = 10 * 60_000;
/** Polling never goes faster than this, whatever eventReconnectMs says. */
const MIN_POLL_MS = 250;
/** Reconnect delays: at least this, doubling while a stream keeps closing without events, at most that. */
const MIN_RECONNECT_MS = 20;
const MAX_RECONNECT_MS = 30_000;
/** Disconnects recorded as run events per alarm (the rest are only counted). */
const LOGGED_RECONNECTS = 10;
/** A finished run's object forgets its state this long after the end. */
const RETAIN_DONE_MS = 24 * 3600_000;

export interface GatewayRunSpec {
  companyId: string;
  runId: string;
  agentId: string;
  issueId: string | null;
  /** The agent's stored adapterConfig (apiKey still a secret reference). */
  adapterConfig: Record<string, unknown>;
  /** The JSON body of POST /v1/runs. */
  body: Record<string, unknown>;
  /** When the run times out (ms). */
  deadline: number;
}

interface GatewayRunState extends GatewayRunSpec {
  remoteRunId: string | null;
  lastEventId: string | null;
  mode: "stream" | "poll";
  cancelled: boolean;
  done: boolean;
}

export class GatewayRunObject extends DurableObject<Env> {
  /** Test-only fault rules (src/company/object-scaffolding.ts). */
  private readonly faults = new ObjectFaults(this.env);
  /** Aborts the stream or sleep in progress (cancel, deadline). */
  private interrupt: AbortController | null = null;
  /** Set by cancel() for an alarm already running in this instance (it holds its own copy of the state). */
  private cancelRequested = false;

  /** Takes the run (idempotent: a second start of the same run changes nothing) and arms the alarm. */
  async start(spec: GatewayRunSpec): Promise<void> {
    if (await this.ctx.storage.get("state")) return;
    const state: GatewayRunState = { ...spec, remoteRunId: null, lastEventId: null, mode: "stream", cancelled: false, done: false };
    await this.ctx.storage.put("state", state);
    await this.ctx.storage.setAlarm(Date.now() + runtimeSettings(this.env).dispatchDelayMs);
  }

  /** The service run was cancelled (or ended elsewhere): stop the remote run and end. */
  async cancel(): Promise<void> {
    const state = await this.state();
    if (!state || state.done) return;
    state.cancelled = true;
    state.done = true;
    this.cancelRequested = true;
    await this.ctx.storage.put("state", state);
    await this.ctx.storage.setAlarm(Date.now() + RETAIN_DONE_MS);
    this.interrupt?.abort();
    if (state.remoteRunId) await this.stopRemote(state);
  }

  /** What the object knows (tests and diagnostics). */
  async describe(): Promise<Omit<GatewayRunState, "adapterConfig" | "body"> | null> {
    const state = await this.state();
    if (!state) return null;
    const { adapterConfig: _config, body: _body, ...rest } = state;
    return rest;
  }

  /** Test-only (TEST_FAULTS = "1"): fault rules for what this object does until each fired. */
  async armFaults(spec: string): Promise<void> {
    this.faults.arm(spec);
  }

  async alarm(): Promise<void> {
    await this.faults.around(() => this.step());
  }

  /** One alarm: start, follow or poll the remote run, or forget a finished one. */
  private async step(): Promise<void> {
    const state = await this.state();
    if (!state) return;
    if (state.done) {
      // The retention alarm: the run is long over, its context and token go.
      await this.ctx.storage.deleteAll();
      return;
    }
    const started = Date.now();
    const config = readGatewayConfig(state.adapterConfig);
    // The deployment policy again at run time (the config may predate it): no private targets when public.
    if (this.env.SERVER_EXPOSURE === "public" && isPrivateTarget(new URL(config.apiBaseUrl).hostname)) {
      await this.finish(state, { status: "failed", errorCode: "adapter_refused", error: "Refusing to call a loopback or private-network address" });
      return;
    }
    let headers: Headers;
    try {
      headers = await this.headers(state, config);
    } catch (err) {
      await this.finish(state, {
        status: "failed",
        errorCode: "adapter_refused",
        error: `Could not resolve the gateway apiKey: ${(err as Error)?.message ?? err}`,
      });
      return;
    }
    let emptyStreak = 0;
    let reconnects = 0;
    for (;;) {
      if (state.done || state.cancelled || this.cancelRequested) return;
      const now = Date.now();
      if (now >= state.deadline) {
        if (state.remoteRunId) await stopRemoteRun(config, headers, state.remoteRunId);
        await this.finish(state, { status: "timed_out", errorCode: "timeout", error: `The remote run did not finish within ${config.timeoutSec} s; stopped` });
        return;
      }
      if (now - started >= ALARM_BUDGET_MS) {
        await this.ctx.storage.setAlarm(Date.now());
        return;
      }
      const until = Math.min(state.deadline, started + ALARM_BUDGET_MS);

      if (!state.remoteRunId) {
        const created = await createRemoteRun(config, headers, state.runId, state.body, { deadline: state.deadline });
        if (created.kind === "failed") {
          await this.finish(state, {
            status: "failed",
            errorCode: "gateway_create_failed",
            error: `${created.error} (after ${created.attempts} attempt${created.attempts === 1 ? "" : "s"})`,
          });
          return;
        }
        state.remoteRunId = created.remoteRunId;
        await this.save(state);
        await this.report(state, config, headers, [
          { kind: "status", message: `Remote run ${created.remoteRunId} created`, data: { remoteRunId: created.remoteRunId, attempts: created.attempts } },
        ]);
        continue;
      }

      const interrupt = this.arm(until);
      if (state.mode === "stream") {
        const outcome = await followRemoteEvents(
          config,
          headers,
          state.remoteRunId,
          state.lastEventId,
          async (events) => {
            // Recorded first, then remembered: a failed report is read again after a reconnect.
            await this.report(state, config, headers, events.map(relayedEvent));
            const last = [...events].reverse().find((e) => e.id !== null);
            if (last) state.lastEventId = last.id;
            if (last) emptyStreak = 0;
            await this.save(state);
          },
          { signal: interrupt.signal },
        );
        this.disarm(interrupt);
        if (outcome.kind === "terminal") return this.finishRemote(state, outcome.status, outcome.final);
        if (outcome.kind === "unavailable") {
          state.mode = "poll";
          await this.save(state);
          await this.report(state, config, headers, [{ kind: "status", message: `${outcome.error}; polling GET /v1/runs/${state.remoteRunId} instead` }]);
          continue;
        }
        if (outcome.kind === "disconnected") {
          // eventReconnectMs after a disconnect; a stream that keeps closing without events backs off (to 30 s).
          const delay = Math.min(Math.max(config.eventReconnectMs, MIN_RECONNECT_MS) * 2 ** Math.min(emptyStreak, 10), MAX_RECONNECT_MS);
          emptyStreak += 1;
          reconnects += 1;
          if (reconnects <= LOGGED_RECONNECTS) {
            await this.report(state, config, headers, [
              {
                kind: "status",
                message: `Event stream disconnected${outcome.error ? ` (${outcome.error})` : ""}; reconnecting in ${delay} ms${reconnects === LOGGED_RECONNECTS ? " (further reconnects are not logged)" : ""}`,
                data: { lastEventId: state.lastEventId },
              },
            ]);
          }
          await this.sleep(delay, until);
        }
        continue;
      }
      const polled = await pollRemoteRun(config, headers, state.remoteRunId, { signal: interrupt.signal });
      this.disarm(interrupt);
      if (polled.kind === "terminal") return this.finishRemote(state, polled.status, polled.final);
      await this.sleep(Math.max(config.eventReconnectMs, MIN_POLL_MS), until);
    }
  }

  private async state(): Promise<GatewayRunState | undefined> {
    return this.ctx.storage.get<GatewayRunState>("state");
  }

  private save(state: GatewayRunState) {
    // A cancel() that ran meanwhile wins over the alarm's copy of the state.
    if (this.cancelRequested) Object.assign(state, { cancelled: true, done: true });
    return this.ctx.storage.put("state", state);
  }

  /** The request headers, with the apiKey resolved from its secret reference now (never stored in plain). */
  private async headers(state: GatewayRunState, config: GatewayConfig): Promise<Headers> {
    const db = createDb(withCountedD1(this.env).DB);
    const resolved = await onShardOf(db, state.companyId, () => resolveEnvBindings(this.env, db, state.companyId, { apiKey: state.adapterConfig.apiKey }));
    const sessionKey = gatewaySessionKey(config.sessionKeyStrategy, { id: state.runId, agentId: state.agentId, issueId: state.issueId });
    return gatewayHeaders(config, resolved.apiKey ?? "", sessionKey);
  }

  private async stopRemote(state: GatewayRunState) {
    const config = readGatewayConfig(state.adapterConfig);
    try {
      await stopRemoteRun(config, await this.headers(state, config), state.remoteRunId!);
    } catch (err) {
      console.error(`gateway run ${state.runId}: stop failed`, err);
    }
  }

  /** Records events; a run no longer live in the company is stopped here. */
  private async report(state: GatewayRunState, config: GatewayConfig, headers: Headers, events: RunEventInput[]) {
    const answer = await this.toCompany(state, { runId: state.runId, events });
    if (answer.live) return;
    state.cancelled = true;
    state.done = true;
    this.cancelRequested = true;
    await this.save(state);
    this.interrupt?.abort();
    if (state.remoteRunId) await stopRemoteRun(config, headers, state.remoteRunId);
  }

  private finishRemote(state: GatewayRunState, status: TerminalStatus, final: unknown) {
    const record = final && typeof final === "object" ? (final as Record<string, unknown>) : {};
    const text = (v: unknown) => (typeof v === "string" && v ? v.slice(0, 10_000) : null);
    return this.finish(state, {
      status,
      summary: text(record.summary) ?? text(record.output) ?? null,
      usage: gatewayUsage(record),
      result: { remoteRunId: state.remoteRunId, remoteStatus: record.status ?? null },
      ...(status === "failed" ? { errorCode: "gateway_failed", error: text(record.error) ?? "The remote run failed" } : {}),
      ...(status === "cancelled" ? { errorCode: "gateway_cancelled", error: "The remote run was cancelled" } : {}),
    });
  }

  /** Ends the service run, then remembers it is done (a failed report leaves the alarm to try again). */
  private async finish(state: GatewayRunState, ending: NonNullable<RemoteRunReport["ending"]>) {
    await this.toCompany(state, { runId: state.runId, ending });
    state.done = true;
    await this.save(state);
    await this.ctx.storage.setAlarm(Date.now() + RETAIN_DONE_MS);
  }

  private async toCompany(state: GatewayRunState, report: RemoteRunReport): Promise<{ live: boolean }> {
    const result = (await companyObject(this.env, state.companyId).execute(state.companyId, reportRemoteRun.name, SYSTEM_ACTOR, report)) as CommandResult<{
      live: boolean;
    }>;
    if (!result.ok) throw new Error(`Recording the gateway run failed: ${result.error}`);
    return result.value;
  }

  /** An abort signal that fires at `until` (ms) or on cancel. */
  private arm(until: number): AbortController {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, until - Date.now()));
    controller.signal.addEventListener("abort", () => clearTimeout(timer));
    this.interrupt = controller;
    return controller;
  }

  private disarm(controller: AbortController) {
    controller.abort();
    if (this.interrupt === controller) this.interrupt = null;
  }

  /** Waits `ms` (never past `until`), or less when cancelled. */
  private async sleep(ms: number, until: number) {
    const controller = this.arm(Math.min(Date.now() + ms, until));
    await new Promise<void>((resolve) => controller.signal.addEventListener("abort", () => resolve(), { once: true }));
    this.disarm(controller);
  }
}

/** A relayed SSE event as a run event: its name as the message (with data.message when given), `id:` and data kept. */
function relayedEvent(event: GatewayEvent): RunEventInput {
  return boundedEvent(relayedEventOf(event));
}

function relayedEventOf(event: GatewayEvent): RunEventInput {
  const data = event.data && typeof event.data === "object" ? (event.data as Record<string, unknown>) : null;
  const detail =
    typeof data?.message === "string" ? data.message : typeof data?.text === "string" ? data.text : typeof event.data === "string" ? event.data : "";
  return {
    kind: data && typeof data.status === "string" ? "status" : "log",
    message: detail ? `${event.event}: ${detail}` : event.event,
    data: { event: event.event, id: event.id, data: event.data },
  };
}
