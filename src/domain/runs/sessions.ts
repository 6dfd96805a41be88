// Runtime sessions (agent_runtime_sessions): the session a runtime reports at the end of a run is
// kept per agent and task, and the next run of that agent on the same task resumes it. A session
// made by another adapter is not offered; whether cwd and model still match is the runtime's check
// (the runner compares `params` with the run's). The board clears an agent's sessions.
import { and, eq } from "drizzle-orm";
import type { Statement } from "../../db/batch";
import { schema, type Db } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { defineCommand } from "../../company/command";
import { newId } from "../../crypto/random";
import { loadCompanyAgent } from "../agents/queries";
import type { RunRow } from "./lifecycle";

/** The task a run's session belongs to: its issue, else the agent's own. */
export const taskKeyOf = (run: Pick<RunRow, "issueId">) => (run.issueId ? `issue:${run.issueId}` : "agent");

export interface SavedSession {
  id: string;
  params: Record<string, unknown>;
}

/** The session to resume for `run` (same agent, task and adapter), or null. */
export async function sessionToResume(db: Db, run: Pick<RunRow, "agentId" | "companyId" | "issueId" | "adapterType">): Promise<SavedSession | null> {
  const t = schema.agentRuntimeSessions;
  const [row] = await db
    .select({ sessionId: t.sessionId, params: t.params, adapterType: t.adapterType })
    .from(t)
    .where(and(eq(t.agentId, run.agentId), eq(t.companyId, run.companyId), eq(t.taskKey, taskKeyOf(run))));
  return row && row.adapterType === run.adapterType ? { id: row.sessionId, params: row.params ?? {} } : null;
}

/** Keeps `sessionId` as the session of the run's agent and task (replacing the one before). */
export function saveSessionStatement(ctx: CommandContext, run: Pick<RunRow, "id" | "agentId" | "issueId" | "adapterType">, session: SavedSession): Statement {
  const t = schema.agentRuntimeSessions;
  return ctx.db
    .insert(t)
    .values({
      id: newId(),
      companyId: ctx.companyId,
      agentId: run.agentId,
      adapterType: run.adapterType,
      taskKey: taskKeyOf(run),
      sessionId: session.id,
      params: session.params,
      runId: run.id,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .onConflictDoUpdate({
      target: [t.agentId, t.taskKey],
      set: { adapterType: run.adapterType, sessionId: session.id, params: session.params, runId: run.id, updatedAt: ctx.now },
    });
}

/** Forgets the session of the run's agent and task (unusable: unknown, expired, ended by a turn limit). */
export function clearSessionStatement(ctx: CommandContext, run: Pick<RunRow, "agentId" | "issueId">): Statement {
  const t = schema.agentRuntimeSessions;
  return ctx.db.delete(t).where(and(eq(t.companyId, ctx.companyId), eq(t.agentId, run.agentId), eq(t.taskKey, taskKeyOf(run))));
}

/** The agent's saved sessions, newest first. */
export async function listAgentSessions(db: Db, companyId: string, agentId: string) {
  const t = schema.agentRuntimeSessions;
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.companyId, companyId), eq(t.agentId, agentId)));
  return rows
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .map((row) => ({
      taskKey: row.taskKey,
      issueId: row.taskKey.startsWith("issue:") ? row.taskKey.slice("issue:".length) : null,
      adapterType: row.adapterType,
      sessionId: row.sessionId,
      params: row.params ?? {},
      runId: row.runId,
      updatedAt: row.updatedAt,
    }));
}

/** The board clears the agent's sessions (one task's, or all): its next runs start new ones. */
export const resetAgentSessions = defineCommand("agent.sessions.reset", async (ctx, _actor, input: { agentId: string; taskKey?: string | null }) => {
  const agent = await loadCompanyAgent(ctx.db, ctx.companyId, input.agentId);
  const t = schema.agentRuntimeSessions;
  const scope = and(eq(t.companyId, ctx.companyId), eq(t.agentId, agent.id), input.taskKey ? eq(t.taskKey, input.taskKey) : undefined);
  const existing = await ctx.db.select({ id: t.id }).from(t).where(scope);
  await ctx.batch([
    ctx.db.delete(t).where(scope),
    ctx.activity({
      action: "agent.sessions_reset",
      entityType: "agent",
      entityId: agent.id,
      agentId: agent.id,
      details: { cleared: existing.length, ...(input.taskKey ? { taskKey: input.taskKey } : {}) },
    }),
  ]);
  return { agentId: agent.id, cleared: existing.length };
});
