// Board claim: a signed-in user takes ownership of the companies owned by the implicit local board.
// Tokens are minted by the per-minute cron in authenticated mode and printed to the Worker log
// (see src/domain/access/board-claim.ts).
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { requireBoard } from "../../http/access";
import { LOCAL_BOARD_USER_ID } from "../../domain/actor";
import { forbidden } from "../../domain/errors";
import { runCompanyCommand } from "../../company/client";
import { boardClaimView, takeBoardClaim } from "../../domain/access/board-claim";
import { claimFirstInstanceAdmin } from "../../domain/instance/admins";
import { errors, jsonContent, optionalJsonBody } from "../../schemas/common";
import { BoardClaimResultSchema, BoardClaimSchema, BoardClaimTokenParam, EmptyBodySchema } from "../../schemas/access/members";
import { transferLocalBoardOwnership } from "../../domain/access/members";

const tags = ["Board claim"];
export const boardClaimRouter = createRouter();

const MINTING =
  "Board-claim tokens are minted by the per-minute cron when the instance runs in authenticated mode and companies are still owned by the implicit local board (created in local_trusted mode); the claim URL is printed once to the Worker log (wrangler tail) and is valid for 1 hour, after which a new one is printed.";

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
    return c.json(await boardClaimView(dbOf(c), c.req.valid("param").token), 200);
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
    const db = dbOf(c);
    const now = new Date().toISOString();
    const { row, companies } = await takeBoardClaim(db, c.req.valid("param").token, actor.userId, now);
    const results = [];
    for (const company of companies) {
      const { claimed } = await runCompanyCommand(c.env, company.id, transferLocalBoardOwnership, actor, { userId: actor.userId, tokenId: row.id });
      results.push({ ...company, claimed });
    }
    const becameInstanceAdmin = await claimFirstInstanceAdmin(db, actor.userId, now);
    return c.json({ claimed: true as const, userId: actor.userId, companies: results, becameInstanceAdmin }, 200);
  },
);
