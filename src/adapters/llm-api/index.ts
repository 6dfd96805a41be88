// `llm_api`: an agent that runs at the edge with nothing but a model API. The service runs the
// whole tool loop itself (model call → the agent's own API as tools → next model call) in an
// AgentLoopObject per run (src/company/agent-loop.ts).
import type { AdapterDefinition } from "../types";
import { unprocessable } from "../../domain/errors";
import { isPrivateTarget } from "../../net/hosts";
import { DEFAULT_WORKERS_AI_MODEL, LLM_API_DEFAULTS, llmApiConfigSchema, normalizeLlmApiConfig, RESERVED_LLM_HEADERS } from "./config";

export const llmApiAdapter: AdapterDefinition = {
  type: "llm_api",
  label: "Model API (runs at the edge)",
  description:
    "Runs the agent's whole loop inside the service: each turn calls the model (OpenAI-compatible Chat Completions, Anthropic Messages or Workers AI), executes the tool calls against the agent's own API with its own permissions, and calls the model again until it answers without tools. Nothing of yours needs to run anywhere: only a model API (and its key).",
  fields: [
    {
      name: "provider",
      required: true,
      description:
        "openai_compatible (OpenAI, OpenRouter, Ollama, vLLM, LM Studio, LiteLLM: the Chat Completions shape at baseUrl), anthropic (the Messages API) or workers_ai (the deployment's Workers AI binding).",
    },
    {
      name: "baseUrl",
      required: false,
      description:
        "API root: /chat/completions (openai_compatible, required) or /messages (anthropic, default https://api.anthropic.com/v1) is appended. Not used by workers_ai. A private-network address is refused when the service is publicly exposed.",
    },
    {
      name: "model",
      required: false,
      description: `Model id: required for openai_compatible and anthropic; workers_ai defaults to ${DEFAULT_WORKERS_AI_MODEL}.`,
    },
    {
      name: "apiKey",
      required: false,
      description:
        'The provider\'s API key: stored as a company secret (send the raw value or { "type": "secret_ref", "secretId": "<uuid>", "version": "latest" }), resolved for each model call and sent only to baseUrl. Not needed for workers_ai or a local server.',
    },
    {
      name: "headers",
      required: false,
      description: `Extra non-secret request headers (e.g. OpenRouter's HTTP-Referer); not ${RESERVED_LLM_HEADERS.join(", ")}.`,
    },
    { name: "instructions", required: false, description: "The agent's standing instructions, added to the service's prompt as the system message." },
    {
      name: "tools",
      required: false,
      description:
        "Allowlist of tool names (list_issues, show_issue, checkout_issue, comment_issue, …; GET /api/adapters lists them); default: every tool the agent may use. It narrows, never widens.",
    },
    { name: "maxTurns", required: false, default: LLM_API_DEFAULTS.maxTurns, description: "Model calls per run; the run ends max_turns after that." },
    { name: "maxOutputTokens", required: false, default: LLM_API_DEFAULTS.maxOutputTokens, description: "Output tokens per model call." },
    { name: "temperature", required: false, description: "Sampling temperature (0–2); the provider's default when left out." },
    { name: "timeoutSec", required: false, default: LLM_API_DEFAULTS.timeoutSec, description: "The whole run's time limit in seconds (timed_out after it)." },
    {
      name: "requestTimeoutSec",
      required: false,
      default: LLM_API_DEFAULTS.requestTimeoutSec,
      description: "One model call's time limit in seconds (retried after it).",
    },
    { name: "stream", required: false, default: LLM_API_DEFAULTS.stream, description: "Stream the model's text into the run's events as it is written." },
    {
      name: "maxContextTokens",
      required: false,
      default: LLM_API_DEFAULTS.maxContextTokens,
      description: "The conversation a wake continues is kept under this many tokens (estimated): the oldest turns are dropped, keeping the first message.",
    },
    {
      name: "pricing",
      required: false,
      description:
        "{ inputPerMTokUsd, cachedInputPerMTokUsd?, outputPerMTokUsd }: US dollars per million tokens. Default: the provider's reported cost (OpenRouter), else a built-in table by model, else tokens only.",
    },
  ],
  configSchema: llmApiConfigSchema,
  where: "loop",
  skillsMode: "unsupported",
  secretFields: ["apiKey"],
  normalize: normalizeLlmApiConfig,
  checkPolicy: (config, deployment) => {
    if (config.provider === "workers_ai" && !deployment.workersAi)
      throw unprocessable(
        'provider workers_ai needs the Workers AI binding (AI), which this deployment does not have: add [ai] binding = "AI" to its wrangler.toml environment (deployed only; local dev cannot use it), or use openai_compatible',
        { field: "provider" },
      );
    if (deployment.exposure === "public" && typeof config.baseUrl === "string" && isPrivateTarget(new URL(config.baseUrl).hostname))
      throw unprocessable("adapterConfig.baseUrl points at a loopback or private-network address, which a publicly exposed service refuses", {
        field: "baseUrl",
      });
  },
  example: { provider: "openai_compatible", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3:8b", maxTurns: 20 },
};
