// What an adapter (how an agent runs) declares: its config schema, defaults, skill support,
// and the field documentation the llms guides are generated from.
import type { z } from "zod";

export interface AdapterField {
  name: string;
  required: boolean;
  default?: unknown;
  description: string;
}

export interface AdapterDefinition {
  type: string;
  label: string;
  description: string;
  fields: AdapterField[];
  /** Validates adapterConfig (unknown keys are kept). */
  configSchema: z.ZodType<Record<string, unknown>>;
  /** `persistent`: skill files are installed into the runtime; `unsupported`: it cannot receive them. */
  skillsMode: "persistent" | "unsupported";
  /** Defaults filled on create only (e.g. a default model). */
  createDefaults?: (config: Record<string, unknown>) => Record<string, unknown>;
  /** Normalisation after schema validation (URL mapping, policy checks); throws 422 on a broken rule. */
  normalize?: (config: Record<string, unknown>) => Record<string, unknown>;
  /** Deployment policy on the stored config (e.g. no private-network targets when public); throws 422. */
  checkPolicy?: (config: Record<string, unknown>, deployment: { exposure: "private" | "public" }) => void;
  /** Config keys holding credentials that must be stored as secret references. */
  secretFields?: string[];
  example: Record<string, unknown>;
}
