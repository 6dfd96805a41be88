// Anthropic Messages (`POST {baseUrl}/messages`, x-api-key, anthropic-version 2023-06-01): the
// request from the loop's conversation (tool results go back as one user message of tool_result
// blocks; a prompt-cache breakpoint after the tools and system prompt and on the last message),
// the answer (JSON or the SSE event stream) back into it. Usage is normalised to OpenAI's sense:
// Anthropic's input_tokens excludes cache reads and writes, which are added.
import { classifyInlineError } from "./errors";
import type { ModelReply, ModelRequest, ModelUsage, StopReason, TextSink, ToolCall, TurnMessage, ProviderJson } from "./turns";

export const ANTHROPIC_VERSION = "2023-06-01";

/** A tool call's arguments as the object Anthropic wants (broken JSON the model wrote becomes { _raw }). */
function inputOf(args: string): ProviderJson {
  try {
    const parsed = JSON.parse(args || "{}");
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : { _raw: args };
  } catch {
    return { _raw: args };
  }
}

export function anthropicMessages(messages: TurnMessage[]): ProviderJson[] {
  const out: ProviderJson[] = [];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.content });
    else if (m.role === "assistant") {
      const content: ProviderJson[] = [];
      if (m.content) content.push({ type: "text", text: m.content });
      for (const c of m.toolCalls) content.push({ type: "tool_use", id: c.id, name: c.name, input: inputOf(c.arguments) });
      out.push({ role: "assistant", content: content.length ? content : [{ type: "text", text: "(no answer)" }] });
    } else
      out.push({
        role: "user",
        content: m.results.map((r) => ({ type: "tool_result", tool_use_id: r.callId, content: r.content, ...(r.isError ? { is_error: true } : {}) })),
      });
  }
  // The last message is a cache breakpoint: the next turn reads everything before it from the cache.
  const last = out.at(-1);
  if (last) {
    const blocks: ProviderJson[] = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
    blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: { type: "ephemeral" } };
    last.content = blocks;
  }
  return out;
}

export function anthropicBody(request: ModelRequest): ProviderJson {
  const tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  // A breakpoint on the last tool caches the tools; one on the system prompt caches both.
  if (tools.length) tools[tools.length - 1] = { ...tools[tools.length - 1], cache_control: { type: "ephemeral" } } as (typeof tools)[number];
  return {
    model: request.model,
    max_tokens: request.maxOutputTokens,
    ...(request.system ? { system: [{ type: "text", text: request.system, cache_control: { type: "ephemeral" } }] } : {}),
    messages: anthropicMessages(request.messages),
    ...(tools.length ? { tools } : {}),
    ...(request.temperature !== null ? { temperature: request.temperature } : {}),
    ...(request.stream ? { stream: true } : {}),
  };
}

const int = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);

export function anthropicUsage(usage: ProviderJson | null | undefined): ModelUsage {
  const reads = int(usage?.cache_read_input_tokens);
  return {
    inputTokens: int(usage?.input_tokens) + int(usage?.cache_creation_input_tokens) + reads,
    cachedInputTokens: reads,
    outputTokens: int(usage?.output_tokens),
    costUsd: null,
  };
}

export function anthropicStop(reason: unknown, toolCalls: number): StopReason {
  if (reason === "refusal") return "content_filter";
  if (reason === "model_context_window_exceeded") return "context_length";
  if (reason === "max_tokens") return "length";
  return toolCalls > 0 ? "tool_calls" : "end";
}

export function parseAnthropicReply(body: ProviderJson): ModelReply {
  if (body?.type === "error" || body?.error) throw classifyInlineError(body.error);
  const blocks: ProviderJson[] = Array.isArray(body?.content) ? body.content : [];
  const text = blocks
    .filter((b) => b.type === "text")
    .map((b) => String(b.text ?? ""))
    .join("");
  const toolCalls: ToolCall[] = blocks
    .filter((b) => b.type === "tool_use")
    .map((b) => ({ id: String(b.id), name: String(b.name), arguments: JSON.stringify(b.input ?? {}) }));
  return { text, toolCalls, stop: anthropicStop(body?.stop_reason, toolCalls.length), usage: anthropicUsage(body?.usage) };
}

/** The SSE event stream: message_start (input usage), content blocks and their deltas, message_delta (stop, output usage). */
export class AnthropicStream {
  private text = "";
  private readonly blocks = new Map<number, { kind: "text" | "tool"; id: string; name: string; json: string }>();
  private usage: ProviderJson = {};
  private stop: unknown = null;

  constructor(private readonly onText: TextSink) {}

  push(data: string) {
    const event = JSON.parse(data) as ProviderJson;
    switch (event.type) {
      case "error":
        throw classifyInlineError(event.error);
      case "message_start":
        this.usage = { ...(event.message?.usage ?? {}) };
        return;
      case "content_block_start": {
        const block = event.content_block ?? {};
        this.blocks.set(event.index, {
          kind: block.type === "tool_use" ? "tool" : "text",
          id: String(block.id ?? ""),
          name: String(block.name ?? ""),
          json: "",
        });
        return;
      }
      case "content_block_delta": {
        const delta = event.delta ?? {};
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          this.text += delta.text;
          this.onText(delta.text);
        } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
          const block = this.blocks.get(event.index);
          if (block) block.json += delta.partial_json;
        }
        return;
      }
      case "message_delta":
        if (event.delta?.stop_reason) this.stop = event.delta.stop_reason;
        if (event.usage) this.usage = { ...this.usage, ...event.usage };
        return;
      default:
        return;
    }
  }

  reply(): ModelReply {
    const toolCalls = [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, b]) => b.kind === "tool")
      .map(([, b]) => ({ id: b.id, name: b.name, arguments: b.json || "{}" }));
    return { text: this.text, toolCalls, stop: anthropicStop(this.stop, toolCalls.length), usage: anthropicUsage(this.usage) };
  }
}
