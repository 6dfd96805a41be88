// Board web sessions (authenticated mode) through better-auth on D1 via drizzle.
// better-auth owns /api/auth/* (sign-up, sign-in, sign-out, get-session, ...). Import it only
// through ./session.ts (lazily). `better-auth/minimal` is the same betterAuth without its Kysely
// query builder (~200 KB), which only its built-in SQL adapters need; sessions go through drizzle.
import { betterAuth } from "better-auth/minimal";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createDb, schema } from "../db/client";
import type { DeploymentConfig } from "../config";
import { trustedOrigins } from "../http/origin-check";

export function createAuth(env: Env, config: DeploymentConfig, requestUrl: string) {
  const origin = new URL(requestUrl).origin;
  const baseURL = config.baseUrlMode === "explicit" && config.publicBaseUrl ? config.publicBaseUrl : origin;
  return betterAuth({
    appName: "Agent Control Plane",
    baseURL,
    basePath: "/api/auth",
    secret: env.BETTER_AUTH_SECRET,
    trustedOrigins: [...new Set([baseURL, origin, ...trustedOrigins(env, config, requestUrl)])],
    database: drizzleAdapter(createDb(env.DB), {
      provider: "sqlite",
      schema: { user: schema.users, session: schema.sessions, account: schema.accounts, verification: schema.verifications },
    }),
    emailAndPassword: { enabled: true, minPasswordLength: 8 },
    // Its in-memory rate limiting is per isolate on Workers and so gives no real protection; sign-in and
    // sign-up attempts are limited by AttemptLimiter objects instead (src/http/attempt-limits.ts).
    rateLimit: { enabled: false },
    advanced: { database: { generateId: () => crypto.randomUUID() } },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
