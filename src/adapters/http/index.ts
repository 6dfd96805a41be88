// `http`: posts the wake payload to a URL for each heartbeat.
import type { AdapterDefinition } from "../types";
import { unprocessable } from "../../domain/errors";
import { isPrivateTarget } from "../../net/hosts";
import { HTTP_DEFAULTS, httpConfigSchema } from "./config";

export const httpAdapter: AdapterDefinition = {
  type: "http",
  label: "HTTP endpoint",
  description: "Sends each heartbeat's wake payload to an HTTP endpoint you operate; the endpoint does the work and reports back through the API.",
  fields: [
    { name: "url", required: true, description: "Endpoint URL (http or https)." },
    { name: "method", required: false, default: HTTP_DEFAULTS.method, description: "HTTP method: GET, POST, PUT or PATCH." },
    { name: "headers", required: false, default: HTTP_DEFAULTS.headers, description: "Extra request headers (string values)." },
    { name: "timeoutSec", required: false, default: HTTP_DEFAULTS.timeoutSec, description: "Request timeout in seconds." },
    { name: "payloadTemplate", required: false, description: "Object merged into the JSON payload sent with each wake." },
    {
      name: "completionTimeoutSec",
      required: false,
      default: HTTP_DEFAULTS.completionTimeoutSec,
      description: "After a 202 answer, how long the agent has to complete the run before it times out.",
    },
    { name: "env", required: false, description: "Environment for the run: plain values or secret references, resolved per run and sent as `env`." },
  ],
  configSchema: httpConfigSchema,
  where: "object",
  checkPolicy: (config, { exposure }) => {
    if (exposure === "public" && isPrivateTarget(new URL(String(config.url)).hostname)) {
      throw unprocessable("adapterConfig.url points at a loopback or private-network address, which a publicly exposed service refuses", { field: "url" });
    }
  },
  skillsMode: "persistent",
  example: { url: "https://agents.example.com/wake", method: "POST", timeoutSec: 30 },
};
