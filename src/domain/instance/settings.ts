// Instance settings stored in `instance_settings` by key; reads fill defaults from the zod schemas.
import { eq, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { schema, type Db } from "../../db/client";
import { ExperimentalSettingsSchema, GeneralSettingsSchema } from "./settings-shapes";

export const SETTINGS = {
  general: GeneralSettingsSchema,
  experimental: ExperimentalSettingsSchema,
} as const;
export type SettingsKey = keyof typeof SETTINGS;
export type SettingsOf<K extends SettingsKey> = z.infer<(typeof SETTINGS)[K]>;

/** Stored values over defaults; a stored field that no longer validates falls back to its default. */
export async function readSettings<K extends SettingsKey>(db: Db, key: K): Promise<SettingsOf<K>> {
  const row = await db.query.instanceSettings.findFirst({ where: eq(schema.instanceSettings.key, key) });
  const settingsSchema = SETTINGS[key];
  const defaults = settingsSchema.parse({}) as Record<string, unknown>;
  const stored = (row?.value ?? {}) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...defaults };
  for (const field of Object.keys(defaults)) {
    if (!(field in stored)) continue;
    const candidate = settingsSchema.safeParse({ ...defaults, [field]: stored[field] });
    if (candidate.success) merged[field] = stored[field];
  }
  return settingsSchema.parse(merged) as SettingsOf<K>;
}

/**
 * Applies a partial change atomically (SQLite json_patch merges into the stored object, so two
 * concurrent patches of different fields both land), then reads back the whole object.
 */
export async function patchSettings<K extends SettingsKey>(db: Db, key: K, patch: Partial<SettingsOf<K>>): Promise<SettingsOf<K>> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  // Validate the result before writing: a bad combination never reaches storage.
  SETTINGS[key].parse({ ...(await readSettings(db, key)), ...changes });
  const t = schema.instanceSettings;
  const now = new Date().toISOString();
  const changesJson = sql`json(${JSON.stringify(changes)})`;
  await db
    .insert(t)
    .values({ key, value: changesJson, updatedAt: now })
    .onConflictDoUpdate({ target: t.key, set: { value: sql`json_patch(${t.value}, ${changesJson})`, updatedAt: now } })
    .run();
  return readSettings(db, key);
}
