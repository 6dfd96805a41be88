// The adapter registry: every supported adapterType, and what the rest of the service asks of
// one: validation of its adapterConfig, where its runs execute (in the object, a gateway object or
// on a runner), and its attempt. Each adapter owns these in src/adapters/<type>.
import { unprocessable } from "../domain/errors";
import type { AdapterDefinition, AdapterWhere, Deployment } from "./types";
import { processAdapter } from "./process";
import { httpAdapter } from "./http";
import { localAdapters } from "./local";
import { remoteGatewayAdapter } from "./remote-gateway";
import { llmApiAdapter } from "./llm-api";

export type { AdapterDefinition, AdapterWhere, Deployment } from "./types";

export const adapterDefinitions: AdapterDefinition[] = [processAdapter, httpAdapter, ...localAdapters, remoteGatewayAdapter, llmApiAdapter];
const byType = new Map(adapterDefinitions.map((d) => [d.type, d]));
export const adapterTypes = adapterDefinitions.map((d) => d.type) as [string, ...string[]];

export const findAdapter = (type: string) => byType.get(type) ?? null;

/** The adapter of a stored agent or run (its type was checked when it was written). */
export function adapterOf(type: string): AdapterDefinition {
  const definition = byType.get(type);
  if (!definition) throw new Error(`Unknown adapterType "${type}"`);
  return definition;
}

/** The adapter types whose runs execute at any of `places`. */
export const typesWhere = (...places: AdapterWhere[]) => adapterDefinitions.filter((d) => places.includes(d.where)).map((d) => d.type);

/** The adapter of a type given in a request: 422 for an unknown one. */
export function requireAdapter(type: string): AdapterDefinition {
  const definition = byType.get(type);
  if (!definition) throw unprocessable(`Unknown adapterType "${type}"; supported: ${adapterTypes.join(", ")}`, { adapterType: type });
  return definition;
}

/**
 * Validates and normalises adapterConfig for `type` (422 naming the broken fields).
 * `creating` fills create-time defaults such as a local runtime's model.
 */
export function validateAdapterConfig(type: string, config: Record<string, unknown>, options: { creating: boolean }): Record<string, unknown> {
  const definition = requireAdapter(type);
  const parsed = definition.configSchema.safeParse(config);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: ["adapterConfig", ...i.path.map(String)], message: i.message }));
    const summary = issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".")}: ${i.message}`)
      .join("; ");
    throw unprocessable(`Invalid adapterConfig for ${type}: ${summary}`, issues);
  }
  let value = parsed.data;
  if (options.creating && definition.createDefaults) value = definition.createDefaults(value);
  if (definition.normalize) value = definition.normalize(value);
  return value;
}

/** What this deployment offers the adapters' policy checks (src/adapters/types.ts). */
export const deploymentOf = (env: Pick<Env, "SERVER_EXPOSURE"> & { AI?: unknown }): Deployment => ({
  exposure: env.SERVER_EXPOSURE === "public" ? "public" : "private",
  workersAi: env.AI !== undefined && env.AI !== null,
});
