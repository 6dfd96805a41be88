// Gemini CLI: `gemini --output-format stream-json --model … --approval-mode yolo --prompt <prompt>`
// (a prompt too long for one argument goes on stdin, which Gemini reads before `--prompt`).
// Stream (0.38+): init (session, model), message (assistant deltas), tool_use, tool_result, error,
// result (status, stats). Older Claude-style lines (system/init, assistant content, result.usage)
// are read too. Exit codes: 41 not signed in, 53 turn limit.
import { existsSync } from "node:fs";
import path from "node:path";
import { arr, brief, DeltaBuffer, num, numOrNull, obj, str, textOf, jsonLineHandler, sessionStatus } from "./json-lines";
import { withInstructions } from "./instructions";
import { emptyOutput, type RuntimeDriver, type StreamParser, type TranscriptEvent } from "./types";

/** Longest prompt passed as one argument (Linux refuses arguments over 128 KiB). */
export const MAX_ARGV_PROMPT = 100_000;

export function geminiParser(): StreamParser {
  const out = emptyOutput();
  const deltas = new DeltaBuffer();
  // The assistant's text since its last tool call: its final word (the summary).
  let assistant = "";
  return {
    line: (text) =>
      jsonLineHandler(out, text, (event) => {
        const events: TranscriptEvent[] = [];
        out.sessionId = str(event.session_id) ?? str(event.sessionId) ?? str(event.checkpoint_id) ?? out.sessionId;
        const type = str(event.type);
        if (type !== "message") events.push(...deltas.flush());
        switch (type) {
          case "init":
            out.model = str(event.model) ?? out.model;
            events.push(sessionStatus(out));
            break;
          case "system":
            if (event.subtype === "init") out.model = str(event.model) ?? out.model;
            else if (event.subtype === "error") out.errors.push(str(event.message) ?? "error");
            break;
          case "message":
            if (event.role === "assistant") {
              const content = textOf(event.content);
              assistant += content;
              events.push(...deltas.add("assistant", content));
            }
            break;
          case "assistant": {
            const content = arr(obj(event.message).content)
              .map((p) => textOf(p))
              .join("");
            if (content) {
              assistant += content;
              events.push({ kind: "assistant", message: content });
            }
            break;
          }
          case "tool_use":
          case "tool_call":
            if (type === "tool_call" && event.subtype === "completed") break;
            assistant = "";
            out.toolTurns++;
            events.push({
              kind: "tool_call",
              message: `${str(event.tool_name) ?? str(event.name) ?? "tool"} ${brief(event.parameters ?? event.args, 300)}`,
              data: { id: event.tool_id ?? event.call_id ?? null },
            });
            break;
          case "tool_result": {
            const failed = event.status === "error";
            events.push({
              kind: "tool_result",
              message: brief(failed ? (str(obj(event.error).message) ?? event.output) : event.output, 2000),
              data: { id: event.tool_id ?? null, isError: failed },
            });
            break;
          }
          case "error": {
            const message = str(event.message) ?? "error";
            if (event.severity !== "warning") out.errors.push(message);
            events.push({ kind: "error", message, data: { severity: event.severity ?? null } });
            break;
          }
          case "result": {
            const stats = obj(event.stats);
            const usage = obj(event.usage ?? event.usageMetadata);
            out.tokens.inputTokens += num(stats.input_tokens) || num(usage.input_tokens) || num(usage.promptTokenCount);
            out.tokens.cachedInputTokens += num(stats.cached) || num(usage.cached_input_tokens) || num(usage.cachedContentTokenCount);
            out.tokens.outputTokens += num(stats.output_tokens) || num(usage.output_tokens) || num(usage.candidatesTokenCount);
            out.costUsd = numOrNull(event.total_cost_usd) ?? numOrNull(event.cost_usd) ?? numOrNull(event.cost) ?? out.costUsd;
            const status = str(event.status) ?? (event.is_error ? "error" : "success");
            out.succeeded = status === "success" && event.is_error !== true;
            if (["max_turns", "turn_limit"].includes(String(event.stopReason ?? event.error_code ?? status))) out.stopReason = "max_turns";
            const error = str(obj(event.error).message) ?? str(event.error);
            if (error) out.errors.push(error);
            out.summary = str(event.result) ?? (assistant.trim() || null);
            events.push({ kind: out.succeeded ? "status" : "error", message: `Result: ${status}${error ? ` — ${error}` : ""}`, data: { stats } });
            break;
          }
          default:
            out.unknownEvents++;
        }
        return events;
      }),
    flush: () => deltas.flush(),
    result: () => {
      if (!out.summary && assistant.trim()) out.summary = assistant.trim();
      return out;
    },
  };
}

export const geminiDriver: RuntimeDriver = {
  runtime: "gemini",
  credentialEnv: [
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_GENAI_USE_GCA",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GEMINI_MODEL",
    "GEMINI_CLI_HOME",
    "GEMINI_DEFAULT_AUTH_TYPE",
  ],
  loginHint: "Run `gemini` once and sign in with Google, or set GEMINI_API_KEY (or GOOGLE_API_KEY) in the agent's env.",
  launch({ config, model, prompt, resume, instructions }) {
    const args = ["--output-format", "stream-json"];
    const notes: string[] = [];
    const env: Record<string, string> = {};
    if (resume) args.push("--resume", resume);
    if (model && model !== "auto") args.push("--model", model);
    const approval = config.approvalMode ?? "yolo";
    args.push("--approval-mode", approval);
    if (approval === "yolo") {
      // Gemini lowers yolo to "default" in a folder it does not trust.
      env.GEMINI_CLI_TRUST_WORKSPACE = "true";
      notes.push("--approval-mode yolo with the working directory trusted: unattended (approvalMode to change)");
    }
    if (config.sandbox) args.push("--sandbox");
    args.push(...(config.extraArgs ?? []));
    const full = withInstructions(prompt, instructions);
    if (full.length <= MAX_ARGV_PROMPT) return { args: [...args, "--prompt", full], stdin: null, env, notes };
    notes.push(`The prompt (${full.length} characters) is on stdin: too long for one argument`);
    return { args: [...args, "--prompt", "Follow the instructions above."], stdin: full, env, notes };
  },
  parser: geminiParser,
  exitCodeMeaning: (code) => (code === 53 ? "max_turns" : code === 41 ? "auth_required" : null),
  billing: (env) => (env.GEMINI_API_KEY || env.GOOGLE_API_KEY || env.GOOGLE_GENAI_USE_VERTEXAI ? "metered_api" : "subscription_included"),
  provider: () => "google",
  signedIn(env, home) {
    if (env.GEMINI_API_KEY) return "API key (GEMINI_API_KEY)";
    if (env.GOOGLE_API_KEY) return "API key (GOOGLE_API_KEY)";
    if (env.GOOGLE_GENAI_USE_VERTEXAI) return "Vertex AI";
    const dir = path.join(env.GEMINI_CLI_HOME || home, ".gemini");
    if (existsSync(path.join(dir, "oauth_creds.json"))) return `Google login (${path.join(dir, "oauth_creds.json")})`;
    return null;
  },
};
