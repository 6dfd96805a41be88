// `remote_gateway`: runs the agent on a remote API server through its run protocol
// (POST /v1/runs with Idempotency-Key = run id, SSE events, polling fallback, stop on timeout).
import { z } from "zod";
import { unprocessable } from "../../domain/errors";
import type { AdapterDefinition } from "../types";
import { isPrivateTarget } from "../targets";

/** Headers the adapter sets itself; configured headers may not override them. */
export const PROTECTED_GATEWAY_HEADERS = ["authorization", "cookie", "host", "content-length", "x-gateway-session-key", "idempotency-key"];
export const SESSION_KEY_STRATEGIES = ["issue", "agent", "run", "none"] as const;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const isLoopback = (hostname: string) => LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname.endsWith(".localhost");

/**
 * The remote API base: a dashboard root (`https://host/`) or chat URL (`https://host/chat/...`)
 * maps to `https://host/api`; any other path is kept (without a trailing slash); query and
 * fragment are dropped. Plain HTTP is allowed for loopback hosts only unless explicitly allowed.
 */
export function normalizeGatewayBaseUrl(raw: string, allowInsecure: boolean): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw unprocessable("adapterConfig.apiBaseUrl must be an absolute URL", { field: "apiBaseUrl" });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw unprocessable("adapterConfig.apiBaseUrl must use http or https", { field: "apiBaseUrl" });
  }
  if (url.username || url.password) throw unprocessable("adapterConfig.apiBaseUrl must not carry credentials; use apiKey", { field: "apiBaseUrl" });
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !allowInsecure) {
    throw unprocessable(
      "adapterConfig.apiBaseUrl uses plain HTTP to a non-loopback host; use https or set dangerouslyAllowInsecureRemoteHttp: true",
      { field: "apiBaseUrl" },
    );
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "" || path === "/chat" || path.startsWith("/chat/")) url.pathname = "/api";
  else url.pathname = path;
  url.search = "";
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}

export const remoteGatewayAdapter: AdapterDefinition = {
  type: "remote_gateway",
  label: "Remote gateway",
  description:
    "Runs the agent on a remote API server: each heartbeat creates a run with POST /v1/runs (Idempotency-Key = the service run id), streams GET /v1/runs/{run_id}/events (SSE, reconnecting after eventReconnectMs, falling back to polling GET /v1/runs/{run_id}) and calls POST /v1/runs/{run_id}/stop on timeout.",
  fields: [
    { name: "apiBaseUrl", required: true, description: "Base URL of the remote API server; a dashboard root or chat URL is mapped to its /api." },
    { name: "apiKey", required: true, description: "API key of the remote server; stored as a company secret reference (send a raw value or { type: \"secret_ref\", secretId })." },
    { name: "dangerouslyAllowInsecureRemoteHttp", required: false, default: false, description: "Allow plain HTTP to a non-loopback host (loopback HTTP is always allowed)." },
    { name: "sessionKeyStrategy", required: false, default: "issue", description: "issue, agent, run or none: the X-Gateway-Session-Key sent to the remote server (none omits it)." },
    { name: "timeoutSec", required: false, default: 600, description: "Run timeout in seconds." },
    { name: "eventReconnectMs", required: false, default: 2000, description: "Delay before reconnecting the event stream after a non-terminal disconnect." },
    { name: "paperclipApiUrl", required: false, description: "Callback URL of this service reachable from the remote host (not a credential)." },
    { name: "headers", required: false, description: `Extra non-secret headers; these cannot be overridden: ${PROTECTED_GATEWAY_HEADERS.join(", ")}.` },
    { name: "instructions", required: false, description: "Stable instructions sent separately from the wake input." },
  ],
  configSchema: z.looseObject({
    apiBaseUrl: z.string().trim().min(1, "apiBaseUrl is required"),
    apiKey: z.union([z.string().min(1, "apiKey is required"), z.looseObject({ type: z.enum(["secret_ref", "secret"]) })]),
    dangerouslyAllowInsecureRemoteHttp: z.boolean().optional(),
    sessionKeyStrategy: z.enum(SESSION_KEY_STRATEGIES).optional(),
    timeoutSec: z.number().int().min(1).max(86_400).optional(),
    eventReconnectMs: z.number().int().min(0).max(600_000).optional(),
    paperclipApiUrl: z.url({ protocol: /^https?$/, error: "paperclipApiUrl must be an http(s) URL" }).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    instructions: z.string().optional(),
  }),
  checkPolicy: (config, { exposure }) => {
    if (exposure === "public" && isPrivateTarget(new URL(String(config.apiBaseUrl)).hostname)) {
      throw unprocessable("adapterConfig.apiBaseUrl points at a loopback or private-network address, which a publicly exposed service refuses", { field: "apiBaseUrl" });
    }
    if (exposure === "public" && typeof config.paperclipApiUrl === "string" && isPrivateTarget(new URL(config.paperclipApiUrl).hostname)) {
      throw unprocessable("adapterConfig.paperclipApiUrl points at a loopback or private-network address, which a publicly exposed service refuses", { field: "paperclipApiUrl" });
    }
  },
  skillsMode: "unsupported",
  secretFields: ["apiKey"],
  normalize: (config) => {
    const allowInsecure = config.dangerouslyAllowInsecureRemoteHttp === true;
    const headers = (config.headers ?? {}) as Record<string, string>;
    const blocked = Object.keys(headers).filter((h) => PROTECTED_GATEWAY_HEADERS.includes(h.toLowerCase()));
    if (blocked.length) {
      throw unprocessable(`adapterConfig.headers cannot override security-critical headers: ${blocked.join(", ")}`, { headers: blocked });
    }
    return {
      ...config,
      apiBaseUrl: normalizeGatewayBaseUrl(String(config.apiBaseUrl), allowInsecure),
      dangerouslyAllowInsecureRemoteHttp: allowInsecure,
      sessionKeyStrategy: config.sessionKeyStrategy ?? "issue",
      timeoutSec: config.timeoutSec ?? 600,
      eventReconnectMs: config.eventReconnectMs ?? 2000,
    };
  },
  example: { apiBaseUrl: "https://gateway.example.com/api", apiKey: { type: "secret_ref", secretId: "<secret uuid>", version: "latest" }, sessionKeyStrategy: "issue" },
};
