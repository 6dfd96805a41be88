// CompanyDurableObject: the single writer for one company. Every company-scoped
// mutation runs here, one at a time (see ARCHITECTURE.md).
import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import { withD1Session, type RequestSession } from "../db/sessions";
import { HttpError } from "../domain/errors";
import type { Actor } from "../domain/actor";
import { commandContext, StaleRead, type CommandResult, type CommandRule } from "./command";
import { CompanyStorage, migrateCompanyStorage } from "./storage";
import { commandRegistry } from "./commands";
import { dispatchDelayMs, runDispatch, type DispatcherHost } from "./dispatcher";
import { RoundTrips, withCountedD1, withRoundTrips } from "../db/round-trips";
import { newRunnerAttachment, onRunnerClosed, onRunnerMessage, Runners, RUNNER_TAG, type ConnectedRunner, type RunnerCredential, type RunnerHost, type RunnerPrincipal } from "./runners";
import { runnerGraceMs, sweepRemoteRuns } from "./remote-attempts";
import type { RemoteRunReport } from "../domain/runs/remote";

const SYSTEM: Actor = { type: "none", runId: null };
/** Headers the Worker sets on a runner's upgrade after authenticating it (the object is reachable only from the Worker). */
export const RUNNER_HEADERS = { principal: "x-runner-principal", credential: "x-runner-credential", company: "x-runner-company", apiUrl: "x-runner-api-url" } as const;

export class CompanyDurableObject extends DurableObject<Env> {
  private tail: Promise<unknown> = Promise.resolve();

  private readonly storage: CompanyStorage;
  /** env with D1 round trips counted. */
  private readonly countedEnv: Env;
  private readonly runners: Runners;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.countedEnv = withCountedD1(env);
    migrateCompanyStorage(ctx.storage.sql);
    this.storage = new CompanyStorage(ctx.storage.sql);
    this.runners = new Runners(ctx, this.storage);
    // Runner keep-alives are answered by the runtime without waking a hibernated object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(JSON.stringify({ type: "ping" }), JSON.stringify({ type: "pong" })));
  }

  /** Runs one named command for `companyId` after every earlier one has finished. */
  async execute(companyId: string, name: string, actor: Actor, input: unknown, loaded?: unknown): Promise<CommandResult<unknown>> {
    const roundTrips = new RoundTrips();
    roundTrips.phase = "command";
    const result = await withRoundTrips(roundTrips, () => this.executeSerially(companyId, name, actor, input, loaded));
    return { ...result, roundTrips: roundTrips.d1.command };
  }

  private executeSerially(companyId: string, name: string, actor: Actor, input: unknown, loaded: unknown): Promise<CommandResult<unknown>> {
    // Commands read and write the primary; the session's bookmark goes back to the caller, whose
    // next reads (sending it) then see this write even from a replica.
    const session: RequestSession = { session: this.countedEnv.DB.withSession("first-primary") };
    const bookmarked = (result: CommandResult<unknown>): CommandResult<unknown> => ({ ...result, bookmark: session.session.getBookmark() });
    return this.serialise(() => withD1Session(session, () => this.executeInSession(companyId, name, actor, input, loaded).then(bookmarked)));
  }

  private async executeInSession(companyId: string, name: string, actor: Actor, input: unknown, loaded: unknown): Promise<CommandResult<unknown>> {
    {
      // Fencing write first: a stale duplicate instance fails here instead of racing.
      this.storage.advanceFence();
      // The alarm has no caller to name the company: remember it.
      if (this.storage.facts.get("companyId") !== companyId) this.storage.facts.set("companyId", companyId);
      const command = commandRegistry.get(name);
      if (!command) return { ok: false, status: 400, error: `Unknown command ${name}` };
      try {
        const ctx = commandContext({ env: this.countedEnv, db: createDb(this.countedEnv.DB), companyId, actor, storage: this.storage, now: new Date().toISOString() });
        const run = command.run as CommandRule<unknown, unknown, unknown>;
        const reload = () => command.load!(ctx.db, { env: ctx.env, actor, now: ctx.now, companyId }, input);
        let snapshot = command.load && loaded === undefined ? await reload() : loaded;
        let value: unknown;
        try {
          value = await run(ctx, actor, input, snapshot);
        } catch (err) {
          // What the rule decided on changed before its batch was written: read again (now serialised) and decide again.
          if (!(err instanceof StaleRead) || !command.load) throw err;
          snapshot = await reload();
          value = await run(ctx, actor, input, snapshot);
        }
        if (ctx.dispatchRequested) await this.wakeAt(Date.now() + dispatchDelayMs(this.env));
        // Stopping runs where they execute (remote calls) happens after the serialised section.
        if (ctx.runsEnded) this.ctx.waitUntil(this.sweepAfter());
        return { ok: true, value, credentialsChanged: ctx.changedCredentials || undefined };
      } catch (err) {
        if (err instanceof HttpError) return { ok: false, status: err.status, error: err.message, details: err.details };
        if (err instanceof StaleRead) return { ok: false, status: 409, error: "Changed concurrently; try again" };
        console.error(`company command ${name} failed`, err);
        return { ok: false, status: 500, error: "Internal server error" };
      }
    }
  }

  /** The dispatcher (src/company/dispatcher.ts): queued wake-ups become runs, retries, deadlines. */
  async alarm(): Promise<void> {
    const companyId = this.storage.facts.get("companyId");
    if (!companyId) return;
    await runDispatch(this.dispatcherHost(), companyId);
  }

  /** Runs the dispatcher now (tests and the bench use it instead of waiting for the alarm). */
  async dispatchNow(): Promise<void> {
    await this.alarm();
  }

  private dispatcherHost(): DispatcherHost {
    return {
      env: this.countedEnv,
      db: createDb(this.countedEnv.DB),
      storage: this.storage,
      serialise: (fn) => this.serialise(() => withD1Session({ session: this.countedEnv.DB.withSession("first-primary") }, fn)),
      wakeAt: (at) => this.wakeAt(at),
      runners: this.runners,
    };
  }

  /** A runner's WebSocket upgrade, already authenticated by the Worker (src/routes/runners.ts). */
  async fetch(request: Request): Promise<Response> {
    const companyId = request.headers.get(RUNNER_HEADERS.company);
    const principal = request.headers.get(RUNNER_HEADERS.principal);
    const credential = request.headers.get(RUNNER_HEADERS.credential);
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !companyId || !principal || !credential) return new Response("Not found", { status: 404 });
    if (this.storage.facts.get("companyId") !== companyId) this.storage.facts.set("companyId", companyId);
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server, [RUNNER_TAG]);
    server.serializeAttachment(newRunnerAttachment(JSON.parse(principal) as RunnerPrincipal, JSON.parse(credential) as RunnerCredential, request.headers.get(RUNNER_HEADERS.apiUrl) ?? "", new Date()));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await onRunnerMessage(this.runnerHost(), ws, message);
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.runnerGone(ws);
    try {
      ws.close(code === 1005 ? 1000 : code, reason);
    } catch {
      /* already closed */
    }
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    this.runnerGone(ws);
  }

  /** Sweeps remote runs once the command queue has moved on (never delays the command's caller). */
  private async sweepAfter(): Promise<void> {
    await this.tail;
    await sweepRemoteRuns({ env: this.countedEnv, db: createDb(this.countedEnv.DB), storage: this.storage, runners: this.runners });
  }

  /** Connected runners and the agents they serve. */
  async listRunners(): Promise<ConnectedRunner[]> {
    return this.runners.list();
  }

  private runnerGone(ws: WebSocket) {
    const now = Date.now();
    if (onRunnerClosed(this.storage, ws, now) > 0) void this.wakeAt(now + runnerGraceMs(this.env) + dispatchDelayMs(this.env));
  }

  private runnerHost(): RunnerHost {
    const companyId = this.storage.facts.get("companyId") ?? "";
    return {
      companyId,
      db: createDb(this.countedEnv.DB),
      storage: this.storage,
      runners: this.runners,
      report: async (input: RemoteRunReport) => {
        const result = await this.execute(companyId, "run.remote.report", SYSTEM, input);
        if (!result.ok) throw new Error(result.error);
        return result.value as { live: boolean };
      },
      requestDispatch: () => this.wakeAt(Date.now() + dispatchDelayMs(this.env)),
    };
  }

  /** Sets the alarm for `at` unless one is due sooner. */
  private async wakeAt(when: number): Promise<void> {
    const at = Math.max(when, Date.now());
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /** Forgets everything this object stored (the company was deleted). */
  async purge(): Promise<void> {
    await this.serialise(async () => {
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    });
  }

  private serialise<T>(section: () => Promise<T>): Promise<T> {
    const run = this.tail.then(section, section);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
