// Shared zod pieces: the error shape, ids, timestamps and response helpers.
import { z } from "@hono/zod-openapi";

export const ErrorSchema = z.object({ error: z.string(), details: z.unknown().optional() }).openapi("Error", { example: { error: "Company not found" } });

const errorDescriptions: Record<number, string> = {
  400: "Bad request: validation failure, missing fields or wrong shape",
  401: "Unauthenticated: no valid caller identity",
  403: "Forbidden: the caller may not do this (wrong company, wrong actor kind)",
  404: "Not found (or outside the caller's company)",
  409: "Conflict",
  413: "Request body too large",
  422: "Unprocessable: valid shape but breaks a rule",
  429: "Too many attempts: wait the Retry-After seconds (hosted mode limits sign-in, sign-up and CLI login attempts)",
  503: "Unavailable",
};

/** Error responses for a route, all in the `{ error, details? }` shape. */
export function errors(...statuses: Array<400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503>) {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: errorDescriptions[s], content: { "application/json": { schema: ErrorSchema } } }]),
  ) as Record<(typeof statuses)[number], { description: string; content: { "application/json": { schema: typeof ErrorSchema } } }>;
}

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/** A required JSON request body (without `required`, @hono/zod-openapi reads a body sent without Content-Type as {}). */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } } as const;
}

/** An optional JSON body: sent without Content-Type it reads as `{}` ("body default {}"). */
export function optionalJsonBody<T extends z.ZodType>(schema: T) {
  return { required: false, content: { "application/json": { schema } } } as const;
}

export const Timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T09:30:00.000Z" });
/** An entity id in a request body: a UUID (8-4-4-4-12 hex); anything else is a 400 validation error. */
export const Uuid = z.guid().openapi({ format: "uuid", example: "9b2f1c1e-6c8a-4f4e-9d1e-0d6f3c1f2a10" });
export const CompanyIdParam = z.object({
  companyId: z
    .string()
    .min(1)
    .openapi({ param: { name: "companyId", in: "path" }, example: "9b2f1c1e-6c8a-4f4e-9d1e-0d6f3c1f2a10" }),
});
export const JsonObject = z.record(z.string(), z.unknown());
export const OkSchema = z.object({ ok: z.literal(true) });

/** Refinement for PATCH bodies: at least one field must be present (an empty body changes nothing and is a 400). */
export const atLeastOneField = [
  (v: Record<string, unknown>) => Object.values(v).some((x) => x !== undefined),
  { message: "at least one field to update is required" },
] as const;

/** The `Idempotency-Key` header of the agent-facing mutations (src/domain/idempotency/receipts.ts). */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces")
    .optional()
    .openapi({
      description:
        "Makes a retry safe: a repeat of the same request (same caller, route and body) within 24 h answers with the first response and changes nothing; " +
        "the same key with another request is 422. 1–200 printable ASCII characters, chosen by the caller (a UUID, or run:turn:call).",
      example: "7f1c2b9e-run-3-call-1",
    }),
});
