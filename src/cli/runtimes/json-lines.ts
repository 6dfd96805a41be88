// Helpers the runtimes' parsers share: reading a line as a JSON object, text from the shapes CLIs
// use for content, numbers, and coalescing streamed text deltas into one transcript entry.
import type { ParsedOutput, TranscriptEvent } from "./types";

export type Json = Record<string, unknown>;

/** The line as a JSON object, or null (blank, not JSON, or not an object). */
export function jsonLine(text: string): Json | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    const value = JSON.parse(trimmed);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/**
 * A parser's handling of one stdout line: a JSON object goes to `onEvent` (its transcript entries
 * come back); anything else is counted in `out.plainLines` (it stays in the log).
 */
export function jsonLineHandler(out: ParsedOutput, text: string, onEvent: (event: Json) => TranscriptEvent[]): TranscriptEvent[] {
  const event = jsonLine(text);
  if (!event) {
    if (text.trim()) out.plainLines++;
    return [];
  }
  return onEvent(event);
}

/** The transcript's note of the session a CLI opened (its id and model). */
export const sessionStatus = (out: ParsedOutput, word = "Session", defaultModel = "default model"): TranscriptEvent => ({
  kind: "status",
  message: `${word} ${out.sessionId ?? "?"} (${out.model ?? defaultModel})`,
  data: { sessionId: out.sessionId, model: out.model },
});

/** Model providers' API keys a multi-provider CLI (OpenCode, Pi) reads. */
export const PROVIDER_KEYS = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "OPENROUTER_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "XAI_API_KEY",
] as const;

export const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
export const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
export const numOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null);

/** Text of a content value: a string, a list of `{ text }` parts, or `{ text }`. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(textOf).filter(Boolean).join("\n");
  const o = obj(content);
  return typeof o.text === "string" ? o.text : typeof o.content === "string" ? o.content : "";
}

/** A value as short display text for a tool call or result message. */
export function brief(value: unknown, max = 500): string {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Streamed text deltas of one kind become one transcript entry, emitted when something else arrives. */
export class DeltaBuffer {
  private kind: "assistant" | "thinking" | null = null;
  private text = "";

  /** Adds a delta; returns what it ended (the other kind's buffered text). */
  add(kind: "assistant" | "thinking", delta: string): TranscriptEvent[] {
    const out = this.kind !== kind ? this.flush() : [];
    this.kind = kind;
    this.text += delta;
    return out;
  }

  flush(): TranscriptEvent[] {
    const out: TranscriptEvent[] = this.kind && this.text.trim() ? [{ kind: this.kind, message: this.text }] : [];
    this.kind = null;
    this.text = "";
    return out;
  }
}
