// Which routes answer callers without credentials: the OpenAPI operations that say `security: []`,
// plus better-auth's own routes (they authenticate themselves) and the reference page. Every other
// route answers an unknown caller 401 before it reads its path, query or body.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { errorBody } from "./errors";
import { operationIdCandidates } from "./operation-ids";

type Definition = { type: string; route?: { method: string; path: string; security?: unknown[] } };

const publicRoutes: { method: string; pattern: RegExp }[] = [
  { method: "*", pattern: /^\/api\/auth\/(?!profile\/?$)/ },
  { method: "GET", pattern: /^\/api\/docs\/?$/ },
];

const patternOf = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`);

/**
 * Gives every operation without an explicit operationId a stable, readable one derived from its
 * method and path (src/http/operation-ids.ts: `listIssues`, `checkoutIssue`, …), unique in the
 * document, so generated clients have a name for each call.
 */
export function assignOperationIds(definitions: readonly unknown[]) {
  const taken = new Set<string>();
  const routes = (definitions as Definition[]).flatMap((d) =>
    d.type === "route" && d.route ? [d.route as Definition["route"] & { operationId?: string }] : [],
  );
  for (const route of routes) if (route.operationId) taken.add(route.operationId);
  for (const route of routes) {
    if (route.operationId) continue;
    const candidates = operationIdCandidates(route.method, route.path);
    let id = candidates.find((c) => !taken.has(c));
    for (let n = 2; !id; n++) if (!taken.has(`${candidates[0]}${n}`)) id = `${candidates[0]}${n}`;
    taken.add(id);
    route.operationId = id;
  }
}

/**
 * The security scheme of routes whose `Authorization` header is their own credential (a webhook
 * trigger's secret), not an API key: they are public to the API's authentication, and actor
 * resolution does not even look at their header (it must not refuse a secret it does not know).
 */
export const OWN_CREDENTIAL_SCHEME = "webhookSecret";

/** Routes carrying their own credential (see OWN_CREDENTIAL_SCHEME). */
const ownCredentialRoutes: { method: string; pattern: RegExp }[] = [];

const ownsCredential = (security: unknown[]) =>
  security.length > 0 && security.every((entry) => entry && typeof entry === "object" && Object.keys(entry).every((name) => name === OWN_CREDENTIAL_SCHEME));

/** Records the document's public operations (called once when the app is built). */
export function registerPublicRoutes(definitions: readonly unknown[]) {
  for (const definition of definitions as Definition[]) {
    const route = definition.type === "route" ? definition.route : undefined;
    if (!route || !Array.isArray(route.security)) continue;
    const entry = { method: route.method.toUpperCase(), pattern: patternOf(route.path) };
    if (route.security.length === 0) publicRoutes.push(entry);
    else if (ownsCredential(route.security)) {
      publicRoutes.push(entry);
      ownCredentialRoutes.push(entry);
    }
  }
}

const matches = (routes: { method: string; pattern: RegExp }[], method: string, path: string) =>
  routes.some((r) => (r.method === "*" || r.method === method || (method === "HEAD" && r.method === "GET")) && r.pattern.test(path));

export const isPublicRoute = (method: string, path: string) => matches(publicRoutes, method, path);

/** Whether the route's Authorization header is its own credential (no actor is resolved from it). */
export const carriesOwnCredential = (method: string, path: string) => matches(ownCredentialRoutes, method, path);

/** Authenticate before validating: an unknown caller learns nothing about a route's input. */
export const requireCredentialsMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("actor").type === "none" && !isPublicRoute(c.req.method, c.req.path)) {
    return c.json(errorBody("Authentication required"), 401);
  }
  await next();
};
