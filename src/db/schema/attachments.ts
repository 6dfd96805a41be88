// Issue attachments (bytes in R2 under companies/<id>/…).
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { companies } from "./companies";
import { issues } from "./issues";

export const issueAttachments = sqliteTable(
  "issue_attachments",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    contentType: text("content_type").notNull(),
    byteSize: integer("byte_size").notNull(),
    sha256: text("sha256").notNull(),
    objectKey: text("object_key").notNull(),
    originalFilename: text("original_filename"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("issue_attachments_issue_idx").on(t.issueId, t.createdAt), index("issue_attachments_company_created_idx").on(t.companyId, t.createdAt)],
);
