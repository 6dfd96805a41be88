// CompanyDurableObject: the single writer for one company. Every company-scoped
// mutation runs here, one at a time (see src/README.md).
import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import { openSession, withD1Session, type RequestSession } from "../db/sessions";
import { HttpError } from "../domain/errors";
import type { Actor } from "../domain/actor";
import { commandContext, StaleRead, type CommandResult, type CommandRule } from "./command";
import { CompanyStorage, failableSql, migrateCompanyStorage } from "./storage";
import { commandRegistry } from "./commands";
import { runDispatch } from "./runs/dispatcher";
import type { DispatcherHost } from "./runs/host";
import { DISPATCH_RESUME_MS, runtimeSettings } from "./runs/timing";
import { RoundTrips, withCountedD1, withRoundTrips } from "../db/round-trips";
import type { FaultRule } from "../db/faults";
import {
  newRunnerAttachment,
  onRunnerClosed,
  onRunnerMessage,
  Runners,
  RUNNER_TAG,
  type ConnectedRunner,
  type EnvTestResult,
  type RunnerCredential,
  type RunnerHost,
  type RunnerPrincipal,
} from "./runs/runners";
import { sweepRemoteRuns } from "./runs/remote-sweep";
import { agentsOfType, ENV_TEST_TIMEOUT_MS, type EnvironmentTestInput } from "./runs/environment-test";
import { resolveEnvBindings } from "../domain/secrets/bindings";
import { reportRemoteRun, type RemoteRunReport } from "../domain/runs/remote";
import { RUNNER_HEADERS } from "./client";
import { HubLink } from "./hub-link";
import { SYSTEM_ACTOR } from "../domain/actor";
import { placementOf } from "../db/placement";
import { companyScope, withShardScope } from "../db/shards";
import { DirectorySync } from "../db/directory-sync";
import { ObjectFaults } from "./object-scaffolding";
import { receiptResponse, replayOf, type IdempotencyRequest } from "../domain/idempotency/receipts";
import { reportCostEvent, reportCostEvents, type CostEventInput, type ReportedCost } from "../domain/costs/commands";

/** While fenced: the Retry-After commands answer with, and how long fence() waits for a running dispatch. */
export const FENCE_RETRY_SECONDS = 5;
const FENCE_DRAIN_MS = 30_000;

/** Headers the Worker sets on a runner's upgrade after authenticating it (the object is reachable only from the Worker). */

export class CompanyDurableObject extends DurableObject<Env> {
  private tail: Promise<unknown> = Promise.resolve();

  private readonly storage: CompanyStorage;
  /** env with D1 round trips counted. */
  private readonly countedEnv: Env;
  private readonly runners: Runners;
  /** Test-only fault injection (src/db/faults.ts) is on: TEST_FAULTS = "1", never in a deployment. */
  private readonly faults: ObjectFaults;
  /** Dispatches running in this instance, and the earliest alarm asked for since the first of them began (ms). */
  private dispatching = 0;
  private wakeAsked: number | null = null;
  /** Runs a dispatch of this instance is handing out now (their starting_runs entries are not orphans). */
  private readonly handingOut = new Set<string>();
  /** What this object knows of its company's event hub (src/company/hub-link.ts). */
  private readonly hub = new HubLink();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.countedEnv = withCountedD1(env);
    this.faults = new ObjectFaults(env);
    migrateCompanyStorage(ctx.storage.sql);
    this.storage = new CompanyStorage(this.faults.enabled ? failableSql(ctx.storage.sql) : ctx.storage.sql);
    this.runners = new Runners(ctx, this.storage);
    // Runner keep-alives are answered by the runtime without waking a hibernated object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(JSON.stringify({ type: "ping" }), JSON.stringify({ type: "pong" })));
  }

  /**
   * Runs one named command for `companyId` after every earlier one has finished. `shard` is where
   * the Worker found the company (used until this object knows its own placement).
   */
  async execute(
    companyId: string,
    name: string,
    actor: Actor,
    input: unknown,
    loaded?: unknown,
    faults?: FaultRule[],
    shard?: string,
    idempotency?: IdempotencyRequest,
  ): Promise<CommandResult<unknown>> {
    // Cost events (every run reports them): gathered while earlier commands run, written as one group.
    if (name === reportCostEvent.name && !faults && !idempotency) return this.reportCost(companyId, actor, input as CostEventInput, shard);
    const roundTrips = new RoundTrips();
    roundTrips.phase = "command";
    roundTrips.faults = this.faults.rules(faults);
    const result = await withRoundTrips(roundTrips, () =>
      this.inCompanyScope(companyId, shard, () => this.executeSerially(companyId, name, actor, input, loaded, idempotency)),
    );
    return { ...result, roundTrips: roundTrips.d1.command, ...(faults && this.faults.enabled ? { faults } : {}) };
  }

  /** The group of cost events waiting for its turn (null: none; the next one opens a group). */
  private openCostGroup: { items: ReportedCost[]; result: Promise<CommandResult<unknown>> } | null = null;

  /**
   * Group commit: a cost event joins the group waiting for its turn in the serial order, or opens
   * one. When its turn comes the group closes and is written as one command (one D1 batch for all
   * its events, the counters and every budget check exact: src/domain/costs/commands.ts); each
   * caller gets its own event once the batch is committed, so what it reads next sees it. Under
   * load, events that arrive while a write is in flight share the next write instead of each
   * waiting for their own.
   */
  private async reportCost(companyId: string, actor: Actor, event: CostEventInput, shard: string | undefined): Promise<CommandResult<unknown>> {
    let group = this.openCostGroup;
    if (!group) {
      const items: ReportedCost[] = [];
      const roundTrips = new RoundTrips();
      roundTrips.phase = "command";
      const result = withRoundTrips(roundTrips, () =>
        this.inCompanyScope(companyId, shard, () =>
          this.executeSerially(companyId, reportCostEvents.name, actor, { items }, undefined, undefined, () => {
            // Its turn: later events open the next group.
            if (this.openCostGroup?.items === items) this.openCostGroup = null;
          }),
        ),
      ).then((r) => ({ ...r, roundTrips: roundTrips.d1.command }));
      group = { items, result };
      this.openCostGroup = group;
    }
    const index = group.items.push({ actor, event }) - 1;
    const result = await group.result;
    return result.ok ? { ...result, value: (result.value as unknown[])[index] } : result;
  }

  /**
   * Runs `fn` with every company-table statement on this company's shard (src/db/shards.ts). The
   * object remembers its placement; a move (moveTo) changes it while the company is fenced.
   */
  private async inCompanyScope<T>(companyId: string, hint: string | undefined, fn: () => Promise<T>): Promise<T> {
    let shard = this.storage.facts.get("shard");
    if (!shard) {
      shard = hint ?? (await placementOf(createDb(this.countedEnv.DB), companyId))?.shard;
      if (!shard) throw new HttpError(404, "Company not found");
      this.storage.facts.set("shard", shard);
    }
    return withShardScope(companyScope(companyId, shard), fn);
  }

  /** This object's company and shard scope for work no caller names a company for (alarms, runner messages). */
  private inOwnScope<T>(fn: () => Promise<T>): Promise<T> {
    const companyId = this.storage.facts.get("companyId");
    return companyId ? this.inCompanyScope(companyId, undefined, fn) : fn();
  }

  /** Test-only (TEST_FAULTS = "1"): arms fault rules on this object, for everything it does until each fired. */
  async armFaults(spec: string): Promise<void> {
    this.faults.arm(spec);
  }

  private executeSerially(
    companyId: string,
    name: string,
    actor: Actor,
    input: unknown,
    loaded: unknown,
    idempotency?: IdempotencyRequest,
    onTurn?: () => void,
  ): Promise<CommandResult<unknown>> {
    // Commands read and write the primary; the session's bookmark goes back to the caller, whose
    // next reads (sending it) then see this write even from a replica.
    const session: RequestSession = openSession(this.countedEnv.DB, "first-primary");
    const bookmarked = (result: CommandResult<unknown>): CommandResult<unknown> => ({ ...result, bookmark: session.session.getBookmark() });
    return this.serialise(() => {
      onTurn?.();
      return withD1Session(session, () => this.executeInSession(companyId, name, actor, input, loaded, idempotency).then(bookmarked));
    });
  }

  private async executeInSession(
    companyId: string,
    name: string,
    actor: Actor,
    input: unknown,
    loaded: unknown,
    idempotency?: IdempotencyRequest,
  ): Promise<CommandResult<unknown>> {
    {
      // Fencing write first: a stale duplicate instance fails here instead of racing.
      this.storage.advanceFence();
      // The alarm has no caller to name the company: remember it.
      if (this.storage.facts.get("companyId") !== companyId) this.storage.facts.set("companyId", companyId);
      const command = commandRegistry.get(name);
      if (!command) return { ok: false, status: 400, error: `Unknown command ${name}` };
      const fencedAt = this.storage.facts.get("fencedAt");
      if (fencedAt)
        return {
          ok: false,
          status: 503,
          error: "The company is being moved to another database; try again shortly",
          details: { retryAfterSeconds: FENCE_RETRY_SECONDS, fencedAt },
        };
      try {
        const db = createDb(this.countedEnv.DB);
        // A request made before with this Idempotency-Key: its first response (src/domain/idempotency/).
        if (idempotency) {
          const replay = await replayOf(db, companyId, idempotency);
          if (replay) return { ok: true, value: replay.value };
        }
        const ctx = commandContext({
          env: this.countedEnv,
          db,
          companyId,
          actor,
          storage: this.storage,
          now: new Date().toISOString(),
          idempotency,
          trailing: this.directorySync(db),
        });
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
        if (idempotency && ctx.receiptWritten) await receiptResponse(db, companyId, idempotency, value).run();
        if (ctx.dispatchRequested) await this.wakeAt(Date.now() + runtimeSettings(this.env).dispatchDelayMs);
        // Events written (by the command's batch, or by the run triggers when runs were queued or
        // ended): the company's hub streams and delivers them (not awaited: never delays the caller).
        if ((ctx.eventsWritten || ctx.dispatchRequested || ctx.runsEnded) && this.hub.wantsNotice(ctx.deliveriesPending))
          this.ctx.waitUntil(this.hub.notify(this.env, companyId, ctx.deliveriesPending));
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

  private sync?: DirectorySync;
  /** Applies what a command changed in directory-mirrored rows to the directory (src/db/directory-sync.ts). */
  private directorySync(db: ReturnType<typeof createDb>): DirectorySync {
    this.sync ??= new DirectorySync(db);
    return this.sync;
  }

  /** The dispatcher (src/company/runs/dispatcher.ts): queued wake-ups become runs, retries, deadlines. */
  async alarm(): Promise<void> {
    return this.inOwnScope(() => this.dispatchAlarm());
  }

  private async dispatchAlarm(): Promise<void> {
    const companyId = this.storage.facts.get("companyId");
    if (!companyId) return;
    // Fenced (a move copies the company): no dispatch starts; look again after the fence's retry time.
    // Checked in the same synchronous step as the count fence() waits on.
    if (this.storage.facts.get("fencedAt"))
      return this.ctx.storage.setAlarm(Date.now() + FENCE_RETRY_SECONDS * 1000 + runtimeSettings(this.env).dispatchDelayMs);
    if (this.dispatching++ === 0) this.wakeAsked = null;
    try {
      await this.faults.around(async () => {
        // Re-armed before any work: if the object is evicted or a write fails half-way, the alarm
        // fires again and the dispatch (every step safe to repeat) resumes. A dispatch that
        // finishes replaces this with the next alarm it needs (settleAlarm).
        const resumeAt = Date.now() + DISPATCH_RESUME_MS + runtimeSettings(this.env).dispatchDelayMs;
        const current = await this.ctx.storage.getAlarm();
        if (current === null || current <= Date.now() || current > resumeAt) await this.ctx.storage.setAlarm(resumeAt);
        await runDispatch(this.dispatcherHost(), companyId);
      });
      // Runs started or ended write run events (migrations/0017_run_events.sql).
      this.ctx.waitUntil(this.hub.notify(this.env, companyId));
    } finally {
      this.dispatching--;
    }
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
      serialise: (fn) => this.serialise(() => withD1Session(openSession(this.countedEnv.DB, "first-primary"), fn)),
      settleAlarm: (at) => this.settleAlarm(at),
      runners: this.runners,
      handingOut: this.handingOut,
    };
  }

  /** A runner's WebSocket upgrade, already authenticated by the Worker (src/routes/runners.ts). */
  async fetch(request: Request): Promise<Response> {
    const companyId = request.headers.get(RUNNER_HEADERS.company);
    const principal = request.headers.get(RUNNER_HEADERS.principal);
    const credential = request.headers.get(RUNNER_HEADERS.credential);
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !companyId || !principal || !credential)
      return new Response("Not found", { status: 404 });
    if (this.storage.facts.get("companyId") !== companyId) this.storage.facts.set("companyId", companyId);
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server, [RUNNER_TAG]);
    server.serializeAttachment(
      newRunnerAttachment(
        JSON.parse(principal) as RunnerPrincipal,
        JSON.parse(credential) as RunnerCredential,
        request.headers.get(RUNNER_HEADERS.apiUrl) ?? "",
        new Date(),
      ),
    );
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await this.inOwnScope(() => this.faults.around(() => onRunnerMessage(this.runnerHost(), ws, message)));
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

  /** The company's event hub opened a stream: every command writing events notifies it from now on. */
  async streamsOpened(): Promise<void> {
    this.hub.streamsOpened();
  }

  /** Sweeps remote runs once the command queue has moved on (never delays the command's caller). */
  private async sweepAfter(): Promise<void> {
    await this.tail;
    await this.inOwnScope(() => sweepRemoteRuns({ env: this.countedEnv, db: createDb(this.countedEnv.DB), storage: this.storage, runners: this.runners }));
  }

  /** Connected runners and the agents they serve. */
  async listRunners(): Promise<ConnectedRunner[]> {
    return this.runners.list();
  }

  /**
   * The doctor for an adapter type: a connected runner serving an agent of that type (`agentId`'s,
   * when given) checks its machine with that agent's config (`adapterConfig` fields override it)
   * and environment; a `fail` with `no_runner` when none serves one.
   */
  async testEnvironment(companyId: string, input: EnvironmentTestInput): Promise<EnvTestResult> {
    if (this.storage.facts.get("companyId") !== companyId) this.storage.facts.set("companyId", companyId);
    return this.inOwnScope(async () => {
      const db = createDb(this.countedEnv.DB);
      const candidates = await agentsOfType(db, companyId, input.adapterType, input.agentId ?? null);
      const served = candidates.find((agent) => this.runners.pick(agent.id));
      const env = served ? await resolveEnvBindings(this.env, db, companyId, (served.adapterConfig.env ?? null) as Record<string, unknown> | null) : undefined;
      const { env: _bindings, paperclipSkillSync: _skills, ...config } = served?.adapterConfig ?? {};
      return this.runners.testEnvironment(
        served ? [served.id] : [],
        { adapterType: input.adapterType, adapterConfig: { ...config, ...(input.adapterConfig ?? {}) }, probe: input.probe, ...(env ? { env } : {}) },
        ENV_TEST_TIMEOUT_MS,
      );
    });
  }

  private runnerGone(ws: WebSocket) {
    const now = Date.now();
    if (onRunnerClosed(this.storage, ws, now) > 0) void this.wakeAt(now + runtimeSettings(this.env).runnerGraceMs + runtimeSettings(this.env).dispatchDelayMs);
  }

  private runnerHost(): RunnerHost {
    const companyId = this.storage.facts.get("companyId") ?? "";
    return {
      companyId,
      db: createDb(this.countedEnv.DB),
      storage: this.storage,
      runners: this.runners,
      report: async (input: RemoteRunReport) => {
        const result = await this.execute(companyId, reportRemoteRun.name, SYSTEM_ACTOR, input);
        if (!result.ok) throw new Error(result.error);
        return result.value as { live: boolean };
      },
      requestDispatch: () => this.wakeAt(Date.now() + runtimeSettings(this.env).dispatchDelayMs),
    };
  }

  /** Sets the alarm for `at` unless one is due sooner. */
  private async wakeAt(when: number): Promise<void> {
    const at = Math.max(when, Date.now());
    // Asked while a dispatch runs: that dispatch's settleAlarm keeps it.
    if (this.dispatching > 0) this.wakeAsked = Math.min(this.wakeAsked ?? at, at);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /**
   * The end of a dispatch: the alarm becomes `at` (or none) — unless something asked for an earlier
   * one meanwhile — replacing the resume alarm set when it began. While another dispatch of this
   * instance still runs, only an earlier alarm is set (the last one to finish settles).
   */
  private async settleAlarm(at: number | null): Promise<void> {
    if (this.dispatching > 1) {
      if (at !== null) await this.wakeAt(at);
      return;
    }
    const wanted = at === null ? this.wakeAsked : this.wakeAsked === null ? at : Math.min(at, this.wakeAsked);
    if (wanted === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(wanted, Date.now()));
  }

  /**
   * Fences the company for a move (src/domain/shards/move.ts): once every command queued before it
   * and any dispatch already running have finished, commands answer 503 + Retry-After and no
   * dispatch starts, until unfence. `fencedAt` is the move's token.
   */
  async fence(companyId: string, fencedAt: string): Promise<{ ok: true } | { ok: false; error: string }> {
    await this.serialise(async () => {
      if (this.storage.facts.get("companyId") !== companyId) this.storage.facts.set("companyId", companyId);
      this.storage.facts.set("fencedAt", fencedAt);
    });
    // A dispatch that began before the fence records its attempts (serialised, but not refused): wait for it.
    const deadline = Date.now() + FENCE_DRAIN_MS;
    while (this.dispatching > 0) {
      if (Date.now() > deadline) {
        await this.unfence(fencedAt);
        return { ok: false, error: "A run dispatch of the company is still recording its attempts; try again shortly" };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { ok: true };
  }

  /** Lifts the fence `fencedAt` (another move's fence stays); `shard` is where the company lives now. */
  async unfence(fencedAt: string, shard?: string): Promise<{ ok: boolean }> {
    return this.serialise(async () => {
      if (this.storage.facts.get("fencedAt") !== fencedAt) return { ok: false };
      if (shard && this.storage.facts.get("shard") !== shard) {
        this.storage.facts.set("shard", shard);
        // What it read from the old shard's outbox is not the new shard's to delete.
        this.sync = undefined;
      }
      this.storage.facts.forget("fencedAt");
      return { ok: true };
    });
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
