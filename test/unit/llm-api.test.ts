// The edge agent's pure parts: config rules and policy, each provider's request and answer shapes
// (streamed tool calls assembled from fragments), the error classifier, prices and the history cut.
import { describe, expect, it } from "vitest";
import { llmApiAdapter } from "../../src/adapters/llm-api";
import { deploymentOf, validateAdapterConfig } from "../../src/adapters";
import { readLlmApiConfig } from "../../src/adapters/llm-api/config";
import { OpenAiStream, openAiBody, parseOpenAiReply } from "../../src/adapters/llm-api/openai";
import { AnthropicStream, anthropicBody, parseAnthropicReply } from "../../src/adapters/llm-api/anthropic";
import { parseWorkersAiReply } from "../../src/adapters/llm-api/workers-ai";
import { classifyHttpFailure, parseDuration, providerWaitMs } from "../../src/adapters/llm-api/errors";
import { builtInPricing, callCost } from "../../src/adapters/llm-api/pricing";
import { closedHistory, compactHistory, fitHistory } from "../../src/adapters/llm-api/history";
import type { ModelRequest, TurnMessage } from "../../src/adapters/llm-api/turns";

const conversation: TurnMessage[] = [
  { role: "user", content: "You were assigned ACME-1." },
  { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "checkout_issue", arguments: '{"issue":"ACME-1"}' }] },
  { role: "tool", results: [{ callId: "call_1", name: "checkout_issue", content: '{"status":"in_progress"}', isError: false }] },
  { role: "assistant", content: "Done.", toolCalls: [] },
];

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  model: "m",
  system: "Be brief.",
  messages: conversation,
  tools: [{ name: "checkout_issue", description: "Check out", parameters: { type: "object", properties: { issue: { type: "string" } } } }],
  maxOutputTokens: 512,
  temperature: null,
  stream: false,
  cacheKey: "agent-1",
  ...over,
});

describe("llm_api config", () => {
  it("reads defaults and refuses what cannot work", () => {
    expect(readLlmApiConfig({ provider: "anthropic", model: "claude-sonnet-4-5" })).toMatchObject({
      baseUrl: "https://api.anthropic.com/v1",
      maxTurns: 20,
      timeoutSec: 1800,
      stream: true,
    });
    expect(readLlmApiConfig({ provider: "workers_ai" }).model).toBe("@cf/zai-org/glm-4.7-flash");
    const validate = (config: Record<string, unknown>) => validateAdapterConfig("llm_api", config, { creating: true });
    expect(() => validate({ provider: "openai_compatible", model: "x" })).toThrow(/baseUrl is required/);
    expect(() => validate({ provider: "workers_ai", baseUrl: "https://x.example/v1" })).toThrow(/not used by provider workers_ai/);
    expect(() => validate({ provider: "openai_compatible", baseUrl: "https://u:p@x.example/v1", model: "x" })).toThrow(/credentials/);
    expect(() => validate({ provider: "openai_compatible", baseUrl: "https://x.example/v1", model: "x", maxTurns: 0 })).toThrow(/maxTurns/);
    expect(validate({ provider: "openai_compatible", baseUrl: "https://x.example/v1/", model: "x" }).baseUrl).toBe("https://x.example/v1");
  });

  it("policy: workers_ai needs the AI binding; a private baseUrl is refused when the service is public", () => {
    const check = (config: Record<string, unknown>, env: Parameters<typeof deploymentOf>[0]) => () => llmApiAdapter.checkPolicy!(config, deploymentOf(env));
    expect(check({ provider: "workers_ai" }, { SERVER_EXPOSURE: "private" })).toThrow(/Workers AI binding \(AI\)/);
    expect(check({ provider: "workers_ai" }, { SERVER_EXPOSURE: "public", AI: {} })).not.toThrow();
    const local = { provider: "openai_compatible", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3" };
    expect(check(local, { SERVER_EXPOSURE: "private" })).not.toThrow();
    expect(check(local, { SERVER_EXPOSURE: "public" })).toThrow(/private-network/);
  });
});

describe("OpenAI Chat Completions", () => {
  it("renders the conversation (tool calls and their results) and the limits by server", () => {
    const body = openAiBody(request(), { official: false });
    expect(body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "You were assigned ACME-1." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "checkout_issue", arguments: '{"issue":"ACME-1"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"status":"in_progress"}' },
      { role: "assistant", content: "Done." },
    ]);
    expect(body.max_tokens).toBe(512);
    expect(openAiBody(request({ stream: true }), { official: true })).toMatchObject({
      max_completion_tokens: 512,
      prompt_cache_key: "agent-1",
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("assembles streamed tool calls from fragments and reads usage from the last chunk", () => {
    const texts: string[] = [];
    const stream = new OpenAiStream((t) => texts.push(t));
    const chunk = (delta: unknown, finish: string | null = null) => JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });
    stream.push(chunk({ content: "Check" }));
    stream.push(chunk({ content: "ing." }));
    stream.push(chunk({ tool_calls: [{ index: 0, id: "call_a", function: { name: "checkout_issue", arguments: '{"iss' } }] }));
    stream.push(chunk({ tool_calls: [{ index: 1, id: "call_b", function: { name: "show_issue", arguments: "{}" } }] }));
    stream.push(chunk({ tool_calls: [{ index: 0, function: { arguments: 'ue":"A-1"}' } }] }));
    stream.push(chunk({}, "tool_calls"));
    stream.push(JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 4 }, cost: 0.002 } }));
    stream.push("[DONE]");
    expect(texts.join("")).toBe("Checking.");
    expect(stream.reply()).toEqual({
      text: "Checking.",
      toolCalls: [
        { id: "call_a", name: "checkout_issue", arguments: '{"issue":"A-1"}' },
        { id: "call_b", name: "show_issue", arguments: "{}" },
      ],
      stop: "tool_calls",
      usage: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3, costUsd: 0.002 },
    });
  });

  it("an error inside a 200 answer (OpenRouter) is classified, not read as an answer", () => {
    expect(() => parseOpenAiReply({ error: { code: 502, message: "upstream error" } })).toThrow(/unavailable/);
    expect(parseOpenAiReply({ choices: [{ message: { content: "x" }, finish_reason: "content_filter" }] }).stop).toBe("content_filter");
  });
});

describe("Anthropic Messages", () => {
  it("renders tool results as one user message, with cache breakpoints on the tools, system and last message", () => {
    const body = anthropicBody(request());
    expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
    expect(body.tools.at(-1).cache_control).toEqual({ type: "ephemeral" });
    expect(body.messages[1]).toEqual({ role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "checkout_issue", input: { issue: "ACME-1" } }] });
    expect(body.messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: '{"status":"in_progress"}' }] });
    expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" });
  });

  it("normalises usage to OpenAI's sense (input includes cache reads and writes) and assembles a stream", () => {
    const reply = parseAnthropicReply({
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 100, cache_creation_input_tokens: 20, cache_read_input_tokens: 300, output_tokens: 7 },
    });
    expect(reply.usage).toEqual({ inputTokens: 420, cachedInputTokens: 300, outputTokens: 7, costUsd: null });
    const stream = new AnthropicStream(() => {});
    for (const event of [
      { type: "message_start", message: { usage: { input_tokens: 5, cache_read_input_tokens: 5, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "comment_issue", input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"issue":"A-1",' } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"body":"hi"}' } },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 12 } },
    ])
      stream.push(JSON.stringify(event));
    expect(stream.reply()).toEqual({
      text: "",
      toolCalls: [{ id: "toolu_1", name: "comment_issue", arguments: '{"issue":"A-1","body":"hi"}' }],
      stop: "tool_calls",
      usage: { inputTokens: 10, cachedInputTokens: 5, outputTokens: 12, costUsd: null },
    });
    expect(() => new AnthropicStream(() => {}).push(JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }))).toThrow(
      /unavailable/,
    );
  });
});

describe("Workers AI answers", () => {
  it("reads both shapes: the older one gets call ids and JSON arguments", () => {
    expect(
      parseWorkersAiReply(
        { response: "", tool_calls: [{ name: "show_issue", arguments: { issue: "A-1" } }], usage: { prompt_tokens: 3, completion_tokens: 1 } },
        "call_2",
      ),
    ).toEqual({
      text: "",
      toolCalls: [{ id: "call_2_0", name: "show_issue", arguments: '{"issue":"A-1"}' }],
      stop: "tool_calls",
      usage: { inputTokens: 3, cachedInputTokens: 0, outputTokens: 1, costUsd: null },
    });
    expect(parseWorkersAiReply({ choices: [{ message: { content: "hi" }, finish_reason: "stop" }] }, "c").text).toBe("hi");
  });
});

describe("provider failures", () => {
  const h = (entries: Record<string, string> = {}) => new Headers(entries);
  it.each([
    [429, { error: { code: "insufficient_quota", type: "insufficient_quota" } }, {}, "fail", "provider_quota"],
    [429, { error: { type: "error", details: { error_code: "enforced_spend_limit_reached" } } }, {}, "fail", "provider_quota"],
    [402, { error: { message: "Insufficient credits" } }, {}, "fail", "provider_quota"],
    [429, { error: { type: "rate_limit_error" } }, { "retry-after": "7" }, "wait", "provider_rate_limited"],
    [400, { error: { code: "context_length_exceeded" } }, {}, "compact", "context_length"],
    [
      400,
      { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" } },
      {},
      "compact",
      "context_length",
    ],
    [401, { error: { message: "invalid x-api-key" } }, {}, "fail", "auth_required"],
    [404, { error: { message: "model not found" } }, {}, "fail", "model_not_found"],
    [529, { type: "error", error: { type: "overloaded_error" } }, {}, "retry", "provider_unavailable"],
    [503, {}, {}, "retry", "provider_unavailable"],
    [400, { error: { message: "bad tool schema" } }, {}, "fail", "adapter_refused"],
  ])("HTTP %i %j → %s", (status, body, headers, action, code) => {
    const failure = classifyHttpFailure(status, JSON.stringify(body), h(headers as Record<string, string>));
    expect([failure.action, failure.errorCode]).toEqual([action, code]);
  });

  it("reads waits from retry-after(-ms), Anthropic's reset times and OpenAI's durations", () => {
    const now = Date.parse("2026-11-27T10:00:00Z");
    expect(providerWaitMs(h({ "retry-after-ms": "1500" }), now)).toBe(1500);
    expect(providerWaitMs(h({ "retry-after": "2" }), now)).toBe(2000);
    expect(providerWaitMs(h({ "anthropic-ratelimit-tokens-reset": "2026-11-27T10:00:30Z" }), now)).toBe(30_000);
    expect(providerWaitMs(h({ "x-ratelimit-reset-requests": "1m30s" }), now)).toBe(90_000);
    expect(providerWaitMs(h(), now)).toBeNull();
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("soon")).toBeNull();
  });
});

describe("prices", () => {
  const usage = { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000, costUsd: null };
  it("the provider's cost first, then the agent's pricing, the built-in table, a local server, else tokens only", () => {
    const base = { provider: "openai_compatible" as const, baseUrl: "https://api.example.com/v1", model: "my-model", pricing: null };
    expect(callCost(base, { ...usage, costUsd: 0.5 })).toEqual({ micros: 500_000, billingType: "metered_api", source: "provider" });
    expect(callCost({ ...base, pricing: { inputPerMTokUsd: 1, cachedInputPerMTokUsd: 0.1, outputPerMTokUsd: 2 } }, usage).micros).toBeCloseTo(
      600_000 + 40_000 + 200_000,
    );
    expect(callCost({ ...base, model: "openai/gpt-4o-mini" }, usage).source).toBe("built_in");
    expect(builtInPricing("claude-sonnet-4-5-20250929")).toMatchObject({ inputPerMTokUsd: 3 });
    expect(callCost({ ...base, baseUrl: "http://127.0.0.1:11434/v1" }, usage)).toEqual({ micros: 0, billingType: "fixed", source: "local" });
    expect(callCost(base, usage)).toEqual({ micros: 0, billingType: "unknown", source: "none" });
  });
});

describe("history", () => {
  const long = (n: number): TurnMessage[] => [
    { role: "user", content: "first" },
    ...Array.from({ length: n }, (_, i): TurnMessage[] => [
      { role: "assistant", content: "", toolCalls: [{ id: `c${i}`, name: "show_issue", arguments: "{}" }] },
      { role: "tool", results: [{ callId: `c${i}`, name: "show_issue", content: "x".repeat(4000), isError: false }] },
    ]).flat(),
  ];

  it("keeps the first message and the newest whole turns under the budget, with a note", () => {
    const cut = fitHistory(long(10), 3500);
    expect(cut[0]).toEqual({ role: "user", content: "first" });
    expect(cut[1]).toMatchObject({ role: "user", content: expect.stringMatching(/earlier messages were left out/) });
    // Never a tool result without its call.
    expect(cut[2].role).toBe("assistant");
    expect(cut.at(-1)).toMatchObject({ role: "tool", results: [{ callId: "c9" }] });
    expect(fitHistory(long(2), 100_000)).toHaveLength(5);
  });

  it("compaction cuts old tool results to stubs; a closed history answers calls that never ran", () => {
    const compacted = compactHistory(long(3));
    expect((compacted[2] as any).results[0].content).toMatch(/\[cut: 4000 characters\]$/);
    expect((compacted.at(-1) as any).results[0].content).toHaveLength(4000);
    const open: TurnMessage[] = [...conversation.slice(0, 2)];
    expect(closedHistory(open).at(-1)).toMatchObject({ role: "tool", results: [{ callId: "call_1", isError: true }] });
    expect(closedHistory(conversation)).toBe(conversation);
  });
});
