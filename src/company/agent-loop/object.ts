// AgentLoopObject: one Durable Object per `llm_api` run, running the agent's whole loop at the
// edge — model call, the agent's own API as tools, next model call — driven by its alarm, one
// step per alarm (the pending tool calls, then one model call), so no request waits on it and
// every step has fresh limits. Everything is journaled in the object's SQLite before the next
// effect (journal.ts): an eviction costs at most the step in flight, and a tool call retried after
// one carries the same Idempotency-Key (run:turn:call), which the service answers with the first
// response. Before every model call the company is asked whether the run may go on (still running,
// no budget stop: reportRemoteRun); each call's usage becomes a cost event at once. Provider
// failures wait (rate limits, Retry-After), retry (5xx, network, a call's timeout), compact once
// (context length) or end the run with a run error code. The conversation is kept in R2 per agent
// and task between runs, pointed at by the runtime session, so the next wake continues it.
//
// The HTTP app the tools call is supplied by the Worker's entry (src/index.ts subclasses this with
// `appFetch`): the objects layer does not import the routes.
import { DurableObject } from "cloudflare:workers";
import { createDb } from "../../db/client";
import { withCountedD1 } from "../../db/round-trips";
import { onShardOf } from "../../db/placement";
import { resolveEnvBindings } from "../../domain/secrets/bindings";
import { boundedEvent, reportRemoteRun, type RemoteRunReport } from "../../domain/runs/remote";
import type { RunEventInput } from "../../domain/runs/events";
import { backoffSeconds, MAX_RETRIES } from "../../domain/runs/lifecycle";
import { SYSTEM_ACTOR, type AgentActor } from "../../domain/actor";
import type { ApiCall } from "../../domain/mcp/tools";
import { readyPlugins } from "../../domain/plugins/queries";
import { mintAgentJwt } from "../../crypto/agent-jwt";
import { serviceApiUrl } from "../../config";
import { isPrivateTarget } from "../../net/hosts";
import { readLlmApiConfig, type LlmApiConfig } from "../../adapters/llm-api/config";
import { callModel } from "../../adapters/llm-api/call";
import { callCost } from "../../adapters/llm-api/pricing";
import { closedHistory, compactHistory, fitHistory } from "../../adapters/llm-api/history";
import { ProviderFailure, type ModelReply, type ToolResultMessage, type ToolSpec, type TurnMessage } from "../../adapters/llm-api/turns";
import type { McpToolServer } from "../../domain/mcp/server";
import { companyObject } from "../client";
import type { CommandResult } from "../command";
import { ObjectFaults } from "../object-scaffolding";
import { runtimeSettings } from "../runs/timing";
import { LoopJournal, type LoopSpec, type LoopState } from "./journal";
import { loopToolServer, loopToolSpecs, runToolCall } from "./tools";

/** A finished run's object forgets its journal this long after the end. */
const RETAIN_DONE_MS = 24 * 3600_000;
/** Unexpected step failures in a row before the run fails (each re-arms with a back-off). */
const MAX_CRASHES = 5;
/** Turns in a row with unusable tool arguments before the run fails `tool_args_invalid`. */
const MAX_BAD_ARGUMENT_TURNS = 3;
/** Streamed text goes to the run's events at most this often (and at the end of each call). */
const TEXT_FLUSH_MS = 1000;
/** The run token the tools use lives this long (a new one a minute before it expires). */
const STEP_TOKEN_SEC = 900;
/** The ready plugins (whose tools the agent is offered) are looked at again after this long. */
const PLUGINS_TTL_MS = 60_000;

/** What a step needs besides the journal: the tools, and how to reach the API as the agent. */
interface StepTools {
  server: McpToolServer;
  specs: ToolSpec[];
}

/** The saved conversation (R2): what the next wake on the task continues. */
interface SavedConversation {
  version: 1;
  agentId: string;
  taskKey: string;
  runId: string;
  savedAt: string;
  messages: TurnMessage[];
}

class Cancelled extends Error {}

export abstract class AgentLoop extends DurableObject<Env> {
  /** The Worker's own HTTP app, called in this isolate (src/index.ts). */
  protected abstract appFetch(request: Request): Promise<Response>;

  private readonly faults = new ObjectFaults(this.env);
  private readonly journal = new LoopJournal(this.ctx.storage, this.faults.enabled);
  /** Aborts the model call in flight (cancel, the call's timeout, the deadline). */
  private interrupt: AbortController | null = null;
  /** Set by cancel() for a step already running in this instance (it holds its own copy of the state). */
  private cancelRequested = false;
  /** The Idempotency-Key of the tool call in flight. */
  private callKey: string | null = null;
  /** Events not yet reported (they go with the next report). */
  private pendingEvents: RunEventInput[] = [];
  /** This run's token for the tools (minted by the instance, never stored). */
  private token: { value: string; until: number } | null = null;
  /** The tools, built once per instance (the ready plugins looked at again after PLUGINS_TTL_MS). */
  private catalogue: { at: number; tools: StepTools } | null = null;

  /** Takes the run (idempotent: a second start of the same run changes nothing) and arms the alarm. */
  async start(spec: LoopSpec): Promise<void> {
    if (this.journal.state()) return;
    const at = Date.now() + runtimeSettings(this.env).dispatchDelayMs;
    this.journal.saveState({
      ...spec,
      phase: "start",
      turn: 0,
      attempt: 0,
      badArgTurns: 0,
      compacted: false,
      crashes: 0,
      totals: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, micros: 0 },
      unbilledMicros: 0,
      pendingUsage: null,
      nextStepAt: at,
      summary: null,
      cancelled: false,
      done: false,
    });
    await this.ctx.storage.setAlarm(at);
  }

  /** The run ended in the company (cancel, pause, a budget stop, its deadline): abort the call in flight and stop. */
  async cancel(): Promise<void> {
    const state = this.journal.state();
    if (!state || state.done) return;
    this.cancelRequested = true;
    this.interrupt?.abort(new Cancelled("cancelled"));
    await this.stopped(state);
  }

  /** What the object knows (tests and diagnostics): never the config or the conversation. */
  async describe() {
    const state = this.journal.state();
    if (!state) return null;
    const { adapterConfig: _config, prompt: _prompt, pendingUsage, ...rest } = state;
    return {
      ...rest,
      usagePending: pendingUsage !== null,
      messages: this.journal.messages().length,
      calls: this.journal.calls().map((c) => ({ idx: c.idx, name: c.call.name, state: c.state })),
    };
  }

  /** Test-only (TEST_FAULTS = "1"): fault rules for what this object does until each fired. */
  async armFaults(spec: string): Promise<void> {
    this.faults.arm(spec);
  }

  async alarm(): Promise<void> {
    try {
      await this.faults.around(() => this.step());
    } catch (err) {
      if (err instanceof Cancelled) return;
      // An unexpected failure (a storage or D1 error, the company unreachable): the step runs again.
      const state = this.journal.state();
      if (!state || state.done) return;
      console.error(`agent loop ${state.runId}: step failed`, err);
      state.crashes += 1;
      if (state.crashes > MAX_CRASHES) {
        await this.finish(state, {
          status: "failed",
          errorCode: "adapter_failed",
          error: `The agent loop failed ${MAX_CRASHES} times in a row: ${(err as Error)?.message ?? err}`,
        });
        return;
      }
      await this.rearm(state, backoffSeconds(state.crashes) * 1000);
    }
  }

  /** One step: the retention alarm, or the run's next effects. */
  private async step(): Promise<void> {
    const state = this.journal.state();
    if (!state) return;
    if (state.done) {
      // The retention alarm: the run is long over, its journal goes.
      await this.ctx.storage.deleteAll();
      return;
    }
    if (this.cancelRequested || state.cancelled) return;
    const config = readLlmApiConfig(state.adapterConfig);
    if (Date.now() >= state.deadline)
      return this.finish(state, { status: "timed_out", errorCode: "timeout", error: `The run did not finish within ${config.timeoutSec} s (timeoutSec)` });
    // The deployment policy again at run time (the config may predate it): no private targets when public.
    if (config.provider !== "workers_ai" && this.env.SERVER_EXPOSURE === "public" && isPrivateTarget(new URL(config.baseUrl).hostname))
      return this.finish(state, { status: "failed", errorCode: "adapter_refused", error: "Refusing to call a loopback or private-network model API" });
    // Answered without tool calls, but the ending was not recorded (evicted right after): record it now.
    if (state.phase === "done") return this.finish(state, { status: "succeeded", summary: state.summary });
    // One report per step, before anything else: the last call's usage (its cost event), the events so
    // far, and whether the run may go on — still running, no budget stop of the agent, company or
    // project (a hard stop, perhaps by that very usage, cancels the run there): else no tool of the
    // turn runs and no model is called.
    if (!(await this.report(state, { usage: state.pendingUsage, checkBudget: true })).live) return this.stopped(state);
    if (state.pendingUsage) {
      state.pendingUsage = null;
      this.save(state);
    }
    const tools = await this.tools(state, config);
    if (state.phase === "start") await this.begin(state);
    if (state.phase === "tools" && !(await this.runTools(state, tools))) return;
    if (state.phase === "model") await this.modelStep(state, config, tools);
  }

  /** The first step: the conversation this wake continues (from R2), then the wake's prompt. */
  private async begin(state: LoopState): Promise<void> {
    let previous: TurnMessage[] = [];
    if (state.resume) {
      const object = await this.env.FILES.get(state.resume.key);
      const saved = object ? ((await object.json()) as SavedConversation) : null;
      if (saved?.agentId === state.agentId && Array.isArray(saved.messages)) previous = saved.messages;
      this.pendingEvents.push({
        kind: "status",
        message: saved
          ? `Continuing the conversation of run ${saved.runId} (${previous.length} messages)`
          : "The previous conversation is gone: starting a new one",
        data: { resumedFrom: saved?.runId ?? null },
      });
    }
    state.phase = "model";
    this.ctx.storage.transactionSync(() => {
      this.journal.append(...previous, { role: "user", content: state.prompt });
      this.save(state);
    });
  }

  /** The pending tool calls of the last turn, each journaled before and after; false when the loop stops here. */
  private async runTools(state: LoopState, tools: StepTools): Promise<boolean> {
    const results: ToolResultMessage[] = [];
    let badArguments = false;
    for (const entry of this.journal.calls()) {
      if (this.cancelRequested) return false;
      if (entry.state === "done" && entry.result) {
        results.push(entry.result);
        continue;
      }
      this.journal.markStarted(entry.idx);
      this.pendingEvents.push({
        kind: "tool_call",
        message: `${entry.call.name} ${entry.call.arguments}`.slice(0, 2000),
        data: { callId: entry.call.id, name: entry.call.name },
      });
      this.callKey = `${state.runId}:${state.turn}:${entry.idx}`;
      let outcome: Awaited<ReturnType<typeof runToolCall>>;
      try {
        outcome = await runToolCall(tools.server, tools.specs, entry.call);
      } finally {
        this.callKey = null;
      }
      this.journal.markDone(entry.idx, outcome.result);
      badArguments ||= outcome.badArguments;
      results.push(outcome.result);
      this.pendingEvents.push({
        kind: "tool_result",
        message: `${outcome.result.isError ? "error: " : ""}${outcome.result.content}`.slice(0, 2000),
        data: { callId: entry.call.id, name: entry.call.name, isError: outcome.result.isError },
      });
    }
    state.badArgTurns = badArguments ? state.badArgTurns + 1 : 0;
    state.phase = "model";
    this.ctx.storage.transactionSync(() => {
      this.journal.append({ role: "tool", results });
      this.journal.clearCalls();
      this.save(state);
    });
    if (state.badArgTurns >= MAX_BAD_ARGUMENT_TURNS) {
      await this.finish(state, {
        status: "failed",
        errorCode: "tool_args_invalid",
        error: `The model called tools with unusable arguments ${MAX_BAD_ARGUMENT_TURNS} turns in a row`,
      });
      return false;
    }
    return true;
  }

  /** One model call (the step's report asked whether the run may go on); its usage goes with the next report. */
  private async modelStep(state: LoopState, config: LlmApiConfig, tools: StepTools): Promise<void> {
    if (state.turn >= config.maxTurns)
      return this.finish(state, { status: "failed", errorCode: "max_turns", error: `Stopped after ${config.maxTurns} model calls (maxTurns)` });
    let apiKey: string | null;
    try {
      apiKey = await this.apiKey(state);
    } catch (err) {
      return this.finish(state, { status: "failed", errorCode: "adapter_refused", error: `Could not resolve the apiKey: ${(err as Error)?.message ?? err}` });
    }
    const messages = state.compacted ? compactHistory(this.journal.messages()) : this.journal.messages();
    const request = {
      model: config.model,
      system: config.instructions ?? "",
      messages: fitHistory(messages, state.compacted ? Math.floor(config.maxContextTokens / 2) : config.maxContextTokens),
      tools: tools.specs,
      maxOutputTokens: config.maxOutputTokens,
      temperature: config.temperature,
      stream: config.stream,
      cacheKey: state.agentId,
    };
    const controller = this.arm(Math.min(state.deadline, Date.now() + config.requestTimeoutSec * 1000));
    const text = new TextCoalescer((chunk) => this.pendingEvents.push({ kind: "assistant", message: chunk, data: { turn: state.turn + 1, partial: true } }));
    let reply: ModelReply;
    try {
      reply = await callModel(config, request, {
        apiKey,
        signal: controller.signal,
        onText: (delta) => {
          if (text.add(delta)) void this.flushEvents(state);
        },
        ai: this.env.AI as never,
        callIdPrefix: `call_${state.turn + 1}`,
      });
    } catch (err) {
      if (this.cancelRequested || err instanceof Cancelled) return;
      let failure = err;
      if (controller.signal.aborted) {
        if (Date.now() >= state.deadline)
          return this.finish(state, { status: "timed_out", errorCode: "timeout", error: `The run did not finish within ${config.timeoutSec} s (timeoutSec)` });
        failure = new ProviderFailure("retry", "timeout", `The model call took longer than ${config.requestTimeoutSec} s (requestTimeoutSec)`);
      }
      if (!(failure instanceof ProviderFailure)) throw failure;
      text.flush();
      // A provider (or a proxy) may quote the key it refused: it never reaches the run's error or events.
      return this.providerFailed(state, apiKey ? redacted(failure, apiKey) : failure);
    } finally {
      this.disarm(controller);
    }
    text.flush();
    await this.answered(state, config, reply);
  }

  /** A model answer: journaled with its calls and its usage, then the next step (which reports the usage first) or the end. */
  private async answered(state: LoopState, config: LlmApiConfig, reply: ModelReply): Promise<void> {
    state.attempt = 0;
    state.turn += 1;
    const cost = callCost(config, reply.usage);
    // Whole cents now, the fraction carried to the next call; the last call (no tool calls) rounds it off.
    const micros = state.unbilledMicros + cost.micros;
    const cents = reply.toolCalls.length ? Math.floor(micros / 10_000) : Math.round(micros / 10_000);
    state.unbilledMicros = reply.toolCalls.length ? micros - cents * 10_000 : 0;
    state.totals = {
      inputTokens: state.totals.inputTokens + reply.usage.inputTokens,
      cachedInputTokens: state.totals.cachedInputTokens + reply.usage.cachedInputTokens,
      outputTokens: state.totals.outputTokens + reply.usage.outputTokens,
      micros: state.totals.micros + cost.micros,
    };
    if (reply.text) state.summary = reply.text;
    // The call's cost event goes with the next report (the next step's, or the ending): journaled with the answer.
    state.pendingUsage = {
      provider: config.provider,
      model: config.model,
      inputTokens: reply.usage.inputTokens,
      cachedInputTokens: reply.usage.cachedInputTokens,
      outputTokens: reply.usage.outputTokens,
      costCents: cents,
      billingType: cost.billingType,
    };
    // No tool calls and no refusal: the answer is the end (phase done until the ending is recorded).
    state.phase = reply.toolCalls.length ? "tools" : reply.stop === "end" || reply.stop === "length" ? "done" : "model";
    this.ctx.storage.transactionSync(() => {
      this.journal.append({ role: "assistant", content: reply.text, toolCalls: reply.toolCalls });
      this.journal.setCalls(reply.toolCalls);
      this.save(state);
    });
    this.pendingEvents.push({
      kind: "progress",
      message: `Turn ${state.turn}: ${reply.toolCalls.length ? `${reply.toolCalls.length} tool call${reply.toolCalls.length === 1 ? "" : "s"} (${reply.toolCalls.map((c) => c.name).join(", ")})` : "answered"}; ${reply.usage.inputTokens} input tokens (${reply.usage.cachedInputTokens} cached), ${reply.usage.outputTokens} output`,
      data: { turn: state.turn, stop: reply.stop, usage: reply.usage, costMicros: Math.round(cost.micros), priceSource: cost.source },
    });
    if (reply.stop === "content_filter")
      return this.finish(state, { status: "failed", errorCode: "content_filtered", error: "The provider's content filter stopped the answer" });
    if (reply.stop === "context_length")
      return this.providerFailed(state, new ProviderFailure("compact", "context_length", "The model's context window is full"));
    if (!reply.toolCalls.length) return this.finish(state, { status: "succeeded", summary: reply.text || null });
    await this.rearm(state, 0);
  }

  /** A failed model call: wait, retry, compact once, or end the run. */
  private async providerFailed(state: LoopState, failure: ProviderFailure): Promise<void> {
    if (failure.action === "fail") return this.finish(state, { status: "failed", errorCode: failure.errorCode, error: failure.message });
    if (failure.action === "compact") {
      if (state.compacted) return this.finish(state, { status: "failed", errorCode: "context_length", error: failure.message });
      state.compacted = true;
      this.pendingEvents.push({
        kind: "status",
        message: `${failure.message}; shortening the conversation (old tool results cut, older turns dropped) and trying again`,
      });
      return this.rearm(state, 0);
    }
    state.attempt += 1;
    if (state.attempt > MAX_RETRIES)
      return this.finish(state, { status: "failed", errorCode: failure.errorCode, error: `${failure.message} (after ${MAX_RETRIES} retries)` });
    const waitMs = Math.max(failure.retryAfterMs ?? 0, failure.action === "wait" && failure.retryAfterMs !== null ? 0 : backoffSeconds(state.attempt) * 1000);
    const at = Date.now() + waitMs;
    this.pendingEvents.push({
      kind: "status",
      message: `${failure.message}; retry ${state.attempt} of ${MAX_RETRIES} at ${new Date(at).toISOString()}`,
      data: { errorCode: failure.errorCode, nextRetryAt: new Date(at).toISOString(), attempt: state.attempt },
    });
    await this.rearm(state, waitMs);
  }

  /**
   * The tools of this step: the catalogue with the ready plugins' tools, bound to a run token (minted
   * here, never stored), called in this isolate as the agent. Kept by the instance (the token until
   * a minute before it expires, the catalogue for PLUGINS_TTL_MS): a turn does not rebuild them.
   */
  private async tools(state: LoopState, config: LlmApiConfig): Promise<StepTools> {
    if (!this.token || this.token.until < Date.now() + 60_000) {
      const value = await mintAgentJwt(
        this.env.AGENT_JWT_SECRET,
        { agentId: state.agentId, companyId: state.companyId, adapterType: state.adapterType, runId: state.runId },
        { lifetimeSec: STEP_TOKEN_SEC },
      );
      this.token = { value, until: Date.now() + STEP_TOKEN_SEC * 1000 };
    }
    if (this.catalogue && Date.now() - this.catalogue.at < PLUGINS_TTL_MS) return this.catalogue.tools;
    const origin = serviceApiUrl(this.env);
    const api: ApiCall = async (method, path, body) => {
      const headers = new Headers({ authorization: `Bearer ${this.token!.value}` });
      if (body !== undefined) headers.set("content-type", "application/json");
      if (method !== "GET" && this.callKey) headers.set("idempotency-key", this.callKey);
      const response = await this.appFetch(new Request(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: response.status, body: parsed };
    };
    const actor: AgentActor = { type: "agent", source: "agent_jwt", agentId: state.agentId, companyId: state.companyId, keyId: null, runId: state.runId };
    const plugins = await readyPlugins(createDb(withCountedD1(this.env).DB));
    const server = loopToolServer(
      actor,
      api,
      plugins.map((p) => p.plugin),
    );
    this.catalogue = { at: Date.now(), tools: { server, specs: loopToolSpecs(server, config.tools) } };
    return this.catalogue.tools;
  }

  /** The apiKey, resolved from its secret reference now (never stored in plain); null when none is configured. */
  private async apiKey(state: LoopState): Promise<string | null> {
    const ref = state.adapterConfig.apiKey;
    if (ref === undefined || ref === null) return null;
    const db = createDb(withCountedD1(this.env).DB);
    const resolved = await onShardOf(db, state.companyId, () => resolveEnvBindings(this.env, db, state.companyId, { apiKey: ref }));
    return resolved.apiKey ?? null;
  }

  /** Ends the run: the conversation kept for the next wake, the ending reported, the journal kept a day. */
  private async finish(state: LoopState, ending: NonNullable<RemoteRunReport["ending"]>): Promise<void> {
    const session = await this.persistConversation(state);
    // The last call's usage, with the fraction of a cent carried so far when it rounds to a cent.
    const remainder = Math.round(state.unbilledMicros / 10_000);
    const config = readLlmApiConfig(state.adapterConfig);
    const pending = state.pendingUsage;
    const usage = pending
      ? { ...pending, costCents: Number(pending.costCents ?? 0) + remainder }
      : remainder > 0
        ? { provider: config.provider, model: config.model, costCents: remainder, billingType: "metered_api" }
        : null;
    await this.report(state, {
      ending: {
        ...ending,
        summary: ending.summary ?? (ending.status === "succeeded" ? state.summary : null),
        result: { turns: state.turn, ...state.totals, costUsd: Number((state.totals.micros / 1_000_000).toFixed(6)) },
        usage,
      },
      ...(session ? { session } : {}),
    });
    state.pendingUsage = null;
    state.done = true;
    state.phase = "done";
    state.unbilledMicros = 0;
    this.save(state);
    await this.ctx.storage.setAlarm(Date.now() + RETAIN_DONE_MS);
  }

  /** The run ended elsewhere (cancelled, a budget stop): the conversation is kept, the loop stops. */
  private async stopped(state: LoopState): Promise<void> {
    state.cancelled = true;
    state.done = true;
    state.phase = "done";
    this.save(state);
    this.pendingEvents = [];
    const session = await this.persistConversation(state).catch((err) => {
      console.error(`agent loop ${state.runId}: keeping the conversation failed`, err);
      return null;
    });
    if (session) await this.report(state, { session }).catch((err) => console.error(`agent loop ${state.runId}: session report failed`, err));
    await this.ctx.storage.setAlarm(Date.now() + RETAIN_DONE_MS);
  }

  /** The conversation in R2 for the agent's next wake on this task; the session that points at it. */
  private async persistConversation(state: LoopState): Promise<{ id: string; params: Record<string, unknown> } | null> {
    const messages = closedHistory(this.journal.messages());
    if (!messages.length) return null;
    const saved: SavedConversation = {
      version: 1,
      agentId: state.agentId,
      taskKey: state.taskKey,
      runId: state.runId,
      savedAt: new Date().toISOString(),
      messages,
    };
    await this.env.FILES.put(state.conversationKey, JSON.stringify(saved), { httpMetadata: { contentType: "application/json" } });
    return { id: state.conversationKey, params: { runId: state.runId, messages: messages.length } };
  }

  /** Reports (the pending events with it) to the company; answers whether the run is still live. */
  private async report(state: LoopState, report: Omit<RemoteRunReport, "runId" | "events">): Promise<{ live: boolean }> {
    const events = this.pendingEvents.splice(0).map(boundedEvent);
    const result = (await companyObject(this.env, state.companyId).execute(state.companyId, reportRemoteRun.name, SYSTEM_ACTOR, {
      runId: state.runId,
      events,
      ...report,
    })) as CommandResult<{ live: boolean }>;
    if (!result.ok) throw new Error(`Recording the agent loop failed: ${result.error}`);
    return result.value;
  }

  /** Streamed text so far, while the call goes on (not awaited by the stream; reports stay in order). */
  private flushing: Promise<unknown> = Promise.resolve();
  private flushEvents(state: LoopState): Promise<unknown> {
    if (!this.pendingEvents.length) return this.flushing;
    this.flushing = this.flushing.then(() => this.report(state, {})).catch((err) => console.error(`agent loop ${state.runId}: event report failed`, err));
    return this.flushing;
  }

  private save(state: LoopState) {
    // A cancel() that ran meanwhile wins over the step's copy of the state.
    if (this.cancelRequested) Object.assign(state, { cancelled: true, done: true, phase: "done" });
    this.journal.saveState(state);
  }

  /** The next step in `delayMs` (plus the service's dispatch delay: tests fire alarms by hand). */
  private async rearm(state: LoopState, delayMs: number): Promise<void> {
    state.nextStepAt = Date.now() + delayMs + runtimeSettings(this.env).dispatchDelayMs;
    this.save(state);
    // A wait (a retry later) reports its events now; otherwise they go with the next step's report.
    if (delayMs > 0 && this.pendingEvents.length) await this.flushEvents(state);
    if (!this.cancelRequested) await this.ctx.storage.setAlarm(state.nextStepAt);
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
    if (!controller.signal.aborted) controller.abort();
    if (this.interrupt === controller) this.interrupt = null;
  }
}

/** The failure with every occurrence of the key in its message replaced. */
function redacted(failure: ProviderFailure, apiKey: string): ProviderFailure {
  if (!failure.message.includes(apiKey)) return failure;
  return new ProviderFailure(failure.action, failure.errorCode, failure.message.split(apiKey).join("[redacted]"), failure.retryAfterMs);
}

/** Streamed text deltas coalesced into run events: one per second (or per 4,000 characters), and the rest at the end. */
class TextCoalescer {
  private buffer = "";
  private last = Date.now();

  constructor(private readonly emit: (text: string) => void) {}

  /** Adds a delta; true when an event was emitted (time to report). */
  add(delta: string): boolean {
    this.buffer += delta;
    if (Date.now() - this.last < TEXT_FLUSH_MS && this.buffer.length < 4000) return false;
    this.flush();
    return true;
  }

  flush() {
    if (this.buffer) this.emit(this.buffer);
    this.buffer = "";
    this.last = Date.now();
  }
}
