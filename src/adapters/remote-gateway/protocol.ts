// The `remote_gateway` adapter's side of the spec's gateway run protocol (the config is read by
// ./config.ts; the run is driven by GatewayRunObject):
//   POST {apiBaseUrl}/v1/runs                 create, Idempotency-Key = the service run id
//   GET  {apiBaseUrl}/v1/runs/{id}/events     SSE: `event:` name, JSON `data:`, `id:` (Last-Event-ID on reconnect)
//   GET  {apiBaseUrl}/v1/runs/{id}            polled when the stream cannot be opened
//   POST {apiBaseUrl}/v1/runs/{id}/stop       on timeout and on cancel
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { PROTECTED_GATEWAY_HEADERS, type GatewayConfig } from "./config";
import type { RunUsage } from "../types";
import { retryAfterSeconds } from "../http/invoke";
import { isRecord } from "../../domain/records";

/** X-Gateway-Session-Key per strategy: one remote session per issue (the agent's when there is none), agent or run; none omits it. */
export function gatewaySessionKey(strategy: GatewayConfig["sessionKeyStrategy"], run: { id: string; agentId: string; issueId: string | null }): string | null {
  switch (strategy) {
    case "none":
      return null;
    case "run":
      return `run:${run.id}`;
    case "agent":
      return `agent:${run.agentId}`;
    case "issue":
      return run.issueId ? `issue:${run.issueId}` : `agent:${run.agentId}`;
  }
}

/** The configured extra headers first, then the protected ones the adapter owns (never overridable). */
export function gatewayHeaders(config: GatewayConfig, apiKey: string, sessionKey: string | null, extra: Record<string, string> = {}): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(config.headers)) if (!PROTECTED_GATEWAY_HEADERS.includes(k.toLowerCase())) headers.set(k, v);
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  headers.set("authorization", `Bearer ${apiKey}`);
  if (sessionKey) headers.set("x-gateway-session-key", sessionKey);
  else headers.delete("x-gateway-session-key");
  return headers;
}

export type TerminalStatus = "succeeded" | "failed" | "cancelled";

/** completed/succeeded → succeeded, failed/error → failed, cancelled/canceled → cancelled; anything else is not terminal. */
export function terminalStatusOf(raw: unknown): TerminalStatus | null {
  const status = typeof raw === "string" ? raw.toLowerCase() : "";
  if (status === "completed" || status === "succeeded") return "succeeded";
  if (status === "failed" || status === "error") return "failed";
  if (status === "cancelled" || status === "canceled") return "cancelled";
  return null;
}

const nonNegative = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);

/** The remote `usage` as a run usage (costUsd becomes whole cents); null when absent. */
export function gatewayUsage(source: unknown): RunUsage | null {
  const usage = isRecord(source) && isRecord(source.usage) ? source.usage : null;
  if (!usage) return null;
  const cents = nonNegative(usage.costCents) ?? (nonNegative(usage.costUsd) !== undefined ? (usage.costUsd as number) * 100 : undefined);
  return {
    provider: typeof usage.provider === "string" ? usage.provider : undefined,
    model: typeof usage.model === "string" ? usage.model : undefined,
    inputTokens: nonNegative(usage.inputTokens) !== undefined ? Math.round(usage.inputTokens as number) : undefined,
    outputTokens: nonNegative(usage.outputTokens) !== undefined ? Math.round(usage.outputTokens as number) : undefined,
    costCents: cents !== undefined ? Math.round(cents) : undefined,
  };
}

export type Fetcher = typeof fetch;

/** The largest single SSE event the adapter reads (bytes). */
export const MAX_EVENT_BYTES = 1024 * 1024;

export type CreateOutcome = { kind: "created"; remoteRunId: string; attempts: number } | { kind: "failed"; error: string; attempts: number };

/**
 * Creates the remote run. A network error, 429 or 5xx is retried with back-off (Retry-After when
 * given) and the same Idempotency-Key, so the remote creates one run however often we ask.
 */
export async function createRemoteRun(
  config: GatewayConfig,
  headers: Headers,
  runId: string,
  body: Record<string, unknown>,
  options: { fetcher?: Fetcher; maxAttempts?: number; sleep?: (ms: number) => Promise<void>; backoffMs?: (attempt: number) => number; deadline?: number },
): Promise<CreateOutcome> {
  const fetcher = options.fetcher ?? fetch;
  const maxAttempts = options.maxAttempts ?? 5;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const backoff = options.backoffMs ?? ((attempt: number) => Math.min(250 * 2 ** (attempt - 1), 8000));
  const sent = new Headers(headers);
  sent.set("content-type", "application/json");
  sent.set("idempotency-key", runId);
  let lastError = "";
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    let waitMs = backoff(attempt);
    try {
      const response = await fetcher(`${config.apiBaseUrl}/v1/runs`, {
        method: "POST",
        headers: sent,
        body: JSON.stringify(body),
        redirect: "manual",
        signal: AbortSignal.timeout(30_000),
      });
      if (response.ok) {
        const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
        const id =
          json && (typeof json.id === "string" || typeof json.id === "number") ? String(json.id) : json && typeof json.runId === "string" ? json.runId : null;
        if (!id) return { kind: "failed", error: "The gateway created a run without an id", attempts: attempt };
        return { kind: "created", remoteRunId: id, attempts: attempt };
      }
      const text = (await response.text().catch(() => "")).slice(0, 300);
      lastError = `The gateway answered HTTP ${response.status} to POST /v1/runs${text ? `: ${text}` : ""}`;
      if (response.status !== 429 && response.status < 500) return { kind: "failed", error: lastError, attempts: attempt };
      const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
      if (retryAfter !== null) waitMs = Math.min(retryAfter * 1000, 60_000);
    } catch (err) {
      lastError = `Could not reach the gateway: ${(err as Error)?.message ?? err}`;
    }
    if (attempt === maxAttempts || (options.deadline !== undefined && Date.now() + waitMs >= options.deadline)) break;
    await sleep(waitMs);
  }
  return { kind: "failed", error: lastError, attempts: maxAttempts };
}

/** One relayed event: its `event:` name, parsed JSON `data:` and `id:`. */
export interface GatewayEvent {
  event: string;
  id: string | null;
  data: unknown;
}

export type StreamOutcome =
  | { kind: "terminal"; status: TerminalStatus; final: unknown }
  /** The stream ended (or broke) without a terminal status: reconnect with Last-Event-ID. */
  | { kind: "disconnected"; error?: string }
  /** The stream could not be opened (non-2xx, not an event stream, network error): poll instead. */
  | { kind: "unavailable"; error: string }
  | { kind: "aborted" };

const parseData = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * Follows the run's event stream from `lastEventId`, handing each batch of events read to
 * `onEvents` (awaited, so events are recorded in order) until a terminal status, the end of the
 * stream, or `signal`.
 */
export async function followRemoteEvents(
  config: GatewayConfig,
  headers: Headers,
  remoteRunId: string,
  lastEventId: string | null,
  onEvents: (events: GatewayEvent[]) => Promise<void>,
  options: { fetcher?: Fetcher; signal: AbortSignal },
): Promise<StreamOutcome> {
  const sent = new Headers(headers);
  sent.set("accept", "text/event-stream");
  if (lastEventId) sent.set("last-event-id", lastEventId);
  let response: Response;
  try {
    response = await (options.fetcher ?? fetch)(`${config.apiBaseUrl}/v1/runs/${encodeURIComponent(remoteRunId)}/events`, {
      headers: sent,
      signal: options.signal,
      redirect: "manual",
    });
  } catch (err) {
    if (options.signal.aborted) return { kind: "aborted" };
    return { kind: "unavailable", error: `Could not open the event stream: ${(err as Error)?.message ?? err}` };
  }
  if (!response.ok || !response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    await response.body?.cancel().catch(() => undefined);
    return { kind: "unavailable", error: `The event stream answered HTTP ${response.status}` };
  }
  // Everything parsed from one chunk of the stream is one batch (one write for a burst of events).
  let batch: GatewayEvent[] = [];
  let pendingBytes = 0;
  const parser = createParser({
    onEvent: (message) => {
      pendingBytes = 0;
      batch.push(toEvent(message));
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  // An abort (cancel, deadline) ends a read that is waiting on a silent stream.
  const onAbort = () => void reader.cancel().catch(() => undefined);
  options.signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (options.signal.aborted) return { kind: "aborted" };
        return { kind: "disconnected", error: (err as Error)?.message ?? String(err) };
      }
      if (options.signal.aborted) return { kind: "aborted" };
      if (chunk.done) return { kind: "disconnected" };
      pendingBytes += chunk.value.length;
      parser.feed(chunk.value);
      // One event may not grow without bound (a stream that never ends a line): poll instead.
      if (pendingBytes > MAX_EVENT_BYTES) return { kind: "unavailable", error: `An event exceeded ${MAX_EVENT_BYTES} bytes` };
      if (!batch.length) continue;
      const events = batch;
      batch = [];
      const end = events.findIndex((event) => isRecord(event.data) && terminalStatusOf(event.data.status));
      // Errors recording the events are not a disconnect: they propagate (the events must not be skipped).
      await onEvents(end >= 0 ? events.slice(0, end + 1) : events);
      if (end >= 0) {
        const final = events[end].data as Record<string, unknown>;
        return { kind: "terminal", status: terminalStatusOf(final.status)!, final };
      }
    }
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    reader.cancel().catch(() => undefined);
  }
}

const toEvent = (message: EventSourceMessage): GatewayEvent => ({ event: message.event ?? "message", id: message.id ?? null, data: parseData(message.data) });

export type PollOutcome =
  | { kind: "terminal"; status: TerminalStatus; final: unknown }
  | { kind: "running"; status: string | null }
  | { kind: "error"; error: string };

/** One poll of GET /v1/runs/{id}. */
export async function pollRemoteRun(
  config: GatewayConfig,
  headers: Headers,
  remoteRunId: string,
  options: { fetcher?: Fetcher; signal?: AbortSignal } = {},
): Promise<PollOutcome> {
  try {
    const response = await (options.fetcher ?? fetch)(`${config.apiBaseUrl}/v1/runs/${encodeURIComponent(remoteRunId)}`, {
      headers,
      signal: options.signal ?? AbortSignal.timeout(30_000),
      redirect: "manual",
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: "error", error: `GET /v1/runs/${remoteRunId} answered HTTP ${response.status}` };
    }
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    const status = terminalStatusOf(json?.status);
    if (status) return { kind: "terminal", status, final: json };
    return { kind: "running", status: typeof json?.status === "string" ? json.status : null };
  } catch (err) {
    return { kind: "error", error: (err as Error)?.message ?? String(err) };
  }
}

/** POST /v1/runs/{id}/stop; true when the gateway accepted it. */
export async function stopRemoteRun(config: GatewayConfig, headers: Headers, remoteRunId: string, options: { fetcher?: Fetcher } = {}): Promise<boolean> {
  try {
    const response = await (options.fetcher ?? fetch)(`${config.apiBaseUrl}/v1/runs/${encodeURIComponent(remoteRunId)}/stop`, {
      method: "POST",
      headers,
      signal: AbortSignal.timeout(15_000),
      redirect: "manual",
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok;
  } catch {
    return false;
  }
}
