// Renders every failure once, as { error, details? }: HttpError, zod validation, hono's own exceptions.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ZodError } from "zod";
import { HttpError } from "../domain/errors";

export function errorBody(message: string, details?: unknown) {
  return details === undefined ? { error: message } : { error: message, details };
}

/** Turns zod issues into a readable one-line message plus structured details. */
export function describeZodError(error: ZodError, where?: string) {
  const parts = error.issues.slice(0, 5).map((i) => {
    const path = i.path.length ? i.path.join(".") : (where ?? "body");
    return `${path}: ${i.message}`;
  });
  const prefix = where ? `Invalid ${where}` : "Invalid request";
  return {
    message: `${prefix}: ${parts.join("; ")}`,
    details: error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code })),
  };
}

export function renderError(err: unknown, c: Context) {
  if (err instanceof HttpError) {
    // A fenced company (a move in progress) says when to come back.
    const retryAfter = (err.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (err.status === 503 && typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
    return c.json(errorBody(err.message, err.details), err.status);
  }
  if (err instanceof ZodError) {
    const { message, details } = describeZodError(err);
    return c.json(errorBody(message, details), 400);
  }
  if (err instanceof HTTPException) {
    if (err.status === 415) return c.json(errorBody("Content-Type must be application/json"), 400);
    if (err.status === 413) return c.json(errorBody(err.message || "Request body too large"), 413);
    const message = err.message || (err.status === 400 ? "Bad request" : "Request failed");
    return c.json(errorBody(message), err.status as ContentfulStatusCode);
  }
  console.error("unexpected error", err);
  return c.json(errorBody("Internal server error"), 500);
}
