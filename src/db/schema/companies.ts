// Companies: the tenant.
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";

export const COMPANY_STATUSES = ["active", "paused", "archived"] as const;

export const companies = sqliteTable("companies", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description"),
  status: text("status", { enum: COMPANY_STATUSES }).notNull(),
  pauseReason: text("pause_reason"),
  issuePrefix: text("issue_prefix").notNull().unique(),
  issueCounter: integer("issue_counter").notNull().default(0),
  budgetMonthlyCents: integer("budget_monthly_cents").notNull().default(0),
  spentMonthlyCents: integer("spent_monthly_cents").notNull().default(0),
  spentMonth: text("spent_month"),
  requireBoardApprovalForNewAgents: integer("require_board_approval_for_new_agents", { mode: "boolean" }).notNull().default(false),
  brandColor: text("brand_color"),
  logoAssetId: text("logo_asset_id"),
  feedbackSharingConsent: text("feedback_sharing_consent", { mode: "json" }).$type<Record<string, unknown>>(),
  archivedAt: text("archived_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
