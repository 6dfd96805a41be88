// Helpers shared by the access route modules.
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";

/** The public base URL links are built from: AUTH_PUBLIC_BASE_URL when set, else the request's origin. */
export function publicBaseUrl(c: Context<AppEnv>) {
  return (c.get("config").publicBaseUrl ?? new URL(c.req.url).origin).replace(/\/+$/, "");
}

/** An optional JSON body: sent without Content-Type it reads as `{}` ("body default {}"). */
export function optionalJsonBody<T extends z.ZodType>(schema: T) {
  return { required: false, content: { "application/json": { schema } } } as const;
}

export const userIdOf = (actor: { userId: string }) => actor.userId;
