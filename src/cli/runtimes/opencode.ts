// OpenCode: `opencode run --format json --model provider/model [--session id] [--auto]`, the prompt
// on stdin. Stream (every line carries sessionID): text, reasoning, step_start, tool_use (call and
// result in one line), step_finish (tokens and cost, summed over steps), error. An error event fails
// the run even on exit 0.
import { existsSync } from "node:fs";
import path from "node:path";
import { brief, num, numOrNull, obj, str, jsonLineHandler, PROVIDER_KEYS } from "./json-lines";
import { withInstructions } from "./instructions";
import { emptyOutput, type RuntimeDriver, type StreamParser, type TranscriptEvent } from "./types";

export function opencodeParser(): StreamParser {
  const out = emptyOutput();
  const texts: string[] = [];
  let cost: number | null = null;
  let failed = false;
  return {
    line: (text) =>
      jsonLineHandler(out, text, (event) => {
        const events: TranscriptEvent[] = [];
        out.sessionId = str(event.sessionID) ?? out.sessionId;
        const part = obj(event.part);
        switch (event.type) {
          case "text":
            if (str(part.text)) {
              texts.push(part.text as string);
              events.push({ kind: "assistant", message: part.text as string });
            }
            break;
          case "reasoning":
            if (str(part.text)) events.push({ kind: "thinking", message: part.text as string });
            break;
          case "step_start":
            break;
          case "tool_use": {
            const state = obj(part.state);
            out.toolTurns++;
            events.push({
              kind: "tool_call",
              message: `${str(part.tool) ?? "tool"} ${brief(state.input, 300)}`,
              data: { id: part.callID ?? null, name: part.tool ?? null },
            });
            if (state.status === "completed" || state.status === "error") {
              const isError = state.status === "error";
              events.push({ kind: "tool_result", message: brief(isError ? state.error : state.output, 2000), data: { id: part.callID ?? null, isError } });
            }
            break;
          }
          case "step_finish": {
            const tokens = obj(part.tokens);
            out.tokens.inputTokens += num(tokens.input);
            out.tokens.outputTokens += num(tokens.output) + num(tokens.reasoning);
            out.tokens.cachedInputTokens += num(obj(tokens.cache).read);
            const stepCost = numOrNull(part.cost);
            if (stepCost !== null) cost = (cost ?? 0) + stepCost;
            break;
          }
          case "error": {
            const error = obj(event.error);
            const message = str(obj(error.data).message) ?? str(error.message) ?? str(error.name) ?? "error";
            failed = true;
            out.errors.push(str(error.name) && error.name !== "UnknownError" ? `${error.name}: ${message}` : message);
            events.push({ kind: "error", message });
            break;
          }
          default:
            out.unknownEvents++;
        }
        return events;
      }),
    flush: () => [],
    result: () => ({ ...out, summary: texts.length ? texts[texts.length - 1] : null, costUsd: cost, succeeded: failed ? false : null }),
  };
}

export const opencodeDriver: RuntimeDriver = {
  runtime: "opencode",
  credentialEnv: [
    ...PROVIDER_KEYS,
    "OPENCODE_CONFIG",
    "OPENCODE_CONFIG_DIR",
    "OPENCODE_CONFIG_CONTENT",
    "OPENCODE_AUTH_CONTENT",
    "OPENCODE_PERMISSION",
    "OPENCODE_API_KEY",
    "OPENCODE_DISABLE_MODELS_FETCH",
    "OPENCODE_DISABLE_AUTOUPDATE",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
  ],
  loginHint: "Run `opencode auth login` on the runner's machine, or set the provider's API key (e.g. ANTHROPIC_API_KEY) in the agent's env.",
  launch({ config, model, prompt, resume, instructions }) {
    const args = ["run", "--format", "json", "--model", model];
    const notes: string[] = [];
    if (resume) args.push("--session", resume);
    if (config.dangerouslySkipPermissions !== false) {
      args.push("--auto");
      notes.push("--auto: permissions approved unless denied (dangerouslySkipPermissions: false to keep OpenCode's rules)");
    }
    args.push(...(config.extraArgs ?? []));
    return { args, stdin: withInstructions(prompt, instructions), env: {}, notes };
  },
  parser: opencodeParser,
  billing: () => "unknown",
  provider: (model) => model.split("/")[0] || "unknown",
  signedIn(env, home) {
    for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY", "OPENCODE_API_KEY"])
      if (env[key]) return `API key (${key})`;
    if (env.OPENCODE_AUTH_CONTENT) return "credentials (OPENCODE_AUTH_CONTENT)";
    const file = path.join(env.XDG_DATA_HOME || path.join(home, ".local/share"), "opencode/auth.json");
    return existsSync(file) ? `credentials (${file})` : null;
  },
};
