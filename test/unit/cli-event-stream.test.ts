// The CLI's event stream follower (src/cli/event-stream.ts, behind `acp events tail`): against a
// fake SSE server it resumes with Last-Event-ID after a drop, starts from now after a 409, ends on
// errors a retry cannot fix and reconnects a stalled stream; with a fake fetch and fake timers, its
// back-off doubles from 0.5 s to 30 s, starts over once a stream opens and honours the `retry:` hint.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { followEventStream, type StreamedEvent } from "../../src/cli/event-stream";
import { CliError } from "../../src/cli/output";
import { eventually } from "../helpers/eventually";

type Handler = (req: IncomingMessage, res: ServerResponse, connection: number) => void;

async function fakeStream(handler: Handler) {
  const seen: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    seen.push(req.headers["last-event-id"] as string | undefined);
    handler(req, res, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const sse = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" });
const frame = (id: string, type: string) => `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, type })}\n\n`;

function follow(url: string, extra: Partial<Parameters<typeof followEventStream>[0]> = {}) {
  const stop = new AbortController();
  const events: StreamedEvent[] = [];
  const notes: string[] = [];
  const opens: Array<{ reconnected: boolean; resumedAfter: string | undefined }> = [];
  const done = followEventStream({
    url,
    signal: stop.signal,
    onEvent: (event) => events.push(event),
    onNote: (line) => notes.push(line),
    onOpen: (open) => opens.push(open),
    initialDelayMs: 10,
    ...extra,
  });
  return { stop, events, notes, opens, done };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("acp events tail: following the stream", () => {
  it("resumes after a dropped connection with Last-Event-ID, and after a 409 follows from now without it", async () => {
    const fake = await fakeStream((_req, res, connection) => {
      if (connection === 1) {
        sse(res);
        // Keep-alive comments and the retry hint are not events.
        res.write(`: connected\nretry: 20\n\n${frame("e1", "issue.created")}: keep-alive\n\n${frame("e2", "issue.updated")}`);
        setTimeout(() => res.destroy(), 20);
      } else if (connection === 2) {
        res.writeHead(409, { "content-type": "application/json" }).end(JSON.stringify({ error: "Last-Event-ID is not a retained event" }));
      } else {
        sse(res);
        res.write(`: connected\n\n${frame("e9", "run.started")}`);
      }
    });
    const tail = follow(fake.url);
    await eventually(() => tail.events.length === 3, { what: "three events" });
    tail.stop.abort();
    await tail.done;
    fake.close();

    expect(tail.events).toEqual([
      { id: "e1", type: "issue.created", data: { id: "e1", type: "issue.created" } },
      { id: "e2", type: "issue.updated", data: { id: "e2", type: "issue.updated" } },
      { id: "e9", type: "run.started", data: { id: "e9", type: "run.started" } },
    ]);
    expect(fake.seen).toEqual([undefined, "e2", undefined]);
    expect(tail.opens).toEqual([
      { reconnected: false, resumedAfter: undefined },
      { reconnected: true, resumedAfter: undefined },
    ]);
    expect(tail.notes[0]).toMatch(/^Connection lost \(.+\); reconnecting in 0\.02 s \(resuming after e2\)$/);
    expect(tail.notes[1]).toBe("Event e2 is no longer retained by the service: events since then may be missed; following from now");
    expect(tail.notes).toHaveLength(2);
  });

  it("stops with the service's message on 401, 403, 404 or 400 (a retry cannot fix them)", async () => {
    const fake = await fakeStream(
      (_req, res) => void res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not a member of this company" })),
    );
    const tail = follow(fake.url);
    await expect(tail.done).rejects.toThrow(new CliError("Not a member of this company (HTTP 403)"));
    fake.close();
    expect(fake.seen).toHaveLength(1);
  });

  it("retries 5xx answers, and reconnects a stream that went silent (no keep-alive) with Last-Event-ID", async () => {
    const fake = await fakeStream((_req, res, connection) => {
      if (connection === 1) return void res.writeHead(503).end("busy");
      sse(res);
      // Connection 2 sends one event, then nothing at all; connection 3 resumes.
      res.write(connection === 2 ? frame("e1", "issue.created") : frame("e2", "issue.released"));
    });
    const tail = follow(fake.url, { idleTimeoutMs: 200 });
    await eventually(() => tail.events.length === 2, { what: "two events" });
    tail.stop.abort();
    await tail.done;
    fake.close();
    expect(fake.seen).toEqual([undefined, undefined, "e1"]);
    expect(tail.notes[0]).toBe("The service answered HTTP 503; reconnecting in 0.01 s");
    expect(tail.notes[1]).toBe("Connection lost (nothing received for 0.2 s); reconnecting in 0.01 s (resuming after e1)");
  });

  it("ends at once when stopped while waiting to reconnect", async () => {
    const tail = follow("http://127.0.0.1:9/stream", {
      initialDelayMs: 60_000,
      fetch: async () => Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })),
    });
    await eventually(() => tail.notes.length === 1, { what: "the first failure" });
    expect(tail.notes[0]).toBe("Could not connect (ECONNREFUSED); reconnecting in 60 s");
    const stoppedAt = Date.now();
    tail.stop.abort();
    await tail.done;
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
  });

  it("backs off from 0.5 s doubling to 30 s, starts over once a stream opens, and never waits less than the retry: hint", async () => {
    vi.useFakeTimers();
    // Calls 1-8 fail; 9 opens a stream that ends at once; 10 fails; 11 opens one with `retry: 5000` that ends; 12 fails.
    let calls = 0;
    const fakeFetch = async () => {
      calls += 1;
      if (calls === 9 || calls === 11) {
        return new Response(calls === 11 ? "retry: 5000\n\n" : ": connected\n\n", { headers: { "content-type": "text/event-stream" } });
      }
      throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    };
    const tail = follow("http://fake/stream", { initialDelayMs: undefined, fetch: fakeFetch as typeof fetch });
    while (calls < 12) await vi.advanceTimersByTimeAsync(500);
    await vi.advanceTimersByTimeAsync(0);
    tail.stop.abort();
    await tail.done;
    const waits = tail.notes.map((line) => /reconnecting in ([\d.]+ s)/.exec(line)?.[1]);
    expect(waits).toEqual(["0.5 s", "1 s", "2 s", "4 s", "8 s", "16 s", "30 s", "30 s", "0.5 s", "1 s", "5 s", "5 s"]);
    expect(tail.notes[8]).toBe("Connection lost (the service closed the stream); reconnecting in 0.5 s");
  });
});
