// Keeping a conversation inside the model's context. A conversation continued across wakes (and a
// long run) is cut to `maxContextTokens` (estimated at 4 characters a token) before each model
// call: the first message (the first wake's prompt) stays, then the oldest turns go — an assistant
// turn always with its tool results, never half of it — and a note says how many messages were
// left out. When the provider still says the prompt is too long, `compact` cuts old tool results
// to stubs and halves the budget, once. Pure: the journal keeps every message; only the request
// is cut, the same way on every replay.
import { messageTokens, type TurnMessage } from "./turns";

/** The conversation as groups that stand alone: a user message, or an assistant turn with its tool results. */
function groups(messages: TurnMessage[]): TurnMessage[][] {
  const out: TurnMessage[][] = [];
  for (const m of messages) {
    if (m.role === "tool" && out.length && out[out.length - 1][0].role === "assistant") out[out.length - 1].push(m);
    else out.push([m]);
  }
  return out;
}

const tokensOf = (group: TurnMessage[]) => group.reduce((n, m) => n + messageTokens(m), 0);

/** The messages to send: the first, a note, and the newest groups that fit `maxTokens` (the newest group always). */
export function fitHistory(messages: TurnMessage[], maxTokens: number): TurnMessage[] {
  if (messages.length <= 1) return messages;
  const [first, ...rest] = groups(messages);
  let budget = maxTokens - tokensOf(first);
  const kept: TurnMessage[][] = [];
  for (let i = rest.length - 1; i >= 0; i--) {
    const size = tokensOf(rest[i]);
    if (kept.length && size > budget) break;
    kept.unshift(rest[i]);
    budget -= size;
  }
  const dropped = rest.length - kept.length;
  if (!dropped) return messages;
  const droppedMessages = rest.slice(0, dropped).reduce((n, g) => n + g.length, 0);
  return [
    ...first,
    { role: "user", content: `(${droppedMessages} earlier message${droppedMessages === 1 ? " was" : "s were"} left out to fit the model's context.)` },
    ...kept.flat(),
  ];
}

const STUB_OVER = 400;

/** After a context-length refusal: tool results before the newest turn become stubs. */
export function compactHistory(messages: TurnMessage[]): TurnMessage[] {
  const lastTool = messages.findLastIndex((m) => m.role === "tool");
  return messages.map((m, i) =>
    m.role !== "tool" || i === lastTool
      ? m
      : {
          role: "tool",
          results: m.results.map((r) =>
            r.content.length > STUB_OVER ? { ...r, content: `${r.content.slice(0, STUB_OVER)}… [cut: ${r.content.length} characters]` } : r,
          ),
        },
  );
}

/**
 * A conversation as it is kept for the next wake: a last assistant turn whose tool calls never ran
 * (the run ended between the model call and its tools) gets results saying so, as every provider
 * requires an answer to each call.
 */
export function closedHistory(messages: TurnMessage[]): TurnMessage[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant" || !last.toolCalls.length) return messages;
  return [
    ...messages,
    { role: "tool", results: last.toolCalls.map((c) => ({ callId: c.id, name: c.name, content: "Not run: the run ended before this call.", isError: true })) },
  ];
}
