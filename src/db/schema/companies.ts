// Companies (the tenant), their memberships and principal permission grants.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";

export const companies = sqliteTable("companies", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description"),
  status: text("status", { enum: ["active", "paused", "archived"] }).notNull(),
  pauseReason: text("pause_reason"),
  issuePrefix: text("issue_prefix").notNull().unique(),
  issueCounter: integer("issue_counter").notNull().default(0),
  budgetMonthlyCents: integer("budget_monthly_cents").notNull().default(0),
  spentMonthlyCents: integer("spent_monthly_cents").notNull().default(0),
  spentMonth: text("spent_month"),
  requireBoardApprovalForNewAgents: integer("require_board_approval_for_new_agents", { mode: "boolean" })
    .notNull()
    .default(false),
  brandColor: text("brand_color"),
  logoAssetId: text("logo_asset_id"),
  feedbackSharingConsent: text("feedback_sharing_consent", { mode: "json" }).$type<Record<string, unknown>>(),
  archivedAt: text("archived_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const companyMemberships = sqliteTable(
  "company_memberships",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    principalType: text("principal_type", { enum: ["user", "agent"] }).notNull(),
    principalId: text("principal_id").notNull(),
    membershipRole: text("membership_role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    status: text("status", { enum: ["active", "inactive"] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("company_memberships_principal_uq").on(t.companyId, t.principalType, t.principalId),
    index("company_memberships_principal_idx").on(t.principalType, t.principalId),
  ],
);

export const principalPermissionGrants = sqliteTable(
  "principal_permission_grants",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    principalType: text("principal_type", { enum: ["user", "agent"] }).notNull(),
    principalId: text("principal_id").notNull(),
    permissionKey: text("permission_key").notNull(),
    scope: text("scope", { mode: "json" }).$type<Record<string, unknown> | null>(),
    grantedByUserId: text("granted_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("principal_permission_grants_principal_idx").on(t.companyId, t.principalType, t.principalId)],
);
