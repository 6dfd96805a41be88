// Limits on the attempts that guess or spam credentials, in the authenticated (hosted) mode: sign-in
// and the CLI approval (per account and per client address, failed attempts only: a success gives
// its attempt back), sign-up and CLI challenge creation (per client address, every attempt). Over
// the limit: 429 with Retry-After, and the attempt is not made. Counted by AttemptLimiter objects
// (src/auth/attempt-limiter.ts), so the limit holds across isolates.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { errorBody } from "./errors";

export type AttemptKind = "sign_in" | "sign_up" | "cli_challenge" | "cli_approve";

/** Whether a successful attempt still counts (creations do; a right password does not). */
const SUCCESS_COUNTS: Record<AttemptKind, boolean> = { sign_in: false, cli_approve: false, sign_up: true, cli_challenge: true };

const DEFAULT_LIMIT = 10;
const DEFAULT_WINDOW_SEC = 15 * 60;

/** `AUTH_ATTEMPT_LIMIT` = "<attempts>/<seconds>" (default 10 per 15 minutes). */
export function attemptPolicy(env: Env): { limit: number; windowMs: number } {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(env.AUTH_ATTEMPT_LIMIT ?? "");
  const limit = match ? Number(match[1]) : DEFAULT_LIMIT;
  const windowSec = match ? Number(match[2]) : DEFAULT_WINDOW_SEC;
  return { limit: Math.max(1, limit), windowMs: Math.max(1, windowSec) * 1000 };
}

/** The client's address as Cloudflare's edge reports it (`unknown` when there is none, e.g. in tests). */
export const clientAddress = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip")?.trim() || "unknown";

/**
 * Runs `attempt` unless one of `subjects` (e.g. `account:<email>`, `address:<ip>`) is over its limit
 * for `kind`; then answers 429 with Retry-After. Outside the authenticated mode it just runs it.
 */
export async function limitedAttempt(c: Context<AppEnv>, kind: AttemptKind, subjects: string[], attempt: () => Promise<Response>): Promise<Response> {
  if (c.get("config").mode !== "authenticated") return attempt();
  const { limit, windowMs } = attemptPolicy(c.env);
  const limiters = subjects.map((subject) => c.env.AUTH_LIMITER.get(c.env.AUTH_LIMITER.idFromName(`${kind}:${subject}`)));
  const taken = await Promise.all(limiters.map((limiter) => limiter.take(limit, windowMs)));
  const refused = taken.filter((t) => !t.ok);
  if (refused.length) {
    // Give back what the other subjects took: an attempt that was not made does not count.
    await Promise.all(taken.map((t, i) => (t.ok ? limiters[i].refund(t.token) : null)));
    const retryAfterSec = Math.max(...refused.map((t) => (t.ok ? 0 : t.retryAfterSec)));
    return new Response(JSON.stringify(errorBody("Too many attempts; try again later", { retryAfterSec })), {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": String(retryAfterSec) },
    });
  }
  // A thrown error (wrong code, bad input) keeps the attempt counted and answers as usual.
  const response = await attempt();
  if (response.status < 400 && !SUCCESS_COUNTS[kind]) {
    await Promise.all(taken.map((t, i) => (t.ok ? limiters[i].refund(t.token) : null)));
  }
  return response;
}
