// Pi coding agent: `pi --mode json -p --model provider/model [--session id] [--append-system-prompt
// file] [--tools …] <prompt>` (a prompt too long for one argument goes on stdin, which Pi reads
// before the message). Stream: session (its id), agent_start, turn_start, message_update (text and
// thinking deltas), tool_execution_start / _end, turn_end (usage and cost, summed), agent_end (the
// final messages), error, auto_retry_end. An error, or retries that ran out, fail the run on exit 0.
import { existsSync } from "node:fs";
import path from "node:path";
import { arr, brief, DeltaBuffer, num, numOrNull, obj, str, textOf, jsonLineHandler, PROVIDER_KEYS } from "./json-lines";
import { MAX_ARGV_PROMPT } from "./gemini";
import { emptyOutput, type RuntimeDriver, type StreamParser, type TranscriptEvent } from "./types";

const IGNORED = new Set(["agent_start", "turn_start", "message_start", "message_end", "response", "auto_retry_start", "tool_execution_update"]);

export function piParser(): StreamParser {
  const out = emptyOutput();
  const deltas = new DeltaBuffer();
  let cost: number | null = null;
  let failed = false;
  return {
    line: (text) =>
      jsonLineHandler(out, text, (event) => {
        const events: TranscriptEvent[] = [];
        const type = str(event.type) ?? "";
        if (type !== "message_update") events.push(...deltas.flush());
        if (type.startsWith("extension_")) return events;
        switch (type) {
          case "session":
            out.sessionId = str(event.id) ?? out.sessionId;
            events.push({ kind: "status", message: `Session ${out.sessionId ?? "?"}`, data: { sessionId: out.sessionId } });
            break;
          case "message_update": {
            const update = obj(event.assistantMessageEvent);
            if (update.type === "text_delta" && str(update.delta)) events.push(...deltas.add("assistant", update.delta as string));
            else if (update.type === "thinking_delta" && str(update.delta)) events.push(...deltas.add("thinking", update.delta as string));
            break;
          }
          case "tool_execution_start":
            out.toolTurns++;
            events.push({
              kind: "tool_call",
              message: `${str(event.toolName) ?? "tool"} ${brief(event.args, 300)}`,
              data: { id: event.toolCallId ?? null, name: event.toolName ?? null },
            });
            break;
          case "tool_execution_end":
            events.push({
              kind: "tool_result",
              message: brief(textOf(obj(event.result).content) || event.result, 2000),
              data: { id: event.toolCallId ?? null, isError: event.isError === true },
            });
            break;
          case "turn_end": {
            const message = obj(event.message);
            const usage = obj(message.usage);
            out.tokens.inputTokens += num(usage.input);
            out.tokens.outputTokens += num(usage.output);
            out.tokens.cachedInputTokens += num(usage.cacheRead);
            const turnCost = numOrNull(obj(usage.cost).total);
            if (turnCost !== null) cost = (cost ?? 0) + turnCost;
            out.model = str(message.model) ?? out.model;
            if (message.stopReason === "error" && str(message.errorMessage)) {
              failed = true;
              out.errors.push(message.errorMessage as string);
            }
            break;
          }
          case "agent_end": {
            const assistant = arr(event.messages)
              .map(obj)
              .filter((m) => m.role === "assistant");
            const last = assistant[assistant.length - 1];
            if (last) out.summary = textOf(arr(last.content).filter((p) => obj(p).type === "text")) || textOf(last.content) || null;
            break;
          }
          case "error": {
            const message = str(event.message) ?? "error";
            failed = true;
            out.errors.push(message);
            events.push({ kind: "error", message });
            break;
          }
          case "auto_retry_end":
            if (event.success === false) {
              failed = true;
              const message = str(event.finalError) ?? "Retries ran out";
              out.errors.push(message);
              events.push({ kind: "error", message });
            }
            break;
          default:
            if (!IGNORED.has(type)) out.unknownEvents++;
        }
        return events;
      }),
    flush: () => deltas.flush(),
    result: () => ({ ...out, costUsd: cost, succeeded: failed ? false : null }),
  };
}

export const piDriver: RuntimeDriver = {
  runtime: "pi",
  credentialEnv: [...PROVIDER_KEYS, "PI_CODING_AGENT_DIR", "PI_CODING_AGENT_SESSION_DIR", "PI_OFFLINE", "ANTHROPIC_OAUTH_TOKEN"],
  loginHint: "Run `pi` once and /login, or set the provider's API key (e.g. ANTHROPIC_API_KEY) in the agent's env.",
  launch({ config, model, prompt, resume, instructions }) {
    const args = ["--mode", "json", "-p", "--model", model];
    const notes: string[] = [];
    if (resume) args.push("--session", resume);
    if (instructions) args.push("--append-system-prompt", instructions.path);
    if (config.tools?.length) args.push("--tools", config.tools.join(","));
    args.push(...(config.extraArgs ?? []));
    if (prompt.length <= MAX_ARGV_PROMPT) return { args: [...args, prompt], stdin: null, env: {}, notes };
    notes.push(`The prompt (${prompt.length} characters) is on stdin: too long for one argument`);
    return { args: [...args, "Follow the instructions above."], stdin: prompt, env: {}, notes };
  },
  parser: piParser,
  billing: () => "unknown",
  provider: (model) => model.split("/")[0] || "unknown",
  signedIn(env, home) {
    for (const key of ["ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY"])
      if (env[key]) return `API key (${key})`;
    const file = path.join(env.PI_CODING_AGENT_DIR || path.join(home, ".pi/agent"), "auth.json");
    return existsSync(file) ? `login (${file})` : null;
  },
};
