// Sidebar preferences, badges and inbox dismissals.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "../common";

const Items = z.array(z.string().min(1).max(200)).max(200);

export const SidebarPreferencesSchema = z
  .object({
    collapsed: z.boolean().default(false),
    collapsedSections: Items.default([]),
    hiddenItems: Items.default([]),
    itemOrder: Items.default([]),
    pinnedItems: Items.default([]),
  })
  .strict()
  .openapi("SidebarPreferences");

export const SidebarPreferencesViewSchema = z
  .object({
    scope: z.enum(["global", "company"]),
    companyId: z.string().nullable(),
    preferences: SidebarPreferencesSchema,
    updatedAt: z.string().nullable().openapi({ description: "null while the defaults apply" }),
  })
  .openapi("SidebarPreferencesView");

export const SidebarBadgesSchema = z
  .object({
    pendingApprovals: z.number().int(),
    pendingJoinRequests: z.number().int(),
    myOpenIssues: z.number().int().openapi({ description: "Open issues assigned to the caller" }),
    inbox: z.number().int().openapi({ description: "Inbox items (pending approvals, pending join requests, my open issues) not dismissed" }),
  })
  .openapi("SidebarBadges");

export const InboxItemKey = z
  .string()
  .regex(/^(approval|join_request|issue):[A-Za-z0-9._-]{1,150}$/, "must look like approval:<id>, join_request:<id> or issue:<id>");

export const DismissInboxItemSchema = z.object({ itemKey: InboxItemKey }).strict().openapi("DismissInboxItem");

export const InboxDismissalSchema = z.object({ itemKey: z.string(), dismissedAt: Timestamp }).openapi("InboxDismissal");

export const DismissResultSchema = InboxDismissalSchema.extend({
  created: z.boolean().openapi({ description: "false when the item was already dismissed" }),
}).openapi("InboxDismissResult");
