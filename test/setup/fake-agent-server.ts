// A fake agent endpoint for the http adapter, served from the vitest process (Node) on a free
// loopback port; the Workers-pool tests reach it as FAKE_AGENT_URL. Behaviour is chosen per URL:
//   /agent/<id>?statuses=429,200&retryAfter=1&delayMs=0&body=<json>  answers each call with the
//   next status in the list (the last one repeats), after delayMs, with Retry-After and the body.
//   GET /__received/<id>  returns what /agent/<id> received so far: [{ method, headers, body, raw }].
// Webhook deliveries use the same endpoints (a subscription's url is /agent/<id>?statuses=…).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serveFakeGithub } from "./fake-github";
import { serveFakeGateway } from "./fake-gateway";
import { serveFakeLlm } from "./fake-llm";
import { serveFakeNotify } from "./fake-notify";

interface Received {
  method: string;
  headers: Record<string, string>;
  body: unknown;
  /** The exact body text (signatures are checked over it). */
  raw: string;
}

export async function startFakeAgentServer(): Promise<{ url: string; server: Server }> {
  const received = new Map<string, Received[]>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (serveFakeGithub(url, res, req)) return;
    if (serveFakeGateway(url, req, res, text)) return;
    if (serveFakeLlm(url, req, res, text)) return;
    if (serveFakeNotify(url, req, res, Buffer.concat(chunks))) return;
    const [, kind, id] = url.pathname.split("/");
    if (kind === "__received") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(received.get(id) ?? []));
      return;
    }
    if (kind !== "agent" || !id) {
      res.writeHead(404).end();
      return;
    }
    const calls = received.get(id) ?? [];
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* keep text */
    }
    calls.push({ method: req.method ?? "", headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body, raw: text });
    received.set(id, calls);
    const statuses = (url.searchParams.get("statuses") ?? "200").split(",").map(Number);
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)];
    const delayMs = Number(url.searchParams.get("delayMs") ?? 0);
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const headers: Record<string, string> = { "content-type": "application/json" };
    const retryAfter = url.searchParams.get("retryAfter");
    if (retryAfter) headers["retry-after"] = retryAfter;
    res.writeHead(status, headers);
    res.end(url.searchParams.get("body") ?? JSON.stringify({ ok: status < 300 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
