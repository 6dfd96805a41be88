// A provider's error answer, classified: wait, retry, compact or fail (with the run error code).
// The table (OpenAI, Anthropic, OpenRouter, LiteLLM, Workers AI) is in ../shared/research/edge-agent.md §2:
// quota exhaustion is never retried, rate limits wait for the provider's reset time, transient
// failures are retried with back-off, a prompt too long is shortened once, the rest end the run.
import { retryAfterSeconds } from "../http/invoke";
import { ProviderFailure, type ProviderJson } from "./turns";

/** The wait a 429 asks for (ms): retry-after-ms, retry-after, or the provider's reset headers; null when none says. */
export function providerWaitMs(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return Math.min(ms, 3600_000);
  const seconds = retryAfterSeconds(headers.get("retry-after"), now);
  if (seconds !== null) return seconds * 1000;
  // Anthropic: RFC 3339 reset times; OpenAI: durations such as "6m0s" or "1.5s".
  const resets: number[] = [];
  for (const [name, value] of headers) {
    if (/^anthropic-ratelimit-.*-reset$/.test(name)) {
      const at = Date.parse(value);
      if (Number.isFinite(at)) resets.push(at - now);
    } else if (/^x-ratelimit-reset-(requests|tokens)$/.test(name)) {
      const d = parseDuration(value);
      if (d !== null) resets.push(d);
    }
  }
  const positive = resets.filter((r) => r > 0);
  return positive.length ? Math.min(Math.max(...positive), 3600_000) : null;
}

/** "6m0s", "1.5s", "250ms", "1h2m" → ms; null when unreadable. */
export function parseDuration(text: string): number | null {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== text.trim()) return null;
  const unit = { h: 3600_000, m: 60_000, s: 1000, ms: 1 } as const;
  return parts.reduce((total, [, n, u]) => total + Number(n) * unit[u as keyof typeof unit], 0);
}

/** The error's code, type and message as OpenAI, Anthropic, OpenRouter and LiteLLM word them. */
function errorFields(body: string): { code: string; type: string; message: string } {
  try {
    const parsed = JSON.parse(body) as ProviderJson;
    const e = (parsed?.error ?? parsed) as ProviderJson;
    const details = (e?.details ?? {}) as Record<string, unknown>;
    const message = typeof e?.message === "string" ? e.message : typeof parsed?.message === "string" ? parsed.message : body.slice(0, 500);
    return { code: String(e?.code ?? details.error_code ?? ""), type: String(e?.type ?? ""), message };
  } catch {
    return { code: "", type: "", message: body.slice(0, 500) };
  }
}

const CONTEXT = /context_length_exceeded|prompt is too long|maximum context length|context window|too many tokens/i;
const QUOTA = /insufficient_quota|enforced_spend_limit|spend limit|billing|credit balance|quota/i;

/** A non-2xx answer of a model API as the loop acts on it. */
export function classifyHttpFailure(status: number, body: string, headers: Headers, now = Date.now()): ProviderFailure {
  const { code, type, message } = errorFields(body);
  const text = `HTTP ${status}${message ? `: ${message}` : ""}`;
  const signal = `${code} ${type} ${message}`;
  if (status === 402 || ((status === 429 || status === 403 || status === 400) && QUOTA.test(`${code} ${type}`)) || /enforced_spend_limit/.test(signal))
    return new ProviderFailure("fail", "provider_quota", `The provider's quota or spend limit is exhausted (${text})`);
  if (status === 429) return new ProviderFailure("wait", "provider_rate_limited", `Rate limited by the provider (${text})`, providerWaitMs(headers, now));
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT.test(signal)))
    return new ProviderFailure("compact", "context_length", `The conversation is longer than the model's context (${text})`);
  if (status === 401 || (status === 403 && /auth|key|permission/i.test(signal)))
    return new ProviderFailure("fail", "auth_required", `The provider refused the API key (${text})`);
  if (status === 403 && /moderat|flagged|content/i.test(signal))
    return new ProviderFailure("fail", "content_filtered", `The provider's moderation refused (${text})`);
  if (status === 404) return new ProviderFailure("fail", "model_not_found", `The provider does not know this model or URL (${text})`);
  if (status === 408 || status === 409 || status >= 500 || headers.get("x-should-retry") === "true")
    return new ProviderFailure("retry", "provider_unavailable", `The provider is unavailable (${text})`, providerWaitMs(headers, now));
  return new ProviderFailure("fail", "adapter_refused", `The provider refused the request (${text})`);
}

/** An error reported in a 200 answer or mid-stream (OpenRouter, Anthropic's `error` event). */
export function classifyInlineError(error: unknown): ProviderFailure {
  const e = (error && typeof error === "object" ? error : { message: String(error) }) as Record<string, unknown>;
  const status = typeof e.code === "number" ? e.code : /overloaded/i.test(String(e.type)) ? 529 : 500;
  return classifyHttpFailure(status, JSON.stringify({ error: e }), new Headers());
}
