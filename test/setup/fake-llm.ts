// Fake model APIs for the edge agent (llm_api), served by the fake agent server:
//   POST /llm/<scenario>/<id>/v1/chat/completions            OpenAI Chat Completions (JSON, or SSE when stream: true)
//   POST /llm-anthropic/<scenario>/<id>/v1/messages           Anthropic Messages (JSON or SSE)
//   POST /llm-workers-ai/run  { model: "@cf/test/<scenario>/<id>", inputs }  Workers AI (the stub AI binding forwards here)
//   GET  /__llm/<id>   every request received: [{ path, headers, body, aborted }]
// A scenario's answer is picked by the number of assistant messages in the request (so a replay
// after an eviction gets the same answer) and, for the failing ones, by the request's number. The
// issue the tools act on is read from the prompt ("## The issue: ABC-1 — …"). Scenarios:
//   work            checkout_issue, comment_issue, update_issue {status: done}, then a final text (and, on a
//                   later wake, a short answer to the new comment); usage 1000 in (200 cached) / 50 out per call
//   work-stream     the same, streamed (arguments split mid-token, usage in the last chunk)
//   priced          work with the provider's own cost (OpenRouter's usage.cost: $0.0123 a call)
//   rate-limited    the first request is a 429 with retry-after: 2, then work
//   quota           429 insufficient_quota
//   overloaded      503 twice, then work;  overloaded-forever  always 503
//   bad-args        truncated JSON arguments first, then work;  bad-args-3  broken arguments every turn
//   unknown-tool    a call to drop_database, then a final text
//   hang            never answers (the connection stays open until the client gives up)
//   context         a 400 context_length_exceeded first, then work
//   filter          finish_reason content_filter
//   pricey          work, the first call reporting 2,000,000 input tokens
//   auth            401 invalid api key
//   script          the steps come from the issue's description: a line `SCRIPT: [[{"tool": …, "args": {…}}], {"text": "…"}]`
import type { IncomingMessage, ServerResponse } from "node:http";

type ToolStep = { tool: string; args?: Record<string, unknown>; raw?: string };
type Step = ToolStep[] | { text: string } | { filter: true };

interface Received {
  path: string;
  headers: Record<string, string>;
  body: any;
  aborted: boolean;
}

const received = new Map<string, Received[]>();
const USAGE = { input: 1000, cached: 200, output: 50 };

function workSteps(ref: string): Step[] {
  return [
    [{ tool: "checkout_issue", args: { issue: ref } }],
    [{ tool: "comment_issue", args: { issue: ref, body: "Working on it: the fix is in." } }],
    [{ tool: "update_issue", args: { issue: ref, status: "done" } }],
    { text: "Done: fixed and closed." },
    { text: "I read the new comment; nothing more to do." },
  ];
}

/** The text of every user message (the prompt and what follows), for the issue and a script. */
function userText(messages: any[]): string {
  return messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((b: any) => b.text ?? "").join("\n") : ""))
    .join("\n");
}

type Answer = { step: Step; status?: number; error?: unknown; headers?: Record<string, string>; hang?: boolean; usage?: typeof USAGE; cost?: number };

function answerFor(scenario: string, messages: any[], requestNumber: number, key = ""): Answer {
  const turn = messages.filter((m) => m.role === "assistant").length;
  const text = userText(messages);
  const ref = /## The issue: (\S+) —/.exec(text)?.[1] ?? "UNKNOWN-1";
  const work = workSteps(ref);
  const at = (steps: Step[], i: number) => steps[Math.min(i, steps.length - 1)];
  switch (scenario) {
    case "rate-limited":
      if (requestNumber === 1)
        return {
          step: { text: "" },
          status: 429,
          headers: { "retry-after": "2" },
          error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" },
        };
      return { step: at(work, turn) };
    case "quota":
      return {
        step: { text: "" },
        status: 429,
        error: {
          message: "You exceeded your current quota, please check your plan and billing details.",
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      };
    case "overloaded":
      if (requestNumber <= 2) return { step: { text: "" }, status: 503, error: { message: "The server is overloaded", type: "server_error" } };
      return { step: at(work, turn) };
    case "overloaded-forever":
      return { step: { text: "" }, status: 503, error: { message: "The server is overloaded", type: "server_error" } };
    case "auth":
      // Quoting the key it refused, as some proxies do.
      return {
        step: { text: "" },
        status: 401,
        error: { message: `Incorrect API key provided: ${key}`, type: "invalid_request_error", code: "invalid_api_key" },
      };
    case "bad-args":
      return { step: turn === 0 ? [{ tool: "checkout_issue", raw: `{"issue": "${ref}` }] : at(work, turn - 1) };
    case "bad-args-3":
      return { step: [{ tool: "comment_issue", raw: '{"issue": ' }] };
    case "unknown-tool":
      return { step: turn === 0 ? [{ tool: "drop_database", args: {} }] : { text: "That tool does not exist; stopping." } };
    case "hang":
      return { step: { text: "" }, hang: true };
    case "context":
      if (requestNumber === 1)
        return {
          step: { text: "" },
          status: 400,
          error: { message: "This model's maximum context length is 8192 tokens.", type: "invalid_request_error", code: "context_length_exceeded" },
        };
      return { step: at(work, turn) };
    case "filter":
      return { step: { filter: true } };
    case "pricey":
      return { step: at(work, turn), usage: turn === 0 ? { input: 2_000_000, cached: 0, output: 50 } : USAGE };
    case "priced":
      return { step: at(work, turn), cost: 0.0123 };
    case "script": {
      const line = /SCRIPT: (.*)/.exec(text)?.[1];
      const steps = line ? (JSON.parse(line) as Step[]) : [{ text: "no script" }];
      return { step: at(steps, turn) };
    }
    default:
      return { step: at(work, turn) };
  }
}

const filtered = (step: Step) => !Array.isArray(step) && "filter" in step;

const toolCalls = (step: Step, turn: number) =>
  Array.isArray(step) ? step.map((c, i) => ({ id: `call_${turn}_${i}`, name: c.tool, arguments: c.raw ?? JSON.stringify(c.args ?? {}) })) : [];

function openAiJson(answer: Answer, turn: number, model: string) {
  const calls = toolCalls(answer.step, turn);
  const usage = answer.usage ?? USAGE;
  const text = "text" in answer.step ? answer.step.text : "";
  return {
    id: `chatcmpl-${turn}`,
    object: "chat.completion",
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: calls.length ? null : text,
          ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) } : {}),
        },
        finish_reason: filtered(answer.step) ? "content_filter" : calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cached },
      ...(answer.cost !== undefined ? { cost: answer.cost } : {}),
    },
  };
}

function openAiSse(answer: Answer, turn: number, model: string): string {
  const json = openAiJson(answer, turn, model);
  const choice = json.choices[0];
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: json.id, object: "chat.completion.chunk", model, choices: [{ index: 0, delta, finish_reason: finish }], usage: null })}\n\n`;
  let out = chunk({ role: "assistant", content: "" });
  const text = choice.message.content ?? "";
  for (let i = 0; i < text.length; i += 5) out += chunk({ content: text.slice(i, i + 5) });
  (choice.message.tool_calls ?? []).forEach((c: any, index: number) => {
    const args: string = c.function.arguments;
    const third = Math.max(1, Math.floor(args.length / 3));
    out += chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } }] });
    for (const piece of [args.slice(0, third), args.slice(third, 2 * third), args.slice(2 * third)])
      out += chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  out += chunk({}, choice.finish_reason);
  out += `data: ${JSON.stringify({ id: json.id, object: "chat.completion.chunk", model, choices: [], usage: json.usage })}\n\n`;
  return `${out}data: [DONE]\n\n`;
}

function anthropicJson(answer: Answer, turn: number, model: string) {
  const calls = toolCalls(answer.step, turn);
  const usage = answer.usage ?? USAGE;
  const text = "text" in answer.step ? answer.step.text : "";
  const input = (args: string) => {
    try {
      return JSON.parse(args);
    } catch {
      return { _broken: args };
    }
  };
  return {
    id: `msg_${turn}`,
    type: "message",
    role: "assistant",
    model,
    content: [
      ...(text ? [{ type: "text", text }] : []),
      ...calls.map((c) => ({ type: "tool_use", id: `toolu_${turn}_${c.id}`, name: c.name, input: input(c.arguments) })),
    ],
    stop_reason: filtered(answer.step) ? "refusal" : calls.length ? "tool_use" : "end_turn",
    usage: { input_tokens: usage.input - usage.cached, cache_creation_input_tokens: 0, cache_read_input_tokens: usage.cached, output_tokens: usage.output },
  };
}

function anthropicSse(answer: Answer, turn: number, model: string): string {
  const json = anthropicJson(answer, turn, model);
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = event("message_start", { message: { ...json, content: [], stop_reason: null, usage: { ...json.usage, output_tokens: 1 } } });
  json.content.forEach((block: any, index: number) => {
    if (block.type === "text") {
      out += event("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (let i = 0; i < block.text.length; i += 5)
        out += event("content_block_delta", { index, delta: { type: "text_delta", text: block.text.slice(i, i + 5) } });
    } else {
      out += event("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      const args = JSON.stringify(block.input);
      const half = Math.floor(args.length / 2);
      for (const piece of [args.slice(0, half), args.slice(half)])
        out += event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    out += event("content_block_stop", { index });
  });
  out += event("message_delta", { delta: { stop_reason: json.stop_reason }, usage: { output_tokens: json.usage.output_tokens } });
  return out + event("message_stop", {});
}

function workersAiAnswer(answer: Answer, turn: number) {
  const calls = toolCalls(answer.step, turn);
  const usage = answer.usage ?? USAGE;
  return {
    response: "text" in answer.step ? answer.step.text : "",
    // The older shape: no call ids, arguments as an object.
    tool_calls: calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments || "{}") })),
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

/** Answers /llm…, /__llm…; false for any other path. */
export function serveFakeLlm(url: URL, req: IncomingMessage, res: ServerResponse, text: string): boolean {
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[0] === "__llm" && parts[1]) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(received.get(parts[1]) ?? []));
    return true;
  }
  if (parts[0] !== "llm" && parts[0] !== "llm-anthropic" && parts[0] !== "llm-workers-ai") return false;
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* keep null */
  }
  const kind = parts[0] === "llm" ? "openai" : parts[0] === "llm-anthropic" ? "anthropic" : "workers-ai";
  let scenario = parts[1];
  let id = parts[2];
  if (kind === "workers-ai") [, , scenario, id] = String(body?.model ?? "").split("/");
  const log = received.get(id) ?? [];
  const entry: Received = {
    path: `/${parts.slice(3).join("/")}`,
    headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
    body,
    aborted: false,
  };
  log.push(entry);
  received.set(id, log);
  res.on("close", () => {
    if (!res.writableFinished) entry.aborted = true;
  });
  const messages: any[] = kind === "workers-ai" ? (body?.inputs?.messages ?? []) : (body?.messages ?? []);
  const key = String(req.headers["x-api-key"] ?? req.headers.authorization ?? "").replace(/^Bearer /, "");
  const answer = answerFor(scenario, messages, log.length, key);
  const turn = messages.filter((m) => m.role === "assistant").length;
  const model = String(body?.model ?? "fake-model");
  if (answer.hang) {
    res.writeHead(200, { "content-type": "application/json" });
    res.flushHeaders();
    setTimeout(() => res.end(), 60_000).unref();
    return true;
  }
  if (answer.status) {
    res.writeHead(answer.status, { "content-type": "application/json", ...(answer.headers ?? {}) });
    res.end(JSON.stringify(kind === "anthropic" ? { type: "error", error: answer.error } : { error: answer.error }));
    return true;
  }
  if (kind === "workers-ai") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(workersAiAnswer(answer, turn)));
    return true;
  }
  if (body?.stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(kind === "anthropic" ? anthropicSse(answer, turn, model) : openAiSse(answer, turn, model));
    return true;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(kind === "anthropic" ? anthropicJson(answer, turn, model) : openAiJson(answer, turn, model)));
  return true;
}
