// The `<runtime>_local` adapters: a coding-agent CLI run by a runner on a user's machine. Their
// config is defined here once (zod/mini): the service validates an agent's adapterConfig with it
// (src/adapters/local.ts) and the runner reads a run's config with it (src/cli/runtimes/), so the
// two cannot disagree about a field.
import * as z from "zod/mini";

export const LOCAL_RUNTIMES = ["claude", "codex", "gemini", "opencode", "cursor", "pi"] as const;
export type LocalRuntime = (typeof LOCAL_RUNTIMES)[number];

export interface LocalRuntimeInfo {
  runtime: LocalRuntime;
  label: string;
  /** Executables tried in order when `command` is not set (Cursor's CLI is `agent`, formerly `cursor-agent`). */
  commands: readonly string[];
  /** Filled on create; OpenCode and Pi take `provider/model`. */
  defaultModel: string;
  /** Whether the CLI limits turns itself (else the runner counts the model's tool-calling steps). */
  nativeMaxTurns: boolean;
}

export const LOCAL_RUNTIME_INFO: Record<LocalRuntime, LocalRuntimeInfo> = {
  claude: { runtime: "claude", label: "Claude Code", commands: ["claude"], defaultModel: "claude-sonnet-4-5", nativeMaxTurns: true },
  codex: { runtime: "codex", label: "Codex CLI", commands: ["codex"], defaultModel: "gpt-5-codex", nativeMaxTurns: false },
  gemini: { runtime: "gemini", label: "Gemini CLI", commands: ["gemini"], defaultModel: "gemini-2.5-pro", nativeMaxTurns: false },
  opencode: { runtime: "opencode", label: "OpenCode", commands: ["opencode"], defaultModel: "anthropic/claude-sonnet-4-5", nativeMaxTurns: false },
  cursor: { runtime: "cursor", label: "Cursor Agent CLI", commands: ["agent", "cursor-agent"], defaultModel: "auto", nativeMaxTurns: false },
  pi: { runtime: "pi", label: "Pi coding agent", commands: ["pi"], defaultModel: "anthropic/claude-sonnet-4-5", nativeMaxTurns: false },
};

/** The runtime of a `<runtime>_local` adapter type, or null. */
export function localRuntimeOf(adapterType: string): LocalRuntime | null {
  const runtime = adapterType.endsWith("_local") ? adapterType.slice(0, -"_local".length) : "";
  return (LOCAL_RUNTIMES as readonly string[]).includes(runtime) ? (runtime as LocalRuntime) : null;
}

const Text = z.string().check(z.trim(), z.minLength(1));
/** `provider/model`, as OpenCode and Pi take it. */
const ProviderModel = z.string().check(z.trim(), z.regex(/^[^/\s]+\/\S+$/, "must be provider/model, e.g. anthropic/claude-sonnet-4-5"));

const EnvBindings = z.record(
  z.string(),
  z.union([z.string(), z.object({ type: z.literal("plain"), value: z.string() }), z.looseObject({ type: z.enum(["secret_ref", "secret"]) })]),
);

/** Fields every local runtime takes. */
const common = {
  model: z.optional(Text),
  cwd: z.optional(z.string().check(z.minLength(1))),
  command: z.optional(Text),
  extraArgs: z.optional(z.array(z.string())),
  instructionsFilePath: z.optional(z.string().check(z.minLength(1))),
  promptTemplate: z.optional(z.string()),
  env: z.optional(EnvBindings),
  timeoutSec: z.optional(z.int().check(z.minimum(0))),
  graceSec: z.optional(z.int().check(z.minimum(0))),
  maxTurnsPerRun: z.optional(z.int().check(z.minimum(1))),
};

/** Each runtime's own fields: how it runs unattended. */
const own = {
  claude: { dangerouslySkipPermissions: z.optional(z.boolean()) },
  codex: { dangerouslyBypassApprovalsAndSandbox: z.optional(z.boolean()), skipGitRepoCheck: z.optional(z.boolean()) },
  gemini: { approvalMode: z.optional(z.enum(["yolo", "auto_edit", "default"])), sandbox: z.optional(z.boolean()) },
  opencode: { dangerouslySkipPermissions: z.optional(z.boolean()), model: z.optional(ProviderModel) },
  cursor: { dangerouslySkipPermissions: z.optional(z.boolean()) },
  pi: {
    tools: z.optional(z.array(z.string().check(z.regex(/^[a-z_]+$/, "a tool name such as read, bash, edit"))).check(z.minLength(1))),
    model: z.optional(ProviderModel),
  },
} as const;

export const LOCAL_CONFIG_SCHEMAS = {
  claude: z.looseObject({ ...common, ...own.claude }),
  codex: z.looseObject({ ...common, ...own.codex }),
  gemini: z.looseObject({ ...common, ...own.gemini }),
  opencode: z.looseObject({ ...common, ...own.opencode }),
  cursor: z.looseObject({ ...common, ...own.cursor }),
  pi: z.looseObject({ ...common, ...own.pi }),
};

/** A run's config as the runner reads it (every field optional; the unattended switches default on). */
export interface LocalConfig {
  model?: string;
  cwd?: string;
  command?: string;
  extraArgs?: string[];
  instructionsFilePath?: string;
  promptTemplate?: string;
  timeoutSec?: number;
  graceSec?: number;
  maxTurnsPerRun?: number;
  dangerouslySkipPermissions?: boolean;
  dangerouslyBypassApprovalsAndSandbox?: boolean;
  skipGitRepoCheck?: boolean;
  approvalMode?: "yolo" | "auto_edit" | "default";
  sandbox?: boolean;
  tools?: string[];
}

/** The fields of a stored config the runtime's schema accepts, each on its own (a bad field reads as unset). */
export function readLocalConfig(runtime: LocalRuntime, stored: Record<string, unknown>): LocalConfig {
  const shape = LOCAL_CONFIG_SCHEMAS[runtime].def.shape as Record<string, z.ZodMiniType>;
  const config: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    if (name === "env") continue;
    const parsed = field.safeParse(stored[name]);
    if (parsed.success && parsed.data !== undefined) config[name] = parsed.data;
  }
  return config as LocalConfig;
}

/** What each field does, for the adapters' field lists (GET /api/llms/…, forms). */
export const LOCAL_FIELD_DOCS: Record<string, { description: string; default?: unknown }> = {
  model: { description: "Model the CLI uses (filled with the runtime's default on create)." },
  cwd: {
    description:
      "Working directory of the CLI (usually the project checkout; the runner's own directory when unset). A session saved for another directory is not resumed.",
  },
  command: { description: "Executable to run, when it is not the runtime's default on PATH." },
  extraArgs: { description: "Extra CLI arguments (array of strings), after the ones the runner passes.", default: [] },
  instructionsFilePath: {
    description: "An instructions file (e.g. AGENTS.md) on the runner's machine, given to the CLI the way it takes instructions (new sessions only).",
  },
  promptTemplate: {
    description:
      "Replaces the default prompt: {{agent.name}}, {{issue.identifier}}, {{issue.title}}, {{wakeReason}}, {{wakeText}}, {{comments}}, {{defaultPrompt}}, …",
  },
  timeoutSec: { description: "Run timeout in seconds (0 = no timeout).", default: 0 },
  graceSec: { description: "Seconds between SIGTERM and SIGKILL when a run is stopped.", default: 15 },
  maxTurnsPerRun: {
    description:
      "Upper bound on the model's turns per run; the run ends with max_turns (Claude limits itself; for the other CLIs the runner counts tool-calling steps).",
  },
  dangerouslySkipPermissions: { description: "Run without permission prompts (needed unattended; false keeps the CLI's own rules).", default: true },
  dangerouslyBypassApprovalsAndSandbox: { description: "Codex: no approvals and no sandbox (false: a workspace-write sandbox).", default: true },
  skipGitRepoCheck: { description: "Codex: run outside a git repository.", default: true },
  approvalMode: { description: "Gemini: yolo (approve everything, and trust the working directory), auto_edit or default.", default: "yolo" },
  sandbox: { description: "Gemini: run tools in its sandbox.", default: false },
  tools: { description: 'Pi: the tools it may use (e.g. ["read", "bash", "edit", "write"]; default: Pi\'s own set).' },
};

/** The fields each runtime's schema declares, in order. */
export const localFieldNames = (runtime: LocalRuntime) => Object.keys(LOCAL_CONFIG_SCHEMAS[runtime].def.shape);
