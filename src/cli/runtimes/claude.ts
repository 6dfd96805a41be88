// Claude Code: `claude --print - --output-format stream-json --verbose`, the prompt on stdin.
// Stream: system/init (session, model), assistant (text, thinking, tool_use), user (tool_result),
// result (final text, cost, usage, subtype). A `success` result counts as success whatever the
// exit code; `error_max_turns` is the turn limit.
import { existsSync } from "node:fs";
import path from "node:path";
import { arr, brief, num, numOrNull, obj, str, textOf, jsonLineHandler, sessionStatus } from "./json-lines";
import { emptyOutput, type RuntimeDriver, type StreamParser, type TranscriptEvent } from "./types";

export function claudeParser(): StreamParser {
  const out = emptyOutput();
  const texts: string[] = [];
  return {
    line: (text) =>
      jsonLineHandler(out, text, (event) => {
        const events: TranscriptEvent[] = [];
        out.sessionId = str(event.session_id) ?? out.sessionId;
        switch (event.type) {
          case "system":
            if (event.subtype === "init") {
              out.model = str(event.model) ?? out.model;
              events.push(sessionStatus(out));
            }
            break;
          case "assistant": {
            const message = obj(event.message);
            let calledTools = false;
            for (const part of arr(message.content)) {
              const p = obj(part);
              if (p.type === "text" && str(p.text)) {
                texts.push(p.text as string);
                events.push({ kind: "assistant", message: p.text as string });
              } else if (p.type === "thinking" && str(p.thinking)) events.push({ kind: "thinking", message: p.thinking as string });
              else if (p.type === "tool_use") {
                calledTools = true;
                events.push({
                  kind: "tool_call",
                  message: `${str(p.name) ?? "tool"} ${brief(p.input, 300)}`,
                  data: { id: p.id ?? null, name: p.name ?? null, input: p.input ?? null },
                });
              }
            }
            if (calledTools) out.toolTurns++;
            if (str(event.error)) out.errors.push(String(event.error));
            break;
          }
          case "user":
            for (const part of arr(obj(event.message).content)) {
              const p = obj(part);
              if (p.type !== "tool_result") continue;
              const content = textOf(p.content);
              events.push({ kind: "tool_result", message: brief(content, 2000), data: { toolUseId: p.tool_use_id ?? null, isError: p.is_error === true } });
            }
            break;
          case "result": {
            const result = str(event.result);
            out.summary = result ?? (texts.length ? texts.join("\n\n") : null);
            out.costUsd = numOrNull(event.total_cost_usd);
            const byModel = obj(event.modelUsage);
            const models = Object.entries(byModel);
            if (models.length) {
              for (const [name, u] of models) {
                const usage = obj(u);
                out.tokens.inputTokens += num(usage.inputTokens) + num(usage.cacheCreationInputTokens);
                out.tokens.cachedInputTokens += num(usage.cacheReadInputTokens);
                out.tokens.outputTokens += num(usage.outputTokens);
                out.model ??= name;
              }
            } else {
              const usage = obj(event.usage);
              out.tokens.inputTokens += num(usage.input_tokens) + num(usage.cache_creation_input_tokens);
              out.tokens.cachedInputTokens += num(usage.cache_read_input_tokens);
              out.tokens.outputTokens += num(usage.output_tokens);
            }
            out.model ??= str(event.model);
            const subtype = str(event.subtype) ?? "";
            out.succeeded = subtype === "success" && event.is_error !== true;
            if (subtype.includes("max_turns") || ["max_turns", "max_turns_exhausted"].includes(String(event.stop_reason))) out.stopReason = "max_turns";
            else if (subtype === "refusal" || event.stop_reason === "refusal") out.stopReason = "refusal";
            for (const e of arr(event.errors)) {
              const o = obj(e);
              const message = typeof e === "string" ? e : (str(o.message) ?? str(o.error) ?? str(o.code));
              if (message) out.errors.push(message);
            }
            if (!out.succeeded && result) out.errors.push(result);
            events.push({
              kind: out.succeeded ? "status" : "error",
              message: out.succeeded ? `Result: ${subtype}` : `Result: ${subtype}${result ? ` — ${brief(result, 500)}` : ""}`,
              data: { subtype, isError: event.is_error === true, numTurns: event.num_turns ?? null, costUsd: out.costUsd },
            });
            break;
          }
          default:
            out.unknownEvents++;
        }
        return events;
      }),
    flush: () => [],
    result: () => out,
  };
}

export const claudeDriver: RuntimeDriver = {
  runtime: "claude",
  credentialEnv: [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_MODEL",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_USE_FOUNDRY",
    "AWS_REGION",
    "AWS_PROFILE",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_PROJECT_ID",
    "CLOUD_ML_REGION",
    "GOOGLE_APPLICATION_CREDENTIALS",
  ],
  loginHint: "Run `claude` once and sign in (/login), or `claude setup-token` and set CLAUDE_CODE_OAUTH_TOKEN, or set ANTHROPIC_API_KEY in the agent's env.",
  launch({ config, model, prompt, resume, instructions }) {
    const args = ["--print", "-", "--output-format", "stream-json", "--verbose"];
    const notes: string[] = [];
    if (resume) args.push("--resume", resume);
    if (config.dangerouslySkipPermissions !== false) {
      args.push("--dangerously-skip-permissions");
      notes.push("--dangerously-skip-permissions: unattended (dangerouslySkipPermissions: false to keep Claude's permission rules)");
    }
    args.push("--model", model);
    if (config.maxTurnsPerRun) args.push("--max-turns", String(config.maxTurnsPerRun));
    if (instructions) args.push("--append-system-prompt-file", instructions.path);
    args.push(...(config.extraArgs ?? []));
    return { args, stdin: prompt, env: {}, notes };
  },
  parser: claudeParser,
  billing: (env) => (env.ANTHROPIC_API_KEY || env.CLAUDE_CODE_USE_BEDROCK || env.CLAUDE_CODE_USE_VERTEX ? "metered_api" : "subscription_included"),
  provider: () => "anthropic",
  signedIn(env, home) {
    if (env.ANTHROPIC_API_KEY) return "API key (ANTHROPIC_API_KEY)";
    if (env.CLAUDE_CODE_OAUTH_TOKEN) return "plan login (CLAUDE_CODE_OAUTH_TOKEN)";
    if (env.CLAUDE_CODE_USE_BEDROCK || env.CLAUDE_CODE_USE_VERTEX) return "cloud provider (Bedrock or Vertex)";
    const dir = env.CLAUDE_CONFIG_DIR || path.join(home, ".claude");
    if (existsSync(path.join(dir, ".credentials.json"))) return `plan login (${path.join(dir, ".credentials.json")})`;
    return null;
  },
};
