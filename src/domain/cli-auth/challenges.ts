// CLI auth: a device-authorization flow that mints a board API key.
// A CLI creates a challenge (gets a user code and a poll secret), a signed-in board
// user approves it by confirming the user code, and the CLI's next poll receives the
// key exactly once. The key is minted at hand-over, so its plaintext is never stored.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { badRequest, conflict, notFound } from "../errors";
import { BOARD_KEY_LIFETIME_MS, BOARD_KEY_PREFIX, mintApiKey } from "../../crypto/api-keys";
import { constantTimeEqual, sha256Hex } from "../../crypto/hash";
import { newId, randomToken, userCode } from "../../crypto/random";

export const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;
export const POLL_INTERVAL_SEC = 3;

type ChallengeRow = typeof schema.cliAuthChallenges.$inferSelect;

export function challengeStatus(row: ChallengeRow, now: string) {
  if ((row.status === "pending" || row.status === "approved") && row.expiresAt <= now) return "expired" as const;
  return row.status;
}

export function challengeView(row: ChallengeRow, now: string) {
  return {
    id: row.id,
    status: challengeStatus(row, now),
    userCode: row.userCode,
    clientName: row.clientName,
    expiresAt: row.expiresAt,
    intervalSec: POLL_INTERVAL_SEC,
    verificationPath: `/api/cli-auth/challenges/${row.id}/approve`,
    createdAt: row.createdAt,
  };
}

export async function createChallenge(db: Db, input: { clientName: string; keyName?: string }) {
  const now = new Date();
  const pollSecret = randomToken(32);
  const row: ChallengeRow = {
    id: newId(),
    pollSecretHash: sha256Hex(pollSecret),
    userCode: userCode(),
    clientName: input.keyName ? `${input.clientName} (${input.keyName})` : input.clientName,
    status: "pending",
    approvedByUserId: null,
    boardApiKeyId: null,
    expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS).toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await db.insert(schema.cliAuthChallenges).values(row).run();
  return { row, pollSecret };
}

export const pollSecretMatches = (row: ChallengeRow, secret: string | undefined | null) => !!secret && constantTimeEqual(sha256Hex(secret), row.pollSecretHash);

/**
 * Hands the board key to the poller exactly once: a conditional update claims the
 * approved challenge, and the key row is inserted only if that claim was ours.
 */
async function deliverKey(db: Db, row: ChallengeRow) {
  const now = new Date().toISOString();
  const keyId = newId();
  const { token, hash } = mintApiKey(BOARD_KEY_PREFIX);
  const expiresAt = new Date(Date.parse(now) + BOARD_KEY_LIFETIME_MS).toISOString();
  const t = schema.cliAuthChallenges;
  const [claim] = await db.batch([
    db
      .update(t)
      .set({ status: "consumed", boardApiKeyId: keyId, updatedAt: now })
      .where(and(eq(t.id, row.id), eq(t.status, "approved"), isNull(t.boardApiKeyId), gt(t.expiresAt, now))),
    // The key's owner and name come from the challenge row, and only when the claim above was ours.
    db.insert(schema.boardApiKeys).select(
      db
        .select({
          id: sql<string>`${keyId}`.as("id"),
          userId: t.approvedByUserId,
          name: t.clientName,
          keyHash: sql<string>`${hash}`.as("key_hash"),
          lastUsedAt: sql<null>`NULL`.as("last_used_at"),
          expiresAt: sql<string>`${expiresAt}`.as("expires_at"),
          revokedAt: sql<null>`NULL`.as("revoked_at"),
          createdAt: sql<string>`${now}`.as("created_at"),
        })
        .from(t)
        .where(and(eq(t.id, row.id), eq(t.boardApiKeyId, keyId))),
    ),
  ]);
  if (!claim.meta.changes) return null;
  return { id: keyId, token, expiresAt };
}

export async function findChallenge(db: Db, id: string) {
  return db.query.cliAuthChallenges.findFirst({ where: eq(schema.cliAuthChallenges.id, id) });
}

/** Moves a challenge from one of `from` to `to`; false when it was not in such a state. */
export async function transitionChallenge(db: Db, id: string, from: ChallengeRow["status"], set: Partial<ChallengeRow>): Promise<boolean> {
  const result = await db
    .update(schema.cliAuthChallenges)
    .set({ ...set, updatedAt: new Date().toISOString() })
    .where(and(eq(schema.cliAuthChallenges.id, id), eq(schema.cliAuthChallenges.status, from)))
    .run();
  return result.meta.changes > 0;
}

/** The challenge; 404 when it does not exist. */
export async function requireChallenge(db: Db, id: string) {
  const row = await findChallenge(db, id);
  if (!row) throw notFound("Challenge not found");
  return row;
}

/** The poller's read: once approved, the board key is minted and handed over (only to the first poll). */
export async function pollChallenge(db: Db, row: ChallengeRow, now: string) {
  if (challengeStatus(row, now) !== "approved") return challengeView(row, now);
  const key = await deliverKey(db, row);
  const fresh = (await findChallenge(db, row.id))!;
  return { ...challengeView(fresh, now), ...(key ? { boardApiKey: key } : {}) };
}

/** Approves a pending challenge for the user once they confirm its user code. */
export async function approveChallenge(db: Db, id: string, userId: string, code: string) {
  const row = await requireChallenge(db, id);
  const now = new Date().toISOString();
  if (challengeStatus(row, now) !== "pending") throw conflict(`Challenge is ${challengeStatus(row, now)}, not pending`);
  if (!constantTimeEqual(code.toUpperCase(), row.userCode)) throw badRequest("User code does not match this challenge");
  const moved = await transitionChallenge(db, id, "pending", { status: "approved", approvedByUserId: userId });
  if (!moved) throw conflict("Challenge is no longer pending");
  return challengeView((await findChallenge(db, id))!, now);
}

/** Cancels a pending or approved challenge. */
export async function cancelChallenge(db: Db, row: ChallengeRow) {
  const now = new Date().toISOString();
  const status = challengeStatus(row, now);
  if (status !== "pending" && status !== "approved") throw conflict(`Challenge is ${status} and cannot be cancelled`);
  if (!(await transitionChallenge(db, row.id, row.status, { status: "cancelled" }))) throw conflict("Challenge changed; try again");
  return challengeView((await findChallenge(db, row.id))!, now);
}

/** Revokes the board API key (a no-op when it is already revoked). */
export async function revokeBoardKey(db: Db, keyId: string) {
  await db
    .update(schema.boardApiKeys)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(schema.boardApiKeys.id, keyId), isNull(schema.boardApiKeys.revokedAt)))
    .run();
}
