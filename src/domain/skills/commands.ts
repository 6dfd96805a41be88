// Skill library mutations, serialised in the company object: keep the bundled skills current,
// create a managed skill, edit a file, delete, install or update from the catalog, reset, audit,
// and record imported packages. Each reads what it needs (one batch) and writes one batch.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import { defineCommand, type CommandContext } from "../../company/command";
import { conflict, unprocessable } from "../errors";
import { auditFiles, type AuditResult } from "./audit";
import { bundledCatalog, findCatalogSkill, type CatalogSkill } from "./catalog";
import { buildSkillPackage, fileKind, normalisePath, packageFromTexts, slugify, textOf, utf8, type SkillPackage } from "./package";
import { deleteObjects, installPackage, skillView, type SkillFileRow, type SkillRow, type SkillSourceType } from "./library";
import { agentsDesiringSkill, loadLibrary, requireSkill, type LoadedSkill } from "./queries";

/** The stored bytes of a skill's files, as package inputs. */
async function storedFiles(env: Env, files: SkillFileRow[]): Promise<Array<{ path: string; bytes: Uint8Array }>> {
  return Promise.all(
    files.map(async (f) => {
      const object = await env.FILES.get(f.objectKey);
      if (!object) throw conflict(`The bytes of ${f.path} are missing from storage`, { path: f.path });
      return { path: f.path, bytes: new Uint8Array(await object.arrayBuffer()) };
    }),
  );
}

/** Writes an install (rows in one batch, then stale objects away) with an activity entry. */
async function commit(ctx: CommandContext, installed: Awaited<ReturnType<typeof installPackage>>, action: string, details: Record<string, unknown>) {
  await ctx.batch([
    ...installed.statements,
    ctx.activity({ action, entityType: "skill", entityId: installed.row.id, details: { key: installed.row.key, ...details } }),
  ]);
  await deleteObjects(ctx.env, installed.staleObjects);
  return skillView(installed.row, installed.files);
}

// ---------------------------------------------------------------------------------------------

/** Bundled skills missing from the library or older than the shipped ones are (re)installed; ids stay stable. */
export const syncBundledSkills = defineCommand("skills.syncBundled", async (ctx) => {
  const library = await loadLibrary(ctx.db, ctx.companyId);
  const statements: Statement[] = [];
  const stale: string[] = [];
  let changed = 0;
  for (const skill of await bundledCatalog()) {
    const existing = library.find((s) => s.row.key === skill.entry.key) ?? null;
    if (existing && existing.row.sourceType === "bundled" && existing.row.contentHash === skill.entry.contentHash) continue;
    const installed = await installPackage(ctx, bundledSpec(skill), existing);
    statements.push(...installed.statements);
    stale.push(...installed.staleObjects);
    changed++;
  }
  // One batch for every bundled skill that changed.
  await ctx.batch(statements);
  await deleteObjects(ctx.env, stale);
  return { changed };
});

const bundledSpec = (skill: CatalogSkill) => ({
  pkg: skill.pkg,
  key: skill.entry.key,
  sourceType: "bundled" as const,
  sourceRef: skill.entry.id,
  sourceCommit: skill.entry.contentHash,
  originHash: skill.entry.contentHash,
});

/** Whether the company's library lacks a bundled skill or holds an older one (then the list syncs first). */
export async function bundledOutOfDate(rows: Array<Pick<SkillRow, "key" | "sourceType" | "contentHash">>): Promise<boolean> {
  return (await bundledCatalog()).some((s) => !rows.some((r) => r.key === s.entry.key && r.sourceType === "bundled" && r.contentHash === s.entry.contentHash));
}

export const createManagedSkill = defineCommand(
  "skills.createManaged",
  async (ctx, _actor, input: { name: string; description?: string | null; slug?: string | null }) => {
    const slug = slugify(input.slug ?? input.name);
    const key = `company/${slug}`;
    const yamlString = (s: string) => JSON.stringify(s);
    const skillMd = `---\nname: ${yamlString(input.name)}\nslug: ${slug}\nkey: ${key}\n${input.description ? `description: ${yamlString(input.description)}\n` : ""}---\n\n# ${input.name}\n`;
    const [clash] = await ctx.batch([
      ctx.db
        .select({ id: schema.companySkills.id })
        .from(schema.companySkills)
        .where(and(eq(schema.companySkills.companyId, ctx.companyId), eq(schema.companySkills.key, key))),
    ]);
    if (clash[0]) throw conflict(`A skill with key ${key} already exists`, { key, skillId: clash[0].id });
    const pkg = await packageFromTexts({ "SKILL.md": skillMd });
    const installed = await installPackage(ctx, { pkg, key, slug, sourceType: "managed_local", sourceRef: null, sourceCommit: null, originHash: null }, null);
    return commit(ctx, installed, "company.skill_created", { name: pkg.name });
  },
);

export const patchSkillFile = defineCommand("skills.patchFile", async (ctx, _actor, input: { skillId: string; path: string; content: string }) => {
  const skill = await requireSkill(ctx.db, ctx.companyId, input.skillId);
  if (!skill.row.editable)
    throw conflict("Bundled skills cannot be edited: they are re-imported from the service's catalog", { sourceType: skill.row.sourceType });
  const path = normalisePath(input.path);
  const inputs = (await storedFiles(ctx.env, skill.files)).filter((f) => f.path !== path);
  inputs.push({ path, bytes: utf8(input.content) });
  const pkg = await buildSkillPackage(inputs);
  // An edit is audited like an install: a failing one is refused, the verdict of the new version is kept.
  const audit = auditFiles(pkg.files);
  if (audit.verdict === "fail") throw unprocessable("The edit fails the skill audit and was not saved", { audit });
  const installed = await installPackage(
    ctx,
    {
      pkg,
      key: skill.row.key,
      slug: skill.row.slug,
      sourceType: skill.row.sourceType,
      sourceRef: skill.row.sourceRef,
      sourceCommit: skill.row.sourceCommit,
      originHash: skill.row.originHash,
      audit,
    },
    skill,
  );
  return commit(ctx, installed, "company.skill_updated", { path, kind: fileKind(path), audit: audit.verdict });
});

export const deleteSkill = defineCommand("skills.delete", async (ctx, _actor, input: { skillId: string }) => {
  const skill = await requireSkill(ctx.db, ctx.companyId, input.skillId);
  if (skill.row.sourceType === "bundled")
    throw conflict("Bundled skills cannot be deleted: they are part of every company's library", { sourceType: "bundled" });
  const users = await agentsDesiringSkill(ctx.db, ctx.companyId, skill.row.key);
  if (users.length) throw conflict("The skill is desired by agents: remove it from their desiredSkills first", { agents: users });
  await ctx.batch([
    ctx.db.delete(schema.companySkills).where(and(eq(schema.companySkills.id, skill.row.id), eq(schema.companySkills.companyId, ctx.companyId))),
    ctx.activity({ action: "company.skill_deleted", entityType: "skill", entityId: skill.row.id, details: { key: skill.row.key } }),
  ]);
  await deleteObjects(
    ctx.env,
    skill.files.map((f) => f.objectKey),
  );
  return { ok: true as const };
});

// ---------------------------------------------------------------------------------------------
// The catalog: install, update, reset

export type InstallAction = "created" | "updated" | "unchanged";

/**
 * The update rule: the same content is `unchanged`; local modification (installed bytes differ
 * from the origin hash) is a soft hold that `force` overrides; an audit `fail` of the incoming
 * content is a hard stop `force` does not override.
 */
function decideUpdate(existing: LoadedSkill | null, incoming: SkillPackage, force: boolean): { action: InstallAction; warnings: string[] } {
  const audit = auditFiles(incoming.files);
  if (audit.verdict === "fail") throw unprocessable("The skill failed its audit: it cannot be installed (force does not override a failed audit)", { audit });
  const warnings = audit.findings.map((f) => f.message);
  if (!existing) return { action: "created", warnings };
  if (existing.row.contentHash === incoming.contentHash) return { action: "unchanged", warnings };
  const modified = existing.row.originHash !== null && existing.row.originHash !== existing.row.contentHash;
  if (modified && !force) {
    throw conflict("The installed skill was changed locally: send force: true to replace the local changes", {
      originHash: existing.row.originHash,
      installedHash: existing.row.contentHash,
      incomingHash: incoming.contentHash,
    });
  }
  return { action: "updated", warnings: modified ? [...warnings, "Local changes were replaced (force)"] : warnings };
}

async function installFromCatalog(ctx: CommandContext, catalogSkill: CatalogSkill, existing: LoadedSkill | null, force: boolean, slug?: string | null) {
  const { action, warnings } = decideUpdate(existing, catalogSkill.pkg, force);
  const sourceType: SkillSourceType = catalogSkill.entry.kind === "bundled" ? "bundled" : "catalog";
  if (action === "unchanged") return { action, skill: skillView(existing!.row, existing!.files), catalogSkill: catalogSkill.entry, warnings };
  const installed = await installPackage(
    ctx,
    {
      pkg: catalogSkill.pkg,
      key: catalogSkill.entry.key,
      slug: slug ? slugify(slug) : (existing?.row.slug ?? undefined),
      sourceType,
      sourceRef: catalogSkill.entry.id,
      sourceCommit: catalogSkill.entry.contentHash,
      originHash: catalogSkill.entry.contentHash,
    },
    existing,
  );
  const skill = await commit(ctx, installed, "company.skills_imported", {
    source: `catalog:${catalogSkill.entry.id}`,
    action,
    imported: [catalogSkill.entry.key],
  });
  return { action, skill, catalogSkill: catalogSkill.entry, warnings };
}

export const installCatalogSkill = defineCommand(
  "skills.installCatalog",
  async (ctx, _actor, input: { catalogSkillId: string; slug?: string | null; force?: boolean }) => {
    const catalogSkill = await findCatalogSkill(input.catalogSkillId);
    const library = await loadLibrary(ctx.db, ctx.companyId);
    const existing = library.find((s) => s.row.key === catalogSkill.entry.key) ?? null;
    if (existing && !["catalog", "bundled"].includes(existing.row.sourceType)) {
      throw conflict(`A skill with key ${catalogSkill.entry.key} from another source (${existing.row.sourceType}) is already installed`, {
        skillId: existing.row.id,
      });
    }
    return installFromCatalog(ctx, catalogSkill, existing, input.force ?? false, input.slug);
  },
);

/** The catalog entry a catalog-managed skill follows (422 for other sources). */
async function catalogOrigin(skill: LoadedSkill, what: string): Promise<CatalogSkill> {
  if (skill.row.sourceType !== "catalog" && skill.row.sourceType !== "bundled")
    throw unprocessable(`${what} applies to catalog-managed skills only (this one is ${skill.row.sourceType})`, { sourceType: skill.row.sourceType });
  return findCatalogSkill(skill.row.sourceRef ?? skill.row.key);
}

export const installSkillUpdate = defineCommand("skills.installUpdate", async (ctx, _actor, input: { skillId: string; force?: boolean }) => {
  const skill = await requireSkill(ctx.db, ctx.companyId, input.skillId);
  return installFromCatalog(ctx, await catalogOrigin(skill, "install-update"), skill, input.force ?? false);
});

/** A newer version fetched from a skill's own source (git host, registry, URL, project scan), under the update rule. */
export const applySourceUpdate = defineCommand(
  "skills.apply_source_update",
  async (
    ctx,
    _actor,
    input: {
      skillId: string;
      expectedSourceCommit: string | null;
      files: Array<{ path: string; bytes: Uint8Array }>;
      sourceCommit: string | null;
      force?: boolean;
    },
  ) => {
    const skill = await requireSkill(ctx.db, ctx.companyId, input.skillId);
    if (skill.row.sourceCommit !== input.expectedSourceCommit) throw conflict("The skill changed while its update was fetched; try again");
    const pkg = await buildSkillPackage(input.files);
    const { action, warnings } = decideUpdate(skill, pkg, input.force ?? false);
    if (action === "unchanged") return { action, skill: skillView(skill.row, skill.files), warnings };
    const installed = await installPackage(
      ctx,
      {
        pkg,
        key: skill.row.key,
        slug: skill.row.slug,
        sourceType: skill.row.sourceType,
        sourceRef: skill.row.sourceRef,
        sourceCommit: input.sourceCommit,
        originHash: pkg.contentHash,
      },
      skill,
    );
    const view = await commit(ctx, installed, "company.skills_imported", {
      source: skill.row.sourceRef,
      action,
      imported: [skill.row.key],
      sourceCommit: input.sourceCommit,
    });
    return { action, skill: view, warnings };
  },
);

/**
 * Reset is for catalog-managed skills only (the spec): a bundled skill cannot be edited and is
 * re-imported on every list, so there is nothing of its own to reset (422).
 */
export const resetSkill = defineCommand("skills.reset", async (ctx, _actor, input: { skillId: string; force?: boolean }) => {
  const skill = await requireSkill(ctx.db, ctx.companyId, input.skillId);
  if (skill.row.sourceType === "bundled") {
    throw unprocessable("reset applies to catalog-managed skills only: a bundled skill cannot be edited and is kept current by the service on every list", {
      sourceType: skill.row.sourceType,
    });
  }
  return installFromCatalog(ctx, await catalogOrigin(skill, "reset"), skill, input.force ?? false);
});

// ---------------------------------------------------------------------------------------------
// Audit

export const auditSkill = defineCommand("skills.audit", async (ctx, _actor, input: { skillId: string }) => {
  const skill = await requireSkill(ctx.db, ctx.companyId, input.skillId);
  if (!["local_path", "catalog", "bundled", "managed_local", "project_scan", "git_host", "url", "registry"].includes(skill.row.sourceType)) {
    throw unprocessable(`Skills from ${skill.row.sourceType} cannot be audited`);
  }
  const files = (await storedFiles(ctx.env, skill.files)).map((f) => {
    const row = skill.files.find((r) => r.path === f.path)!;
    return { path: f.path, kind: row.kind, sizeBytes: row.sizeBytes, text: textOf(f.bytes) };
  });
  const audit: AuditResult = auditFiles(files);
  await ctx.batch([
    ctx.db
      .update(schema.companySkills)
      .set({ auditVerdict: audit.verdict, auditCodes: audit.codes, auditedAt: ctx.now })
      .where(and(eq(schema.companySkills.id, skill.row.id), eq(schema.companySkills.companyId, ctx.companyId))),
    ctx.activity({
      action: "company.skill_audited",
      entityType: "skill",
      entityId: skill.row.id,
      details: { key: skill.row.key, verdict: audit.verdict, codes: audit.codes },
    }),
  ]);
  return { skillId: skill.row.id, ...audit, installedHash: skill.row.contentHash, originHash: skill.row.originHash };
});

// ---------------------------------------------------------------------------------------------
// Imports (packages fetched or uploaded in the Worker, recorded here)

export interface ImportedPackage {
  /** Package files (bytes cross the RPC boundary as Uint8Array). */
  files: Array<{ path: string; bytes: Uint8Array }>;
  sourceType: SkillSourceType;
  sourceRef: string | null;
  sourceCommit: string | null;
  /** Key namespace when the frontmatter names none (`github/owner/repo`, `local`, …). */
  keyPrefix: string;
}

/** Keys under `service/` belong to the shipped catalog. */
const RESERVED_KEY_PREFIX = "service/";

export const recordSkillImport = defineCommand(
  "skills.recordImport",
  async (ctx, _actor, input: { packages: ImportedPackage[]; source: string; force?: boolean }) => {
    // Decide everything first (any refusal leaves the library untouched), then write.
    const library = await loadLibrary(ctx.db, ctx.companyId);
    const skipped: Array<{ key: string; reason: string }> = [];
    const conflicts: Array<{ key: string; reason: string; skillId: string }> = [];
    const warnings: string[] = [];
    const keys = new Set<string>();
    const writes: Array<{ key: string; pkg: SkillPackage; spec: ImportedPackage; existing: LoadedSkill | null }> = [];
    for (const spec of input.packages) {
      const pkg = await buildSkillPackage(spec.files);
      const key = pkg.key ?? `${spec.keyPrefix}/${pkg.slug}`.toLowerCase();
      if (keys.has(key)) throw unprocessable(`Two skills in the import have the key ${key}`, { key });
      keys.add(key);
      if (key.startsWith(RESERVED_KEY_PREFIX))
        throw unprocessable(`Skill keys under ${RESERVED_KEY_PREFIX} belong to the service's catalog (got ${key})`, { key });
      const audit = auditFiles(pkg.files);
      if (audit.verdict === "fail") throw unprocessable(`Skill ${key} failed its audit and was not imported`, { key, audit });
      warnings.push(...audit.findings.map((f) => `${key}: ${f.message}`));
      const existing = library.find((s) => s.row.key === key) ?? null;
      if (existing?.row.contentHash === pkg.contentHash) {
        skipped.push({ key, reason: "unchanged" });
        continue;
      }
      const sameOrigin = (a: SkillSourceType, b: SkillSourceType) =>
        a === b || (["git_host", "registry", "project_scan"].includes(a) && ["git_host", "registry", "project_scan"].includes(b));
      if (existing && !sameOrigin(existing.row.sourceType, spec.sourceType)) {
        conflicts.push({ key, skillId: existing.row.id, reason: `a ${existing.row.sourceType} skill already has this key` });
        continue;
      }
      if (existing && existing.row.originHash !== existing.row.contentHash && !input.force) {
        conflicts.push({ key, skillId: existing.row.id, reason: "the installed skill was changed locally (send force: true to replace it)" });
        continue;
      }
      writes.push({ key, pkg, spec, existing });
    }
    const imported: Array<ReturnType<typeof skillView> & { action: InstallAction }> = [];
    const statements: Statement[] = [];
    const stale: string[] = [];
    for (const { key, pkg, spec, existing } of writes) {
      const installed = await installPackage(
        ctx,
        { pkg, key, sourceType: spec.sourceType, sourceRef: spec.sourceRef, sourceCommit: spec.sourceCommit, originHash: pkg.contentHash },
        existing,
      );
      statements.push(...installed.statements);
      stale.push(...installed.staleObjects);
      imported.push({ ...skillView(installed.row, installed.files), action: existing ? "updated" : "created" });
    }
    if (imported.length) {
      // One batch: the import lands whole or not at all.
      await ctx.batch([
        ...statements,
        ctx.activity({
          action: "company.skills_imported",
          entityType: "company",
          entityId: ctx.companyId,
          details: { source: input.source, imported: imported.map((s) => ({ key: s.key, action: s.action })) },
        }),
      ]);
      await deleteObjects(ctx.env, stale);
    }
    return { imported, skipped, conflicts, warnings };
  },
);

export const skillCommands = [
  applySourceUpdate,
  syncBundledSkills,
  createManagedSkill,
  patchSkillFile,
  deleteSkill,
  installCatalogSkill,
  installSkillUpdate,
  resetSkill,
  auditSkill,
  recordSkillImport,
];
