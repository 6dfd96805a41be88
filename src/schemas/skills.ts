// Skills: the shipped catalog, the company library, imports and audits.
import { z } from "@hono/zod-openapi";
import { Timestamp, Uuid } from "./common";
import { SKILL_AUDIT_VERDICTS, SKILL_SOURCE_TYPES, SKILL_TRUST_LEVELS } from "../db/schema/skills";

export const CatalogEntrySchema = z
  .object({
    id: z.string(),
    key: z.string(),
    kind: z.enum(["bundled", "optional"]),
    category: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    trustLevel: z.enum(SKILL_TRUST_LEVELS),
    compatibility: z.array(z.string()),
    defaultInstall: z.boolean(),
    recommendedForRoles: z.array(z.string()),
    requires: z.array(z.string()),
    tags: z.array(z.string()),
    files: z.array(z.object({ path: z.string(), kind: z.string(), sizeBytes: z.number().int(), sha256: z.string() })),
    contentHash: z.string(),
    source: z.object({ type: z.literal("catalog"), ref: z.string() }).optional(),
  })
  .openapi("CatalogSkill");

export const CatalogQuery = z.object({
  kind: z.enum(["bundled", "optional"]).optional(),
  category: z.string().max(100).optional(),
  q: z.string().max(200).optional(),
});

export const FileQuery = z.object({ path: z.string().min(1).max(300).optional().openapi({ description: "Default `SKILL.md`" }) });

export const SkillFileContentSchema = z
  .object({
    path: z.string(),
    kind: z.string(),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    previewable: z.boolean(),
    content: z.string().nullable().openapi({ description: "UTF-8 text; null for binary assets (not previewable)" }),
    message: z.string().optional(),
  })
  .openapi("SkillFileContent");

export const SkillSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    key: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    sourceType: z.enum(SKILL_SOURCE_TYPES),
    sourceRef: z.string().nullable(),
    sourceCommit: z.string().nullable().openapi({ description: "The origin's commit (git hosts) or content hash" }),
    originHash: z.string().nullable(),
    contentHash: z.string(),
    locallyModified: z.boolean(),
    trustLevel: z.enum(SKILL_TRUST_LEVELS),
    editable: z.boolean(),
    audit: z.object({ verdict: z.enum(SKILL_AUDIT_VERDICTS), codes: z.array(z.string()), auditedAt: Timestamp.nullable() }).nullable(),
    files: z.array(z.object({ path: z.string(), kind: z.string(), sizeBytes: z.number().int(), sha256: z.string() })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Skill");

export const SkillDetailSchema = SkillSchema.extend({
  usage: z
    .object({ agents: z.array(z.object({ id: z.string(), name: z.string() })) })
    .openapi({ description: "Agents whose desiredSkills include this skill" }),
}).openapi("SkillDetail");

export const CreateSkillSchema = z
  .object({ name: z.string().trim().min(1).max(200), description: z.string().trim().max(2000).nullish(), slug: z.string().trim().min(1).max(64).nullish() })
  .strict()
  .openapi("CreateSkill");

export const PatchSkillFileSchema = z
  .object({ path: z.string().min(1).max(300), content: z.string().max(1024 * 1024) })
  .strict()
  .openapi("PatchSkillFile");

export const ForceSchema = z.object({ force: z.boolean().optional() }).strict();

export const InstallCatalogSchema = z
  .object({
    catalogSkillId: z.string().min(1).max(200).openapi({ description: "Catalog id, key or unique slug" }),
    slug: z.string().trim().min(1).max(64).nullish(),
    force: z.boolean().optional(),
  })
  .strict()
  .openapi("InstallCatalogSkill");

export const ImportSkillsSchema = z
  .object({
    source: z.string().trim().min(1).max(2000).optional().openapi({
      description:
        "A GitHub repo/tree/blob URL, `owner/repo`, `owner/repo/skill`, a skills.sh registry URL, an install command naming one of those, or a URL of a SKILL.md",
    }),
    files: z
      .array(z.object({ path: z.string().min(1).max(300), content: z.string(), encoding: z.enum(["utf8", "base64"]).optional() }))
      .max(1000)
      .optional()
      .openapi({
        description: "Upload form (what the CLI sends for a local folder): files relative to rootPath; one SKILL.md at the root, or one per sub-folder",
      }),
    rootPath: z.string().max(500).optional().openapi({ description: "The uploaded folder's local path (recorded as the source)" }),
    force: z.boolean().optional().openapi({ description: "Replace installed skills that were changed locally (otherwise reported as conflicts)" }),
  })
  .strict()
  .refine((v) => Boolean(v.source) !== Boolean(v.files), { message: "send either source or files" })
  .openapi("ImportSkills");

export const ImportResultSchema = z
  .object({
    imported: z.array(SkillSchema.extend({ action: z.enum(["created", "updated", "unchanged"]) })),
    skipped: z.array(z.object({ key: z.string(), reason: z.string() })),
    conflicts: z.array(z.object({ key: z.string(), reason: z.string(), skillId: z.string() })),
    warnings: z.array(z.string()),
    source: z.object({ type: z.string(), ref: z.string().nullable(), commit: z.string().nullable() }),
  })
  .openapi("SkillImportResult");

export const ScanProjectsSchema = z
  .object({ projectIds: z.array(Uuid).max(100).optional(), workspaceIds: z.array(Uuid).max(100).optional() })
  .strict()
  .openapi("ScanProjects");

export const AuditResultSchema = z
  .object({
    skillId: z.string(),
    verdict: z.enum(SKILL_AUDIT_VERDICTS),
    codes: z.array(z.string()),
    findings: z.array(z.object({ code: z.string(), severity: z.enum(["warning", "fail"]), path: z.string(), message: z.string() })),
    installedHash: z.string(),
    originHash: z.string().nullable(),
    scanVersion: z.string(),
  })
  .openapi("SkillAudit");

export const InstallResultSchema = z
  .object({ action: z.enum(["created", "updated", "unchanged"]), skill: SkillSchema, catalogSkill: CatalogEntrySchema, warnings: z.array(z.string()) })
  .openapi("SkillInstallResult");

export const UpdateStatusSchema = z
  .object({
    skillId: z.string(),
    sourceType: z.string(),
    installedHash: z.string(),
    originHash: z.string().nullable(),
    latestHash: z.string().nullable().openapi({ description: "The catalog's current content hash (catalog-managed skills)" }),
    sourceCommit: z.string().nullable().openapi({ description: "The commit or hash the skill was installed from" }),
    latestCommit: z.string().nullable().openapi({ description: "The source's current commit (git hosts) or content hash (URLs), checked now" }),
    warnings: z.array(z.string()),
    updateAvailable: z.boolean(),
    locallyModified: z.boolean(),
    audit: z.object({ verdict: z.string(), codes: z.array(z.string()) }).nullable(),
  })
  .openapi("SkillUpdateStatus");

const idParam = (name: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name, in: "path" } });
export const SkillPathParams = z.object({ companyId: idParam("companyId"), skillId: idParam("skillId") });
export const CatalogIdParam = z.object({ catalogId: idParam("catalogId") });
export const SkillNameParam = z.object({ skillName: idParam("skillName") });
