// Follows a company's event stream (Server-Sent Events) for `acp events tail`: one fetch per
// connection, parsed with eventsource-parser. A dropped, refused or stalled connection is opened
// again with Last-Event-ID (the last id seen) after a back-off of 0.5 s doubling to 30 s (never
// shorter than the server's `retry:` hint); a 409 means that id has left the retention window, so
// the stream is resumed from now, without it. Errors that retrying cannot fix (400, 401, 403, 404) end it.
import { createParser } from "eventsource-parser";
import { CliError } from "./output";

export interface StreamedEvent {
  id: string | undefined;
  /** The SSE `event:` field (the event type). */
  type: string;
  /** `data:` parsed as JSON (the raw text when it is not JSON). */
  data: unknown;
}

export interface FollowOptions {
  /** The stream URL, query included. */
  url: string;
  headers?: Record<string, string>;
  /** Aborting it ends the stream (Ctrl-C): followEventStream then resolves. */
  signal: AbortSignal;
  onEvent: (event: StreamedEvent) => void;
  /** Connection news for a person (stderr): drops, reconnects, a lost resume point. */
  onNote: (line: string) => void;
  /** The stream is open (again): `resumedAfter` is the Last-Event-ID it was opened with. */
  onOpen?: (open: { reconnected: boolean; resumedAfter: string | undefined }) => void;
  /** Resume after this event id (as a reconnect would). */
  lastEventId?: string;
  /** First back-off delay; doubles per failed attempt. Default 500 ms. */
  initialDelayMs?: number;
  /** Back-off ceiling. Default 30 s. */
  maxDelayMs?: number;
  /** Nothing at all (not even a keep-alive, sent every 15 s) for this long: the connection is dead. Default 45 s. */
  idleTimeoutMs?: number;
  fetch?: typeof fetch;
}

/** Statuses a retry cannot fix: the request itself is wrong or not allowed. */
const FATAL = new Set([400, 401, 403, 404]);

export async function followEventStream(options: FollowOptions): Promise<void> {
  const { signal, onNote } = options;
  const fetchImpl = options.fetch ?? fetch;
  const initialDelay = options.initialDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const idleTimeout = options.idleTimeoutMs ?? 45_000;
  let lastEventId = options.lastEventId;
  let retryHint = 0;
  let delay = initialDelay;
  /** Whether the stream was open before (the next open is a reconnect). */
  let opened = false;

  const parser = createParser({
    onEvent(message) {
      if (message.id) lastEventId = message.id;
      options.onEvent({ id: message.id, type: message.event ?? "message", data: parseData(message.data) });
    },
    onRetry(ms) {
      retryHint = ms;
    },
  });

  const wait = async (why: string) => {
    const ms = Math.max(delay, retryHint);
    onNote(`${why}; reconnecting in ${seconds(ms)}${lastEventId ? ` (resuming after ${lastEventId})` : ""}`);
    await sleep(ms, signal);
    delay = Math.min(maxDelay, delay * 2);
  };

  while (!signal.aborted) {
    const connection = new AbortController();
    const abort = () => connection.abort();
    signal.addEventListener("abort", abort, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const stillAlive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error(`nothing received for ${seconds(idleTimeout)}`)), idleTimeout);
    };
    try {
      const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers };
      if (lastEventId) headers["last-event-id"] = lastEventId;
      stillAlive();
      let response: Response;
      try {
        response = await fetchImpl(options.url, { headers, signal: connection.signal });
      } catch (err) {
        if (signal.aborted) return;
        await wait(`Could not connect (${reason(err, connection.signal)})`);
        continue;
      }
      if (response.status === 409 && lastEventId) {
        await response.body?.cancel().catch(() => {});
        onNote(`Event ${lastEventId} is no longer retained by the service: events since then may be missed; following from now`);
        lastEventId = undefined;
        continue;
      }
      if (FATAL.has(response.status)) throw new CliError(`${await errorText(response)} (HTTP ${response.status})`);
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {});
        await wait(`The service answered HTTP ${response.status}`);
        continue;
      }
      if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        await response.body.cancel().catch(() => {});
        throw new CliError(
          `Not an event stream (content-type ${response.headers.get("content-type") ?? "none"}): is ${new URL(options.url).origin} the service?`,
        );
      }
      // Open: the back-off starts over.
      options.onOpen?.({ reconnected: opened, resumedAfter: lastEventId });
      opened = true;
      delay = initialDelay;
      parser.reset();
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let why = "the service closed the stream";
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          stillAlive();
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } catch (err) {
        if (signal.aborted) return;
        why = reason(err, connection.signal);
      }
      if (signal.aborted) return;
      await wait(`Connection lost (${why})`);
    } finally {
      clearTimeout(idle);
      signal.removeEventListener("abort", abort);
      connection.abort();
    }
  }
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Why a fetch or read failed: the idle timeout's own reason, else the error's (and its cause's) message. */
function reason(err: unknown, connection: AbortSignal): string {
  if (connection.aborted && connection.reason instanceof Error) return connection.reason.message;
  const error = err as { message?: string; cause?: { code?: string; message?: string } };
  return error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(err);
}

async function errorText(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === "string") return body.error;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 200) || response.statusText || "Request failed";
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
