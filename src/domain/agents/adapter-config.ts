// Adapter and runtime configuration as create and update store it: validated per adapter type,
// secrets turned into company secret references, desired skills written canonically.
import type { Statement } from "../../db/batch";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { unprocessable } from "../errors";
import { normalizeEnvBindings } from "../secrets/bindings";
import { deploymentOf, requireAdapter, validateAdapterConfig } from "../../adapters";
import { companySkillChoices, resolveDesiredSkills, storedDesiredSkills, withDesiredSkills } from "./skills";

/**
 * Validates adapterConfig for the type, stores env values and gateway credentials as secret
 * references (statements for the caller's batch), and writes desiredSkills canonically.
 */
export async function prepareAdapterConfig(
  ctx: CommandContext,
  actor: Actor,
  args: {
    adapterType: string;
    config: Record<string, unknown>;
    creating: boolean;
    ownerLabel: string;
    desiredSkills?: string[];
    /** Re-resolve skill references written directly under adapterConfig.paperclipSkillSync. */
    resolveStoredSkills: boolean;
  },
): Promise<{ config: Record<string, unknown>; statements: Statement[] }> {
  const definition = requireAdapter(args.adapterType);
  let config = validateAdapterConfig(args.adapterType, args.config, { creating: args.creating });
  definition.checkPolicy?.(config, deploymentOf(ctx.env));
  const statements: Statement[] = [];
  if (config.env !== undefined && config.env !== null) {
    const normalized = await normalizeEnvBindings(ctx, actor, config.env as Record<string, unknown>, { ownerLabel: args.ownerLabel });
    config = { ...config, env: normalized.env };
    statements.push(...normalized.statements);
  }
  for (const field of definition.secretFields ?? []) {
    const value = config[field];
    if (value === undefined || value === null) continue;
    const normalized = await normalizeEnvBindings(ctx, actor, { [field]: value }, { ownerLabel: `${args.ownerLabel}_${args.adapterType}` });
    const bound = normalized.env?.[field] as { type?: string } | undefined;
    if (bound?.type !== "secret_ref") {
      throw unprocessable(`adapterConfig.${field} must be a secret value or a secret reference`, { field });
    }
    config = { ...config, [field]: bound };
    statements.push(...normalized.statements);
  }
  const references = args.desiredSkills ?? (args.resolveStoredSkills ? storedDesiredSkills(config) : undefined);
  if (references !== undefined) {
    const choices = references.length ? await companySkillChoices(ctx.db, ctx.companyId) : [];
    config = withDesiredSkills(config, resolveDesiredSkills(references, choices));
  }
  return { config, statements };
}

export function runtimeConfigWithDefaults(runtime: Record<string, unknown> | undefined): Record<string, unknown> {
  const config = { ...(runtime ?? {}) };
  const heartbeat = config.heartbeat && typeof config.heartbeat === "object" ? (config.heartbeat as Record<string, unknown>) : {};
  config.heartbeat = { ...heartbeat, enabled: heartbeat.enabled === true };
  return config;
}

/** Shallow merge where a null value removes the key. */
export function mergeConfig(base: Record<string, unknown>, patch: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}
