// CLI auth: a device-authorization flow that mints a board API key.
// A CLI creates a challenge (gets a user code and a poll secret), a signed-in board
// user approves it by confirming the user code, and the CLI's next poll receives the
// key exactly once. The key is minted at hand-over, so its plaintext is never stored.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
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

export const pollSecretMatches = (row: ChallengeRow, secret: string | undefined | null) =>
  !!secret && constantTimeEqual(sha256Hex(secret), row.pollSecretHash);

/**
 * Hands the board key to the poller exactly once: a conditional update claims the
 * approved challenge, and the key row is inserted only if that claim was ours.
 */
export async function deliverKey(db: Db, d1: D1Database, row: ChallengeRow) {
  const now = new Date();
  const keyId = newId();
  const { token, hash } = mintApiKey(BOARD_KEY_PREFIX);
  const expiresAt = new Date(now.getTime() + BOARD_KEY_LIFETIME_MS).toISOString();
  const [claim] = await d1.batch([
    d1
      .prepare(
        "UPDATE cli_auth_challenges SET status = 'consumed', board_api_key_id = ?1, updated_at = ?2 WHERE id = ?3 AND status = 'approved' AND board_api_key_id IS NULL AND expires_at > ?2",
      )
      .bind(keyId, now.toISOString(), row.id),
    d1
      .prepare(
        "INSERT INTO board_api_keys (id, user_id, name, key_hash, expires_at, created_at) SELECT ?1, approved_by_user_id, client_name, ?2, ?3, ?4 FROM cli_auth_challenges WHERE id = ?5 AND board_api_key_id = ?1",
      )
      .bind(keyId, hash, expiresAt, now.toISOString(), row.id),
  ]);
  if (!claim.meta.changes) return null;
  return { id: keyId, token, expiresAt };
}

export async function findChallenge(db: Db, id: string) {
  return db.query.cliAuthChallenges.findFirst({ where: eq(schema.cliAuthChallenges.id, id) });
}

/** Moves a challenge from one of `from` to `to`; false when it was not in such a state. */
export async function transitionChallenge(
  db: Db,
  id: string,
  from: ChallengeRow["status"],
  set: Partial<ChallengeRow>,
): Promise<boolean> {
  const result = await db
    .update(schema.cliAuthChallenges)
    .set({ ...set, updatedAt: new Date().toISOString() })
    .where(and(eq(schema.cliAuthChallenges.id, id), eq(schema.cliAuthChallenges.status, from)))
    .run();
  return result.meta.changes > 0;
}
