// Wake-up requests: queued per company (rows drained by the company Durable Object).
// A wake-up for an agent that cannot run (paused, terminated, pending approval, budget
// hard-stopped, or in a paused/archived company) is recorded `skipped` with the reason. A wake-up about an issue that a
// live run holds is not queued either: it is `coalesced` into that run when the run is the woken
// agent's own (the running agent sees the new comment), else `deferred_issue_execution` until the
// holder lets go.
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { actorRef, type Actor } from "../actor";
import { newId } from "../../crypto/random";
import { runIsStale, runLeaseMs } from "../runs/lease";
import { holderRunColumns, holderRunOf, type HolderRun } from "../issues/snapshot";
import { skipReasonOf } from "../runs/dispatch";

export interface WakeupRequestInput {
  agentId: string;
  /** Why: `comment`, `mention`, `blocker_resolved`, `approval_resolved`, `assignment`, ... */
  reason: string;
  /** What asked: `issue_comment`, `approval`, `routine`, `manual`, ... */
  source: string;
  issueId?: string | null;
  context?: Record<string, unknown> | null;
}

/** What deciding the wake-ups needs, read beforehand (in the command's load batch). */
export interface WakeFacts {
  companyActive: boolean;
  /** Why the company is paused (`budget` makes skips `budget.blocked`). */
  companyPauseReason?: string | null;
  /** Status by agent id (agents missing here are not woken). */
  agentStatus: Map<string, string>;
  /** Pause reason by agent id (`budget` makes skips `budget.blocked`). */
  agentPauseReason?: Map<string, string | null>;
  /** Live (not lease-expired) runs holding issues' checkouts, by issue id. */
  holders: Map<string, { runId: string; agentId: string }>;
}

/** Insert statements for the wake-ups that may be queued; the others are dropped. Duplicate agent+issue+reason pairs collapse. */
export function wakeupStatementsFrom(
  ctx: CommandContext,
  actor: Actor,
  requests: WakeupRequestInput[],
  facts: WakeFacts,
): { statements: Statement[]; queuedIds: string[] } {
  if (!requests.length) return { statements: [], queuedIds: [] };
  const seen = new Set<string>();
  const { actorType, actorId } = actorRef(actor);
  const statements: Statement[] = [];
  const queuedIds: string[] = [];
  const company = { status: facts.companyActive ? "active" : "paused", pauseReason: facts.companyPauseReason ?? null };
  for (const request of requests) {
    const key = `${request.agentId}|${request.issueId ?? ""}|${request.reason}`;
    const status = facts.agentStatus.get(request.agentId);
    if (!status || seen.has(key)) continue;
    seen.add(key);
    const id = newId();
    // An agent that cannot run now gets a skipped wake-up with the reason (nothing is silently dropped).
    const skip = skipReasonOf(company, { status, pauseReason: facts.agentPauseReason?.get(request.agentId) ?? null });
    const holder = request.issueId ? facts.holders.get(request.issueId) : undefined;
    const wakeStatus = skip ? "skipped" : !holder ? "queued" : holder.agentId === request.agentId ? "coalesced" : "deferred_issue_execution";
    if (wakeStatus === "queued") queuedIds.push(id);
    statements.push(
      ctx.db.insert(schema.agentWakeupRequests).values({
        id,
        companyId: ctx.companyId,
        agentId: request.agentId,
        status: wakeStatus,
        skipReason: skip,
        coalescedIntoRunId: wakeStatus === "coalesced" ? holder!.runId : null,
        reason: request.reason,
        source: request.source,
        issueId: request.issueId ?? null,
        context: request.context ?? null,
        requestedByActorType: actorType,
        requestedByActorId: actorId,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      }),
    );
  }
  if (queuedIds.length) ctx.requestDispatch();
  return { statements, queuedIds };
}

/** The holder of an issue's checkout, if that run is live and within its lease. */
export function liveHolder(run: HolderRun | null | undefined, now: string, env: Env): { runId: string; agentId: string } | undefined {
  return run && !runIsStale(run, now, runLeaseMs(env)) ? { runId: run.id, agentId: run.agentId } : undefined;
}

/** Reads the facts for `requests` (one round trip) and builds their statements. */
export async function wakeupStatements(
  ctx: CommandContext,
  actor: Actor,
  requests: WakeupRequestInput[],
): Promise<{ statements: Statement[]; queuedIds: string[] }> {
  if (!requests.length) return { statements: [], queuedIds: [] };
  const agentIds = [...new Set(requests.map((r) => r.agentId))];
  const issueIds = [...new Set(requests.map((r) => r.issueId).filter((x): x is string => Boolean(x)))];
  const [company, agents, held] = await ctx.db.batch([
    ctx.db
      .select({ status: schema.companies.status, pauseReason: schema.companies.pauseReason })
      .from(schema.companies)
      .where(eq(schema.companies.id, ctx.companyId)),
    ctx.db
      .select({ id: schema.agents.id, status: schema.agents.status, pauseReason: schema.agents.pauseReason })
      .from(schema.agents)
      .where(and(eq(schema.agents.companyId, ctx.companyId), inIds(schema.agents.id, agentIds))),
    ctx.db
      .select({ issueId: schema.issues.id, ...holderRunColumns })
      .from(schema.issues)
      .innerJoin(schema.heartbeatRuns, eq(schema.heartbeatRuns.id, schema.issues.checkoutRunId))
      .where(and(eq(schema.issues.companyId, ctx.companyId), inIds(schema.issues.id, issueIds))),
  ]);
  const holders = new Map<string, { runId: string; agentId: string }>();
  for (const row of held) {
    const holder = liveHolder(holderRunOf(row), ctx.now, ctx.env);
    if (holder) holders.set(row.issueId, holder);
  }
  return wakeupStatementsFrom(ctx, actor, requests, {
    companyActive: company[0]?.status === "active",
    companyPauseReason: company[0]?.pauseReason ?? null,
    agentStatus: new Map(agents.map((a) => [a.id, a.status])),
    agentPauseReason: new Map(agents.map((a) => [a.id, a.pauseReason])),
    holders,
  });
}

/** Cancels an agent's (or every agent's of the company, when agentIds is null) waiting wake-ups. */
export function cancelPendingWakeupsStatement(ctx: CommandContext, agentIds: string[] | null) {
  const t = schema.agentWakeupRequests;
  return ctx.db
    .update(t)
    .set({ status: "cancelled", updatedAt: ctx.now })
    .where(
      and(
        eq(t.companyId, ctx.companyId),
        inArray(t.status, ["queued", "deferred_issue_execution"]),
        agentIds ? inArray(t.agentId, agentIds.length ? agentIds : ["-"]) : undefined,
      ),
    );
}
