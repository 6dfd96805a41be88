// The directory (migrations/0020_directory_shards.sql; routing in src/db/shards.ts): what a request
// needs before it knows its company's database. Lives in the `DB` binding; empty on shards.
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { inDirectory } from "./homes";

export const directoryCompanies = inDirectory(
  sqliteTable(
    "directory_companies",
    {
      id: text("id").primaryKey(),
      /** The D1 binding holding the company's rows (`DB_SHARD_<n>`, or `DB` itself). */
      shard: text("shard").notNull(),
      name: text("name").notNull(),
      issuePrefix: text("issue_prefix").notNull(),
      status: text("status").notNull(),
      /** Set while the company is being moved: its writes answer 503 + Retry-After. */
      fencedAt: text("fenced_at"),
      createdAt: text("created_at").notNull(),
      updatedAt: text("updated_at").notNull(),
    },
    (t) => [uniqueIndex("directory_companies_issue_prefix_uq").on(t.issuePrefix), index("directory_companies_shard_idx").on(t.shard)],
  ),
);

export const directoryMemberships = inDirectory(
  sqliteTable(
    "directory_memberships",
    {
      companyId: text("company_id").notNull(),
      userId: text("user_id").notNull(),
      membershipRole: text("membership_role").notNull(),
      status: text("status").notNull(),
    },
    (t) => [primaryKey({ columns: [t.companyId, t.userId] }), index("directory_memberships_user_idx").on(t.userId, t.status)],
  ),
);

export const directoryAgentKeys = inDirectory(
  sqliteTable(
    "directory_agent_keys",
    {
      keyHash: text("key_hash").primaryKey(),
      keyId: text("key_id").notNull(),
      agentId: text("agent_id").notNull(),
      companyId: text("company_id").notNull(),
      agentStatus: text("agent_status").notNull(),
      revokedAt: text("revoked_at"),
    },
    (t) => [index("directory_agent_keys_agent_idx").on(t.agentId), index("directory_agent_keys_company_idx").on(t.companyId)],
  ),
);

export const PUBLIC_ID_KINDS = ["routine_trigger"] as const;

export const directoryPublicIds = inDirectory(
  sqliteTable(
    "directory_public_ids",
    {
      kind: text("kind", { enum: PUBLIC_ID_KINDS }).notNull(),
      publicId: text("public_id").notNull(),
      companyId: text("company_id").notNull(),
    },
    (t) => [primaryKey({ columns: [t.kind, t.publicId] }), index("directory_public_ids_company_idx").on(t.companyId)],
  ),
);

export const DIRECTORY_OUTBOX_KINDS = [
  "company",
  "company_deleted",
  "membership",
  "agent_key",
  "agent_key_deleted",
  "agent_status",
  "public_id",
  "public_id_deleted",
] as const;

export const directoryOutbox = sqliteTable("directory_outbox", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  kind: text("kind", { enum: DIRECTORY_OUTBOX_KINDS }).notNull(),
  companyId: text("company_id").notNull(),
  payload: text("payload").notNull(),
});
