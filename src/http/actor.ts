// Actor resolution, in the spec's order: local implicit board, web session,
// board API key, agent API key, local agent JWT, else unauthenticated.
import type { Context, MiddlewareHandler } from "hono";
import { and, eq, isNull } from "drizzle-orm";
import type { AppEnv } from "../env";
import { createDb, schema } from "../db/client";
import { AGENT_KEY_PREFIX, BOARD_KEY_PREFIX, hashApiKey } from "../crypto/api-keys";
import { verifyAgentJwt } from "../crypto/agent-jwt";
import { loadSessionAuth } from "../auth/session";
import { forbidden } from "../domain/errors";
import { LOCAL_BOARD_USER_ID, type Actor, type BoardActor } from "../domain/actor";

const RUN_ID_HEADER = "x-service-run-id";
const INACTIVE_AGENT_STATUSES = new Set(["terminated", "pending_approval"]);

export const resolveActorMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = await resolveActor(c);
  if (actor.type === "agent" && actor.runId) await assertOwnRun(c.env, actor.agentId, actor.runId);
  c.set("actor", actor);
  await next();
};

/**
 * An agent may act only in its own runs: a run id that the service knows as another agent's is
 * refused (403), so no record of one company can name another company's run. A run id not seen
 * yet is allowed (routes that need a run record it as an external run of the caller).
 */
async function assertOwnRun(env: Env, agentId: string, runId: string) {
  if (runId.length > 200) throw forbidden("Run id too long (at most 200 characters)");
  const run = await createDb(env.DB)
    .select({ agentId: schema.heartbeatRuns.agentId })
    .from(schema.heartbeatRuns)
    .where(eq(schema.heartbeatRuns.id, runId))
    .get();
  if (run && run.agentId !== agentId) throw forbidden("Run belongs to another agent", { runId });
}

function bearerToken(c: Context<AppEnv>): string | null {
  const header = c.req.header("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : null;
}

export async function resolveActor(c: Context<AppEnv>): Promise<Actor> {
  const runIdHeader = c.req.header(RUN_ID_HEADER)?.trim() || null;
  const token = bearerToken(c);
  const config = c.get("config");
  const db = createDb(c.env.DB);

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
    return boardActor(c.env, userId, "session", null, runIdHeader);
  }

  const now = new Date().toISOString();
  const hash = hashApiKey(token);

  if (token.startsWith(BOARD_KEY_PREFIX)) {
    const key = await db.query.boardApiKeys.findFirst({
      where: and(eq(schema.boardApiKeys.keyHash, hash), isNull(schema.boardApiKeys.revokedAt)),
    });
    if (key && key.expiresAt > now) {
      c.executionCtx.waitUntil(
        db.update(schema.boardApiKeys).set({ lastUsedAt: now }).where(eq(schema.boardApiKeys.id, key.id)).run(),
      );
      return boardActor(c.env, key.userId, "board_key", key.id, runIdHeader);
    }
    return { type: "none", runId: runIdHeader };
  }

  if (token.startsWith(AGENT_KEY_PREFIX)) {
    const row = await db
      .select({ key: schema.agentApiKeys, agent: schema.agents })
      .from(schema.agentApiKeys)
      .innerJoin(schema.agents, eq(schema.agents.id, schema.agentApiKeys.agentId))
      .where(and(eq(schema.agentApiKeys.keyHash, hash), isNull(schema.agentApiKeys.revokedAt)))
      .get();
    if (!row || INACTIVE_AGENT_STATUSES.has(row.agent.status)) return { type: "none", runId: runIdHeader };
    // lastUsedAt is written before answering so that a reader right after sees it.
    await db.update(schema.agentApiKeys).set({ lastUsedAt: now }).where(eq(schema.agentApiKeys.id, row.key.id)).run();
    return {
      type: "agent",
      source: "agent_key",
      agentId: row.agent.id,
      companyId: row.agent.companyId,
      keyId: row.key.id,
      runId: runIdHeader,
    };
  }

  const claims = await verifyAgentJwt(c.env.AGENT_JWT_SECRET, token);
  if (claims) {
    const agent = await db.query.agents.findFirst({ where: eq(schema.agents.id, claims.sub) });
    if (agent && agent.companyId === claims.company_id && !INACTIVE_AGENT_STATUSES.has(agent.status)) {
      return {
        type: "agent",
        source: "agent_jwt",
        agentId: agent.id,
        companyId: agent.companyId,
        keyId: null,
        runId: runIdHeader ?? claims.run_id,
      };
    }
  }
  return { type: "none", runId: runIdHeader };
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

async function boardActor(
  env: Env,
  userId: string,
  source: BoardActor["source"],
  keyId: string | null,
  runId: string | null,
): Promise<BoardActor> {
  const db = createDb(env.DB);
  const [memberships, admin] = await db.batch([
    db
      .select({ companyId: schema.companyMemberships.companyId })
      .from(schema.companyMemberships)
      .where(
        and(
          eq(schema.companyMemberships.principalType, "user"),
          eq(schema.companyMemberships.principalId, userId),
          eq(schema.companyMemberships.status, "active"),
        ),
      ),
    db.select({ userId: schema.instanceAdmins.userId }).from(schema.instanceAdmins).where(eq(schema.instanceAdmins.userId, userId)),
  ]);
  return {
    type: "board",
    source,
    userId,
    isInstanceAdmin: admin.length > 0,
    companyIds: memberships.map((m) => m.companyId),
    keyId,
    runId,
  };
}
