// OpenAI Chat Completions (`POST {baseUrl}/chat/completions`): the shape OpenAI, OpenRouter,
// Ollama, vLLM, LM Studio, LiteLLM and Workers AI's newer models speak. The request from the
// loop's conversation, the answer (JSON or an SSE stream of chunks) back into it.
import { classifyInlineError } from "./errors";
import type { ModelReply, ModelRequest, ModelUsage, StopReason, TextSink, ToolCall, TurnMessage, ProviderJson } from "./turns";

export function openAiMessages(system: string, messages: TurnMessage[]): ProviderJson[] {
  const out: ProviderJson[] = system ? [{ role: "system", content: system }] : [];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.content });
    else if (m.role === "assistant")
      out.push({
        role: "assistant",
        content: m.content || (m.toolCalls.length ? null : ""),
        ...(m.toolCalls.length
          ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      });
    else for (const r of m.results) out.push({ role: "tool", tool_call_id: r.callId, content: r.content });
  }
  return out;
}

/** The request body. OpenAI's own API takes max_completion_tokens and a prompt cache key; other servers know max_tokens. */
export function openAiBody(request: ModelRequest, options: { official: boolean }): ProviderJson {
  return {
    model: request.model,
    messages: openAiMessages(request.system, request.messages),
    ...(request.tools.length
      ? { tools: request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } })) }
      : {}),
    ...(options.official ? { max_completion_tokens: request.maxOutputTokens, prompt_cache_key: request.cacheKey } : { max_tokens: request.maxOutputTokens }),
    ...(request.temperature !== null ? { temperature: request.temperature } : {}),
    ...(request.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

const int = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);

export function openAiUsage(usage: ProviderJson | null | undefined): ModelUsage {
  const cost = usage?.cost;
  return {
    inputTokens: int(usage?.prompt_tokens),
    cachedInputTokens: int(usage?.prompt_tokens_details?.cached_tokens),
    outputTokens: int(usage?.completion_tokens),
    costUsd: typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? cost : null,
  };
}

export function openAiStop(finish: unknown, toolCalls: number): StopReason {
  if (finish === "content_filter") return "content_filter";
  if (finish === "length") return "length";
  return toolCalls > 0 ? "tool_calls" : "end";
}

/** A non-streamed answer. */
export function parseOpenAiReply(body: ProviderJson): ModelReply {
  if (body?.error) throw classifyInlineError(body.error);
  const choice = body?.choices?.[0] ?? {};
  const message = choice.message ?? {};
  const toolCalls: ToolCall[] = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((c: ProviderJson, i: number) => ({
    id: String(c.id || `call_${i}`),
    name: String(c.function?.name ?? ""),
    arguments: typeof c.function?.arguments === "string" ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {}),
  }));
  const text = typeof message.content === "string" ? message.content : "";
  return { text, toolCalls, stop: openAiStop(choice.finish_reason, toolCalls.length), usage: openAiUsage(body.usage) };
}

/**
 * A streamed answer, chunk by chunk: text deltas go to `onText`; tool calls are assembled by index
 * (id and name in the first fragment, arguments in pieces); usage comes in the last chunk.
 */
export class OpenAiStream {
  private text = "";
  private readonly calls = new Map<number, ToolCall>();
  private finish: unknown = null;
  private usage: ProviderJson | null = null;

  constructor(private readonly onText: TextSink) {}

  push(data: string) {
    if (data.trim() === "[DONE]") return;
    const chunk = JSON.parse(data) as ProviderJson;
    if (chunk.error) throw classifyInlineError(chunk.error);
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta ?? {};
    if (typeof delta.content === "string" && delta.content) {
      this.text += delta.content;
      this.onText(delta.content);
    }
    for (const fragment of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const index = typeof fragment.index === "number" ? fragment.index : this.calls.size;
      const call = this.calls.get(index) ?? { id: "", name: "", arguments: "" };
      if (fragment.id) call.id = String(fragment.id);
      if (fragment.function?.name) call.name += String(fragment.function.name);
      if (typeof fragment.function?.arguments === "string") call.arguments += fragment.function.arguments;
      this.calls.set(index, call);
    }
    if (choice.finish_reason) this.finish = choice.finish_reason;
  }

  reply(): ModelReply {
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
    return { text: this.text, toolCalls, stop: openAiStop(this.finish, toolCalls.length), usage: openAiUsage(this.usage) };
  }
}
