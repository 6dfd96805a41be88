// Instance admin: users, instance-admin promotion/demotion, a user's company access.
// Only instance admins (or the implicit local board) reach these routes.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { requireInstanceAdmin } from "../../http/access";
import { conflict } from "../../domain/errors";
import { runCompanyCommand } from "../../company/client";
import { errors, jsonBody, jsonContent } from "../../schemas/common";
import { AdminUserQuery, AdminUserSchema, CompanyAccessSchema, PutCompanyAccessSchema, UserIdParam } from "../../schemas/access/members";
import { setUserCompanyAccess } from "../../domain/access/members";
import { listAdminUsers, loadAdminUser, planCompanyAccessChanges, userCompanyAccess } from "../../domain/access/admin";
import { demoteInstanceAdmin, promoteInstanceAdmin } from "../../domain/instance/admins";

const tags = ["Instance admin"];
export const adminRouter = createRouter();

adminRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/admin/users",
    tags,
    summary: "Users of the instance (instance admin); `query` matches name or email",
    request: { query: AdminUserQuery },
    responses: { 200: jsonContent(z.array(AdminUserSchema), "Users"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    requireInstanceAdmin(c);
    const { query, limit } = c.req.valid("query");
    return c.json(await listAdminUsers(dbOf(c), query, limit), 200);
  },
);

adminRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/admin/users/{userId}/promote-instance-admin",
    tags,
    summary: "Make a user an instance admin (idempotent)",
    request: { params: UserIdParam },
    responses: { 200: jsonContent(AdminUserSchema, "The user"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const actor = requireInstanceAdmin(c);
    const { userId } = c.req.valid("param");
    const db = dbOf(c);
    await loadAdminUser(db, userId);
    await promoteInstanceAdmin(db, userId, actor.userId);
    return c.json(await loadAdminUser(db, userId), 200);
  },
);

adminRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/admin/users/{userId}/demote-instance-admin",
    tags,
    summary: "Remove a user's instance-admin role (idempotent); the last instance admin cannot be demoted (409)",
    request: { params: UserIdParam },
    responses: { 200: jsonContent(AdminUserSchema, "The user"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    requireInstanceAdmin(c);
    const { userId } = c.req.valid("param");
    const db = dbOf(c);
    const before = await loadAdminUser(db, userId);
    if (!before.isInstanceAdmin) return c.json(before, 200);
    if (!(await demoteInstanceAdmin(db, userId))) {
      const after = await loadAdminUser(db, userId);
      if (after.isInstanceAdmin) throw conflict("Cannot demote the last instance admin; promote another user first", { userId });
      return c.json(after, 200);
    }
    return c.json(await loadAdminUser(db, userId), 200);
  },
);

adminRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/admin/users/{userId}/company-access",
    tags,
    summary: "A user's company memberships (active and inactive)",
    request: { params: UserIdParam },
    responses: { 200: jsonContent(CompanyAccessSchema, "Company access"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    requireInstanceAdmin(c);
    return c.json(await userCompanyAccess(dbOf(c), c.req.valid("param").userId), 200);
  },
);

adminRouter.openapi(
  createRoute({
    method: "put",
    path: "/api/admin/users/{userId}/company-access",
    tags,
    summary: "Replace a user's company access: listed companies get an active membership with the role, others become inactive",
    description:
      "Unknown company ids: 422. Removing or demoting the last active owner of a company: 409 (checked for every company before anything changes). Each company's change runs in that company's serial section and logs company_member.updated.",
    request: { params: UserIdParam, body: jsonBody(PutCompanyAccessSchema) },
    responses: { 200: jsonContent(CompanyAccessSchema, "Company access"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const actor = requireInstanceAdmin(c);
    const { userId } = c.req.valid("param");
    const { memberships } = c.req.valid("json");
    const db = dbOf(c);
    const changes = await planCompanyAccessChanges(db, userId, memberships);
    for (const ch of changes) {
      await runCompanyCommand(c.env, ch.companyId, setUserCompanyAccess, actor, { userId, membershipRole: ch.membershipRole });
    }
    return c.json(await userCompanyAccess(db, userId), 200);
  },
);
