// What a model call costs. In order: the provider's own reported cost (OpenRouter's usage.cost),
// the agent's `pricing`, the built-in table below (list prices in US dollars per million tokens, as
// published by each provider; `pricing` overrides them), a local server ($0, billing `fixed`),
// else tokens only (billing `unknown`). Amounts are micro-dollars (a call often costs less than a
// cent): the loop carries the fraction from call to call (src/company/agent-loop.ts).
import type { BillingType } from "../../db/schema/costs";
import { isPrivateTarget } from "../../net/hosts";
import type { LlmApiConfig, Pricing } from "./config";
import type { ModelUsage } from "./turns";

/** Longest matching prefix wins; OpenRouter-style `vendor/` prefixes are stripped before matching. */
export const BUILT_IN_PRICING: Record<string, Pricing> = {
  // Workers AI (developers.cloudflare.com/workers-ai/platform/pricing; the models with function calling).
  "@cf/zai-org/glm-4.7-flash": { inputPerMTokUsd: 0.0605, outputPerMTokUsd: 0.4 },
  "@cf/meta/llama-4-scout-17b-16e-instruct": { inputPerMTokUsd: 0.27, outputPerMTokUsd: 0.85 },
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast": { inputPerMTokUsd: 0.29, outputPerMTokUsd: 2.25 },
  "@cf/moonshotai/kimi-k2.6": { inputPerMTokUsd: 0.95, cachedInputPerMTokUsd: 0.16, outputPerMTokUsd: 4 },
  // Anthropic (cache reads at a tenth of input).
  "claude-opus-4": { inputPerMTokUsd: 15, cachedInputPerMTokUsd: 1.5, outputPerMTokUsd: 75 },
  "claude-opus-4-5": { inputPerMTokUsd: 5, cachedInputPerMTokUsd: 0.5, outputPerMTokUsd: 25 },
  "claude-sonnet-4": { inputPerMTokUsd: 3, cachedInputPerMTokUsd: 0.3, outputPerMTokUsd: 15 },
  "claude-haiku-4": { inputPerMTokUsd: 1, cachedInputPerMTokUsd: 0.1, outputPerMTokUsd: 5 },
  "claude-3-5-haiku": { inputPerMTokUsd: 0.8, cachedInputPerMTokUsd: 0.08, outputPerMTokUsd: 4 },
  // OpenAI.
  "gpt-5": { inputPerMTokUsd: 1.25, cachedInputPerMTokUsd: 0.125, outputPerMTokUsd: 10 },
  "gpt-5-mini": { inputPerMTokUsd: 0.25, cachedInputPerMTokUsd: 0.025, outputPerMTokUsd: 2 },
  "gpt-5-nano": { inputPerMTokUsd: 0.05, cachedInputPerMTokUsd: 0.005, outputPerMTokUsd: 0.4 },
  "gpt-4.1": { inputPerMTokUsd: 2, cachedInputPerMTokUsd: 0.5, outputPerMTokUsd: 8 },
  "gpt-4.1-mini": { inputPerMTokUsd: 0.4, cachedInputPerMTokUsd: 0.1, outputPerMTokUsd: 1.6 },
  "gpt-4o": { inputPerMTokUsd: 2.5, cachedInputPerMTokUsd: 1.25, outputPerMTokUsd: 10 },
  "gpt-4o-mini": { inputPerMTokUsd: 0.15, cachedInputPerMTokUsd: 0.075, outputPerMTokUsd: 0.6 },
};

export function builtInPricing(model: string): Pricing | null {
  const bare = model.startsWith("@") ? model : model.replace(/^[^/]+\//, "");
  let best: string | null = null;
  for (const prefix of Object.keys(BUILT_IN_PRICING)) if (bare.startsWith(prefix) && (!best || prefix.length > best.length)) best = prefix;
  return best ? BUILT_IN_PRICING[best] : null;
}

/** Micro-dollars for `usage` at `pricing` (cache reads at their own price when given). */
export function priceMicros(usage: ModelUsage, pricing: Pricing): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  return (
    (usage.inputTokens - cached) * pricing.inputPerMTokUsd +
    cached * (pricing.cachedInputPerMTokUsd ?? pricing.inputPerMTokUsd) +
    usage.outputTokens * pricing.outputPerMTokUsd
  );
}

export interface CallCost {
  micros: number;
  billingType: BillingType;
  /** Where the price came from (shown in the run's events). */
  source: "provider" | "pricing" | "built_in" | "local" | "none";
}

export function callCost(config: Pick<LlmApiConfig, "provider" | "baseUrl" | "model" | "pricing">, usage: ModelUsage): CallCost {
  if (usage.costUsd !== null) return { micros: usage.costUsd * 1_000_000, billingType: "metered_api", source: "provider" };
  if (config.pricing) return { micros: priceMicros(usage, config.pricing), billingType: "metered_api", source: "pricing" };
  const table = builtInPricing(config.model);
  if (table) return { micros: priceMicros(usage, table), billingType: "metered_api", source: "built_in" };
  if (config.provider === "openai_compatible" && isLocal(config.baseUrl)) return { micros: 0, billingType: "fixed", source: "local" };
  return { micros: 0, billingType: "unknown", source: "none" };
}

const isLocal = (baseUrl: string) => {
  try {
    return isPrivateTarget(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
};
