// Actor resolution, in the spec's order: local implicit board, web session,
// board API key, agent API key, local agent JWT, else unauthenticated.
import type { Context, MiddlewareHandler } from "hono";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { ReadBatch } from "../db/read-batch";
import { afterResponse } from "../db/round-trips";
import { cacheCredential, cachedCredential, cachedRunAgent, cacheRunAgent, lastUsedWriteDue } from "../db/credential-cache";
import type { AppEnv } from "../env";
import { createDb, schema, type Db } from "../db/client";
import { onOtherShards, shardNames } from "../db/shards";
import { AGENT_KEY_PREFIX, BOARD_KEY_PREFIX, hashApiKey } from "../crypto/api-keys";
import { verifyAgentJwt } from "../crypto/agent-jwt";
import { loadSessionAuth } from "../auth/session";
import { forbidden } from "../domain/errors";
import { LOCAL_BOARD_USER_ID, type Actor, type BoardActor } from "../domain/actor";
import { carriesOwnCredential } from "./public-routes";
import { addPathPlacementRead } from "./shard-scope";
import { rememberPlacement, scopeToCompany } from "../db/placement";

const RUN_ID_HEADER = "x-service-run-id";
const INACTIVE_AGENT_STATUSES = new Set(["terminated", "pending_approval"]);

export const resolveActorMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A webhook's Authorization header is the trigger's secret: no caller is resolved from it.
  c.set("actor", carriesOwnCredential(c.req.method, c.req.path) ? { type: "none", runId: null } : await resolveActor(c));
  await next();
};

/** WebSocket clients that cannot set headers may pass the key as `?token=` on a runner's upgrade. */
const QUERY_TOKEN_PATH = /^\/api\/companies\/[^/]+\/runners\/connect\/?$/;

function bearerToken(c: Context<AppEnv>): string | null {
  const header = c.req.header("authorization");
  if (!header) {
    const query = QUERY_TOKEN_PATH.test(c.req.path) ? c.req.query("token")?.trim() : undefined;
    return query || null;
  }
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : null;
}

/**
 * Resolves the caller with at most one D1 round trip: the key (or the JWT's agent), the board
 * user's memberships and admin flag, and the run the caller names are read in one batch; a
 * credential seen in the last few seconds costs only what is not cached (see credential-cache.ts).
 * `lastUsedAt` is written after the response, at most once a minute per key.
 */
export async function resolveActor(c: Context<AppEnv>): Promise<Actor> {
  const runIdHeader = c.req.header(RUN_ID_HEADER)?.trim() || null;
  const token = bearerToken(c);
  const config = c.get("config");

  if (!token) {
    if (config.mode === "local_trusted") {
      return {
        type: "board",
        source: "local_implicit",
        userId: LOCAL_BOARD_USER_ID,
        isInstanceAdmin: true,
        companyIds: [],
        keyId: null,
        runId: runIdHeader,
      };
    }
    const userId = await sessionUserId(c);
    if (!userId) return { type: "none", runId: runIdHeader };
    const batch = new ReadBatch(createDb(c.env.DB));
    const board = addBoardReads(batch, userId);
    const pathPlacement = addPathPlacementRead(c, batch);
    await batch.run();
    pathPlacement();
    return boardActorFrom(board(), userId, "session", null, runIdHeader);
  }

  const db = createDb(c.env.DB);
  const now = new Date().toISOString();
  const hash = hashApiKey(token);
  const batch = new ReadBatch(db);

  if (token.startsWith(BOARD_KEY_PREFIX)) {
    const cached = cachedCredential(hash);
    const key =
      cached?.kind === "board_key"
        ? null
        : batch.add(
            db
              .select({ id: schema.boardApiKeys.id, userId: schema.boardApiKeys.userId, expiresAt: schema.boardApiKeys.expiresAt })
              .from(schema.boardApiKeys)
              .where(and(eq(schema.boardApiKeys.keyHash, hash), isNull(schema.boardApiKeys.revokedAt))),
          );
    // Memberships by the key's user, in the same batch as the key itself.
    const userOfKey =
      cached?.kind === "board_key"
        ? cached.userId
        : sql<string>`(SELECT ${schema.boardApiKeys.userId} FROM ${schema.boardApiKeys} WHERE ${schema.boardApiKeys.keyHash} = ${hash})`;
    const board = addBoardReads(batch, userOfKey);
    const pathPlacement = addPathPlacementRead(c, batch);
    await batch.run();
    pathPlacement();
    const row = cached?.kind === "board_key" ? { id: cached.keyId, userId: cached.userId, expiresAt: cached.expiresAt } : key!.value[0];
    if (!row || row.expiresAt <= now) return { type: "none", runId: runIdHeader };
    if (!cached) cacheCredential(hash, { kind: "board_key", keyId: row.id, userId: row.userId, expiresAt: row.expiresAt });
    touchLastUsed(c, row.id, () => db.update(schema.boardApiKeys).set({ lastUsedAt: now }).where(eq(schema.boardApiKeys.id, row.id)).run());
    return boardActorFrom(board(), row.userId, "board_key", row.id, runIdHeader);
  }

  if (token.startsWith(AGENT_KEY_PREFIX)) {
    const cached = cachedCredential(hash);
    const key =
      cached?.kind === "agent_key"
        ? null
        : batch.add(
            db
              .select({
                keyId: schema.directoryAgentKeys.keyId,
                agentId: schema.directoryAgentKeys.agentId,
                companyId: schema.directoryAgentKeys.companyId,
                agentStatus: schema.directoryAgentKeys.agentStatus,
                shard: schema.directoryCompanies.shard,
                fencedAt: schema.directoryCompanies.fencedAt,
              })
              .from(schema.directoryAgentKeys)
              .innerJoin(schema.directoryCompanies, eq(schema.directoryCompanies.id, schema.directoryAgentKeys.companyId))
              .where(and(eq(schema.directoryAgentKeys.keyHash, hash), isNull(schema.directoryAgentKeys.revokedAt))),
          );
    const pathPlacement = addPathPlacementRead(c, batch);
    await batch.run();
    pathPlacement();
    const found = key?.value[0];
    if (found) rememberPlacement({ companyId: found.companyId, shard: found.shard, fencedAt: found.fencedAt });
    const row =
      cached?.kind === "agent_key"
        ? cached
        : found
          ? { keyId: found.keyId, agentId: found.agentId, companyId: found.companyId, agentStatus: found.agentStatus }
          : undefined;
    if (!row || INACTIVE_AGENT_STATUSES.has(row.agentStatus)) return { type: "none", runId: runIdHeader };
    if (!cached) cacheCredential(hash, { kind: "agent_key", ...row });
    // The agent's company is known now: everything after this reads its shard.
    await scopeToCompany(db, row.companyId);
    const run = addRunRead(new ReadBatch(db), runIdHeader);
    await run?.batch.run();
    await requireOwnRun(c.env, db, run, row.agentId, runIdHeader);
    touchLastUsed(c, row.keyId, () => db.update(schema.agentApiKeys).set({ lastUsedAt: now }).where(eq(schema.agentApiKeys.id, row.keyId)).run());
    return { type: "agent", source: "agent_key", agentId: row.agentId, companyId: row.companyId, keyId: row.keyId, runId: runIdHeader };
  }

  const claims = await verifyAgentJwt(c.env.AGENT_JWT_SECRET, token);
  if (!claims) return { type: "none", runId: runIdHeader };
  const runId = runIdHeader ?? claims.run_id;
  const cacheKey = `agent:${claims.sub}`;
  const cached = cachedCredential(cacheKey);
  // The token names the company: its shard holds the agent and the run.
  if (!(await scopeToCompany(db, claims.company_id))) return { type: "none", runId: runIdHeader };
  const agent =
    cached?.kind === "agent"
      ? null
      : batch.add(
          db
            .select({ agentId: schema.agents.id, companyId: schema.agents.companyId, agentStatus: schema.agents.status })
            .from(schema.agents)
            .where(eq(schema.agents.id, claims.sub)),
        );
  const run = addRunRead(batch, runId);
  await batch.run();
  const row = cached?.kind === "agent" ? cached : agent!.value[0];
  if (!row || row.companyId !== claims.company_id || INACTIVE_AGENT_STATUSES.has(row.agentStatus)) return { type: "none", runId: runIdHeader };
  if (!cached) cacheCredential(cacheKey, { kind: "agent", ...row });
  await requireOwnRun(c.env, db, run, row.agentId, runId);
  return { type: "agent", source: "agent_jwt", agentId: row.agentId, companyId: row.companyId, keyId: null, runId };
}

/**
 * An agent may act only in its own runs: a run id that the service knows as another agent's is
 * refused (403), so no record of one company can name another company's run. A run id not seen
 * yet is allowed (routes that need a run record it as an external run of the caller).
 */
function addRunRead(batch: ReadBatch, runId: string | null) {
  if (!runId) return null;
  if (runId.length > 200) throw forbidden("Run id too long (at most 200 characters)");
  const known = cachedRunAgent(runId);
  if (known) return { runId, batch, agentId: () => known };
  const row = batch.add(batch.db.select({ agentId: schema.heartbeatRuns.agentId }).from(schema.heartbeatRuns).where(eq(schema.heartbeatRuns.id, runId)));
  return {
    runId,
    batch,
    agentId: () => {
      const agentId = row.value[0]?.agentId;
      if (agentId) cacheRunAgent(runId, agentId);
      return agentId;
    },
  };
}

/**
 * Refuses another agent's run. A run unknown on the caller's shard may be another company's on
 * another shard (src/db/shards.ts): then every other shard is asked (a run unknown everywhere is allowed:
 * routes that need it record it as the caller's external run).
 */
async function requireOwnRun(env: Env, db: Db, run: ReturnType<typeof addRunRead>, agentId: string, runId: string | null) {
  if (!run) return;
  let owner = run.agentId();
  if (!owner && shardNames(env).length > 1) {
    const [elsewhere] = await onOtherShards(env, () =>
      db.select({ agentId: schema.heartbeatRuns.agentId }).from(schema.heartbeatRuns).where(eq(schema.heartbeatRuns.id, run.runId)),
    );
    owner = elsewhere?.agentId;
    if (owner) cacheRunAgent(run.runId, owner);
  }
  if (owner && owner !== agentId) throw forbidden("Run belongs to another agent", { runId });
}

/** Writes lastUsedAt after the response, at most once a minute per key (per isolate). */
function touchLastUsed(c: Context<AppEnv>, keyId: string, write: () => Promise<unknown>) {
  if (!lastUsedWriteDue(keyId)) return;
  c.executionCtx.waitUntil(afterResponse(write).catch((err) => console.error("lastUsedAt write failed", err)));
}

/** The board user's active memberships (with each company's shard) and instance-admin flag; `userId` may be SQL read in the same batch. */
function addBoardReads(batch: ReadBatch, userId: string | SQL) {
  const db = batch.db;
  const m = schema.directoryMemberships;
  const d = schema.directoryCompanies;
  const memberships = batch.add(
    db
      .select({ companyId: m.companyId, shard: d.shard, fencedAt: d.fencedAt })
      .from(m)
      .innerJoin(d, eq(d.id, m.companyId))
      .where(and(sql`${m.userId} = ${userId}`, eq(m.status, "active"))),
  );
  const admin = batch.add(
    db.select({ userId: schema.instanceAdmins.userId }).from(schema.instanceAdmins).where(sql`${schema.instanceAdmins.userId} = ${userId}`),
  );
  return () => {
    for (const row of memberships.value) rememberPlacement(row);
    return { companyIds: memberships.value.map((row) => row.companyId), isInstanceAdmin: admin.value.length > 0 };
  };
}

function boardActorFrom(
  facts: { companyIds: string[]; isInstanceAdmin: boolean },
  userId: string,
  source: BoardActor["source"],
  keyId: string | null,
  runId: string | null,
): BoardActor {
  return { type: "board", source, userId, isInstanceAdmin: facts.isInstanceAdmin, companyIds: facts.companyIds, keyId, runId };
}

async function sessionUserId(c: Context<AppEnv>): Promise<string | null> {
  if (!c.req.header("cookie") || !c.env.BETTER_AUTH_SECRET) return null;
  try {
    const auth = await loadSessionAuth(c.env, c.get("config"), c.req.url);
    const session = await auth.api.getSession({ headers: c.req.raw.headers });
    return session?.user.id ?? null;
  } catch (err) {
    console.error("session resolution failed", err);
    return null;
  }
}
