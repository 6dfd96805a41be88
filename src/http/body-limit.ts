// Request body size limits: JSON bodies are small; upload routes have their own limit.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../env";
import { errorBody } from "./errors";

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Routes (by path pattern) that accept larger bodies, with their limits. */
const LARGER_LIMITS: Array<{ pattern: RegExp; maxSize: number }> = [];

export function allowLargerBodies(pattern: RegExp, maxSize: number) {
  LARGER_LIMITS.push({ pattern, maxSize });
}

const limiters = new Map<number, MiddlewareHandler<AppEnv>>();
function limiter(maxSize: number) {
  let m = limiters.get(maxSize);
  if (!m) {
    m = bodyLimit({
      maxSize,
      onError: (c) => c.json(errorBody(`Request body too large: the limit for this route is ${maxSize} bytes`, { limitBytes: maxSize }), 413),
    });
    limiters.set(maxSize, m);
  }
  return m;
}

export const bodyLimitMiddleware: MiddlewareHandler<AppEnv> = (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD") return next();
  const path = c.req.path;
  const maxSize = LARGER_LIMITS.find((l) => l.pattern.test(path))?.maxSize ?? JSON_BODY_LIMIT_BYTES;
  return limiter(maxSize)(c, next);
};
