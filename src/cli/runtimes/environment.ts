// The environment a runtime CLI starts with: an allowlist, not the runner's environment. It holds
// the basics a CLI needs (PATH, HOME, user, shell, temp directory, terminal, locale, proxies and CA
// files), the CLI's own credential and configuration variables (its driver's list), the run's
// service variables and the agent's env — never the runner's own key (ACP_TOKEN), and never the
// variables that make a nested Claude Code refuse to start.
import type { RunStart } from "../../protocol/runner";
import type { RuntimeDriver } from "./types";

const BASICS = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TMP",
  "TEMP",
  "TERM",
  "COLORTERM",
  "LANG",
  "LANGUAGE",
  "TZ",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  "SSH_AUTH_SOCK",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
];

/** Set by a Claude Code session: a `claude` started with them refuses to run (nested session). */
export const NESTED_SESSION_VARIABLES = ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SESSION", "CLAUDE_CODE_PARENT_SESSION", "CLAUDE_CODE_SSE_PORT"];

/** Never handed to a run: the runner's own credentials. */
const RUNNER_OWN = ["ACP_TOKEN"];

/** The run's service variables (what the prompt tells the agent to use). */
export function serviceVariables(start: RunStart): Record<string, string> {
  const context = start.context ?? {};
  const vars: Record<string, string> = {
    SERVICE_AGENT_ID: start.agentId,
    SERVICE_COMPANY_ID: start.companyId,
    SERVICE_RUN_ID: start.runId,
    SERVICE_API_URL: start.apiUrl,
    SERVICE_API_KEY: start.apiToken,
    SERVICE_WAKE_REASON: String(context.wakeReason ?? ""),
  };
  if (typeof context.issueId === "string") vars.SERVICE_TASK_ID = context.issueId;
  if (typeof start.adapterConfig.model === "string") vars.SERVICE_MODEL = start.adapterConfig.model;
  return vars;
}

/** The child's environment for a runtime CLI: the allowlisted part of `base`, the agent's env, the run's service variables. */
export function runtimeEnvironment(
  driver: RuntimeDriver,
  agentEnv: Record<string, string>,
  service: Record<string, string>,
  base: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  const allowed = new Set([...BASICS, ...driver.credentialEnv]);
  for (const [key, value] of Object.entries(base)) {
    if (typeof value === "string" && (allowed.has(key) || key.startsWith("LC_"))) env[key] = value;
  }
  Object.assign(env, agentEnv, service);
  for (const key of [...NESTED_SESSION_VARIABLES, ...RUNNER_OWN]) delete env[key];
  return env;
}

/** The environment of a `process` run: the runner's own (minus its key), the run's env, the service variables. */
export function processEnvironment(start: RunStart, base: Record<string, string | undefined> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (typeof v === "string") env[k] = v;
  Object.assign(env, start.env, serviceVariables(start));
  for (const key of RUNNER_OWN) delete env[key];
  return env;
}
