// Board claim: a signed-in user takes ownership of the companies owned by the implicit local board.
// Tokens are minted by the per-minute cron in authenticated mode and printed to the Worker log
// (see src/domain/access/board-claim.ts).
import { inIds } from "../../db/id-list";
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { createDb, schema } from "../../db/client";
import { requireBoard } from "../../http/access";
import { LOCAL_BOARD_USER_ID } from "../../domain/actor";
import { conflict, forbidden, notFound } from "../../domain/errors";
import { runCompanyCommand } from "../../company/client";
import { boardClaimStatus, findBoardClaimToken, type BoardClaimRow } from "../../domain/access/board-claim";
import { errors, jsonContent } from "../../schemas/common";
import { BoardClaimResultSchema, BoardClaimSchema, BoardClaimTokenParam, EmptyBodySchema } from "../../schemas/access/members";
import { optionalJsonBody } from "./shared";
import { transferLocalBoardOwnership } from "../../domain/access/members";

const tags = ["Board claim"];
export const boardClaimRouter = createRouter();

const MINTING =
  "Board-claim tokens are minted by the per-minute cron when the instance runs in authenticated mode and companies are still owned by the implicit local board (created in local_trusted mode); the claim URL is printed once to the Worker log (wrangler tail) and is valid for 1 hour, after which a new one is printed.";

async function companiesOf(env: Env, row: BoardClaimRow) {
  if (!row.companyIds.length) return [];
  return createDb(env.DB)
    .select({ id: schema.companies.id, name: schema.companies.name })
    .from(schema.companies)
    .where(inIds(schema.companies.id, row.companyIds));
}

boardClaimRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/board-claim/{token}",
    tags,
    summary: "What a board-claim token covers: status, expiry, the companies to be claimed (no credentials needed)",
    description: MINTING,
    security: [],
    request: { params: BoardClaimTokenParam },
    responses: { 200: jsonContent(BoardClaimSchema, "Board claim"), ...errors(400, 404) },
  }),
  async (c) => {
    const row = await findBoardClaimToken(createDb(c.env.DB), c.req.valid("param").token);
    if (!row) throw notFound("Board claim not found");
    return c.json({ status: boardClaimStatus(row), expiresAt: row.expiresAt, claimedAt: row.claimedAt ?? null, companies: await companiesOf(c.env, row) }, 200);
  },
);

boardClaimRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/board-claim/{token}/claim",
    tags,
    summary: "Claim: the signed-in user (session or board key) becomes owner of the local board's companies (body optional, default {})",
    description:
      `${MINTING} Claiming deactivates the local board's membership in each company and, when the instance has no instance admin yet, makes the claimer instance admin. ` +
      "Expired or already claimed tokens: 409.",
    request: { params: BoardClaimTokenParam, body: optionalJsonBody(EmptyBodySchema) },
    responses: { 200: jsonContent(BoardClaimResultSchema, "Claimed"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    if (actor.source === "local_implicit" || actor.userId === LOCAL_BOARD_USER_ID) {
      throw forbidden("Sign in as a user to claim the board; the implicit local board cannot claim it");
    }
    const db = createDb(c.env.DB);
    const row = await findBoardClaimToken(db, c.req.valid("param").token);
    if (!row) throw notFound("Board claim not found");
    const now = new Date().toISOString();
    // One guarded statement: of two concurrent claims only one changes the row.
    const taken = await c.env.DB.prepare(
      "UPDATE board_claim_tokens SET claimed_at = ?1, claimed_by_user_id = ?2 WHERE id = ?3 AND claimed_at IS NULL AND expires_at > ?1",
    )
      .bind(now, actor.userId, row.id)
      .run();
    if (!taken.meta.changes) {
      const status = boardClaimStatus(row, now);
      throw conflict(status === "expired" ? "Board claim has expired" : "Board claim has already been used", { status: status === "pending" ? "claimed" : status });
    }
    const companies = await companiesOf(c.env, row);
    const results = [];
    for (const company of companies) {
      const { claimed } = await runCompanyCommand(c.env, company.id, transferLocalBoardOwnership, actor, { userId: actor.userId, tokenId: row.id });
      results.push({ ...company, claimed });
    }
    const admin = await c.env.DB.prepare(
      "INSERT INTO instance_admins (user_id, granted_by_user_id, via_bootstrap, created_at) SELECT ?1, ?1, 1, ?2 WHERE NOT EXISTS (SELECT 1 FROM instance_admins)",
    )
      .bind(actor.userId, now)
      .run();
    return c.json({ claimed: true as const, userId: actor.userId, companies: results, becameInstanceAdmin: (admin.meta.changes ?? 0) > 0 }, 200);
  },
);
