// `runner`: connects to the company object over a WebSocket (protocol v1, see the README), executes
// the runs it is sent as child processes, streams their output, reports completion, obeys
// run.cancel, and reconnects with back-off — reclaiming the runs still going (hello `runs`), with
// messages queued while disconnected so no completion is lost. Every run.start is acknowledged
// (run.started; a repeated one again, without starting a second process), and a completion the
// service has not confirmed is sent again on the same connection after `retryMs`, doubling.
import WebSocket from "ws";
import { randomUUID } from "node:crypto";
import { startProcess } from "./process-run";
import { startLocalRun } from "./local-run";
import { RunStream } from "./run-stream";
import type { RunningRun } from "./run-output";
import { runDoctor } from "./doctor";
import { parseMessage, RUNNER_PROTOCOL_VERSION, ServiceToRunnerMessage, type RunnerToService, type RunStart } from "../protocol/runner";

export interface RunnerOptions {
  url: string;
  token: string;
  companyId: string;
  agents: string[];
  name: string;
  log?: (line: string) => void;
  /** Stop after this many runs finished (tests and one-shot use); unlimited when absent. */
  maxRuns?: number;
  /** A completion not confirmed (`run.completed`) this long after it was sent goes again, without reconnecting; the wait doubles up to a minute. Default 5 s. */
  retryMs?: number;
}

const PING_MS = 30_000;
/** While disconnected, at most this many output messages wait (completions always do). */
const MAX_QUEUED_EVENTS = 2_000;
const RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;

export function connectUrl(base: string, companyId: string): string {
  const url = new URL(`${base.replace(/\/+$/, "")}/api/companies/${encodeURIComponent(companyId)}/runners/connect`);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

/** Runs until stopped (the returned stop()), or until maxRuns runs finished. */
/** The hello a runner opens with: the agents it serves and the runs it still holds. */
export function helloMessage(options: Pick<RunnerOptions, "agents" | "name">, instanceId: string, runs: string[]): RunnerToService {
  return { type: "hello", version: RUNNER_PROTOCOL_VERSION, agents: options.agents, name: options.name, instanceId, runs };
}

export function startRunner(options: RunnerOptions): { stopped: Promise<void>; stop: () => void } {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const running = new Map<string, RunningRun>();
  const outbox: string[] = [];
  /** Completions sent but not yet confirmed (`run.completed`): sent again after `retryMs` (doubling) and after a reconnect. */
  const unconfirmed = new Map<string, { text: string; wait: number; timer: NodeJS.Timeout | null }>();
  const retryMs = options.retryMs ?? RETRY_MS;
  const instanceId = randomUUID();
  let socket: WebSocket | null = null;
  let ready = false;
  let attempt = 0;
  let finished = 0;
  let stopping = false;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let ping: NodeJS.Timeout | null = null;

  const send = (message: RunnerToService) => {
    const text = JSON.stringify(message);
    if (message.type === "run.complete") {
      unconfirmed.set(message.runId, { text, wait: retryMs, timer: null });
      awaitConfirmation(message.runId);
    }
    if (ready && socket?.readyState === WebSocket.OPEN) socket.send(text);
    else if (message.type === "run.complete" || outbox.length < MAX_QUEUED_EVENTS) outbox.push(text);
  };

  /** Sends the completion of `runId` again in `wait` ms unless confirmed by then (while disconnected, the reconnect sends it). */
  function awaitConfirmation(runId: string, wait?: number) {
    const pending = unconfirmed.get(runId);
    if (!pending || stopping) return;
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = setTimeout(() => {
      pending.timer = null;
      if (unconfirmed.get(runId) !== pending) return;
      if (ready && socket?.readyState === WebSocket.OPEN) {
        log(`runner: completion of run ${runId} not confirmed yet; sending it again`);
        socket.send(pending.text);
      }
      pending.wait = Math.min(pending.wait * 2, MAX_RETRY_MS);
      awaitConfirmation(runId);
    }, wait ?? pending.wait);
  }

  function confirmed(runId: string): boolean {
    const pending = unconfirmed.get(runId);
    if (!pending) return false;
    if (pending.timer) clearTimeout(pending.timer);
    unconfirmed.delete(runId);
    return true;
  }

  function connect() {
    if (stopping) return;
    const ws = new WebSocket(connectUrl(options.url, options.companyId), { headers: { authorization: `Bearer ${options.token}` } });
    socket = ws;
    ws.on("open", () => {
      // Reclaim what is still running here and what finished while the connection was down.
      const runs = [...new Set([...running.keys(), ...unconfirmed.keys()])];
      ws.send(JSON.stringify(helloMessage(options, instanceId, runs)));
      ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: "ping" })), PING_MS);
    });
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d));
      res.on("end", () => {
        let error = body;
        try {
          error = JSON.parse(body).error ?? body;
        } catch {
          /* not JSON */
        }
        log(`runner: connection refused (HTTP ${res.statusCode}): ${error}`);
        if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 404) return stop(1);
        reconnect();
      });
    });
    ws.on("message", (data) => handle(String(data)));
    ws.on("error", (err) => log(`runner: ${err.message}`));
    ws.on("close", () => {
      if (ping) clearInterval(ping);
      ready = false;
      if (socket === ws) reconnect();
    });
  }

  function reconnect() {
    if (stopping) return;
    socket = null;
    attempt += 1;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(attempt - 1, 6)) * (0.75 + Math.random() * 0.5);
    log(`runner: disconnected; reconnecting in ${Math.round(delay)} ms`);
    setTimeout(connect, delay).unref?.();
  }

  function handle(text: string) {
    const parsed = parseMessage(ServiceToRunnerMessage, text);
    if (!parsed.ok) return log(`runner: ignoring a message from the service: ${parsed.error}`);
    const { message } = parsed;
    switch (message.type) {
      case "ready":
        ready = true;
        attempt = 0;
        log(
          `runner: connected as ${message.runnerId}; serving ${message.agents.length} agent(s)${message.refused.length ? `; refused ${message.refused.map((r) => `${r.agentId} (${r.reason})`).join(", ")}` : ""}`,
        );
        // Runs the service did not give back (cancelled or retried elsewhere while we were away) stop here.
        for (const [runId, run] of running) {
          if (!message.runs.includes(runId)) {
            log(`runner: run ${runId} was not given back after the reconnect; stopping it`);
            run.cancel();
          }
        }
        // Completions not confirmed before the disconnect go again (the service ignores a repeat).
        for (const { text } of unconfirmed.values()) if (!outbox.includes(text)) outbox.push(text);
        while (outbox.length && socket?.readyState === WebSocket.OPEN) socket.send(outbox.shift()!);
        if (!message.agents.length) {
          log("runner: no agent to serve");
          stop(1);
        }
        return;
      case "run.start":
        return startRun(message);
      case "run.cancel": {
        const run = running.get(message.runId);
        if (run) {
          log(`runner: run ${message.runId} cancelled`);
          run.cancel();
        }
        return;
      }
      case "env.test":
        log(`runner: checking this machine for ${message.adapterType}${message.probe ? " (with a hello probe)" : ""}`);
        void runDoctor({ adapterType: message.adapterType, adapterConfig: message.adapterConfig, env: message.env ?? {}, probe: message.probe }).then(
          (result) => send({ type: "env.test.result", requestId: message.requestId, ...result }),
          (err) =>
            send({
              type: "env.test.result",
              requestId: message.requestId,
              status: "fail",
              checks: [{ code: "doctor_failed", level: "error", message: `The check itself failed: ${(err as Error).message}`, hint: null }],
            }),
        );
        return;
      case "run.completed":
        confirmed(message.runId);
        maybeDone();
        return;
      case "error":
        log(`runner: service says: ${message.error}${message.runId ? ` (run ${message.runId})` : ""}`);
        // Recording a completion failed for now: it goes again (the timer is running). Otherwise a
        // completion the service no longer knows the run of was recorded before, or is moot.
        if (message.retryable) return;
        if (message.runId && confirmed(message.runId)) maybeDone();
        return;
    }
  }

  function startRun(start: RunStart) {
    // A repeated run.start (our run.started did not arrive in time): acknowledged again, never a second process.
    if (running.has(start.runId)) return send({ type: "run.started", runId: start.runId });
    const finishedHere = unconfirmed.get(start.runId);
    if (finishedHere) return send(JSON.parse(finishedHere.text));
    log(`runner: run ${start.runId} started (agent ${start.agentId}, ${start.adapterType})`);
    const stream = new RunStream(start.runId, send);
    let cancelled = false;
    const child = start.adapterType === "process" ? startProcess(start, stream) : startLocalRun(start, stream);
    running.set(start.runId, {
      done: child.done,
      cancel: () => {
        cancelled = true;
        child.cancel();
      },
    });
    send({ type: "run.started", runId: start.runId });
    void child.done
      .catch(
        (err): Awaited<RunningRun["done"]> => ({
          status: "failed",
          errorCode: "process_failed",
          error: `The runner failed to run it: ${(err as Error).message}`,
        }),
      )
      .then((outcome) => {
        stream.finish();
        running.delete(start.runId);
        if (!cancelled) {
          send({ type: "run.complete", runId: start.runId, ...outcome });
          log(
            `runner: run ${start.runId} ${outcome.status}${outcome.errorCode ? ` (${outcome.errorCode})` : ""}${outcome.exitCode !== null && outcome.exitCode !== undefined ? ` (exit ${outcome.exitCode})` : ""}`,
          );
        }
        finished += 1;
        maybeDone();
      });
  }

  /** With --max-runs: stop once that many runs finished and their completions are confirmed. */
  function maybeDone() {
    if (options.maxRuns !== undefined && finished >= options.maxRuns && unconfirmed.size === 0) setTimeout(() => stop(0), 50);
  }

  function stop(code = 0) {
    if (stopping) return;
    stopping = true;
    for (const run of running.values()) run.cancel();
    for (const pending of unconfirmed.values()) if (pending.timer) clearTimeout(pending.timer);
    if (ping) clearInterval(ping);
    process.exitCode = code;
    const ws = socket;
    socket = null;
    if (ws && ws.readyState === WebSocket.OPEN) {
      // Let queued messages (a last completion) leave first.
      ws.close(1000, "runner stopped");
    }
    resolveStopped();
  }

  connect();
  return { stopped, stop: () => stop(0) };
}
