// One model call: the provider's request, its answer (streamed text to `onText`), and any failure
// classified (errors.ts). The caller (the loop object) owns the abort signal: cancel, the request
// timeout and the run's deadline abort the call in flight.
import { createParser } from "eventsource-parser";
import type { LlmApiConfig } from "./config";
import { classifyHttpFailure } from "./errors";
import { OpenAiStream, openAiBody, parseOpenAiReply } from "./openai";
import { ANTHROPIC_VERSION, AnthropicStream, anthropicBody, parseAnthropicReply } from "./anthropic";
import { classifyWorkersAiError, parseWorkersAiReply, workersAiInputs } from "./workers-ai";
import { ProviderFailure, type ModelReply, type ModelRequest, type TextSink } from "./turns";

/** The Workers AI binding as the loop calls it. */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

export interface CallOptions {
  apiKey: string | null;
  signal: AbortSignal;
  onText: TextSink;
  ai?: AiBinding | null;
  /** Names the synthesised call ids of models that give none (Workers AI's older shape). */
  callIdPrefix: string;
  fetcher?: typeof fetch;
}

/** Where a provider's request goes. */
export const endpointOf = (config: Pick<LlmApiConfig, "provider" | "baseUrl">) =>
  config.provider === "anthropic" ? `${config.baseUrl}/messages` : `${config.baseUrl}/chat/completions`;

const isOfficialOpenAi = (baseUrl: string) => {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
};

/** Headers of a provider request: the key only here, in the provider's own header. */
function requestHeaders(config: LlmApiConfig, apiKey: string | null): Headers {
  const headers = new Headers(config.headers);
  headers.set("content-type", "application/json");
  if (config.provider === "anthropic") {
    headers.set("anthropic-version", ANTHROPIC_VERSION);
    if (apiKey) headers.set("x-api-key", apiKey);
  } else if (apiKey) headers.set("authorization", `Bearer ${apiKey}`);
  return headers;
}

export async function callModel(config: LlmApiConfig, request: ModelRequest, options: CallOptions): Promise<ModelReply> {
  if (config.provider === "workers_ai") {
    if (!options.ai) throw new ProviderFailure("fail", "adapter_refused", "This deployment has no Workers AI binding (AI)");
    let answer: unknown;
    try {
      answer = await abortable(options.ai.run(request.model, workersAiInputs(request)), options.signal);
    } catch (err) {
      if (options.signal.aborted) throw err;
      throw classifyWorkersAiError(err);
    }
    const reply = parseWorkersAiReply(answer, options.callIdPrefix);
    if (reply.text) options.onText(reply.text);
    return reply;
  }
  const body = config.provider === "anthropic" ? anthropicBody(request) : openAiBody(request, { official: isOfficialOpenAi(config.baseUrl) });
  let response: Response;
  try {
    response = await (options.fetcher ?? fetch)(endpointOf(config), {
      method: "POST",
      headers: requestHeaders(config, options.apiKey),
      body: JSON.stringify(body),
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal.aborted) throw err;
    throw new ProviderFailure("retry", "provider_unavailable", `Could not reach the model API: ${(err as Error)?.message ?? err}`);
  }
  if (!response.ok) throw classifyHttpFailure(response.status, await response.text().catch(() => ""), response.headers);
  const streamed = response.headers.get("content-type")?.includes("text/event-stream");
  if (!streamed) {
    const text = await response.text();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ProviderFailure("retry", "provider_unavailable", `The model API answered something that is not JSON: ${text.slice(0, 200)}`);
    }
    const reply = config.provider === "anthropic" ? parseAnthropicReply(parsed) : parseOpenAiReply(parsed);
    if (reply.text) options.onText(reply.text);
    return reply;
  }
  const stream = config.provider === "anthropic" ? new AnthropicStream(options.onText) : new OpenAiStream(options.onText);
  let failure: unknown = null;
  const parser = createParser({
    onEvent: (message) => {
      if (failure) return;
      try {
        stream.push(message.data);
      } catch (err) {
        failure =
          err instanceof ProviderFailure ? err : new ProviderFailure("retry", "provider_unavailable", `Unreadable stream chunk: ${(err as Error).message}`);
      }
    },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
    if (failure) {
      await reader.cancel().catch(() => {});
      throw failure;
    }
  }
  return stream.reply();
}

/** A promise that rejects when `signal` aborts (the binding takes no signal). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
