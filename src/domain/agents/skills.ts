// Agent skills: resolving desiredSkills references to canonical keys, and the AgentSkillSnapshot.
import { unprocessable } from "../errors";
import { findAdapter } from "../adapters";
import { bundledSkills, type BundledSkill } from "./bundled-skills";

export const SKILL_SYNC_KEY = "paperclipSkillSync";

/**
 * Canonical keys for skill references (canonical key, or slug when unique), de-duplicated in
 * order. Unknown or ambiguous references fail with 422 naming every one of them.
 */
export function resolveDesiredSkills(references: string[], catalog: BundledSkill[] = bundledSkills): string[] {
  const unknown: string[] = [];
  const ambiguous: string[] = [];
  const keys: string[] = [];
  for (const raw of references) {
    const ref = raw.trim();
    const byKey = catalog.find((s) => s.key === ref);
    const bySlug = byKey ? [byKey] : catalog.filter((s) => s.slug === ref.toLowerCase());
    if (bySlug.length === 0) unknown.push(raw);
    else if (bySlug.length > 1) ambiguous.push(raw);
    else if (!keys.includes(bySlug[0].key)) keys.push(bySlug[0].key);
  }
  if (unknown.length || ambiguous.length) {
    const parts = [
      unknown.length ? `unknown: ${unknown.join(", ")}` : null,
      ambiguous.length ? `ambiguous: ${ambiguous.join(", ")}` : null,
    ].filter(Boolean);
    throw unprocessable(`Invalid skill selection (${parts.join("; ")})`, {
      unknown,
      ambiguous,
      available: catalog.map((s) => s.key),
    });
  }
  return keys;
}

/** The canonical desired skills stored in adapterConfig.paperclipSkillSync.desiredSkills. */
export function storedDesiredSkills(adapterConfig: Record<string, unknown> | null | undefined): string[] {
  const sync = adapterConfig?.[SKILL_SYNC_KEY];
  if (!sync || typeof sync !== "object" || Array.isArray(sync)) return [];
  const desired = (sync as Record<string, unknown>).desiredSkills;
  return Array.isArray(desired) ? desired.filter((s): s is string => typeof s === "string") : [];
}

/** adapterConfig with the desired skills written under paperclipSkillSync (other sync keys kept). */
export function withDesiredSkills(adapterConfig: Record<string, unknown>, desired: string[]): Record<string, unknown> {
  const current = adapterConfig[SKILL_SYNC_KEY];
  const sync = current && typeof current === "object" && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
  return { ...adapterConfig, [SKILL_SYNC_KEY]: { ...sync, desiredSkills: desired } };
}

export interface AgentSkillSnapshot {
  adapterType: string;
  supported: boolean;
  mode: "persistent" | "unsupported";
  desiredSkills: string[];
  entries: Array<{ key: string; runtimeName: string; desired: boolean; managed: boolean; state: string; origin: string }>;
  warnings: string[];
}

/**
 * Every bundled skill with its state for this agent: `installed` (desired, adapter can receive
 * skills), `available` (not desired), `unsupported` (desired, adapter cannot receive skill files),
 * `missing` (desired key no longer in the catalog).
 */
export function skillSnapshot(agent: { adapterType: string; adapterConfig: Record<string, unknown> }): AgentSkillSnapshot {
  const mode = findAdapter(agent.adapterType)?.skillsMode ?? "unsupported";
  const supported = mode === "persistent";
  const desired = storedDesiredSkills(agent.adapterConfig);
  const warnings: string[] = [];
  const entries: AgentSkillSnapshot["entries"] = bundledSkills.map((skill) => {
    const isDesired = desired.includes(skill.key);
    return {
      key: skill.key,
      runtimeName: skill.slug,
      desired: isDesired,
      managed: true,
      state: isDesired ? (supported ? "installed" : "unsupported") : "available",
      origin: "bundled",
    };
  });
  for (const key of desired) {
    if (!bundledSkills.some((s) => s.key === key)) {
      entries.push({ key, runtimeName: key.split("/").pop() ?? key, desired: true, managed: false, state: "missing", origin: "unknown" });
      warnings.push(`Desired skill ${key} is not in the skill catalog`);
    }
  }
  if (!supported && desired.length) {
    warnings.push(`Adapter ${agent.adapterType} cannot receive skill files; desired skills are recorded but not installed`);
  }
  return { adapterType: agent.adapterType, supported, mode, desiredSkills: desired, entries, warnings };
}
