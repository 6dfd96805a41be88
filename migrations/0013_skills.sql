-- The company skill library: skills (origin, hashes, trust level, last audit) and their files
-- (kind, size, SHA-256, R2 object key).
CREATE TABLE `company_skills` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `key` text NOT NULL,
  `slug` text NOT NULL,
  `name` text NOT NULL,
  `description` text,
  `metadata` text,
  `source_type` text NOT NULL,
  `source_ref` text,
  `source_commit` text,
  `origin_hash` text,
  `content_hash` text NOT NULL,
  `trust_level` text NOT NULL,
  `editable` integer NOT NULL,
  `audit_verdict` text,
  `audit_codes` text,
  `audited_at` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `company_skills_company_key_uq` ON `company_skills` (`company_id`,`key`);
CREATE INDEX `company_skills_company_slug_idx` ON `company_skills` (`company_id`,`slug`);

CREATE TABLE `company_skill_files` (
  `skill_id` text NOT NULL REFERENCES `company_skills`(`id`) ON DELETE cascade,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `path` text NOT NULL,
  `kind` text NOT NULL,
  `size_bytes` integer NOT NULL,
  `sha256` text NOT NULL,
  `object_key` text NOT NULL,
  `created_at` text NOT NULL,
  PRIMARY KEY(`skill_id`, `path`)
);
