// Each runtime's stream parser on lines in that CLI's documented format (the research file's
// examples), the failure classifier with the CLIs' own phrases, reset times, and the run stream's
// head-and-tail budget.
import { describe, expect, it } from "vitest";
import { claudeParser } from "../../src/cli/runtimes/claude";
import { codexParser } from "../../src/cli/runtimes/codex";
import { geminiParser } from "../../src/cli/runtimes/gemini";
import { opencodeParser } from "../../src/cli/runtimes/opencode";
import { cursorParser } from "../../src/cli/runtimes/cursor";
import { piParser } from "../../src/cli/runtimes/pi";
import { classifyFailure, nextWallClock, resetTime } from "../../src/cli/runtimes/classify";
import type { StreamParser, TranscriptEvent } from "../../src/cli/runtimes/types";
import { HEAD_EVENTS, RunStream, TAIL_EVENTS } from "../../src/cli/run-stream";

function feed(parser: StreamParser, lines: unknown[]): TranscriptEvent[] {
  const events: TranscriptEvent[] = [];
  for (const line of lines) events.push(...parser.line(typeof line === "string" ? line : JSON.stringify(line)));
  events.push(...parser.flush());
  return events;
}

describe("stream parsers", () => {
  it("claude: init, text, thinking, tool use and result; usage summed over modelUsage (input + cache creation); cost; a success result succeeds", () => {
    const parser = claudeParser();
    const events = feed(parser, [
      { type: "system", subtype: "init", session_id: "s-1", model: "claude-sonnet-4-5" },
      {
        type: "assistant",
        session_id: "s-1",
        message: {
          content: [
            { type: "text", text: "hi" },
            { type: "thinking", thinking: "hmm" },
            { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } },
          ],
        },
      },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ text: "a.txt" }], is_error: false }] } },
      { type: "stream_event", event: {} },
      "not json at all",
      {
        type: "result",
        subtype: "success",
        is_error: false,
        session_id: "s-1",
        result: "final text",
        total_cost_usd: 0.12,
        modelUsage: {
          "claude-a": { inputTokens: 9, outputTokens: 300, cacheReadInputTokens: 1200, cacheCreationInputTokens: 50 },
          "claude-b": { inputTokens: 1, outputTokens: 2 },
        },
      },
    ]);
    expect(events.map((e) => e.kind)).toEqual(["status", "assistant", "thinking", "tool_call", "tool_result", "status"]);
    expect(parser.result()).toMatchObject({
      sessionId: "s-1",
      model: "claude-sonnet-4-5",
      summary: "final text",
      costUsd: 0.12,
      succeeded: true,
      toolTurns: 1,
      unknownEvents: 1,
      plainLines: 1,
      tokens: { inputTokens: 60, cachedInputTokens: 1200, outputTokens: 302 },
    });
  });

  it("claude: without modelUsage the usage block counts; error_max_turns is the turn limit; errors[] are read", () => {
    const parser = claudeParser();
    feed(parser, [
      {
        type: "result",
        subtype: "error_max_turns",
        is_error: true,
        usage: { input_tokens: 5, cache_read_input_tokens: 2, output_tokens: 3 },
        errors: ["boom", { message: "bang" }],
      },
    ]);
    expect(parser.result()).toMatchObject({
      succeeded: false,
      stopReason: "max_turns",
      errors: ["boom", "bang"],
      tokens: { inputTokens: 5, cachedInputTokens: 2, outputTokens: 3 },
    });
  });

  it("codex: thread id, items (message, reasoning, command, file change), usage; the last agent message is the summary; transient errors do not fail a completed turn", () => {
    const parser = codexParser();
    const events = feed(parser, [
      { type: "thread.started", thread_id: "thr_1" },
      { type: "turn.started" },
      { type: "error", message: "Reconnecting... 2/5" },
      { type: "item.completed", item: { id: "i1", type: "agent_message", text: "first" } },
      { type: "item.started", item: { id: "i2", type: "command_execution", command: "/bin/zsh -lc ls" } },
      {
        type: "item.completed",
        item: { id: "i2", type: "command_execution", command: "/bin/zsh -lc ls", aggregated_output: "x\n", exit_code: 0, status: "completed" },
      },
      { type: "item.completed", item: { id: "i3", type: "file_change", changes: [{ kind: "add", path: "a.ts" }] } },
      { type: "item.completed", item: { id: "i4", type: "agent_message", text: "last" } },
      { type: "turn.completed", usage: { input_tokens: 10, cached_input_tokens: 2, output_tokens: 4 } },
    ]);
    expect(events.filter((e) => e.kind === "tool_call")).toHaveLength(2);
    expect(parser.result()).toMatchObject({
      sessionId: "thr_1",
      summary: "last",
      succeeded: true,
      tokens: { inputTokens: 10, cachedInputTokens: 2, outputTokens: 4 },
      costUsd: null,
    });
    const failed = codexParser();
    feed(failed, [{ type: "turn.failed", error: { message: "boom" } }]);
    expect(failed.result()).toMatchObject({ succeeded: false, errors: ["boom"] });
  });

  it("gemini: v0.38 lines (init, deltas, tools, result stats) and the older Claude-style lines", () => {
    const parser = geminiParser();
    const events = feed(parser, [
      { type: "init", session_id: "g-1", model: "auto-gemini-3" },
      { type: "message", role: "assistant", content: "hel", delta: true },
      { type: "message", role: "assistant", content: "lo.", delta: true },
      { type: "tool_use", tool_name: "run_shell_command", tool_id: "t1", parameters: { command: "ls" } },
      { type: "tool_result", tool_id: "t1", status: "error", error: { message: "denied" } },
      { type: "message", role: "assistant", content: "done", delta: true },
      { type: "result", status: "success", stats: { input_tokens: 9095, output_tokens: 29, cached: 8132 } },
    ]);
    expect(events.filter((e) => e.kind === "assistant").map((e) => e.message)).toEqual(["hello.", "done"]);
    expect(events.find((e) => e.kind === "tool_result")).toMatchObject({ message: "denied", data: { isError: true } });
    expect(parser.result()).toMatchObject({
      sessionId: "g-1",
      summary: "done",
      succeeded: true,
      tokens: { inputTokens: 9095, cachedInputTokens: 8132, outputTokens: 29 },
    });
    const old = geminiParser();
    feed(old, [
      { type: "system", subtype: "init", session_id: "g-2", model: "gemini-2.5-pro" },
      { type: "assistant", message: { content: [{ type: "text", text: "older" }] } },
      { type: "result", usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 6, cachedContentTokenCount: 1 } },
    ]);
    expect(old.result()).toMatchObject({
      sessionId: "g-2",
      summary: "older",
      succeeded: true,
      tokens: { inputTokens: 5, cachedInputTokens: 1, outputTokens: 6 },
    });
  });

  it("opencode: step_finish usage and cost summed over steps (output + reasoning); tool_use carries call and result; an error fails", () => {
    const parser = opencodeParser();
    const events = feed(parser, [
      { type: "text", sessionID: "ses_1", part: { text: "a" } },
      { type: "tool_use", sessionID: "ses_1", part: { tool: "bash", callID: "c1", state: { status: "completed", input: { command: "ls" }, output: "x" } } },
      { type: "step_finish", sessionID: "ses_1", part: { cost: 0.0025, tokens: { input: 120, output: 40, reasoning: 10, cache: { read: 20, write: 0 } } } },
      { type: "text", sessionID: "ses_1", part: { text: "b" } },
      { type: "step_finish", sessionID: "ses_1", part: { cost: 0.0005, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0 } } } },
    ]);
    expect(events.map((e) => e.kind)).toEqual(["assistant", "tool_call", "tool_result", "assistant"]);
    const result = parser.result();
    expect(result).toMatchObject({ sessionId: "ses_1", summary: "b", succeeded: null, tokens: { inputTokens: 121, cachedInputTokens: 20, outputTokens: 51 } });
    expect(result.costUsd).toBeCloseTo(0.003);
    const failed = opencodeParser();
    feed(failed, [{ type: "error", error: { name: "ProviderModelNotFoundError", data: { message: "Model not found: x/y" } } }]);
    expect(failed.result()).toMatchObject({ succeeded: false, errors: ["ProviderModelNotFoundError: Model not found: x/y"] });
  });

  it("cursor: stdout-prefixed lines, thinking deltas coalesced, shellToolCall, result usage and cost", () => {
    const parser = cursorParser();
    const events = feed(parser, [
      `stdout${JSON.stringify({ type: "system", subtype: "init", session_id: "chat_123", model: "gpt-5" })}`,
      { type: "thinking", subtype: "delta", text: "a" },
      { type: "thinking", subtype: "delta", text: "b" },
      { type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args: { command: "ls" } } } },
      {
        type: "tool_call",
        subtype: "completed",
        call_id: "c1",
        tool_call: { shellToolCall: { args: { command: "ls" }, result: { success: { stdout: "x" } } } },
      },
      { type: "assistant", message: { content: [{ type: "output_text", text: "hello" }] } },
      {
        type: "result",
        subtype: "success",
        session_id: "chat_123",
        result: "final",
        usage: { input_tokens: 100, cached_input_tokens: 25, output_tokens: 40 },
        total_cost_usd: 0.001,
      },
    ]);
    expect(events.find((e) => e.kind === "thinking")?.message).toBe("ab");
    expect(events.find((e) => e.kind === "tool_call")?.message).toContain("shell");
    expect(parser.result()).toMatchObject({
      sessionId: "chat_123",
      model: "gpt-5",
      summary: "final",
      costUsd: 0.001,
      succeeded: true,
      tokens: { inputTokens: 100, cachedInputTokens: 25, outputTokens: 40 },
    });
  });

  it("pi: session id, text deltas coalesced, tool execution, turn_end usage and cost summed, agent_end summary; auto_retry_end false fails", () => {
    const parser = piParser();
    const events = feed(parser, [
      { type: "session", version: 3, id: "pi-1" },
      { type: "agent_start" },
      { type: "turn_start" },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "Hel" } },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "lo" } },
      { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "ls" } },
      { type: "tool_execution_end", toolCallId: "t1", result: "ok", isError: false },
      { type: "turn_end", message: { role: "assistant", content: "", usage: { input: 100, output: 50, cacheRead: 20, cost: { total: 0.0026 } } } },
      { type: "turn_end", message: { role: "assistant", content: "", usage: { input: 1, output: 1, cacheRead: 0, cost: { total: 0.0004 } } } },
      { type: "agent_end", messages: [{ role: "assistant", content: [{ type: "text", text: "all done" }] }] },
    ]);
    expect(events.find((e) => e.kind === "assistant")?.message).toBe("Hello");
    const result = parser.result();
    expect(result).toMatchObject({ sessionId: "pi-1", summary: "all done", tokens: { inputTokens: 101, cachedInputTokens: 20, outputTokens: 51 } });
    expect(result.costUsd).toBeCloseTo(0.003);
    const failed = piParser();
    feed(failed, [{ type: "auto_retry_end", success: false, finalError: "overloaded" }]);
    expect(failed.result()).toMatchObject({ succeeded: false, errors: ["overloaded"] });
  });
});

describe("failure classes", () => {
  it("the CLIs' own phrases", () => {
    const code = (text: string, stop: string | null = null) => classifyFailure(text, stop).code;
    expect(code("Not logged in · Please run /login")).toBe("auth_required");
    expect(code("Please set an Auth method in your settings.json or specify GEMINI_API_KEY")).toBe("auth_required");
    expect(code("No API key found for anthropic.")).toBe("auth_required");
    expect(code("Your refresh token was reused")).toBe("auth_required");
    expect(code("You've hit your usage limit for Plus.")).toBe("provider_rate_limited");
    expect(code("Claude usage limit reached|1700000000")).toBe("provider_rate_limited");
    expect(code("RESOURCE_EXHAUSTED: Quota exceeded")).toBe("provider_rate_limited");
    expect(code("overloaded_error")).toBe("provider_rate_limited");
    expect(code("No conversation found with session ID: abc")).toBe("unknown_session");
    expect(code("no rollout found for thread id thr_1")).toBe("unknown_session");
    expect(code("ProviderModelNotFoundError: Model not found: a/b")).toBe("model_not_found");
    expect(code("anything", "error_max_turns")).toBe("max_turns");
    expect(code("plain text about max turns")).toBe(null);
    expect(code("Segmentation fault")).toBe(null);
  });

  it("reset times: the next occurrence of the wall-clock time in its zone (this machine's when none), or a relative wait", () => {
    const at = new Date("2026-11-27T15:15:00Z");
    expect(resetTime("You're out of extra usage · resets 4pm (America/Chicago)", at)?.toISOString()).toBe("2026-11-27T22:00:00.000Z");
    expect(resetTime("Usage limit reached. Resets at 3:15 AM (UTC).", at)?.toISOString()).toBe("2026-11-28T03:15:00.000Z");
    expect(resetTime("try again at 3:16 PM (UTC)", at)?.toISOString()).toBe("2026-11-27T15:16:00.000Z");
    expect(resetTime("resets 9am PST", at)?.toISOString()).toBe("2026-11-27T17:00:00.000Z");
    expect(resetTime("resets at 18:30 (Europe/Berlin)", at)?.toISOString()).toBe("2026-11-27T17:30:00.000Z");
    expect(resetTime("Please retry in 13.5s", at)?.toISOString()).toBe("2026-11-27T15:15:14.000Z");
    expect(resetTime("try again in 2 minutes", at)?.toISOString()).toBe("2026-11-27T15:17:00.000Z");
    expect(resetTime("no time here", at)).toBeNull();
    // Across a daylight-saving change: 2 am New York on the day clocks go back (2026-11-01).
    expect(nextWallClock(2, 0, "America/New_York", new Date("2026-11-01T04:00:00Z")).toISOString()).toBe("2026-11-01T07:00:00.000Z");
  });
});

describe("run stream", () => {
  it("keeps the first HEAD and the last TAIL transcript entries of a long run, noting what was left out; batches stay small", () => {
    const sent: any[] = [];
    const stream = new RunStream("run-1", (m) => sent.push(m));
    const total = HEAD_EVENTS + 5000;
    for (let i = 0; i < total; i++) stream.events([{ kind: "assistant", message: `entry ${i}` }]);
    stream.finish();
    const events = sent.flatMap((m) => m.events);
    expect(sent.every((m) => m.type === "run.events" && m.events.length <= 200)).toBe(true);
    const messages = events.map((e: any) => e.message);
    expect(messages[0]).toBe("entry 0");
    expect(messages).toContain(`entry ${HEAD_EVENTS - 1}`);
    expect(messages).not.toContain(`entry ${HEAD_EVENTS}`);
    expect(messages[messages.length - 1]).toBe(`entry ${total - 1}`);
    expect(messages).toContain(`entry ${total - TAIL_EVENTS}`);
    expect(messages.find((m: string) => m.includes("transcript entries left out"))).toContain(String(total - HEAD_EVENTS - TAIL_EVENTS));
  });
});
