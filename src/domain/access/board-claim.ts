// Board claim: companies created before authentication existed are owned by the implicit
// `local-board` user, whom nobody can sign in as. In authenticated mode the per-minute cron mints
// a board-claim token (32 random bytes, stored hashed, valid 1 hour) for those companies and
// prints its URL to the Worker log (`wrangler tail`), the way a server prints a first-run link.
// A signed-in user who opens the URL and claims it becomes owner of those companies (the local
// board's membership is deactivated) and, when the instance has no instance admin yet, its admin.
import { and, eq, gt, isNull } from "drizzle-orm";
import { inIds } from "../../db/id-list";
import { schema, type Db } from "../../db/client";
import { newId } from "../../crypto/random";
import { LOCAL_BOARD_USER_ID } from "../actor";
import { conflict, notFound } from "../errors";
import { BOARD_CLAIM_TOKEN_PREFIX, hashSecret, mintSecret } from "./tokens";

export const BOARD_CLAIM_LIFETIME_MS = 60 * 60 * 1000;
export const boardClaimPath = (token: string) => `/api/board-claim/${encodeURIComponent(token)}`;

/** Companies whose active owners include the implicit local board. */
export async function localBoardOwnedCompanies(db: Db) {
  // Read on every shard the scope allows (an unordered read is their union), oldest first here.
  const rows = await db
    .select({ id: schema.companies.id, name: schema.companies.name, createdAt: schema.companies.createdAt })
    .from(schema.companyMemberships)
    .innerJoin(schema.companies, eq(schema.companies.id, schema.companyMemberships.companyId))
    .where(
      and(
        eq(schema.companyMemberships.principalType, "user"),
        eq(schema.companyMemberships.principalId, LOCAL_BOARD_USER_ID),
        eq(schema.companyMemberships.membershipRole, "owner"),
        eq(schema.companyMemberships.status, "active"),
      ),
    );
  rows.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  return rows.map(({ id, name }) => ({ id, name }));
}

/**
 * Mints a token when local-board-owned companies exist and no unexpired, unclaimed token does
 * (a token is shown only once, at minting). Returns null when nothing was minted.
 */
export async function mintBoardClaimTokenIfNeeded(db: Db, now = new Date()) {
  const companies = await localBoardOwnedCompanies(db);
  if (!companies.length) return null;
  const nowIso = now.toISOString();
  const live = await db.query.boardClaimTokens.findFirst({
    where: and(isNull(schema.boardClaimTokens.claimedAt), gt(schema.boardClaimTokens.expiresAt, nowIso)),
  });
  if (live) return null;
  const { token, hash } = mintSecret(BOARD_CLAIM_TOKEN_PREFIX);
  const row = {
    id: newId(),
    tokenHash: hash,
    companyIds: companies.map((c) => c.id),
    expiresAt: new Date(now.getTime() + BOARD_CLAIM_LIFETIME_MS).toISOString(),
    claimedAt: null,
    claimedByUserId: null,
    createdAt: nowIso,
  };
  await db.insert(schema.boardClaimTokens).values(row).run();
  return { token, id: row.id, expiresAt: row.expiresAt, companies };
}

export const findBoardClaimToken = (db: Db, token: string) =>
  db.query.boardClaimTokens.findFirst({ where: eq(schema.boardClaimTokens.tokenHash, hashSecret(token)) });

export type BoardClaimRow = typeof schema.boardClaimTokens.$inferSelect;

export function boardClaimStatus(row: BoardClaimRow, now = new Date().toISOString()) {
  if (row.claimedAt) return "claimed" as const;
  if (row.expiresAt <= now) return "expired" as const;
  return "pending" as const;
}

/** The token's row; 404 for unknown tokens. */
async function requireBoardClaimToken(db: Db, token: string) {
  const row = await findBoardClaimToken(db, token);
  if (!row) throw notFound("Board claim not found");
  return row;
}

/** The companies a claim covers (those that still exist). */
async function claimCompanies(db: Db, row: BoardClaimRow) {
  if (!row.companyIds.length) return [];
  return db.select({ id: schema.companies.id, name: schema.companies.name }).from(schema.companies).where(inIds(schema.companies.id, row.companyIds));
}

/** What a token covers: status, expiry and companies. */
export async function boardClaimView(db: Db, token: string) {
  const row = await requireBoardClaimToken(db, token);
  return { status: boardClaimStatus(row), expiresAt: row.expiresAt, claimedAt: row.claimedAt ?? null, companies: await claimCompanies(db, row) };
}

/**
 * Marks the token claimed by the user (409 when it expired or was claimed already) and returns
 * it with the companies to transfer. One guarded statement: of two concurrent claims only one
 * changes the row.
 */
export async function takeBoardClaim(db: Db, token: string, userId: string, now: string) {
  const row = await requireBoardClaimToken(db, token);
  const t = schema.boardClaimTokens;
  const taken = await db
    .update(t)
    .set({ claimedAt: now, claimedByUserId: userId })
    .where(and(eq(t.id, row.id), isNull(t.claimedAt), gt(t.expiresAt, now)))
    .run();
  if (!taken.meta.changes) {
    const status = boardClaimStatus(row, now);
    throw conflict(status === "expired" ? "Board claim has expired" : "Board claim has already been used", {
      status: status === "pending" ? "claimed" : status,
    });
  }
  return { row, companies: await claimCompanies(db, row) };
}
