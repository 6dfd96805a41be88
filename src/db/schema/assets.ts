// Metadata of stored bytes (logos and other assets); the bytes live in R2 under companies/<id>/.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { companies } from "./companies";

export const assets = sqliteTable(
  "assets",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    contentType: text("content_type").notNull(),
    byteSize: integer("byte_size").notNull(),
    sha256: text("sha256").notNull(),
    objectKey: text("object_key").notNull(),
    originalFilename: text("original_filename"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("assets_company_idx").on(t.companyId)],
);
