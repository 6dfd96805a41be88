// Writing a package into a company's skill library: the bytes go to R2 (content-addressed under
// the company's prefix, so a retried or concurrent write is harmless), the rows in one D1 batch;
// objects no longer referenced are deleted after the batch. Also the skill's view. (Reads: ./queries.ts.)
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import type { CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import type { SkillPackage } from "./package";
import type { AuditVerdict } from "./audit";

export type SkillRow = typeof schema.companySkills.$inferSelect;
export type SkillFileRow = typeof schema.companySkillFiles.$inferSelect;
export type SkillSourceType = SkillRow["sourceType"];

export const skillObjectKey = (companyId: string, skillId: string, sha256: string) => `companies/${companyId}/skills/${skillId}/${sha256}`;

export function skillView(row: SkillRow, files: SkillFileRow[]) {
  return {
    id: row.id,
    companyId: row.companyId,
    key: row.key,
    slug: row.slug,
    name: row.name,
    description: row.description,
    metadata: row.metadata ?? null,
    sourceType: row.sourceType,
    sourceRef: row.sourceRef,
    sourceCommit: row.sourceCommit,
    originHash: row.originHash,
    contentHash: row.contentHash,
    locallyModified: row.originHash !== null && row.originHash !== row.contentHash,
    trustLevel: row.trustLevel,
    editable: row.editable,
    audit: row.auditVerdict ? { verdict: row.auditVerdict, codes: row.auditCodes ?? [], auditedAt: row.auditedAt } : null,
    files: [...files].sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => ({ path: f.path, kind: f.kind, sizeBytes: f.sizeBytes, sha256: f.sha256 })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type SkillView = ReturnType<typeof skillView>;

export interface InstallSpec {
  pkg: SkillPackage;
  key: string;
  slug?: string;
  sourceType: SkillSourceType;
  sourceRef: string | null;
  sourceCommit: string | null;
  /** The origin's content hash (null for skills made here). */
  originHash: string | null;
  /** An audit of this very content, when the caller ran one. */
  audit?: { verdict: AuditVerdict; codes: string[] };
}

export interface Installed {
  row: SkillRow;
  files: SkillFileRow[];
  statements: Statement[];
  /** R2 objects of the replaced version no longer referenced: delete after the batch. */
  staleObjects: string[];
}

/** Puts the package's bytes in R2 and returns the statements that record it (a new skill, or a new version of `existing`). */
export async function installPackage(ctx: CommandContext, spec: InstallSpec, existing: { row: SkillRow; files: SkillFileRow[] } | null): Promise<Installed> {
  const id = existing?.row.id ?? newId();
  const { pkg } = spec;
  await Promise.all(pkg.files.map((f) => ctx.env.FILES.put(skillObjectKey(ctx.companyId, id, f.sha256), f.bytes)));
  const row: SkillRow = {
    id,
    companyId: ctx.companyId,
    key: spec.key,
    slug: spec.slug ?? pkg.slug,
    name: pkg.name,
    description: pkg.description,
    metadata: pkg.metadata,
    sourceType: spec.sourceType,
    sourceRef: spec.sourceRef,
    sourceCommit: spec.sourceCommit,
    originHash: spec.originHash,
    contentHash: pkg.contentHash,
    trustLevel: pkg.trustLevel,
    editable: spec.sourceType !== "bundled",
    // A new version carries the audit the caller ran on it, else none (the same content keeps its audit).
    ...(spec.audit
      ? { auditVerdict: spec.audit.verdict, auditCodes: spec.audit.codes, auditedAt: ctx.now }
      : existing && existing.row.contentHash === pkg.contentHash
        ? { auditVerdict: existing.row.auditVerdict, auditCodes: existing.row.auditCodes, auditedAt: existing.row.auditedAt }
        : { auditVerdict: null, auditCodes: null, auditedAt: null }),
    createdAt: existing?.row.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  const files: SkillFileRow[] = pkg.files.map((f) => ({
    skillId: id,
    companyId: ctx.companyId,
    path: f.path,
    kind: f.kind,
    sizeBytes: f.sizeBytes,
    sha256: f.sha256,
    objectKey: skillObjectKey(ctx.companyId, id, f.sha256),
    createdAt: ctx.now,
  }));
  const t = schema.companySkills;
  const statements: Statement[] = [
    existing
      ? ctx.db
          .update(t)
          .set(row)
          .where(and(eq(t.id, id), eq(t.companyId, ctx.companyId)))
      : ctx.db.insert(t).values(row),
    ctx.db.delete(schema.companySkillFiles).where(eq(schema.companySkillFiles.skillId, id)),
    ...files.map((f) => ctx.db.insert(schema.companySkillFiles).values(f)),
  ];
  const kept = new Set(files.map((f) => f.objectKey));
  const staleObjects = (existing?.files ?? []).map((f) => f.objectKey).filter((k) => !kept.has(k));
  return { row, files, statements, staleObjects };
}

/** Deletes objects a batch stopped referencing (best effort: a leftover object is only storage). */
export async function deleteObjects(env: Env, keys: string[]) {
  if (keys.length) await env.FILES.delete([...new Set(keys)]).catch((err) => console.error("skill object cleanup failed", err));
}
