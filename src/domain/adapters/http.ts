// `http`: posts the wake payload to a URL for each heartbeat.
import { z } from "zod";
import type { AdapterDefinition } from "./types";

export const httpAdapter: AdapterDefinition = {
  type: "http",
  label: "HTTP endpoint",
  description: "Sends each heartbeat's wake payload to an HTTP endpoint you operate; the endpoint does the work and reports back through the API.",
  fields: [
    { name: "url", required: true, description: "Endpoint URL (http or https)." },
    { name: "method", required: false, default: "POST", description: "HTTP method: GET, POST, PUT or PATCH." },
    { name: "headers", required: false, default: {}, description: "Extra request headers (string values)." },
    { name: "timeoutSec", required: false, default: 30, description: "Request timeout in seconds." },
    { name: "payloadTemplate", required: false, description: "Object merged into the JSON payload sent with each wake." },
  ],
  configSchema: z.looseObject({
    url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }),
    method: z.enum(["GET", "POST", "PUT", "PATCH"]).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutSec: z.number().int().min(1).max(3600).optional(),
    payloadTemplate: z.record(z.string(), z.unknown()).optional(),
  }),
  skillsMode: "unsupported",
  example: { url: "https://agents.example.com/wake", method: "POST", timeoutSec: 30 },
};
