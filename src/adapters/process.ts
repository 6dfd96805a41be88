// `process`: runs a local command for each heartbeat.
import { z } from "zod";
import type { AdapterDefinition } from "./types";
import { EnvBindingsSchema, envField } from "./env-schema";
import { onRunner, RUNNER_DEFAULTS, runnerTimeoutSec } from "./runner";

export const processAdapter: AdapterDefinition = {
  type: "process",
  label: "Local process",
  description: "Runs a command on the host for each heartbeat; the wake context is passed in the environment.",
  fields: [
    { name: "command", required: true, description: "Executable to run (absolute path or a name on PATH)." },
    { name: "args", required: false, default: [], description: "Arguments passed to the command (array of strings)." },
    { name: "cwd", required: false, description: "Working directory of the process." },
    envField,
    { name: "timeoutSec", required: false, default: RUNNER_DEFAULTS.timeoutSec, description: "Run timeout in seconds (0 = no timeout)." },
    { name: "graceSec", required: false, default: 15, description: "Seconds between SIGTERM and SIGKILL when a run is stopped." },
  ],
  configSchema: z.looseObject({
    command: z.string().trim().min(1, "command is required"),
    args: z.array(z.string()).optional(),
    cwd: z.string().min(1).optional(),
    env: EnvBindingsSchema.optional(),
    timeoutSec: runnerTimeoutSec.optional(),
    graceSec: z.number().int().min(0).optional(),
  }),
  ...onRunner,
  skillsMode: "unsupported",
  example: { command: "/usr/local/bin/my-agent", args: ["--once"], cwd: "/srv/agent", env: { LOG_LEVEL: "info" } },
};
