// Agent skills: resolving desiredSkills references against the company's skill library (the
// bundled skills are always part of it), and the AgentSkillSnapshot.
import { eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { unprocessable } from "../errors";
import { findAdapter } from "../../adapters";
import { bundledCatalog } from "../skills/catalog";

export const SKILL_SYNC_KEY = "paperclipSkillSync";

/** A skill an agent may desire: a library row (with its id) or a bundled catalog skill. */
export interface SkillChoice {
  id: string | null;
  key: string;
  slug: string;
  origin: string;
}

const bundledChoices = async (): Promise<SkillChoice[]> =>
  (await bundledCatalog()).map((s) => ({ id: null, key: s.entry.key, slug: s.entry.slug, origin: "bundled" }));

/** The company's library rows plus the bundled skills not yet listed into it (one query). */
export async function companySkillChoices(db: Db, companyId: string): Promise<SkillChoice[]> {
  const rows = await db
    .select({ id: schema.companySkills.id, key: schema.companySkills.key, slug: schema.companySkills.slug, origin: schema.companySkills.sourceType })
    .from(schema.companySkills)
    .where(eq(schema.companySkills.companyId, companyId));
  return [...rows, ...(await bundledChoices()).filter((b) => !rows.some((r) => r.key === b.key))];
}

/**
 * Canonical keys for skill references (a library skill's UUID, a canonical key, or a slug when
 * unique), de-duplicated in order. Unknown or ambiguous references fail with 422 naming every one.
 */
export function resolveDesiredSkills(references: string[], choices: SkillChoice[]): string[] {
  const unknown: string[] = [];
  const ambiguous: string[] = [];
  const keys: string[] = [];
  for (const raw of references) {
    const ref = raw.trim();
    const exact = choices.find((s) => s.id === ref || s.key === ref.toLowerCase());
    const matches = exact ? [exact] : choices.filter((s) => s.slug === ref.toLowerCase());
    if (matches.length === 0) unknown.push(raw);
    else if (matches.length > 1) ambiguous.push(raw);
    else if (!keys.includes(matches[0].key)) keys.push(matches[0].key);
  }
  if (unknown.length || ambiguous.length) {
    const parts = [unknown.length ? `unknown: ${unknown.join(", ")}` : null, ambiguous.length ? `ambiguous: ${ambiguous.join(", ")}` : null].filter(Boolean);
    throw unprocessable(`Invalid skill selection (${parts.join("; ")})`, { unknown, ambiguous, available: choices.map((s) => s.key) });
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
 * Every skill of the company's library with its state for this agent: `installed` (desired,
 * adapter can receive skills), `available` (not desired), `unsupported` (desired, adapter cannot
 * receive skill files), `missing` (desired key no longer in the library).
 */
export function skillSnapshot(agent: { adapterType: string; adapterConfig: Record<string, unknown> }, choices: SkillChoice[]): AgentSkillSnapshot {
  const mode = findAdapter(agent.adapterType)?.skillsMode ?? "unsupported";
  const supported = mode === "persistent";
  const desired = storedDesiredSkills(agent.adapterConfig);
  const warnings: string[] = [];
  const entries: AgentSkillSnapshot["entries"] = [...choices]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((skill) => {
      const isDesired = desired.includes(skill.key);
      return {
        key: skill.key,
        runtimeName: skill.slug,
        desired: isDesired,
        managed: skill.origin === "bundled" || skill.origin === "catalog" || skill.origin === "managed_local",
        state: isDesired ? (supported ? "installed" : "unsupported") : "available",
        origin: skill.origin,
      };
    });
  for (const key of desired) {
    if (!choices.some((s) => s.key === key)) {
      entries.push({ key, runtimeName: key.split("/").pop() ?? key, desired: true, managed: false, state: "missing", origin: "unknown" });
      warnings.push(`Desired skill ${key} is not in the company's skill library`);
    }
  }
  if (!supported && desired.length) warnings.push(`Adapter ${agent.adapterType} cannot receive skill files; desired skills are recorded but not installed`);
  return { adapterType: agent.adapterType, supported, mode, desiredSkills: desired, entries, warnings };
}
