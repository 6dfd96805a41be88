// Board sessions (better-auth under /api/auth/*), the caller's profile and member profiles.
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { createRouter } from "../http/router";
import { createDb, schema } from "../db/client";
import { requireBoard, requireCompanyAccess } from "../http/access";
import { LOCAL_BOARD_USER_ID, type BoardActor } from "../domain/actor";
import { notFound } from "../domain/errors";
import { inServiceErrorShape, loadSessionAuth } from "../auth/session";
import { slugify } from "../domain/users/slug";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { CompanyUserProfileSchema, ProfileSchema, SessionSchema, UpdateProfileSchema } from "../schemas/auth";

const tags = ["Auth"];
export const authRouter = createRouter();

async function profileOf(env: Env, actor: BoardActor) {
  const user = await createDb(env.DB).query.users.findFirst({ where: eq(schema.users.id, actor.userId) });
  if (!user) throw notFound("User not found");
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    image: user.image ?? null,
    slug: slugify(user.name) || user.id,
    isInstanceAdmin: actor.isInstanceAdmin,
    companyIds: actor.companyIds,
    authSource: actor.source,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

authRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/auth/profile",
    tags,
    summary: "The board caller's profile",
    responses: { 200: jsonContent(ProfileSchema, "Profile"), ...errors(401, 403) },
  }),
  async (c) => c.json(await profileOf(c.env, requireBoard(c)), 200),
);

authRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/auth/profile",
    tags,
    summary: "Update the board caller's profile (name, image)",
    request: { body: jsonBody(UpdateProfileSchema) },
    responses: { 200: jsonContent(ProfileSchema, "Profile"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    const body = c.req.valid("json");
    await createDb(c.env.DB)
      .update(schema.users)
      .set({ ...(body.name !== undefined ? { name: body.name } : {}), ...(body.image !== undefined ? { image: body.image } : {}), updatedAt: new Date() })
      .where(eq(schema.users.id, actor.userId))
      .run();
    return c.json(await profileOf(c.env, actor), 200);
  },
);

authRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/users/{userSlug}/profile",
    tags,
    summary: "A company member's profile, by user id or name slug",
    request: { params: CompanyIdParam.extend({ userSlug: z.string().min(1).max(200) }) },
    responses: { 200: jsonContent(CompanyUserProfileSchema, "Member profile"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, userSlug } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const db = createDb(c.env.DB);
    const members = await db
      .select({ user: schema.users, membership: schema.companyMemberships })
      .from(schema.companyMemberships)
      .innerJoin(schema.users, eq(schema.users.id, schema.companyMemberships.principalId))
      .where(and(eq(schema.companyMemberships.companyId, companyId), eq(schema.companyMemberships.principalType, "user")));
    const wanted = userSlug.toLowerCase();
    const match =
      members.find((m) => m.user.id === userSlug) ??
      members.find((m) => slugify(m.user.name) === wanted) ??
      members.find((m) => m.user.email.split("@")[0].toLowerCase() === wanted);
    if (!match) throw notFound("User not found in this company");
    const stats = await db
      .select({
        activityCount: sql<number>`(SELECT COUNT(*) FROM activity_log WHERE company_id = ${companyId} AND actor_type = 'user' AND actor_id = ${match.user.id})`,
        assignedOpenIssueCount: sql<number>`(SELECT COUNT(*) FROM issues WHERE company_id = ${companyId} AND assignee_user_id = ${match.user.id} AND status NOT IN ('done','cancelled'))`,
      })
      .from(schema.companies)
      .where(eq(schema.companies.id, companyId))
      .get();
    return c.json(
      {
        user: {
          id: match.user.id,
          name: match.user.name,
          slug: slugify(match.user.name) || match.user.id,
          image: match.user.image ?? null,
          email: c.get("actor").type === "board" ? match.user.email : null,
        },
        membership: {
          id: match.membership.id,
          membershipRole: match.membership.membershipRole,
          status: match.membership.status,
          createdAt: match.membership.createdAt,
        },
        stats: { activityCount: stats?.activityCount ?? 0, assignedOpenIssueCount: stats?.assignedOpenIssueCount ?? 0 },
      },
      200,
    );
  },
);

authRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/auth/get-session",
    security: [],
    tags,
    summary: "The current web session (null when signed out); local_trusted mode reports the implicit local board session",
    responses: { 200: jsonContent(SessionSchema, "Session or null") },
  }),
  async (c) => {
    const actor = c.get("actor");
    if (actor.type === "board" && actor.source === "local_implicit") {
      const user = await createDb(c.env.DB).query.users.findFirst({ where: eq(schema.users.id, LOCAL_BOARD_USER_ID) });
      return c.json(
        {
          session: { id: "local_implicit", userId: LOCAL_BOARD_USER_ID, expiresAt: null, source: "local_implicit" },
          user: { id: LOCAL_BOARD_USER_ID, name: user?.name ?? "Local Board", email: user?.email ?? "local-board@localhost" },
        },
        200,
      );
    }
    const auth = await loadSessionAuth(c.env, c.get("config"), c.req.url);
    return (await inServiceErrorShape(await auth.handler(c.req.raw))) as never;
  },
);

// Documented here; served by better-auth below.
const credentials = z.object({ email: z.string().email(), password: z.string().min(8) });
authRouter.openAPIRegistry.registerPath({
  method: "post",
  path: "/api/auth/sign-up/email",
  security: [],
  tags,
  summary: "Sign up with email and password (better-auth); sets the session cookie",
  request: { body: jsonBody(credentials.extend({ name: z.string().min(1) })) },
  responses: { 200: { description: "Signed up: { token, user }" }, 400: { description: "Invalid input" }, 422: { description: "User exists" } },
});
authRouter.openAPIRegistry.registerPath({
  method: "post",
  path: "/api/auth/sign-in/email",
  security: [],
  tags,
  summary: "Sign in with email and password (better-auth); sets the session cookie",
  request: { body: jsonBody(credentials) },
  responses: { 200: { description: "Signed in: { token, user }" }, 401: { description: "Invalid email or password" } },
});
authRouter.openAPIRegistry.registerPath({
  method: "post",
  path: "/api/auth/sign-out",
  security: [],
  tags,
  summary: "Sign out (better-auth); clears the session",
  responses: { 200: { description: "{ success: true }" } },
});

authRouter.on(["GET", "POST"], "/api/auth/*", async (c) => {
  const auth = await loadSessionAuth(c.env, c.get("config"), c.req.url);
  return inServiceErrorShape(await auth.handler(c.req.raw));
});
