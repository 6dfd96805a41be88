// Work products: what agents deliver on an issue (pull requests, previews, files).
import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { issues } from "./issues";

export const workProducts = sqliteTable(
  "work_products",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    url: text("url"),
    contentType: text("content_type"),
    previewText: text("preview_text"),
    createdByAgentId: text("created_by_agent_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("work_products_issue_idx").on(t.issueId, t.createdAt), index("work_products_company_updated_idx").on(t.companyId, t.updatedAt)],
);
