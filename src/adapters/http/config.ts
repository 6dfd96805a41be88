// The `http` adapter's config: one schema validates what is stored and reads it back, with the
// defaults of the fields left out.
import { z } from "zod";
import { acceptedFields } from "../config";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH"] as const;

export const httpConfigSchema = z.looseObject({
  url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }),
  method: z.enum(HTTP_METHODS).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutSec: z.number().int().min(1).max(3600).optional(),
  payloadTemplate: z.record(z.string(), z.unknown()).optional(),
  completionTimeoutSec: z.number().int().min(1).max(86_400).optional(),
});

/** What a field left out means (`url` has no default: "" is an agent that cannot be called). */
export const HTTP_DEFAULTS = {
  url: "",
  method: "POST",
  headers: {},
  timeoutSec: 30,
  payloadTemplate: {},
  /** After a 202, how long the agent has to complete the run. */
  completionTimeoutSec: 1800,
} satisfies HttpAdapterConfig;

export interface HttpAdapterConfig {
  url: string;
  method: (typeof HTTP_METHODS)[number];
  headers: Record<string, string>;
  payloadTemplate: Record<string, unknown>;
  timeoutSec: number;
  completionTimeoutSec: number;
}

/** Headers the service sets itself; the config cannot override them. */
const RESERVED_HEADERS = new Set(["authorization", "x-service-run-id", "content-type"]);

/** The stored config as a run uses it: through the schema, defaults for what is left out, reserved headers dropped. */
export function readHttpConfig(stored: Record<string, unknown>): HttpAdapterConfig {
  const config: HttpAdapterConfig = { ...HTTP_DEFAULTS, ...acceptedFields(httpConfigSchema, stored) };
  return { ...config, headers: Object.fromEntries(Object.entries(config.headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase()))) };
}
