// Codex CLI: `codex exec --json … -` (or `codex exec --json … resume <thread> -`), the prompt on
// stdin. Stream: thread.started (session), turn.started, item.started / item.completed
// (agent_message, reasoning, command_execution, file_change, mcp_tool_call, web_search, error),
// turn.completed (usage), turn.failed, error. No cost is reported. Codex retries a missing network
// or credential for ever, so the runner refuses to start it without credentials.
import { existsSync } from "node:fs";
import path from "node:path";
import { arr, brief, num, obj, str, jsonLineHandler } from "./json-lines";
import { withInstructions } from "./instructions";
import { emptyOutput, type RuntimeDriver, type StreamParser, type TranscriptEvent } from "./types";

const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search", "tool_use"]);

export function codexParser(): StreamParser {
  const out = emptyOutput();
  let lastMessage: string | null = null;
  let turnFailed = false;
  let turnCompleted = false;
  return {
    line: (text) =>
      jsonLineHandler(out, text, (event) => {
        const events: TranscriptEvent[] = [];
        switch (event.type) {
          case "thread.started":
            out.sessionId = str(event.thread_id) ?? out.sessionId;
            events.push({ kind: "status", message: `Thread ${out.sessionId ?? "?"}`, data: { sessionId: out.sessionId } });
            break;
          case "turn.started":
            break;
          case "item.started":
          case "item.completed": {
            const item = obj(event.item);
            const type = str(item.type) ?? "";
            const done = event.type === "item.completed";
            if (type === "agent_message" && done && str(item.text)) {
              lastMessage = item.text as string;
              events.push({ kind: "assistant", message: lastMessage });
            } else if (type === "reasoning" && done && str(item.text)) events.push({ kind: "thinking", message: item.text as string });
            else if (TOOL_ITEMS.has(type)) {
              const call =
                type === "command_execution"
                  ? (str(item.command) ?? "")
                  : type === "file_change"
                    ? arr(item.changes)
                        .map((c) => `${obj(c).kind ?? "change"} ${obj(c).path ?? ""}`)
                        .join(", ")
                    : brief(item.arguments ?? item.query ?? item, 300);
              if (!done) {
                out.toolTurns++;
                events.push({ kind: "tool_call", message: `${type}: ${call}`, data: { id: item.id ?? null, type } });
              } else {
                if (type === "file_change") events.push({ kind: "tool_call", message: `${type}: ${call}`, data: { id: item.id ?? null, type } });
                const output = type === "command_execution" ? (str(item.aggregated_output) ?? "") : brief(item.result ?? item.status ?? "", 2000);
                events.push({
                  kind: "tool_result",
                  message: brief(output, 2000),
                  data: {
                    id: item.id ?? null,
                    type,
                    exitCode: item.exit_code ?? null,
                    status: item.status ?? null,
                    isError: item.status === "failed" || (typeof item.exit_code === "number" && item.exit_code !== 0),
                  },
                });
              }
            } else if (type === "error" && str(item.message)) {
              out.errors.push(item.message as string);
              events.push({ kind: "error", message: item.message as string });
            } else if (type !== "agent_message" && type !== "reasoning") out.unknownEvents++;
            break;
          }
          case "turn.completed": {
            turnCompleted = true;
            const usage = obj(event.usage);
            out.tokens.inputTokens += num(usage.input_tokens);
            out.tokens.cachedInputTokens += num(usage.cached_input_tokens);
            out.tokens.outputTokens += num(usage.output_tokens);
            break;
          }
          case "turn.failed": {
            turnFailed = true;
            const message = str(obj(event.error).message) ?? "The turn failed";
            out.errors.push(message);
            events.push({ kind: "error", message });
            break;
          }
          case "error": {
            const message = str(event.message) ?? "error";
            out.errors.push(message);
            events.push({ kind: "error", message });
            break;
          }
          default:
            out.unknownEvents++;
        }
        out.summary = lastMessage;
        out.succeeded = turnFailed ? false : turnCompleted ? true : null;
        return events;
      }),
    flush: () => [],
    result: () => out,
  };
}

const codexHome = (env: Record<string, string>, home: string) => env.CODEX_HOME || path.join(home, ".codex");

export const codexDriver: RuntimeDriver = {
  runtime: "codex",
  credentialEnv: [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "CODEX_API_KEY",
    "CODEX_ACCESS_TOKEN",
    "CODEX_HOME",
    "OPENROUTER_API_KEY",
    "AZURE_OPENAI_API_KEY",
  ],
  loginHint: "Run `codex login` on the runner's machine, or set OPENAI_API_KEY (or CODEX_API_KEY) in the agent's env.",
  launch({ config, model, prompt, resume, instructions }) {
    const args = ["exec", "--json"];
    const notes: string[] = [];
    if (config.skipGitRepoCheck !== false) {
      args.push("--skip-git-repo-check");
      notes.push("--skip-git-repo-check: the working directory need not be a git repository (skipGitRepoCheck: false to require one)");
    }
    if (config.dangerouslyBypassApprovalsAndSandbox !== false) {
      args.push("--dangerously-bypass-approvals-and-sandbox");
      notes.push("--dangerously-bypass-approvals-and-sandbox: unattended (dangerouslyBypassApprovalsAndSandbox: false for a workspace-write sandbox)");
    } else args.push("--sandbox", "workspace-write");
    args.push("--model", model);
    args.push(...(config.extraArgs ?? []));
    if (resume) args.push("resume", resume);
    args.push("-");
    // Codex takes no instructions file on the command line that adds to (rather than replaces) its own: they lead the prompt of a new session.
    return { args, stdin: withInstructions(prompt, instructions), env: {}, notes };
  },
  parser: codexParser,
  preflight(env, home) {
    if (env.OPENAI_API_KEY || env.CODEX_API_KEY || env.CODEX_ACCESS_TOKEN) return null;
    if (existsSync(path.join(codexHome(env, home), "auth.json"))) return null;
    return `Codex is not signed in on this machine (no ${path.join(codexHome(env, home), "auth.json")}, no OPENAI_API_KEY).`;
  },
  billing: (env) => (env.OPENAI_API_KEY || env.CODEX_API_KEY ? "metered_api" : "subscription_included"),
  provider: () => "openai",
  signedIn(env, home) {
    if (env.OPENAI_API_KEY) return "API key (OPENAI_API_KEY)";
    if (env.CODEX_API_KEY) return "API key (CODEX_API_KEY)";
    const file = path.join(codexHome(env, home), "auth.json");
    return existsSync(file) ? `plan login (${file})` : null;
  },
};
