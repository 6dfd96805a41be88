// CLI auth: challenge create/read/approve/cancel, the key's caller info and self-revocation.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { forgetCachedCredentials } from "../db/credential-cache";
import { dbOf } from "../http/db";
import { clientAddress, limitedAttempt } from "../http/attempt-limits";
import { requireBoard } from "../http/access";
import { publicBaseUrl } from "../http/public-url";
import { forbidden, notFound } from "../domain/errors";
import {
  approveChallenge,
  cancelChallenge,
  challengeView,
  createChallenge,
  pollChallenge,
  pollSecretMatches,
  requireChallenge,
  revokeBoardKey,
} from "../domain/cli-auth/challenges";
import { findUser } from "../domain/users/queries";
import { errors, jsonBody, jsonContent } from "../schemas/common";
import {
  ApproveChallengeSchema,
  ChallengeSchema,
  CliMeSchema,
  CreateChallengeSchema,
  CreatedChallengeSchema,
  PolledChallengeSchema,
  RevokedSchema,
} from "../schemas/auth";

const tags = ["CLI auth"];
export const cliAuthRouter = createRouter();

const ChallengeParam = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" } }),
});
const SecretHeader = z.object({
  "x-challenge-secret": z.string().optional().openapi({ description: "The pollSecret returned at creation" }),
});

cliAuthRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/cli-auth/challenges",
    security: [],
    tags,
    summary: "Start a CLI sign-in: returns a user code to approve and a poll secret (no auth needed)",
    request: { body: { required: false, content: { "application/json": { schema: CreateChallengeSchema } } } },
    responses: { 201: jsonContent(CreatedChallengeSchema, "Challenge; pollSecret is shown once"), ...errors(400, 429) },
  }),
  async (c) => {
    const body = c.req.valid("json") ?? {};
    return limitedAttempt(c, "cli_challenge", [`address:${clientAddress(c)}`], async () => {
      const { row, pollSecret } = await createChallenge(dbOf(c), { clientName: body.clientName ?? "cli", keyName: body.keyName });
      // The board console's page for this challenge (src/console/pages/cli-auth.tsx).
      const approvalUrl = `${publicBaseUrl(c)}/cli-auth/${encodeURIComponent(row.id)}`;
      return c.json({ ...challengeView(row, new Date().toISOString()), pollSecret, approvalUrl }, 201);
    }) as never;
  },
);

cliAuthRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/cli-auth/challenges/{id}",
    security: [],
    tags,
    summary:
      "Read a challenge. The CLI polls with X-Challenge-Secret and receives the board API key once after approval; a signed-in board user may read it without the secret (no key).",
    request: { params: ChallengeParam, headers: SecretHeader },
    responses: { 200: jsonContent(PolledChallengeSchema, "Challenge"), ...errors(401, 404) },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const secret = c.req.valid("header")["x-challenge-secret"];
    const db = dbOf(c);
    const row = await requireChallenge(db, id);
    const now = new Date().toISOString();
    if (!pollSecretMatches(row, secret)) {
      if (secret) throw notFound("Challenge not found");
      requireBoard(c);
      return c.json(challengeView(row, now), 200);
    }
    return c.json(await pollChallenge(db, row, now), 200);
  },
);

cliAuthRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/cli-auth/challenges/{id}/approve",
    tags,
    summary: "Approve a pending challenge as the signed-in board user, confirming its user code",
    request: { params: ChallengeParam, body: jsonBody(ApproveChallengeSchema) },
    responses: { 200: jsonContent(ChallengeSchema, "Approved"), ...errors(400, 401, 403, 404, 409, 429) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    const { id } = c.req.valid("param");
    const { userCode } = c.req.valid("json");
    // A wrong user code counts against the user and the address; a right one does not.
    return limitedAttempt(c, "cli_approve", [`user:${actor.userId}`, `address:${clientAddress(c)}`], async () =>
      c.json(await approveChallenge(dbOf(c), id, actor.userId, userCode), 200),
    ) as never;
  },
);

cliAuthRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/cli-auth/challenges/{id}/cancel",
    security: [],
    tags,
    summary: "Cancel a pending or approved challenge (the CLI with its secret, or a board user)",
    request: { params: ChallengeParam, headers: SecretHeader },
    responses: { 200: jsonContent(ChallengeSchema, "Cancelled"), ...errors(401, 404, 409) },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const db = dbOf(c);
    const row = await requireChallenge(db, id);
    if (!pollSecretMatches(row, c.req.valid("header")["x-challenge-secret"])) requireBoard(c);
    return c.json(await cancelChallenge(db, row), 200);
  },
);

cliAuthRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/cli-auth/me",
    tags,
    summary: "The board caller: user, company ids, instance-admin flag, auth source, key id",
    responses: { 200: jsonContent(CliMeSchema, "Caller"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    const user = await findUser(dbOf(c), actor.userId);
    if (!user) throw notFound("User not found");
    return c.json(
      {
        user: { id: user.id, name: user.name, email: user.email },
        companyIds: actor.companyIds,
        isInstanceAdmin: actor.isInstanceAdmin,
        authSource: actor.source,
        keyId: actor.keyId,
      },
      200,
    );
  },
);

cliAuthRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/cli-auth/revoke-current",
    tags,
    summary: "Revoke the board API key used for this request",
    responses: { 200: jsonContent(RevokedSchema, "Revoked"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    if (actor.source !== "board_key" || !actor.keyId) throw forbidden("Only a caller authenticated with a board API key can revoke it");
    await revokeBoardKey(dbOf(c), actor.keyId);
    forgetCachedCredentials();
    return c.json({ revoked: true as const, keyId: actor.keyId }, 200);
  },
);
