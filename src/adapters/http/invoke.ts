// The `http` adapter: one request to the agent's endpoint per run attempt, and what its answer
// means for the run. 202 = accepted, the agent completes the run later through the API; other
// 2xx = done; 429/503 = come back later (Retry-After); anything else, a connection error or a
// timeout ends the attempt. (The config is read by ./config.ts.)
import { isPrivateTarget } from "../../net/hosts";
import type { HttpAdapterConfig } from "./config";

/** Retry-After is honoured up to this many seconds. */
export const MAX_RETRY_AFTER_SEC = 3600;

export type HttpOutcome =
  | { kind: "accepted" }
  | { kind: "succeeded"; summary: string | null; usage: Record<string, unknown> | null; result: Record<string, unknown> | null }
  | { kind: "retry"; retryAfterSec: number | null; status: number }
  | { kind: "failed"; errorCode: "adapter_failed" | "adapter_unreachable" | "adapter_refused"; error: string }
  | { kind: "timed_out"; error: string };

/** Retry-After as seconds (a number of seconds or an HTTP date), capped; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Math.ceil((Date.parse(value) - now) / 1000);
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SEC);
}

/** Sends one attempt. `body` is the whole JSON body; `runId` goes in X-Service-Run-Id. */
export async function invokeHttpAgent(
  config: HttpAdapterConfig,
  runId: string,
  body: Record<string, unknown>,
  options: { exposure: "private" | "public"; fetcher?: typeof fetch },
): Promise<HttpOutcome> {
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    return { kind: "failed", errorCode: "adapter_refused", error: "adapterConfig.url is not a valid URL" };
  }
  if (options.exposure === "public" && isPrivateTarget(url.hostname)) {
    return { kind: "failed", errorCode: "adapter_refused", error: "Refusing to call a loopback or private-network address" };
  }
  const headers = new Headers(config.headers);
  headers.set("content-type", "application/json");
  headers.set("x-service-run-id", runId);
  let response: Response;
  try {
    response = await (options.fetcher ?? fetch)(url.toString(), {
      method: config.method,
      headers,
      body: config.method === "GET" ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutSec * 1000),
      redirect: "manual",
    });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") return { kind: "timed_out", error: `No answer within ${config.timeoutSec} s` };
    return { kind: "failed", errorCode: "adapter_unreachable", error: `Could not reach the agent endpoint: ${(err as Error)?.message ?? err}` };
  }
  if (response.status === 202) {
    await response.body?.cancel();
    return { kind: "accepted" };
  }
  if (response.status === 429 || response.status === 503) {
    await response.body?.cancel();
    return { kind: "retry", retryAfterSec: retryAfterSeconds(response.headers.get("retry-after")), status: response.status };
  }
  if (response.status >= 200 && response.status < 300) {
    const parsed = await response.json().catch(() => null);
    const json = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    return {
      kind: "succeeded",
      summary: typeof json?.summary === "string" ? json.summary.slice(0, 10_000) : null,
      usage: json?.usage && typeof json.usage === "object" ? (json.usage as Record<string, unknown>) : null,
      result: json,
    };
  }
  await response.body?.cancel();
  return { kind: "failed", errorCode: "adapter_failed", error: `Agent endpoint answered HTTP ${response.status}` };
}
