// A run's event log as it grows: read with GET /api/heartbeat-runs/{id}/events?afterSeq=<last>, and
// read again whenever the run logs a line. Lines are announced as `run.event`, which the company's
// shared stream leaves out (an exact-only type: `*` does not match it), so while a live run is shown
// this opens a stream of its own, `…/events/stream?types=run.event`, and closes it when the run
// ends or the page goes. A stream of its own rather than reopening the shared one: a new EventSource
// cannot resume, so reopening would leave every other page a gap, and it would carry every run's
// lines to every page. When this stream cannot be opened, the log is polled every 2 s instead.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, call, messageOf, type Schemas } from "./api";

export type RunEvent = Schemas["HeartbeatRunEvent"];

const PAGE = 1000;
const POLL_MS = 2000;

export interface RunTail {
  events: RunEvent[];
  /** false until the first read. */
  loaded: boolean;
  error: string | null;
  /** How new lines arrive while the run is live. */
  mode: "stream" | "polling" | "off";
}

export function useRunTail(companyId: string, runId: string, live: boolean): RunTail {
  const [state, setState] = useState<{ events: RunEvent[]; loaded: boolean; error: string | null }>({ events: [], loaded: false, error: null });
  const [mode, setMode] = useState<RunTail["mode"]>("off");
  const last = useRef(0);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const current = useRef(runId);
  current.current = runId;

  /** Reads every line after the last one; a read asked for meanwhile runs once after it. */
  const read = useCallback((): Promise<void> => {
    if (reading.current) {
      again.current = true;
      return reading.current;
    }
    const id = runId;
    const work = (async () => {
      do {
        again.current = false;
        try {
          for (;;) {
            const page = await call(
              api.GET("/api/heartbeat-runs/{runId}/events", { params: { path: { runId: id }, query: { afterSeq: last.current, limit: PAGE } } }),
            );
            if (current.current !== id) return;
            const fresh = page.filter((e) => e.seq > last.current);
            if (fresh.length) last.current = fresh[fresh.length - 1].seq;
            setState((s) => ({ events: fresh.length ? [...s.events, ...fresh] : s.events, loaded: true, error: null }));
            if (page.length < PAGE) break;
          }
        } catch (err) {
          if (current.current === id) setState((s) => ({ ...s, loaded: true, error: messageOf(err) }));
        }
      } while (again.current && current.current === id);
    })();
    reading.current = work.finally(() => {
      reading.current = null;
    });
    return reading.current;
  }, [runId]);

  useEffect(() => {
    last.current = 0;
    setState({ events: [], loaded: false, error: null });
    void read();
  }, [runId]);

  useEffect(() => {
    // A finished run's log is complete: one last read picks up its closing lines.
    if (!live) {
      setMode("off");
      void read();
      return;
    }
    let poller: ReturnType<typeof setInterval> | undefined;
    const poll = () => {
      setMode("polling");
      clearInterval(poller);
      poller = setInterval(() => void read(), POLL_MS);
    };
    if (typeof EventSource === "undefined") {
      poll();
      return () => clearInterval(poller);
    }
    const stream = new EventSource(`/api/companies/${encodeURIComponent(companyId)}/events/stream?types=run.event`);
    stream.addEventListener("run.event", (message: MessageEvent<string>) => {
      try {
        const event = JSON.parse(message.data) as { data?: { runId?: string; seq?: number } };
        if (event.data?.runId === runId && (event.data.seq ?? Number.POSITIVE_INFINITY) > last.current) void read();
      } catch {
        /* not an event: ignore */
      }
    });
    stream.onopen = () => {
      clearInterval(poller);
      setMode("stream");
      // Lines logged before the stream opened.
      void read();
    };
    stream.onerror = () => {
      // CLOSED: refused (an HTTP error), the browser will not retry; otherwise it reconnects by itself.
      if (stream.readyState === EventSource.CLOSED) stream.close();
      poll();
    };
    return () => {
      stream.close();
      clearInterval(poller);
    };
  }, [companyId, runId, live, read]);

  return { ...state, mode };
}
