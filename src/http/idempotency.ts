// The Idempotency-Key a route declares (IdempotencyHeaders in src/schemas/common.ts: validated
// before the handler runs), as runCompanyCommand's option.
import type { Context } from "hono";

export const idempotencyOf = (c: Pick<Context, "req">): { idempotencyKey: string | null } => ({
  idempotencyKey: c.req.header("idempotency-key") ?? null,
});
