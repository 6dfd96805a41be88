// The `remote_gateway` adapter's config: one schema validates what is stored and reads it back,
// with the defaults of the fields left out (written into the stored config on create and update).
import { z } from "zod";
import { unprocessable } from "../../domain/errors";
import { acceptedFields } from "../config";

/** Headers the adapter sets itself; configured headers may not override them. */
export const PROTECTED_GATEWAY_HEADERS = ["authorization", "cookie", "host", "content-length", "x-gateway-session-key", "idempotency-key"];
export const SESSION_KEY_STRATEGIES = ["issue", "agent", "run", "none"] as const;

export const gatewayConfigSchema = z.looseObject({
  apiBaseUrl: z.string().trim().min(1, "apiBaseUrl is required"),
  apiKey: z.union([z.string().min(1, "apiKey is required"), z.looseObject({ type: z.enum(["secret_ref", "secret"]) })]),
  dangerouslyAllowInsecureRemoteHttp: z.boolean().optional(),
  sessionKeyStrategy: z.enum(SESSION_KEY_STRATEGIES).optional(),
  timeoutSec: z.number().int().min(1).max(86_400).optional(),
  eventReconnectMs: z.number().int().min(0).max(600_000).optional(),
  paperclipApiUrl: z.url({ protocol: /^https?$/, error: "paperclipApiUrl must be an http(s) URL" }).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  instructions: z.string().optional(),
});

/** The config as the gateway run protocol uses it (the apiKey is resolved from its secret reference separately). */
export interface GatewayConfig {
  apiBaseUrl: string;
  sessionKeyStrategy: (typeof SESSION_KEY_STRATEGIES)[number];
  timeoutSec: number;
  eventReconnectMs: number;
  paperclipApiUrl: string | null;
  headers: Record<string, string>;
  instructions: string | null;
}

/** What a field left out means. */
export const GATEWAY_DEFAULTS = {
  apiBaseUrl: "",
  sessionKeyStrategy: "issue",
  timeoutSec: 600,
  eventReconnectMs: 2000,
  paperclipApiUrl: null,
  headers: {},
  instructions: null,
} satisfies GatewayConfig;

/** The stored config as the protocol uses it: through the schema, defaults for what is left out, protected headers dropped. */
export function readGatewayConfig(stored: Record<string, unknown>): GatewayConfig {
  const { apiBaseUrl, sessionKeyStrategy, timeoutSec, eventReconnectMs, paperclipApiUrl, headers, instructions }: GatewayConfig = {
    ...GATEWAY_DEFAULTS,
    ...acceptedFields(gatewayConfigSchema, stored),
  };
  return {
    apiBaseUrl: apiBaseUrl.replace(/\/+$/, ""),
    sessionKeyStrategy,
    timeoutSec,
    eventReconnectMs,
    paperclipApiUrl: paperclipApiUrl || null,
    headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !PROTECTED_GATEWAY_HEADERS.includes(name.toLowerCase()))),
    instructions: instructions || null,
  };
}

/** Create and update: the base URL normalised, configured headers checked, the defaults written out. */
export function normalizeGatewayConfig(config: Record<string, unknown>): Record<string, unknown> {
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
    sessionKeyStrategy: config.sessionKeyStrategy ?? GATEWAY_DEFAULTS.sessionKeyStrategy,
    timeoutSec: config.timeoutSec ?? GATEWAY_DEFAULTS.timeoutSec,
    eventReconnectMs: config.eventReconnectMs ?? GATEWAY_DEFAULTS.eventReconnectMs,
  };
}

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
    throw unprocessable("adapterConfig.apiBaseUrl uses plain HTTP to a non-loopback host; use https or set dangerouslyAllowInsecureRemoteHttp: true", {
      field: "apiBaseUrl",
    });
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "" || path === "/chat" || path.startsWith("/chat/")) url.pathname = "/api";
  else url.pathname = path;
  url.search = "";
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}
