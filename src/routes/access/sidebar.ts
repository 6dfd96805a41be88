// Sidebar preferences (global and per company, per board user), sidebar badges, inbox dismissals.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { requireBoard, requireCompanyAccess } from "../../http/access";
import type { BoardActor } from "../../domain/actor";
import { runCompanyCommand } from "../../company/client";
import {
  dismissInboxItem,
  GLOBAL_SCOPE,
  listInboxDismissals,
  putCompanySidebarPreferences,
  readSidebarPreferences,
  saveGlobalSidebarPreferences,
  sidebarBadges,
} from "../../domain/access/inbox";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../../schemas/common";
import {
  DismissInboxItemSchema,
  DismissResultSchema,
  InboxDismissalSchema,
  SidebarBadgesSchema,
  SidebarPreferencesSchema,
  SidebarPreferencesViewSchema,
} from "../../schemas/access/sidebar";

const tags = ["Sidebar"];
export const sidebarRouter = createRouter();

function preferencesView(scope: "global" | "company", companyId: string | null, row: { preferences: Record<string, unknown>; updatedAt: string } | undefined) {
  const parsed = SidebarPreferencesSchema.safeParse(row?.preferences ?? {});
  return {
    scope,
    companyId,
    preferences: parsed.success ? parsed.data : SidebarPreferencesSchema.parse({}),
    updatedAt: row?.updatedAt ?? null,
  };
}

sidebarRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/sidebar-preferences/me",
    tags,
    summary: "The board caller's global sidebar preferences (defaults until saved)",
    responses: { 200: jsonContent(SidebarPreferencesViewSchema, "Preferences"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    return c.json(preferencesView("global", null, await readSidebarPreferences(dbOf(c), actor.userId, GLOBAL_SCOPE)), 200);
  },
);

sidebarRouter.openapi(
  createRoute({
    method: "put",
    path: "/api/sidebar-preferences/me",
    tags,
    summary: "Replace the board caller's global sidebar preferences",
    request: { body: jsonBody(SidebarPreferencesSchema) },
    responses: { 200: jsonContent(SidebarPreferencesViewSchema, "Preferences"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    const preferences = c.req.valid("json");
    const now = new Date().toISOString();
    await saveGlobalSidebarPreferences(dbOf(c), actor.userId, preferences, now);
    return c.json(preferencesView("global", null, { preferences, updatedAt: now }), 200);
  },
);

sidebarRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/sidebar-preferences/me",
    tags,
    summary: "The board caller's sidebar preferences for this company (defaults until saved)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(SidebarPreferencesViewSchema, "Preferences"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const actor = c.get("actor") as BoardActor;
    return c.json(preferencesView("company", companyId, await readSidebarPreferences(dbOf(c), actor.userId, companyId)), 200);
  },
);

sidebarRouter.openapi(
  createRoute({
    method: "put",
    path: "/api/companies/{companyId}/sidebar-preferences/me",
    tags,
    summary: "Replace the board caller's sidebar preferences for this company",
    request: { params: CompanyIdParam, body: jsonBody(SidebarPreferencesSchema) },
    responses: { 200: jsonContent(SidebarPreferencesViewSchema, "Preferences"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const actor = c.get("actor") as BoardActor;
    const preferences = c.req.valid("json");
    const { updatedAt } = await runCompanyCommand(c.env, companyId, putCompanySidebarPreferences, actor, {
      userId: actor.userId,
      preferences,
    });
    return c.json(preferencesView("company", companyId, { preferences, updatedAt }), 200);
  },
);

sidebarRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/sidebar-badges",
    tags,
    summary: "Sidebar counts: pending approvals, pending join requests, open issues assigned to the caller, undismissed inbox items",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(SidebarBadgesSchema, "Counts"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const actor = c.get("actor") as BoardActor;
    return c.json(await sidebarBadges(dbOf(c), companyId, actor.userId), 200);
  },
);

sidebarRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/inbox-dismissals",
    tags,
    summary: "Inbox items the board caller dismissed in this company, newest first",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(InboxDismissalSchema), "Dismissals"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const actor = c.get("actor") as BoardActor;
    return c.json(await listInboxDismissals(dbOf(c), companyId, actor.userId), 200);
  },
);

sidebarRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/inbox-dismissals",
    tags,
    summary: "Dismiss an inbox item (approval:<id>, join_request:<id>, issue:<id>); idempotent",
    request: { params: CompanyIdParam, body: jsonBody(DismissInboxItemSchema) },
    responses: { 200: jsonContent(DismissResultSchema, "The dismissal"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const actor = c.get("actor") as BoardActor;
    const result = await runCompanyCommand(c.env, companyId, dismissInboxItem, actor, {
      userId: actor.userId,
      itemKey: c.req.valid("json").itemKey,
    });
    return c.json(result, 200);
  },
);
