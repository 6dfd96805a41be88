// The shipped catalog as the API shows it: every entry with its files' kinds, sizes and hashes and
// the package's content hash (computed once per isolate), found by id, key or unique slug. Its text
// and the YAML parser its frontmatter needs load on first use.
import type { CatalogSource } from "./catalog-content";
import { packageFromTexts, type SkillPackage, type TrustLevel } from "./package";
import { notFound, unprocessable } from "../errors";
import { onFirstUse } from "../../lazy";

export interface CatalogEntry {
  id: string;
  key: string;
  kind: "bundled" | "optional";
  category: string;
  slug: string;
  name: string;
  description: string | null;
  trustLevel: TrustLevel;
  compatibility: string[];
  defaultInstall: boolean;
  recommendedForRoles: string[];
  requires: string[];
  tags: string[];
  files: Array<{ path: string; kind: string; sizeBytes: number; sha256: string }>;
  contentHash: string;
  source: { type: "catalog"; ref: string };
}

export interface CatalogSkill {
  entry: CatalogEntry;
  pkg: SkillPackage;
}

async function build(source: CatalogSource): Promise<CatalogSkill> {
  const pkg = await packageFromTexts(source.files);
  return {
    pkg,
    entry: {
      id: source.id,
      key: source.key,
      kind: source.kind,
      category: source.category,
      slug: pkg.slug,
      name: pkg.name,
      description: pkg.description,
      trustLevel: pkg.trustLevel,
      compatibility: source.compatibility,
      defaultInstall: source.defaultInstall,
      recommendedForRoles: source.recommendedForRoles,
      requires: source.requires,
      tags: source.tags,
      files: pkg.files.map((f) => ({ path: f.path, kind: f.kind, sizeBytes: f.sizeBytes, sha256: f.sha256 })),
      contentHash: pkg.contentHash,
      source: { type: "catalog", ref: source.id },
    },
  };
}

/** The shipped catalog, built on first use (a failed build is tried again on the next call). */
export const catalog: () => Promise<CatalogSkill[]> = onFirstUse(async () => {
  const { CATALOG_SOURCES } = await import("./catalog-content");
  return Promise.all(CATALOG_SOURCES.map(build));
});

export const bundledCatalog = async () => (await catalog()).filter((s) => s.entry.kind === "bundled");

export async function filterCatalog(filters: { kind?: string; category?: string; q?: string }): Promise<CatalogEntry[]> {
  const q = filters.q?.trim().toLowerCase();
  return (await catalog())
    .map((s) => s.entry)
    .filter((e) => !filters.kind || e.kind === filters.kind)
    .filter((e) => !filters.category || e.category === filters.category)
    .filter((e) => !q || [e.key, e.slug, e.name, e.description ?? "", ...e.tags].some((t) => t.toLowerCase().includes(q)));
}

/** The catalog skill named by id, key or unique slug (404 when none, 422 when a slug is ambiguous). */
export async function findCatalogSkill(ref: string): Promise<CatalogSkill> {
  const all = await catalog();
  const exact = all.find((s) => s.entry.id === ref || s.entry.key === ref);
  if (exact) return exact;
  const bySlug = all.filter((s) => s.entry.slug === ref.toLowerCase());
  if (bySlug.length > 1) throw unprocessable(`Catalog skill slug "${ref}" is ambiguous: use its id or key`, { matches: bySlug.map((s) => s.entry.id) });
  if (!bySlug.length) throw notFound(`Catalog skill ${ref} not found`);
  return bySlug[0];
}
