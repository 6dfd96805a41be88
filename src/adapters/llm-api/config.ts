// The `llm_api` adapter's config: one schema validates what is stored and reads it back, with the
// defaults of the fields left out. The apiKey is stored as a company secret reference (the
// adapter's secretFields) and resolved by the loop for each model call, never kept in plain.
import { z } from "zod";
import { unprocessable } from "../../domain/errors";
import { acceptedFields } from "../config";

export const LLM_PROVIDERS = ["openai_compatible", "anthropic", "workers_ai"] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** Where each provider's API is when baseUrl is left out (openai_compatible has none: its URL is the point). */
export const DEFAULT_BASE_URLS: Partial<Record<LlmProvider, string>> = { anthropic: "https://api.anthropic.com/v1" };
/** The Workers AI model used when none is given (131k context, tool calling, the cheapest with both). */
export const DEFAULT_WORKERS_AI_MODEL = "@cf/zai-org/glm-4.7-flash";

/** Headers the adapter sets itself; configured headers may not override them. */
export const RESERVED_LLM_HEADERS = ["authorization", "x-api-key", "content-type", "anthropic-version", "host", "content-length", "cookie"];

const price = z.number().min(0).max(10_000);
export const PricingSchema = z.object({
  inputPerMTokUsd: price,
  cachedInputPerMTokUsd: price.optional(),
  outputPerMTokUsd: price,
});
export type Pricing = z.infer<typeof PricingSchema>;

export const llmApiConfigSchema = z.looseObject({
  provider: z.enum(LLM_PROVIDERS),
  baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL" }).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  apiKey: z.union([z.string().min(1), z.looseObject({ type: z.enum(["secret_ref", "secret"]) })]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  instructions: z.string().max(32_000).optional(),
  tools: z.array(z.string().min(1).max(100)).max(100).optional(),
  maxTurns: z.number().int().min(1).max(200).optional(),
  maxOutputTokens: z.number().int().min(16).max(200_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  timeoutSec: z.number().int().min(1).max(86_400).optional(),
  requestTimeoutSec: z.number().int().min(1).max(900).optional(),
  stream: z.boolean().optional(),
  maxContextTokens: z.number().int().min(2_000).max(2_000_000).optional(),
  pricing: PricingSchema.optional(),
});

export interface LlmApiConfig {
  provider: LlmProvider;
  baseUrl: string;
  model: string;
  headers: Record<string, string>;
  instructions: string | null;
  tools: string[] | null;
  maxTurns: number;
  maxOutputTokens: number;
  temperature: number | null;
  timeoutSec: number;
  requestTimeoutSec: number;
  stream: boolean;
  maxContextTokens: number;
  pricing: Pricing | null;
}

/** What a field left out means. */
export const LLM_API_DEFAULTS = {
  maxTurns: 20,
  maxOutputTokens: 4096,
  timeoutSec: 1800,
  requestTimeoutSec: 120,
  stream: true,
  maxContextTokens: 100_000,
} as const;

/** The stored config as the loop uses it: through the schema, defaults for what is left out, reserved headers dropped. */
export function readLlmApiConfig(stored: Record<string, unknown>): LlmApiConfig {
  const c = acceptedFields(llmApiConfigSchema, stored);
  const provider = c.provider ?? "openai_compatible";
  return {
    provider,
    baseUrl: (c.baseUrl ?? DEFAULT_BASE_URLS[provider] ?? "").replace(/\/+$/, ""),
    model: c.model ?? (provider === "workers_ai" ? DEFAULT_WORKERS_AI_MODEL : ""),
    headers: Object.fromEntries(Object.entries(c.headers ?? {}).filter(([name]) => !RESERVED_LLM_HEADERS.includes(name.toLowerCase()))),
    instructions: c.instructions?.trim() || null,
    tools: c.tools ?? null,
    maxTurns: c.maxTurns ?? LLM_API_DEFAULTS.maxTurns,
    maxOutputTokens: c.maxOutputTokens ?? LLM_API_DEFAULTS.maxOutputTokens,
    temperature: c.temperature ?? null,
    timeoutSec: c.timeoutSec ?? LLM_API_DEFAULTS.timeoutSec,
    requestTimeoutSec: c.requestTimeoutSec ?? LLM_API_DEFAULTS.requestTimeoutSec,
    stream: c.stream ?? LLM_API_DEFAULTS.stream,
    maxContextTokens: c.maxContextTokens ?? LLM_API_DEFAULTS.maxContextTokens,
    pricing: c.pricing ?? null,
  };
}

/** Create and update: the rules between fields (a base URL where one is needed, a model, no reserved headers). */
export function normalizeLlmApiConfig(config: Record<string, unknown>): Record<string, unknown> {
  const provider = config.provider as LlmProvider;
  if (provider === "openai_compatible" && !config.baseUrl)
    throw unprocessable(
      "adapterConfig.baseUrl is required for provider openai_compatible (e.g. http://127.0.0.1:11434/v1 for Ollama, https://openrouter.ai/api/v1)",
      { field: "baseUrl" },
    );
  if (provider === "workers_ai" && config.baseUrl)
    throw unprocessable("adapterConfig.baseUrl is not used by provider workers_ai (it calls the AI binding); leave it out", { field: "baseUrl" });
  if (provider !== "workers_ai" && !config.model) throw unprocessable(`adapterConfig.model is required for provider ${provider}`, { field: "model" });
  const headers = (config.headers ?? {}) as Record<string, string>;
  const blocked = Object.keys(headers).filter((h) => RESERVED_LLM_HEADERS.includes(h.toLowerCase()));
  if (blocked.length) throw unprocessable(`adapterConfig.headers cannot set ${blocked.join(", ")}: the adapter sets them`, { headers: blocked });
  if (config.baseUrl) {
    const url = new URL(String(config.baseUrl));
    if (url.username || url.password) throw unprocessable("adapterConfig.baseUrl must not carry credentials; use apiKey", { field: "baseUrl" });
  }
  return { ...config, ...(config.baseUrl ? { baseUrl: String(config.baseUrl).replace(/\/+$/, "") } : {}) };
}
