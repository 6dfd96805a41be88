// What an adapter (how an agent runs) declares: its config schema, defaults, skill support, where
// its runs execute (the run engine's attempt for that place is in src/company/runs/attempts/), and
// the field documentation the llms guides are generated from. Adapters import nothing of the run
// engine or the objects (test/unit/layers.test.ts).

/**
 * Where a run executes: in the company object (one call per attempt), in a gateway object (a
 * GatewayRunObject holding the remote stream), in a loop object (an AgentLoopObject running the
 * model's tool loop itself), or on a user's machine (a connected runner).
 */
export type AdapterWhere = "object" | "gateway" | "loop" | "runner";

/** What a deployment offers an adapter's policy check: how it is exposed, and whether Workers AI is bound. */
export interface Deployment {
  exposure: "private" | "public";
  workersAi: boolean;
}

/**
 * A run's usage as an adapter reports it (an agent endpoint's own report, a gateway's, a runtime's):
 * becomes the run's cost event (src/domain/runs/usage.ts).
 */
export interface RunUsage {
  provider?: unknown;
  model?: unknown;
  inputTokens?: unknown;
  cachedInputTokens?: unknown;
  outputTokens?: unknown;
  costCents?: unknown;
  /** A runtime's own cost in US dollars. */
  costUsd?: unknown;
  billingType?: unknown;
}

/** What validating an adapterConfig needs of its schema. */
export interface ConfigSchema {
  safeParse(
    value: unknown,
  ): { success: true; data: Record<string, unknown> } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

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
  /** Validates adapterConfig (unknown keys are kept): a zod schema (zod or zod/mini). */
  configSchema: ConfigSchema;
  /** Where its runs execute (which agents the dispatcher starts runs for, which runs a runner may take). */
  where: AdapterWhere;
  /** `persistent`: skill files are installed into the runtime; `unsupported`: it cannot receive them. */
  skillsMode: "persistent" | "unsupported";
  /** Defaults filled on create only (e.g. a default model). */
  createDefaults?: (config: Record<string, unknown>) => Record<string, unknown>;
  /** Normalisation after schema validation (URL mapping, policy checks); throws 422 on a broken rule. */
  normalize?: (config: Record<string, unknown>) => Record<string, unknown>;
  /** Deployment policy on the stored config (e.g. no private-network targets when public); throws 422. */
  checkPolicy?: (config: Record<string, unknown>, deployment: Deployment) => void;
  /** Config keys holding credentials that must be stored as secret references. */
  secretFields?: string[];
  example: Record<string, unknown>;
}
