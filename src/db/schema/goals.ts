// Goals: the company's intent tree.
import { sqliteTable, uniqueIndex, text, index, integer } from "drizzle-orm/sqlite-core";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const GOAL_LEVELS = ["company", "team", "agent", "task"] as const;
export const GOAL_STATUSES = ["planned", "active", "achieved", "cancelled"] as const;

export const goals = sqliteTable(
  "goals",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    level: text("level", { enum: GOAL_LEVELS }).notNull(),
    status: text("status", { enum: GOAL_STATUSES }).notNull(),
    parentId: text("parent_id").references((): AnySQLiteColumn => goals.id, { onDelete: "set null" }),
    ownerAgentId: text("owner_agent_id"),
    isCompanyDefault: integer("is_company_default", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("goals_company_idx").on(t.companyId),
    index("goals_parent_idx").on(t.parentId),
    // At most one default goal per company (migration 0009).
    uniqueIndex("goals_company_default_uq").on(t.companyId).where(sql`${t.isCompanyDefault} = 1`),
  ],
);
