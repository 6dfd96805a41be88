// Service routes: health and the first-admin bootstrap claim.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { conflict, notFound, unauthorized } from "../domain/errors";
import { sessionAuthReady } from "../auth/session";
import { claimFirstInstanceAdmin, instanceAdminCount } from "../domain/instance/admins";
import { errors, jsonContent } from "../schemas/common";
import { BootstrapClaimSchema, HealthSchema } from "../schemas/service";

const tags = ["Service"];
export const serviceRouter = createRouter();

/** Feature flags reported by health: what this build serves. */
const FEATURES = {
  webSessions: true,
  boardApiKeys: true,
  agentApiKeys: true,
  agentJwt: true,
  cliAuth: true,
  openapi: true,
};

const bootstrapApplies = (mode: string, exposure: string) => mode === "authenticated" && exposure === "private";

serviceRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/health",
    security: [],
    tags,
    summary: "Health: status, deployment mode, exposure, auth readiness, bootstrap state, feature flags (no auth)",
    responses: {
      200: jsonContent(HealthSchema, "Healthy"),
      503: jsonContent(HealthSchema, "Database unreachable"),
    },
  }),
  async (c) => {
    const config = c.get("config");
    const problems: string[] = [];
    const agentJwt = typeof c.env.AGENT_JWT_SECRET === "string" && c.env.AGENT_JWT_SECRET.length >= 32;
    if (!agentJwt) problems.push("AGENT_JWT_SECRET is missing or shorter than 32 characters");
    const sessionAuth = config.mode === "authenticated" && sessionAuthReady(c.env);
    if (config.mode === "authenticated" && !sessionAuth) problems.push("BETTER_AUTH_SECRET is missing or shorter than 32 characters");

    let database: "ok" | "unreachable" = "ok";
    let bootstrapStatus: "not_applicable" | "unclaimed" | "claimed" = "not_applicable";
    try {
      const admins = await instanceAdminCount(dbOf(c));
      if (bootstrapApplies(config.mode, config.exposure)) bootstrapStatus = admins > 0 ? "claimed" : "unclaimed";
    } catch (err) {
      console.error("health: database check failed", err);
      database = "unreachable";
    }
    const body = {
      status: database === "ok" ? ("ok" as const) : ("unavailable" as const),
      deploymentMode: config.mode,
      exposure: config.exposure,
      auth: { ready: problems.length === 0, sessionAuth, agentJwt, problems },
      bootstrap: { status: bootstrapStatus, claimPath: bootstrapStatus === "unclaimed" ? "/api/bootstrap/claim" : null },
      features: FEATURES,
      database,
      time: new Date().toISOString(),
    };
    if (database !== "ok") return c.json({ ...body, error: "Database unreachable" }, 503);
    return c.json(body, 200);
  },
);

serviceRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/bootstrap/claim",
    security: [],
    tags,
    summary: "Claim the first instance admin (authenticated + private only; needs a signed-in browser session)",
    responses: {
      200: jsonContent(BootstrapClaimSchema, "The caller is now instance admin"),
      ...errors(401, 404, 409),
    },
  }),
  async (c) => {
    const config = c.get("config");
    if (!bootstrapApplies(config.mode, config.exposure)) throw notFound("Bootstrap claim is not available in this deployment");
    const actor = c.get("actor");
    if (actor.type !== "board" || actor.source !== "session") throw unauthorized("A signed-in browser session is required to claim");
    if (!(await claimFirstInstanceAdmin(dbOf(c), actor.userId, new Date().toISOString()))) throw conflict("The instance has already been claimed");
    return c.json({ claimed: true as const, userId: actor.userId }, 200);
  },
);
