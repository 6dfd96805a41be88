// What the runner adapters (`process`, `<runtime>_local`) share on the service's side: they run on
// a user's machine through a connected runner (src/company/runs/attempts/runner.ts), which reads
// the rest of their config; the service reads the run timeout and renders the prompt template.
import { z } from "zod";
import { acceptedFields } from "./config";
import type { AdapterDefinition } from "./types";

/** Where a runner adapter's runs execute: pushed to a runner serving the agent (src/company/runs/attempts/runner.ts). */
export const onRunner = { where: "runner" } satisfies Pick<AdapterDefinition, "where">;

/** Run timeout in seconds, 0 for none: a field of every runner adapter's schema. */
export const runnerTimeoutSec = z.number().int().min(0);

/** What a field left out means. */
export const RUNNER_DEFAULTS = { timeoutSec: 0 };

const runnerConfigSchema = z.looseObject({ timeoutSec: runnerTimeoutSec.optional(), promptTemplate: z.string().optional() });

/** The stored config of a runner adapter as the service uses it: the run timeout and the prompt template. */
export function readRunnerConfig(stored: Record<string, unknown>): { timeoutSec: number; promptTemplate?: string } {
  return { ...RUNNER_DEFAULTS, ...acceptedFields(runnerConfigSchema, stored) };
}
