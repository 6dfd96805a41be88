// `remote_gateway`: runs the agent on a remote API server through its run protocol
// (POST /v1/runs with Idempotency-Key = run id, SSE events, polling fallback, stop on timeout).
import { unprocessable } from "../../domain/errors";
import type { AdapterDefinition } from "../types";
import { isPrivateTarget } from "../../net/hosts";
import { GATEWAY_DEFAULTS, gatewayConfigSchema, normalizeGatewayConfig, PROTECTED_GATEWAY_HEADERS } from "./config";

export const remoteGatewayAdapter: AdapterDefinition = {
  type: "remote_gateway",
  label: "Remote gateway",
  description:
    "Runs the agent on a remote API server: each heartbeat creates a run with POST /v1/runs (Idempotency-Key = the service run id), streams GET /v1/runs/{run_id}/events (SSE, reconnecting after eventReconnectMs, falling back to polling GET /v1/runs/{run_id}) and calls POST /v1/runs/{run_id}/stop on timeout.",
  fields: [
    { name: "apiBaseUrl", required: true, description: "Base URL of the remote API server; a dashboard root or chat URL is mapped to its /api." },
    {
      name: "apiKey",
      required: true,
      description: 'API key of the remote server; stored as a company secret reference (send a raw value or { type: "secret_ref", secretId }).',
    },
    {
      name: "dangerouslyAllowInsecureRemoteHttp",
      required: false,
      default: false,
      description: "Allow plain HTTP to a non-loopback host (loopback HTTP is always allowed).",
    },
    {
      name: "sessionKeyStrategy",
      required: false,
      default: GATEWAY_DEFAULTS.sessionKeyStrategy,
      description: "issue, agent, run or none: the X-Gateway-Session-Key sent to the remote server (none omits it).",
    },
    { name: "timeoutSec", required: false, default: GATEWAY_DEFAULTS.timeoutSec, description: "Run timeout in seconds." },
    {
      name: "eventReconnectMs",
      required: false,
      default: GATEWAY_DEFAULTS.eventReconnectMs,
      description: "Delay before reconnecting the event stream after a non-terminal disconnect.",
    },
    { name: "paperclipApiUrl", required: false, description: "Callback URL of this service reachable from the remote host (not a credential)." },
    { name: "headers", required: false, description: `Extra non-secret headers; these cannot be overridden: ${PROTECTED_GATEWAY_HEADERS.join(", ")}.` },
    { name: "instructions", required: false, description: "Stable instructions sent separately from the wake input." },
  ],
  configSchema: gatewayConfigSchema,
  where: "gateway",
  checkPolicy: (config, { exposure }) => {
    if (exposure === "public" && isPrivateTarget(new URL(String(config.apiBaseUrl)).hostname)) {
      throw unprocessable("adapterConfig.apiBaseUrl points at a loopback or private-network address, which a publicly exposed service refuses", {
        field: "apiBaseUrl",
      });
    }
    if (exposure === "public" && typeof config.paperclipApiUrl === "string" && isPrivateTarget(new URL(config.paperclipApiUrl).hostname)) {
      throw unprocessable("adapterConfig.paperclipApiUrl points at a loopback or private-network address, which a publicly exposed service refuses", {
        field: "paperclipApiUrl",
      });
    }
  },
  skillsMode: "unsupported",
  secretFields: ["apiKey"],
  normalize: normalizeGatewayConfig,
  example: {
    apiBaseUrl: "https://gateway.example.com/api",
    apiKey: { type: "secret_ref", secretId: "<secret uuid>", version: "latest" },
    sessionKeyStrategy: "issue",
  },
};
