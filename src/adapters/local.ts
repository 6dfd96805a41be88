// The `<runtime>_local` family: a coding-agent CLI run on the host, with skills installed
// into its persistent home. A default model is filled on create.
import { z } from "zod";
import type { AdapterDefinition } from "./types";
import { EnvBindingsSchema, envField } from "./env-schema";
import { onRunner, RUNNER_DEFAULTS, runnerTimeoutSec } from "./runner";

const runtimes: Array<{ runtime: string; label: string; defaultModel: string; command: string }> = [
  { runtime: "claude", label: "Claude Code", defaultModel: "claude-sonnet-4-5", command: "claude" },
  { runtime: "codex", label: "Codex CLI", defaultModel: "gpt-5-codex", command: "codex" },
  { runtime: "gemini", label: "Gemini CLI", defaultModel: "gemini-2.5-pro", command: "gemini" },
  { runtime: "opencode", label: "OpenCode", defaultModel: "anthropic/claude-sonnet-4-5", command: "opencode" },
  { runtime: "cursor", label: "Cursor Agent CLI", defaultModel: "auto", command: "cursor-agent" },
  { runtime: "pi", label: "Pi coding agent", defaultModel: "claude-sonnet-4-5", command: "pi" },
];

function localAdapter(r: (typeof runtimes)[number]): AdapterDefinition {
  return {
    type: `${r.runtime}_local`,
    label: `${r.label} (local)`,
    description: `Runs the ${r.label} CLI (\`${r.command}\`) on the host for each heartbeat. Skills are installed into its persistent home.`,
    fields: [
      { name: "model", required: false, default: r.defaultModel, description: "Model the CLI uses (filled with the default on create)." },
      { name: "cwd", required: false, description: "Working directory (usually the project checkout)." },
      { name: "command", required: false, default: r.command, description: "Override of the CLI executable." },
      { name: "extraArgs", required: false, default: [], description: "Extra CLI arguments (array of strings)." },
      { name: "instructionsFilePath", required: false, description: "Path of an instructions file (e.g. AGENTS.md) given to the runtime." },
      { name: "promptTemplate", required: false, description: "Template of the prompt sent on each wake." },
      envField,
      { name: "timeoutSec", required: false, default: RUNNER_DEFAULTS.timeoutSec, description: "Run timeout in seconds (0 = no timeout)." },
      { name: "maxTurnsPerRun", required: false, description: "Upper bound on agent turns per run." },
    ],
    configSchema: z.looseObject({
      model: z.string().trim().min(1).optional(),
      cwd: z.string().min(1).optional(),
      command: z.string().trim().min(1).optional(),
      extraArgs: z.array(z.string()).optional(),
      instructionsFilePath: z.string().min(1).optional(),
      promptTemplate: z.string().optional(),
      env: EnvBindingsSchema.optional(),
      timeoutSec: runnerTimeoutSec.optional(),
      maxTurnsPerRun: z.number().int().min(1).optional(),
    }),
    ...onRunner,
    skillsMode: "persistent",
    createDefaults: (config) => ({ ...config, model: config.model ?? r.defaultModel }),
    example: { model: r.defaultModel, cwd: "/srv/projects/app" },
  };
}

export const localAdapters = runtimes.map(localAdapter);
