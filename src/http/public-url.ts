// The public base URL links in answers are built from (invite links, webhook URLs, runner and
// gateway endpoints).
import type { Context } from "hono";
import type { AppEnv } from "../env";

/** AUTH_PUBLIC_BASE_URL when set, else the request's origin; no trailing slash. */
export function publicBaseUrl(c: Context<AppEnv>) {
  return (c.get("config").publicBaseUrl ?? new URL(c.req.url).origin).replace(/\/+$/, "");
}
