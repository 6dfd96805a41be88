// Exporting a company as a package (src/domain/portability/format.ts): every kind (./kinds) adds
// its reads to one batch, then writes its files in package order (issues read themselves in
// pages). Nothing secret leaves: secret references become placeholders, webhook secrets and public
// ids are left out, keys and sessions are never read. A reference to something the package leaves
// out (a terminated agent, a kind not included) is written as null: the importer refuses
// references that resolve to nothing in the package.
import { loadYaml } from "../yaml";
import { eq } from "drizzle-orm";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { redactSecrets } from "../redaction";
import { slugOf, uniqueKey, PACKAGE_FORMAT, PACKAGE_VERSION, withPlaceholders, type Include, type Manifest, type PackageFiles } from "./format";
import { KINDS } from "./kinds";
import type { ExportContext, ReferencedKind } from "./kinds/kind";

export interface ExportResult {
  rootPath: string;
  files: PackageFiles;
  manifest: Manifest;
  warnings: string[];
}

export async function exportCompany(env: Env, db: Db, companyId: string, include: Include, options: { countsOnly?: boolean } = {}): Promise<ExportResult> {
  const batch = new ReadBatch(db);
  const company = batch.add(db.select().from(schema.companies).where(eq(schema.companies.id, companyId)));
  const parts = KINDS.map((kind) => ({ kind, part: kind.exportPart({ db, companyId, batch }) }));
  const secrets = batch.add(
    db
      .select({ id: schema.companySecrets.id, name: schema.companySecrets.name })
      .from(schema.companySecrets)
      .where(eq(schema.companySecrets.companyId, companyId)),
  );
  await Promise.all([batch.run(), loadYaml()]);
  const row = company.value[0];
  if (!row) throw notFound("Company not found");

  const files: PackageFiles = {};
  const taken = new Set<string>();
  const placeholders = new Map<string, Set<string>>();
  const secretName = new Map(secrets.value.map((s) => [s.id, s.name]));
  // What the package holds of the kinds files refer to (issues: every issue of the company, when included).
  const holds = new Map<string, Set<string>>();
  for (const { kind, part } of parts) if (part.ids) holds.set(kind.key, new Set(include[kind.key] ? part.ids() : []));
  let dropped = 0;
  const held = (kind: ReferencedKind, id: string | null): string | null => {
    if (!id) return null;
    const set = holds.get(kind);
    if (set ? set.has(id) : include[kind]) return id;
    dropped++;
    return null;
  };
  const ctx: ExportContext = {
    env,
    db,
    companyId,
    company: row,
    include,
    counts: {},
    warnings: [],
    countsOnly: Boolean(options.countsOnly),
    put: (path, text) => {
      if (!options.countsOnly) files[path] = text;
    },
    uniquePath: (dir, base, ext) => `${uniqueKey(`${dir}/${base}`, taken)}${ext}`,
    held,
    heldAll: (kind, ids) => ids.map((id) => held(kind, id)).filter((id): id is string => id !== null),
    scrub: (value, path) => {
      const found = new Set<string>();
      const out = withPlaceholders(redactSecrets(value), (id) => secretName.get(id), found);
      for (const name of found) placeholders.set(name, (placeholders.get(name) ?? new Set()).add(path));
      return out;
    },
  };
  for (const { kind, part } of parts) if (include[kind.key]) await part.write(ctx);

  const manifest: Manifest = {
    format: PACKAGE_FORMAT,
    version: PACKAGE_VERSION,
    exportedAt: new Date().toISOString(),
    company: { id: row.id, name: row.name },
    include,
    counts: ctx.counts,
    secretPlaceholders: [...placeholders].map(([name, usedBy]) => ({ name, usedBy: [...usedBy].sort() })).sort((a, b) => (a.name < b.name ? -1 : 1)),
  };
  const { warnings } = ctx;
  if (dropped)
    warnings.push(
      `${dropped} reference${dropped === 1 ? "" : "s"} to terminated agents or to things the package leaves out ${dropped === 1 ? "was" : "were"} written as empty`,
    );
  if (manifest.secretPlaceholders.length)
    warnings.push(`Secret references became placeholders the importer must bind: ${manifest.secretPlaceholders.map((p) => p.name).join(", ")}`);
  ctx.put("manifest.json", JSON.stringify(manifest, null, 2));
  return { rootPath: slugOf(row.name), files, manifest, warnings };
}
