// Wake-up requests: queued per company (rows drained by the company Durable Object).
// A wake-up for an agent that cannot run (paused, terminated, pending approval, budget
// hard-stopped, or in a paused/archived company) is not queued.
import { and, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { actorRef, type Actor } from "../../http/actor-types";
import { newId } from "../../crypto/random";

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
): Promise<{ statements: BatchItem<"sqlite">[]; queuedIds: string[] }> {
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
        inArray(schema.agents.id, agentIds),
        inArray(schema.agents.status, [...WAKEABLE_AGENT_STATUSES]),
      ),
    );
  const allowed = new Set(wakeable.map((a) => a.id));
  const seen = new Set<string>();
  const { actorType, actorId } = actorRef(actor);
  const statements: BatchItem<"sqlite">[] = [];
  const queuedIds: string[] = [];
  for (const request of requests) {
    const key = `${request.agentId}|${request.issueId ?? ""}|${request.reason}`;
    if (!allowed.has(request.agentId) || seen.has(key)) continue;
    seen.add(key);
    const id = newId();
    queuedIds.push(id);
    statements.push(
      ctx.db.insert(schema.agentWakeupRequests).values({
        id,
        companyId: ctx.companyId,
        agentId: request.agentId,
        status: "queued",
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
