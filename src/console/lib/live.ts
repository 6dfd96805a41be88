// Following the company live: one EventSource on GET /api/companies/{id}/events/stream for the
// whole console; pages subscribe to the event types they show and reload what changed. When the
// stream cannot be opened or keeps failing, the console polls GET …/events?after=<last id> through
// the typed client instead, and tries the stream again now and then. A resume point too old for
// the service (409) means "reload everything": subscribers are told with a `resync`.
import { signal } from "@preact/signals";
import { EVENT_TYPES } from "../../domain/events/catalogue";
import { api, call, type Schemas } from "./api";
import { matchesEventPatterns } from "../../domain/events/catalogue";

export type LiveEvent = Schemas["Event"];
export type LiveMode = "off" | "connecting" | "live" | "polling";

/** What the header shows: the stream is live, the console is polling, or it is connecting. */
export const liveMode = signal<LiveMode>("off");

type Listener = (event: LiveEvent | { type: "resync" }) => void;
interface Subscription {
  patterns: string[];
  listener: Listener;
}

const POLL_MS = 4000;
const STREAM_RETRY_MS = 30_000;
/** Stream errors in a row (without an event or an open in between) before switching to polling. */
const MAX_STREAM_FAILURES = 3;

const subscriptions = new Set<Subscription>();
let companyId: string | null = null;
let source: EventSource | null = null;
let lastEventId: string | null = null;
let failures = 0;
let pollTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

/** Listens to the followed company's events of these types (and to resyncs); returns the unsubscribe. */
export function subscribe(patterns: string[], listener: Listener): () => void {
  const subscription = { patterns, listener };
  subscriptions.add(subscription);
  return () => subscriptions.delete(subscription);
}

function deliver(event: LiveEvent | { type: "resync" }) {
  for (const { patterns, listener } of [...subscriptions]) {
    if (event.type === "resync" || matchesEventPatterns(event.type, patterns)) listener(event);
  }
}

/** Follows this company (null: none); the stream of the previous one is closed. */
export function follow(id: string | null) {
  if (id === companyId) return;
  stop();
  companyId = id;
  lastEventId = null;
  if (id) openStream();
}

function stop() {
  source?.close();
  source = null;
  clearTimeout(pollTimer);
  clearTimeout(retryTimer);
  failures = 0;
  liveMode.value = "off";
}

function openStream() {
  if (!companyId || typeof EventSource === "undefined") return startPolling();
  const id = companyId;
  // Back from polling: what happened between the last poll and the stream's start is reloaded.
  const afterPolling = liveMode.value === "polling";
  liveMode.value = "connecting";
  // A new EventSource cannot send Last-Event-ID itself, so it starts from now (its own reconnects
  // resume with the id of the last event they saw).
  const stream = new EventSource(`/api/companies/${encodeURIComponent(id)}/events/stream`);
  source = stream;
  const onEvent = (message: MessageEvent<string>) => {
    if (source !== stream) return;
    failures = 0;
    liveMode.value = "live";
    lastEventId = message.lastEventId || lastEventId;
    try {
      deliver(JSON.parse(message.data) as LiveEvent);
    } catch {
      /* not an event: ignore */
    }
  };
  for (const type of EVENT_TYPES) stream.addEventListener(type, onEvent);
  let opened = false;
  stream.onopen = () => {
    if (source !== stream) return;
    failures = 0;
    liveMode.value = "live";
    if (afterPolling && !opened) deliver({ type: "resync" });
    opened = true;
  };
  stream.onerror = () => {
    if (source !== stream) return;
    failures += 1;
    // CLOSED: the service refused the stream (an HTTP error); the browser will not retry it.
    if (stream.readyState === EventSource.CLOSED || failures >= MAX_STREAM_FAILURES) {
      stream.close();
      source = null;
      startPolling();
    } else {
      liveMode.value = "connecting";
    }
  };
}

function startPolling() {
  if (!companyId) return;
  liveMode.value = "polling";
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => {
    clearTimeout(pollTimer);
    failures = 0;
    openStream();
  }, STREAM_RETRY_MS);
  void poll(companyId);
}

async function poll(id: string) {
  if (id !== companyId || liveMode.value !== "polling") return;
  try {
    if (lastEventId === null) {
      // Start from the newest retained event: read pages until the last one.
      let cursor: string | undefined;
      for (;;) {
        const page: Schemas["EventPage"] = await call(
          api.GET("/api/companies/{companyId}/events", { params: { path: { companyId: id }, query: { limit: 500, after: cursor } } }),
        );
        if (!page.events.length) break;
        cursor = page.events[page.events.length - 1].id;
        if (!page.nextCursor) break;
      }
      lastEventId = cursor ?? "";
    } else {
      for (;;) {
        const query: { limit: number; after?: string } = lastEventId ? { limit: 500, after: lastEventId } : { limit: 500 };
        const page: Schemas["EventPage"] = await call(api.GET("/api/companies/{companyId}/events", { params: { path: { companyId: id }, query } }));
        if (id !== companyId) return;
        for (const event of page.events) {
          lastEventId = event.id;
          deliver(event);
        }
        if (!page.nextCursor || !page.events.length) break;
      }
    }
  } catch (err) {
    // The resume point left the retention window (409, or 400 once it is gone): reload everything,
    // go on from the newest.
    const status = (err as { status?: number }).status;
    if (status === 409 || status === 400) {
      lastEventId = null;
      deliver({ type: "resync" });
    }
  }
  if (id === companyId && liveMode.value === "polling") pollTimer = setTimeout(() => poll(id), POLL_MS);
}
