// The company skill library: one row per skill (its origin, hashes, trust level and last audit),
// one row per file (kind, size, SHA-256); the bytes live in R2 under the company's prefix.
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt, json, timestamp, updatedAt, bool } from "./columns";
import { companies } from "./companies";

export const SKILL_SOURCE_TYPES = ["bundled", "git_host", "registry", "url", "local_path", "project_scan", "managed_local", "catalog"] as const;
/** What a skill's files may do: only markdown, also assets, or also scripts and executables. */
export const SKILL_TRUST_LEVELS = ["markdown_only", "assets", "scripts_executables"] as const;
export const SKILL_AUDIT_VERDICTS = ["pass", "warning", "fail"] as const;
export const SKILL_FILE_KINDS = ["skill", "reference", "script", "asset", "other"] as const;

export const companySkills = sqliteTable(
  "company_skills",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** Canonical key, unique in the company (what agents' desiredSkills store). */
    key: text("key").notNull(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    metadata: json<Record<string, unknown>>("metadata"),
    sourceType: text("source_type", { enum: SKILL_SOURCE_TYPES }).notNull(),
    /** Where it came from: the catalog id, the URL or repository path, the project workspace. */
    sourceRef: text("source_ref"),
    /** The origin's commit (git hosts) or content hash (catalog, URLs) it was installed from. */
    sourceCommit: text("source_commit"),
    /** The package's content hash as installed from its origin (local edits make contentHash differ). */
    originHash: text("origin_hash"),
    contentHash: text("content_hash").notNull(),
    trustLevel: text("trust_level", { enum: SKILL_TRUST_LEVELS }).notNull(),
    editable: bool("editable").notNull(),
    auditVerdict: text("audit_verdict", { enum: SKILL_AUDIT_VERDICTS }),
    auditCodes: json<string[]>("audit_codes"),
    auditedAt: timestamp("audited_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("company_skills_company_key_uq").on(t.companyId, t.key), index("company_skills_company_slug_idx").on(t.companyId, t.slug)],
);

export const companySkillFiles = sqliteTable(
  "company_skill_files",
  {
    skillId: text("skill_id")
      .notNull()
      .references(() => companySkills.id, { onDelete: "cascade" }),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    kind: text("kind", { enum: SKILL_FILE_KINDS }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    /** R2 object key of the bytes. */
    objectKey: text("object_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.path] })],
);
