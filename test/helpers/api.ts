// HTTP helpers: every behaviour test goes through the Worker's own fetch.
import { env, exports } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";

export type EnvOverrides = Partial<Record<keyof Env, unknown>>;
export const AUTHENTICATED: EnvOverrides = { DEPLOYMENT_MODE: "authenticated", SERVER_EXPOSURE: "private" };

export interface CallOptions {
  body?: unknown;
  rawBody?: BodyInit;
  token?: string;
  cookie?: string;
  runId?: string;
  headers?: Record<string, string>;
  /** Run the Worker with these bindings replaced (deployment mode, a broken DB, ...). */
  env?: EnvOverrides;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  if (options.cookie) {
    headers.set("cookie", options.cookie);
    // A browser sends its page's origin with every unsafe request: the service's own pages here.
    if (!headers.has("origin") && !headers.has("referer")) headers.set("origin", "http://localhost");
  }
  if (options.runId) headers.set("x-service-run-id", options.runId);
  const request = new Request(`http://localhost${path}`, { method, headers, body });
  let response: Response;
  if (options.env) {
    const ctx = createExecutionContext();
    response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...options.env } as Env, ctx);
    await waitOnExecutionContext(ctx);
  } else {
    response = await exports.default.fetch(request);
  }
  // An event stream never ends: its status and headers are the answer (tests read streams themselves).
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, headers: response.headers, body: null as T, text: "" };
  }
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export const get = <T = any>(path: string, o?: CallOptions) => call<T>("GET", path, o);
export const post = <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("POST", path, { ...o, body });
export const patch = <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("PATCH", path, { ...o, body });
export const put = <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("PUT", path, { ...o, body });
export const del = <T = any>(path: string, o?: CallOptions) => call<T>("DELETE", path, o);

let counter = 0;
export const unique = (prefix = "t") => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** A response's D1 round trips by phase and its company Durable Object calls (from Server-Timing). */
export function roundTrips(res: ApiResponse): { auth: number; handler: number; command: number; objectCalls: number } {
  const metrics = new Map(
    (res.headers.get("server-timing") ?? "").split(",").map((part) => {
      const [name, ...params] = part.trim().split(";");
      const desc = params.find((p) => p.trim().startsWith("desc="));
      return [name, Number(desc?.split("=")[1] ?? NaN)] as const;
    }),
  );
  return { auth: metrics.get("d1-auth")!, handler: metrics.get("d1-handler")!, command: metrics.get("d1-command")!, objectCalls: metrics.get("do")! };
}

/** Of a request's round trips, the directory's (DB) before and in the handler; the rest went to company shards (src/db/shards.ts). */
export function directoryRoundTrips(res: ApiResponse): { auth: number; handler: number } {
  const timing = res.headers.get("server-timing") ?? "";
  const read = (name: string) => Number(new RegExp(`${name};desc=(\\d+)`).exec(timing)?.[1] ?? NaN);
  return { auth: read("d1-directory-auth"), handler: read("d1-directory-handler") };
}
