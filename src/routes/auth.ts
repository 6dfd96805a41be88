// Board sessions (better-auth under /api/auth/*), the caller's profile and member profiles.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireBoard, requireCompanyAccess } from "../http/access";
import { LOCAL_BOARD_USER_ID } from "../domain/actor";
import { inServiceErrorShape, loadSessionAuth } from "../auth/session";
import { boardProfile, companyMemberProfile, findUser } from "../domain/users/queries";
import { updateUserProfile } from "../domain/users/store";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { CompanyUserProfileSchema, ProfileSchema, SessionSchema, UpdateProfileSchema } from "../schemas/auth";
import { clientAddress, limitedAttempt } from "../http/attempt-limits";

const tags = ["Auth"];
export const authRouter = createRouter();

authRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/auth/profile",
    tags,
    summary: "The board caller's profile",
    responses: { 200: jsonContent(ProfileSchema, "Profile"), ...errors(401, 403) },
  }),
  async (c) => c.json(await boardProfile(dbOf(c), requireBoard(c)), 200),
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
    const db = dbOf(c);
    await updateUserProfile(db, actor.userId, c.req.valid("json"));
    return c.json(await boardProfile(db, actor), 200);
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
    const profile = await companyMemberProfile(dbOf(c), companyId, userSlug, { includeEmail: c.get("actor").type === "board" });
    return c.json(profile, 200);
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
      const user = await findUser(dbOf(c), LOCAL_BOARD_USER_ID);
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
  responses: {
    200: { description: "Signed up: { token, user }" },
    400: { description: "Invalid input" },
    422: { description: "User exists" },
    429: { description: "Too many sign-ups from this address (Retry-After)" },
  },
});
authRouter.openAPIRegistry.registerPath({
  method: "post",
  path: "/api/auth/sign-in/email",
  security: [],
  tags,
  summary: "Sign in with email and password (better-auth); sets the session cookie",
  request: { body: jsonBody(credentials) },
  responses: {
    200: { description: "Signed in: { token, user }" },
    401: { description: "Invalid email or password" },
    429: { description: "Too many failed sign-ins for this account or from this address (Retry-After)" },
  },
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
  const serve = async () => {
    const auth = await loadSessionAuth(c.env, c.get("config"), c.req.url);
    return inServiceErrorShape(await auth.handler(c.req.raw));
  };
  const address = `address:${clientAddress(c)}`;
  if (c.req.method === "POST" && c.req.path === "/api/auth/sign-in/email") {
    const email = await emailOf(c.req.raw);
    return limitedAttempt(c, "sign_in", email ? [`account:${email}`, address] : [address], serve);
  }
  if (c.req.method === "POST" && c.req.path === "/api/auth/sign-up/email") return limitedAttempt(c, "sign_up", [address], serve);
  return serve();
});

/** The (lower-cased) email of a sign-in body, read from a copy so better-auth still reads the body. */
async function emailOf(request: Request): Promise<string | null> {
  try {
    const body = (await request.clone().json()) as { email?: unknown };
    return typeof body?.email === "string" && body.email.trim() ? body.email.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}
