// Workers AI through the deployment's AI binding (`env.AI.run(model, inputs)`). Two answer shapes:
// newer models answer in Chat Completions' shape (choices[].message.tool_calls with ids and JSON
// text arguments); older ones (Llama 3.x, Hermes 2 Pro) with { response, tool_calls: [{ name,
// arguments: {…} }], usage } — no call ids (they are made up here) and arguments already an object.
// Message content is always a string (older models refuse null). Not streamed.
import { openAiMessages, openAiUsage, parseOpenAiReply } from "./openai";
import { ProviderFailure, type ModelReply, type ModelRequest, type ToolCall, type ProviderJson } from "./turns";

export function workersAiInputs(request: ModelRequest): ProviderJson {
  return {
    messages: openAiMessages(request.system, request.messages).map((m) => ({ ...m, content: m.content ?? "" })),
    ...(request.tools.length
      ? { tools: request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } })) }
      : {}),
    max_tokens: request.maxOutputTokens,
    ...(request.temperature !== null ? { temperature: request.temperature } : {}),
  };
}

export function parseWorkersAiReply(answer: unknown, callIdPrefix: string): ModelReply {
  const body = (answer && typeof answer === "object" ? answer : { response: String(answer ?? "") }) as ProviderJson;
  if (Array.isArray(body.choices)) return parseOpenAiReply(body);
  const toolCalls: ToolCall[] = (Array.isArray(body.tool_calls) ? body.tool_calls : []).map((c: ProviderJson, i: number) => ({
    id: String(c.id ?? `${callIdPrefix}_${i}`),
    name: String(c.name ?? c.function?.name ?? ""),
    arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? c.function?.arguments ?? {}),
  }));
  const text = typeof body.response === "string" ? body.response : body.response ? JSON.stringify(body.response) : "";
  return { text, toolCalls, stop: toolCalls.length ? "tool_calls" : "end", usage: openAiUsage(body.usage) };
}

/** A thrown binding error (its message carries Workers AI's numeric code) as the loop acts on it. */
export function classifyWorkersAiError(err: unknown): ProviderFailure {
  const message = err instanceof Error ? err.message : String(err);
  const text = `Workers AI: ${message}`;
  if (/3036|daily free allocation|neurons/i.test(message)) return new ProviderFailure("fail", "provider_quota", text);
  if (/5007|no such model|not found/i.test(message)) return new ProviderFailure("fail", "model_not_found", text);
  if (/context|too long|too many tokens/i.test(message)) return new ProviderFailure("compact", "context_length", text);
  if (/3040|capacity|429|rate/i.test(message)) return new ProviderFailure("wait", "provider_rate_limited", text);
  if (/3042|invalid|5006|bad input/i.test(message)) return new ProviderFailure("fail", "adapter_refused", text);
  return new ProviderFailure("retry", "provider_unavailable", text);
}
