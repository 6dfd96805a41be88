// A fake remote gateway implementing the spec's run protocol, served by the fake agent server.
// An agent's apiBaseUrl is `${FAKE_AGENT_URL}/gw/<scenario>/<id>`; GET /__gw/<id> returns what the
// gateway received ({ calls: [{ method, path, headers, body }], runs: number }). Scenarios:
//   complete  events 1..3 at once, the third terminal (completed, with usage in USD)
//   drops     the stream ends after each of events 1 and 2 (no terminal); event 3 completes
//   poll      the stream cannot be opened (404); GET /v1/runs/{id} says running, then succeeded
//   hang      one event, then the stream stays open (timeouts and cancels)
//   flaky     the first POST /v1/runs answers 503, the retry (same Idempotency-Key) creates the run
//   failing   the run ends with status "error"
import type { IncomingMessage, ServerResponse } from "node:http";

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}
interface Gateway {
  calls: Call[];
  runsByKey: Map<string, string>;
  polls: number;
  streams: number;
}

const gateways = new Map<string, Gateway>();
const gateway = (id: string) => {
  let g = gateways.get(id);
  if (!g) gateways.set(id, (g = { calls: [], runsByKey: new Map(), polls: 0, streams: 0 }));
  return g;
};

const sse = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const usage = { inputTokens: 1200, outputTokens: 340, costUsd: 0.12, provider: "remote-llm", model: "remote-model-1" };
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/** Answers /gw/... and /__gw/...; false for any other path. */
export function serveFakeGateway(url: URL, req: IncomingMessage, res: ServerResponse, text: string): boolean {
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[0] === "__gw" && parts[1]) {
    const g = gateway(parts[1]);
    json(res, 200, { calls: g.calls, runs: g.runsByKey.size });
    return true;
  }
  if (parts[0] !== "gw" || parts.length < 5) return false;
  const [, scenario, id, , , remoteRunId, action] = parts; // gw/<scenario>/<id>/v1/runs[/<runId>[/events|stop]]
  const g = gateway(id);
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* keep text */
  }
  const rest = "/" + parts.slice(3).join("/");
  g.calls.push({ method: req.method ?? "", path: rest, headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body });

  if (req.method === "POST" && !remoteRunId) {
    const creates = g.calls.filter((c) => c.method === "POST" && c.path === "/v1/runs").length;
    if (scenario === "flaky" && creates === 1) return (json(res, 503, { error: "warming up" }), true);
    const key = String(req.headers["idempotency-key"] ?? "");
    let runId = g.runsByKey.get(key);
    if (!runId) g.runsByKey.set(key, (runId = `remote-${id}-${g.runsByKey.size + 1}`));
    json(res, 201, { id: runId, status: "queued" });
    return true;
  }
  if (req.method === "POST" && action === "stop") {
    json(res, 200, { id: remoteRunId, status: "cancelled" });
    return true;
  }
  if (req.method === "GET" && action === "events") {
    g.streams += 1;
    if (scenario === "poll") return (res.writeHead(404).end(), true);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const after = Number(req.headers["last-event-id"] ?? 0);
    if (scenario === "hang") {
      res.write(sse(1, "message", { message: "thinking" }));
      setTimeout(() => res.end(), 20_000).unref();
      return true;
    }
    if (scenario === "drops") {
      const next = after + 1;
      res.end(
        next < 3
          ? sse(next, "message", { message: `step ${next}` })
          : sse(3, "run.completed", { status: "completed", summary: "done after reconnects", usage }),
      );
      return true;
    }
    if (scenario === "failing") {
      res.end(sse(1, "message", { message: "trying" }) + sse(2, "run.failed", { status: "error", error: "model overloaded" }));
      return true;
    }
    res.end(
      sse(1, "run.started", { status: "running" }) +
        sse(2, "message", { message: "working on it" }) +
        sse(3, "run.completed", { status: "completed", summary: "done remotely", usage }),
    );
    return true;
  }
  if (req.method === "GET" && remoteRunId && !action) {
    g.polls += 1;
    if (g.polls < 2) json(res, 200, { id: remoteRunId, status: "running" });
    else
      json(res, 200, {
        id: remoteRunId,
        status: "succeeded",
        summary: "done by polling",
        usage: { inputTokens: 10, outputTokens: 5, costCents: 5, provider: "remote-llm", model: "m" },
      });
    return true;
  }
  res.writeHead(404).end();
  return true;
}
