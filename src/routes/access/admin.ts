// Instance admin: users, instance-admin promotion/demotion, a user's company access.
// Only instance admins (or the implicit local board) reach these routes.
import { inIds } from "../../db/id-list";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, or, sql } from "drizzle-orm";
import { createRouter } from "../../http/router";
import { createDb, schema, type Db } from "../../db/client";
import { requireInstanceAdmin } from "../../http/access";
import { conflict, notFound, unprocessable, badRequest } from "../../domain/errors";
import { runCompanyCommand } from "../../company/client";
import { errors, jsonBody, jsonContent } from "../../schemas/common";
import {
  AdminUserQuery,
  AdminUserSchema,
  CompanyAccessSchema,
  PutCompanyAccessSchema,
  UserIdParam,
} from "../../schemas/access/members";
import { setUserCompanyAccess } from "../../domain/access/members";

const tags = ["Instance admin"];
export const adminRouter = createRouter();

const adminUserColumns = {
  id: schema.users.id,
  name: schema.users.name,
  email: schema.users.email,
  image: schema.users.image,
  createdAt: schema.users.createdAt,
  isInstanceAdmin: sql<number>`EXISTS (SELECT 1 FROM instance_admins ia WHERE ia.user_id = ${schema.users.id})`,
  activeCompanyCount: sql<number>`(SELECT COUNT(*) FROM company_memberships m WHERE m.principal_type = 'user' AND m.principal_id = ${schema.users.id} AND m.status = 'active')`,
};

type AdminUserRow = { id: string; name: string; email: string; image: string | null; createdAt: Date; isInstanceAdmin: number; activeCompanyCount: number };
const adminUserView = (r: AdminUserRow) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  image: r.image ?? null,
  isInstanceAdmin: Boolean(r.isInstanceAdmin),
  activeCompanyCount: Number(r.activeCompanyCount),
  createdAt: r.createdAt.toISOString(),
});

async function loadAdminUser(db: Db, userId: string) {
  const row = await db.select(adminUserColumns).from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!row) throw notFound("User not found");
  return adminUserView(row);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

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
    const pattern = query ? `%${escapeLike(query.toLowerCase())}%` : null;
    const rows = await createDb(c.env.DB)
      .select(adminUserColumns)
      .from(schema.users)
      .where(
        pattern
          ? or(sql`lower(${schema.users.name}) LIKE ${pattern} ESCAPE '\\'`, sql`lower(${schema.users.email}) LIKE ${pattern} ESCAPE '\\'`)
          : undefined,
      )
      .orderBy(schema.users.name, schema.users.id)
      .limit(limit);
    return c.json(rows.map(adminUserView), 200);
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
    const db = createDb(c.env.DB);
    await loadAdminUser(db, userId);
    await db
      .insert(schema.instanceAdmins)
      .values({ userId, grantedByUserId: actor.userId, viaBootstrap: false, createdAt: new Date().toISOString() })
      .onConflictDoNothing()
      .run();
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
    const db = createDb(c.env.DB);
    const before = await loadAdminUser(db, userId);
    if (!before.isInstanceAdmin) return c.json(before, 200);
    // One statement: D1 runs statements one at a time, so two demotions cannot both pass the count.
    const result = await c.env.DB.prepare(
      "DELETE FROM instance_admins WHERE user_id = ?1 AND (SELECT COUNT(*) FROM instance_admins) > 1",
    )
      .bind(userId)
      .run();
    if (!result.meta.changes) {
      const after = await loadAdminUser(db, userId);
      if (after.isInstanceAdmin) throw conflict("Cannot demote the last instance admin; promote another user first", { userId });
      return c.json(after, 200);
    }
    return c.json(await loadAdminUser(db, userId), 200);
  },
);

async function companyAccessOf(db: Db, userId: string) {
  const user = await loadAdminUser(db, userId);
  const rows = await db
    .select({ membership: schema.companyMemberships, companyName: schema.companies.name })
    .from(schema.companyMemberships)
    .innerJoin(schema.companies, eq(schema.companies.id, schema.companyMemberships.companyId))
    .where(and(eq(schema.companyMemberships.principalType, "user"), eq(schema.companyMemberships.principalId, userId)))
    .orderBy(schema.companies.name);
  return {
    userId,
    isInstanceAdmin: user.isInstanceAdmin,
    memberships: rows.map((r) => ({
      companyId: r.membership.companyId,
      companyName: r.companyName,
      membershipId: r.membership.id,
      membershipRole: r.membership.membershipRole,
      status: r.membership.status,
    })),
  };
}

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
    return c.json(await companyAccessOf(createDb(c.env.DB), c.req.valid("param").userId), 200);
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
    const db = createDb(c.env.DB);
    const current = await companyAccessOf(db, userId);
    const wanted = new Map(memberships.map((m) => [m.companyId, m.membershipRole]));
    if (wanted.size !== memberships.length) throw badRequest("Each companyId may appear only once");
    if (wanted.size) {
      const found = await db.select({ id: schema.companies.id }).from(schema.companies).where(inIds(schema.companies.id, [...wanted.keys()]));
      const missing = [...wanted.keys()].filter((id) => !found.some((f) => f.id === id));
      if (missing.length) throw unprocessable("Unknown company ids", { companyIds: missing });
    }
    const changes: Array<{ companyId: string; membershipRole: (typeof memberships)[number]["membershipRole"] | null }> = [];
    for (const [companyId, role] of wanted) {
      const existing = current.memberships.find((m) => m.companyId === companyId);
      if (!existing || existing.status !== "active" || existing.membershipRole !== role) changes.push({ companyId, membershipRole: role });
    }
    for (const m of current.memberships) {
      if (m.status === "active" && !wanted.has(m.companyId)) changes.push({ companyId: m.companyId, membershipRole: null });
    }
    // Pre-check the last-owner rule everywhere so a refusal leaves every company untouched.
    const losingOwner = changes.filter((ch) => current.memberships.some((m) => m.companyId === ch.companyId && m.status === "active" && m.membershipRole === "owner") && ch.membershipRole !== "owner");
    for (const ch of losingOwner) {
      const owners = await db
        .select({ n: sql<number>`COUNT(*)` })
        .from(schema.companyMemberships)
        .where(
          and(
            eq(schema.companyMemberships.companyId, ch.companyId),
            eq(schema.companyMemberships.membershipRole, "owner"),
            eq(schema.companyMemberships.status, "active"),
          ),
        )
        .get();
      if (Number(owners?.n ?? 0) <= 1) {
        throw conflict("Cannot remove or demote the last active owner of a company", { companyId: ch.companyId, userId });
      }
    }
    for (const ch of changes) {
      await runCompanyCommand(c.env, ch.companyId, setUserCompanyAccess, actor, { userId, membershipRole: ch.membershipRole });
    }
    return c.json(await companyAccessOf(db, userId), 200);
  },
);

