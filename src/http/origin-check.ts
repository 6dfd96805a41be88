// Cross-site request refusal for cookie-authenticated callers (authenticated mode). A browser sends
// the session cookie with any request to this origin, including one a hostile page makes; SameSite
// does not cover same-site subdomains. So an unsafe request (POST, PUT, PATCH, DELETE) authenticated
// by the session cookie must come from the service's own origin or a configured trusted origin
// (AUTH_TRUSTED_ORIGINS, comma-separated), judged by its Origin header or, without one, its Referer.
// Otherwise: 403, and nothing runs. Bearer-authenticated calls carry their credential explicitly and
// are not affected.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import type { DeploymentConfig } from "../config";
import { forbidden } from "../domain/errors";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const originOf = (url: string | undefined | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** The origins a cookie-authenticated browser request may come from. */
export function trustedOrigins(env: Pick<Env, "AUTH_TRUSTED_ORIGINS">, config: DeploymentConfig, requestUrl: string): string[] {
  const configured = (env.AUTH_TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((entry) => originOf(entry.trim()))
    .filter((o): o is string => !!o);
  const own = [originOf(requestUrl), config.publicBaseUrl ? originOf(config.publicBaseUrl) : null].filter((o): o is string => !!o);
  return [...new Set([...own, ...configured])];
}

export const sameOriginForSessionsMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get("actor");
  if (UNSAFE.has(c.req.method) && actor.type === "board" && actor.source === "session") {
    const from = originOf(c.req.header("origin")) ?? originOf(c.req.header("referer"));
    if (!from || !trustedOrigins(c.env, c.get("config"), c.req.url).includes(from)) {
      throw forbidden("Cross-site request refused: a cookie-authenticated change must come from this service's own pages (or use a bearer key)", {
        origin: from,
      });
    }
  }
  await next();
};
