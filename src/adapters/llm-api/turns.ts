// The loop's provider-neutral conversation: what is journaled and persisted, rendered into each
// provider's shape at call time (openai.ts, anthropic.ts, workers-ai.ts) and read back from it.

/** A tool call the model made: its arguments as the model wrote them (JSON text, possibly broken). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A tool call's result as the model gets it back. */
export interface ToolResultMessage {
  callId: string;
  name: string;
  content: string;
  isError: boolean;
}

export type TurnMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | { role: "tool"; results: ToolResultMessage[] };

/** A tool as the model is offered it: JSON Schema (draft-7, no $ref) for its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  system: string;
  messages: TurnMessage[];
  tools: ToolSpec[];
  maxOutputTokens: number;
  temperature: number | null;
  stream: boolean;
  /** A stable key for the provider's prompt cache (OpenAI prompt_cache_key): the agent. */
  cacheKey: string;
}

/** A model call's usage, in OpenAI's sense: inputTokens counts every input token, cachedInputTokens the cache reads among them. */
export interface ModelUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** The provider's own price for the call (OpenRouter's usage.cost, LiteLLM's header), in US dollars. */
  costUsd: number | null;
}

/** Why the model stopped. */
export type StopReason = "end" | "tool_calls" | "length" | "content_filter" | "context_length";

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  stop: StopReason;
  usage: ModelUsage;
}

export const NO_USAGE: ModelUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: null };

/**
 * What went wrong with a model call, as the loop acts on it: `wait` (rate limited: try again after
 * `retryAfterMs`), `retry` (transient: back off and try again a few times), `compact` (the prompt
 * is too long: shorten it once), `fail` (ends the run with `errorCode`).
 */
export class ProviderFailure extends Error {
  constructor(
    readonly action: "wait" | "retry" | "compact" | "fail",
    readonly errorCode:
      | "provider_rate_limited"
      | "provider_quota"
      | "provider_unavailable"
      | "context_length"
      | "content_filtered"
      | "auth_required"
      | "model_not_found"
      | "adapter_refused"
      | "timeout",
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** Streamed text as it arrives (the loop coalesces it into run events). */
export type TextSink = (delta: string) => void;

/** A rough token count of text (4 characters a token): for trimming history, never for billing. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function messageTokens(message: TurnMessage): number {
  if (message.role === "user") return estimateTokens(message.content) + 4;
  if (message.role === "assistant") return estimateTokens(message.content) + message.toolCalls.reduce((n, c) => n + estimateTokens(c.arguments) + 8, 4);
  return message.results.reduce((n, r) => n + estimateTokens(r.content) + 8, 4);
}

/** A provider's JSON (an answer, a stream chunk, an error), read defensively field by field: every field may be missing or of another type. */
// biome-ignore lint/suspicious/noExplicitAny: providers' answers vary by vendor and version; each read checks what it got
export type ProviderJson = Record<string, any>;
