// Cursor Agent CLI: `agent -p --output-format stream-json --workspace <cwd> --model … [--resume id]
// [--yolo]` (`cursor-agent` is the older name), the prompt on stdin. Stream: system/init, assistant,
// thinking deltas, tool_call started/completed (`{ <kind>ToolCall: { args, result } }`), result.
// Lines may arrive prefixed with `stdout`/`stderr`.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { arr, brief, DeltaBuffer, num, numOrNull, obj, str, textOf, jsonLineHandler, sessionStatus } from "./json-lines";
import { withInstructions } from "./instructions";
import { emptyOutput, type RuntimeDriver, type StreamParser, type TranscriptEvent } from "./types";

export function cursorParser(): StreamParser {
  const out = emptyOutput();
  const deltas = new DeltaBuffer();
  const texts: string[] = [];
  return {
    line: (raw) =>
      jsonLineHandler(out, raw.replace(/^(?:stdout|stderr)(?=\{)/, ""), (event) => {
        const events: TranscriptEvent[] = [];
        out.sessionId = str(event.session_id) ?? str(event.chat_id) ?? out.sessionId;
        if (event.type !== "thinking") events.push(...deltas.flush());
        switch (event.type) {
          case "system":
            if (event.subtype === "init") {
              out.model = str(event.model) ?? out.model;
              events.push(sessionStatus(out, "Chat", "auto"));
            } else if (event.subtype === "error") out.errors.push(str(event.message) ?? "error");
            break;
          case "user":
            break;
          case "assistant": {
            const content = arr(obj(event.message).content)
              .map((p) => (["text", "output_text"].includes(String(obj(p).type)) ? textOf(p) : ""))
              .join("");
            if (content) {
              texts.push(content);
              events.push({ kind: "assistant", message: content });
            }
            break;
          }
          case "thinking":
            if (str(event.text)) events.push(...deltas.add("thinking", event.text as string));
            break;
          case "tool_call": {
            const call = obj(event.tool_call);
            const [name, body] = Object.entries(call)[0] ?? ["tool", {}];
            const detail = obj(body);
            if (event.subtype === "started") {
              out.toolTurns++;
              events.push({
                kind: "tool_call",
                message: `${name.replace(/ToolCall$/, "")} ${brief(detail.args, 300)}`,
                data: { id: event.call_id ?? null, name },
              });
            } else if (event.subtype === "completed") {
              const result = obj(detail.result);
              const isError = "error" in result || "failure" in result;
              events.push({ kind: "tool_result", message: brief(detail.result, 2000), data: { id: event.call_id ?? null, isError } });
            }
            break;
          }
          case "result": {
            const usage = obj(event.usage);
            out.tokens.inputTokens += num(usage.input_tokens);
            out.tokens.cachedInputTokens += num(usage.cached_input_tokens);
            out.tokens.outputTokens += num(usage.output_tokens);
            out.costUsd = numOrNull(event.total_cost_usd) ?? numOrNull(event.cost_usd) ?? numOrNull(event.cost) ?? out.costUsd;
            out.succeeded = event.subtype !== "error" && event.is_error !== true;
            out.summary = str(event.result) ?? (texts.length ? texts.join("\n\n") : null);
            if (!out.succeeded) out.errors.push(str(event.result) ?? str(event.error) ?? "The agent failed");
            events.push({ kind: out.succeeded ? "status" : "error", message: `Result: ${event.subtype ?? "done"}` });
            break;
          }
          case "error": {
            const message = str(event.message) ?? str(obj(event.error).message) ?? "error";
            out.errors.push(message);
            events.push({ kind: "error", message });
            break;
          }
          default:
            out.unknownEvents++;
        }
        return events;
      }),
    flush: () => deltas.flush(),
    result: () => out,
  };
}

export const cursorDriver: RuntimeDriver = {
  runtime: "cursor",
  credentialEnv: ["CURSOR_API_KEY", "OPENAI_API_KEY"],
  loginHint: "Run `agent login` (or `cursor-agent login`) on the runner's machine, or set CURSOR_API_KEY in the agent's env.",
  launch({ config, model, prompt, resume, instructions, cwd }) {
    const args = ["-p", "--output-format", "stream-json", "--workspace", cwd];
    const notes: string[] = [];
    if (resume) args.push("--resume", resume);
    args.push("--model", model);
    const extra = config.extraArgs ?? [];
    if (config.dangerouslySkipPermissions !== false && !extra.some((a) => a === "--yolo" || a === "-f" || a === "--force" || a.startsWith("--trust"))) {
      args.push("--yolo");
      notes.push("--yolo: unattended (dangerouslySkipPermissions: false to keep Cursor's rules)");
    }
    args.push(...extra);
    return { args, stdin: withInstructions(prompt, instructions), env: {}, notes };
  },
  parser: cursorParser,
  billing: (env) => (env.CURSOR_API_KEY ? "metered_api" : "subscription_included"),
  provider(model) {
    if (model.includes("/")) return model.split("/")[0];
    if (/claude|sonnet|opus|haiku/i.test(model)) return "anthropic";
    if (/^(gpt|o\d)/i.test(model)) return "openai";
    if (/gemini/i.test(model)) return "google";
    return "cursor";
  },
  signedIn(env, home) {
    if (env.CURSOR_API_KEY) return "API key (CURSOR_API_KEY)";
    const file = path.join(home, ".cursor/cli-config.json");
    try {
      if (existsSync(file) && JSON.parse(readFileSync(file, "utf8")).authInfo) return `login (${file})`;
    } catch {
      /* unreadable: not signed in */
    }
    return null;
  },
};
