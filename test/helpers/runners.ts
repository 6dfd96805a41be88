// Runner WebSocket clients for http tests: a real WebSocket through the Worker's fetch (the
// upgrade, authenticated like a runner's), with the messages it received and a wait for the next.
import { env, exports } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import { post, unique, type EnvOverrides } from "./api";

export class RunnerClient {
  readonly received: any[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (event) => {
      this.received.push(JSON.parse(String(event.data)));
      for (const wake of this.waiters.splice(0)) wake();
    });
    ws.addEventListener("close", () => {
      this.closed = true;
    });
  }

  send(message: unknown) {
    this.ws.send(JSON.stringify(message));
  }

  /** The first message (from `from` on) matching `match`, waiting for it if needed. */
  async next(match: (m: any) => boolean, timeoutMs = 5000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) {
        this.received.splice(this.received.indexOf(found), 1);
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no matching message; received ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async hello(agents: string[], extra: Record<string, unknown> = {}) {
    this.send({ type: "hello", version: 2, agents, name: "test-runner", ...extra });
    return this.next((m) => m.type === "ready");
  }

  close() {
    this.ws.close(1000, "bye");
  }
}

/** Opens the upgrade; returns the client, or the refusal. */
export async function connect(companyId: string, options: { token?: string; query?: boolean; env?: EnvOverrides; upgrade?: boolean; origin?: string } = {}) {
  const headers = new Headers();
  if (options.origin) headers.set("origin", options.origin);
  if (options.upgrade !== false) headers.set("upgrade", "websocket");
  if (options.token && !options.query) headers.set("authorization", `Bearer ${options.token}`);
  const url = `http://localhost/api/companies/${companyId}/runners/connect${options.token && options.query ? `?token=${encodeURIComponent(options.token)}` : ""}`;
  const request = new Request(url, { headers });
  let response: Response;
  if (options.env) {
    const ctx = createExecutionContext();
    response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...options.env } as Env, ctx);
    await waitOnExecutionContext(ctx);
  } else response = await exports.default.fetch(request);
  if (response.status !== 101 || !response.webSocket) return { status: response.status, body: (await response.json().catch(() => null)) as any, client: null };
  return { status: 101, body: null, client: new RunnerClient(response.webSocket) };
}

export async function processAgent(companyId: string, config: Record<string, unknown> = {}) {
  const res = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Local"),
    adapterType: "process",
    adapterConfig: { command: "/bin/echo", args: ["hi"], ...config },
  });
  if (res.status !== 201) throw new Error(`agent create failed: ${res.status} ${res.text}`);
  return res.body as { id: string };
}
