// better-auth on demand: it is about half of the Worker's module graph and only /api/auth/*
// and cookie-carrying requests need it, so it is imported lazily (cold starts and test files
// that never touch sessions do not pay for it).
import type { DeploymentConfig } from "../config";
import { errorBody } from "../http/errors";

export async function loadSessionAuth(env: Env, config: DeploymentConfig, requestUrl: string) {
  const { createAuth } = await import("./better-auth");
  return createAuth(env, config, requestUrl);
}

/** Whether sessions can be issued: authenticated mode needs a signing secret. */
export const sessionAuthReady = (env: Env) => typeof env.BETTER_AUTH_SECRET === "string" && env.BETTER_AUTH_SECRET.length >= 32;

/**
 * better-auth answers errors as `{ message, code }`; every other route answers `{ error, details? }`.
 * Re-render its 4xx/5xx JSON bodies in the service's shape, keeping its code in `details`.
 */
export async function inServiceErrorShape(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: wrap the text below */
  }
  const source = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  const message =
    (typeof source.message === "string" && source.message) ||
    (typeof source.error === "string" && source.error) ||
    text.trim() ||
    response.statusText ||
    "Authentication request failed";
  const { message: _m, error: _e, ...rest } = source;
  const details = Object.keys(rest).length ? rest : undefined;
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Response(JSON.stringify(errorBody(message, details)), { status: response.status, headers });
}
