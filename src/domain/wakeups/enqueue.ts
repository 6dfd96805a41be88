// Wake-up requests: queued per company (rows drained by the company Durable Object).
// A wake-up for an agent that cannot run (paused, terminated, pending approval, budget
// hard-stopped, or in a paused/archived company) is not queued. A wake-up about an issue that a
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

export interface WakeupRequestInput {
  agentId: string;
  /** Why: `comment`, `mention`, `blocker_resolved`, `approval_resolved`, `assignment`, ... */
  reason: string;
  /** What asked: `issue_comment`, `approval`, `routine`, `manual`, ... */
  source: string;
  issueId?: string | null;
  context?: Record<string, unknown> | null;
}

const WAKEABLE_AGENT_STATUSES = ["active", "idle", "running", "error"] as const;

/** Insert statements for the wake-ups that may be queued; the others are dropped. Duplicate agent+issue+reason pairs collapse. */
export async function wakeupStatements(
  ctx: CommandContext,
  actor: Actor,
  requests: WakeupRequestInput[],
): Promise<{ statements: Statement[]; queuedIds: string[] }> {
  if (!requests.length) return { statements: [], queuedIds: [] };
  const company = await ctx.db.query.companies.findFirst({ where: eq(schema.companies.id, ctx.companyId) });
  if (!company || company.status !== "active") return { statements: [], queuedIds: [] };
  const agentIds = [...new Set(requests.map((r) => r.agentId))];
  const wakeable = await ctx.db
    .select({ id: schema.agents.id })
    .from(schema.agents)
    .where(
      and(
        eq(schema.agents.companyId, ctx.companyId),
        inIds(schema.agents.id, agentIds),
        inArray(schema.agents.status, [...WAKEABLE_AGENT_STATUSES]),
      ),
    );
  const allowed = new Set(wakeable.map((a) => a.id));
  const holders = await issueHolders(ctx, [...new Set(requests.map((r) => r.issueId).filter((x): x is string => Boolean(x)))]);
  const seen = new Set<string>();
  const { actorType, actorId } = actorRef(actor);
  const statements: Statement[] = [];
  const queuedIds: string[] = [];
  for (const request of requests) {
    const key = `${request.agentId}|${request.issueId ?? ""}|${request.reason}`;
    if (!allowed.has(request.agentId) || seen.has(key)) continue;
    seen.add(key);
    const id = newId();
    const holder = request.issueId ? holders.get(request.issueId) : undefined;
    const status = !holder ? "queued" : holder.agentId === request.agentId ? "coalesced" : "deferred_issue_execution";
    if (status === "queued") queuedIds.push(id);
    statements.push(
      ctx.db.insert(schema.agentWakeupRequests).values({
        id,
        companyId: ctx.companyId,
        agentId: request.agentId,
        status,
        coalescedIntoRunId: status === "coalesced" ? holder!.runId : null,
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
  return { statements, queuedIds };
}

/** Live (not lease-expired) runs holding the given issues' checkouts, by issue id. */
async function issueHolders(ctx: CommandContext, issueIds: string[]) {
  const holders = new Map<string, { runId: string; agentId: string }>();
  if (!issueIds.length) return holders;
  const rows = await ctx.db
    .select({ issueId: schema.issues.id, run: schema.heartbeatRuns })
    .from(schema.issues)
    .innerJoin(schema.heartbeatRuns, eq(schema.heartbeatRuns.id, schema.issues.checkoutRunId))
    .where(and(eq(schema.issues.companyId, ctx.companyId), inIds(schema.issues.id, issueIds)));
  const lease = runLeaseMs(ctx.env);
  for (const row of rows) {
    if (!runIsStale(row.run, ctx.now, lease)) holders.set(row.issueId, { runId: row.run.id, agentId: row.run.agentId });
  }
  return holders;
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
