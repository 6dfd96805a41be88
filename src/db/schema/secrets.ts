// Company secrets (metadata) and their immutable versions (encrypted material).
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const companySecrets = sqliteTable(
  "company_secrets",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    provider: text("provider").notNull(),
    externalRef: text("external_ref"),
    latestVersion: integer("latest_version").notNull(),
    description: text("description"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("company_secrets_name_uq").on(t.companyId, t.name), index("company_secrets_created_idx").on(t.companyId, t.createdAt)],
);

export const companySecretVersions = sqliteTable(
  "company_secret_versions",
  {
    id: text("id").primaryKey(),
    secretId: text("secret_id")
      .notNull()
      .references(() => companySecrets.id, { onDelete: "cascade" }),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** Provider material, e.g. `{ scheme: "aes-256-gcm:v1", iv, ciphertext }` for local_encrypted. */
    material: text("material", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    valueSha256: text("value_sha256").notNull(),
    externalRef: text("external_ref"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("company_secret_versions_uq").on(t.secretId, t.version)],
);
