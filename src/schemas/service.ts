// Service-level schemas: health and bootstrap.
import { z } from "@hono/zod-openapi";

export const HealthSchema = z
  .object({
    status: z.enum(["ok", "unavailable"]),
    deploymentMode: z.enum(["local_trusted", "authenticated"]),
    exposure: z.enum(["private", "public"]),
    auth: z.object({
      ready: z.boolean(),
      sessionAuth: z.boolean().openapi({ description: "Web sign-in available (authenticated mode with a session secret)" }),
      agentJwt: z.boolean().openapi({ description: "Agent JWT secret configured" }),
      problems: z.array(z.string()),
    }),
    bootstrap: z.object({
      status: z.enum(["not_applicable", "unclaimed", "claimed"]),
      claimPath: z.string().nullable(),
    }),
    features: z.record(z.string(), z.boolean()),
    database: z.enum(["ok", "unreachable"]),
    error: z.string().optional(),
    time: z.string(),
  })
  .openapi("Health");

export const BootstrapClaimSchema = z.object({ claimed: z.literal(true), userId: z.string() }).openapi("BootstrapClaim");
