// Heartbeat run commands, serialised in the company object with the dispatcher: a manual wake-up
// (on_demand), cancel, the agent's own event lines, and the agent's completion callback.
import { and, count, eq, gt, sql } from "drizzle-orm";
import { defineCommand, type CommandContext } from "../../company/command";
import { schema } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { newId } from "../../crypto/random";
import { actorRef, type Actor } from "../actor";
import { conflict, forbidden, notFound } from "../errors";
import { endRunStatements, isLiveRun, newRunRow, type RunRow } from "./lifecycle";
import { resetAgentSessions } from "./sessions";
import { maxRunsPerHour, skipReasonOf, type SkipReason } from "./dispatch";
import { recordRunUsage } from "./usage";
import type { RunUsage } from "../../adapters/types";
import { runView } from "./view";
import { runEvent, runEventsInsert, type RunEventInput } from "./events";

export interface WakeAgentInput {
  agentId: string;
  reason?: string | null;
  payload?: Record<string, unknown> | null;
  issueId?: string | null;
  idempotencyKey?: string | null;
}

/**
 * A manual wake-up: the run is created at once (`queued`, so the caller gets its id) and started
 * by the dispatcher. The same idempotency key returns the same run, finished or not; a live run of
 * the agent on the same issue absorbs the wake; an agent that cannot run gives a `skipped` wake-up.
 */
export const wakeAgent = defineCommand("run.wakeup", async (ctx, actor, input: WakeAgentInput) => {
  const { db } = ctx;
  const r = schema.heartbeatRuns;
  const batch = new ReadBatch(db);
  const agent = batch.add(
    db
      .select()
      .from(schema.agents)
      .where(and(eq(schema.agents.id, input.agentId), eq(schema.agents.companyId, ctx.companyId))),
  );
  const company = batch.add(
    db
      .select({ status: schema.companies.status, pauseReason: schema.companies.pauseReason })
      .from(schema.companies)
      .where(eq(schema.companies.id, ctx.companyId)),
  );
  const prior = input.idempotencyKey
    ? batch.add(
        db
          .select()
          .from(r)
          .where(and(eq(r.agentId, input.agentId), eq(r.idempotencyKey, input.idempotencyKey))),
      )
    : null;
  const issue = input.issueId
    ? batch.add(
        db
          .select({ id: schema.issues.id })
          .from(schema.issues)
          .where(and(eq(schema.issues.id, input.issueId), eq(schema.issues.companyId, ctx.companyId))),
      )
    : null;
  const live = input.issueId
    ? batch.add(
        db
          .select()
          .from(r)
          .where(and(eq(r.agentId, input.agentId), eq(r.issueId, input.issueId), sql`${r.status} IN ('queued', 'running', 'scheduled_retry')`)),
      )
    : null;
  // Runs the agent started in the last hour: a manual wake-up counts toward maxRunsPerHour too.
  const hourAgo = new Date(Date.parse(ctx.now) - 3_600_000).toISOString();
  const lastHour = batch.add(
    db
      .select({ n: count() })
      .from(r)
      .where(and(eq(r.agentId, input.agentId), gt(r.createdAt, hourAgo), sql`${r.invocationSource} != 'external'`)),
  );
  await batch.run();
  const target = agent.value[0];
  if (!target) throw notFound("Agent not found");
  if (issue && !issue.value[0]) throw notFound("Issue not found");
  if (prior?.value[0]) return { run: runView(prior.value[0]), created: false };

  const reason = input.reason?.trim() || "on_demand";
  const wakeupId = newId();
  const { actorType, actorId } = actorRef(actor);
  const wakeRow = {
    id: wakeupId,
    companyId: ctx.companyId,
    agentId: target.id,
    reason,
    source: "manual",
    issueId: input.issueId ?? null,
    context: { ...(input.payload ? { payload: input.payload } : {}), ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}) },
    requestedByActorType: actorType,
    requestedByActorId: actorId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const holder = live?.value[0];
  const skip: SkipReason | null = company.value[0] ? skipReasonOf(company.value[0], target) : "company.inactive";
  const limited = !skip && !holder && (lastHour.value[0]?.n ?? 0) >= maxRunsPerHour(target) ? ("rate_limited" as const) : null;
  const skipped = skip ?? limited;
  if (skipped) {
    await ctx.batch([
      db.insert(schema.agentWakeupRequests).values({ ...wakeRow, status: "skipped", skipReason: skipped }),
      wakeActivity(ctx, target.id, wakeupId, reason, { skipped }),
    ]);
    return { skipped: { status: "skipped" as const, reason: skipped, wakeupId } };
  }
  if (holder) {
    await ctx.batch([
      db.insert(schema.agentWakeupRequests).values({ ...wakeRow, status: "coalesced", coalescedIntoRunId: holder.id }),
      db
        .update(r)
        .set({
          context: { ...(holder.context ?? {}), coalescedReasons: [...((holder.context?.coalescedReasons as string[]) ?? []), reason] },
          updatedAt: ctx.now,
        })
        .where(eq(r.id, holder.id)),
    ]);
    return { run: runView(holder), created: false };
  }
  const run = newRunRow({
    id: newId(),
    companyId: ctx.companyId,
    agentId: target.id,
    status: "queued",
    adapterType: target.adapterType,
    invocationSource: "on_demand", // a manual wake-up; the caller's text stays in reason / context.wakeReason
    wakeupRequestId: wakeupId,
    createdAt: ctx.now,
    issueId: input.issueId ?? null,
    reason,
    context: { wakeReason: reason, issueId: input.issueId ?? null, ...(input.payload ? { payload: input.payload } : {}) },
    idempotencyKey: input.idempotencyKey ?? null,
  });
  await ctx.batch([
    db.insert(r).values(run),
    db.insert(schema.agentWakeupRequests).values({ ...wakeRow, status: "claimed", runId: run.id }),
    wakeActivity(ctx, target.id, wakeupId, reason, { runId: run.id }),
  ]);
  ctx.requestDispatch();
  return { run: runView(run), created: true };
});

const wakeActivity = (ctx: CommandContext, agentId: string, wakeupId: string, reason: string, details: Record<string, unknown>) =>
  ctx.activity({ action: "agent.wakeup_requested", entityType: "agent", entityId: agentId, agentId, details: { wakeupId, reason, ...details } });

/** The run, if it belongs to the company; 404 otherwise. */
async function loadRun(ctx: CommandContext, runId: string): Promise<RunRow> {
  const run = (
    await ctx.db
      .select()
      .from(schema.heartbeatRuns)
      .where(and(eq(schema.heartbeatRuns.id, runId), eq(schema.heartbeatRuns.companyId, ctx.companyId)))
  )[0];
  if (!run) throw notFound("Run not found");
  return run;
}

/** Only the run's own agent (a board caller is refused; another agent too). */
function requireOwnAgent(actor: Actor, run: RunRow, what: string) {
  if (actor.type !== "agent" || actor.agentId !== run.agentId) throw forbidden(`Only the run's own agent may ${what}`);
}

const finishedConflict = (run: RunRow) => conflict(`Run already finished (${run.status})`, { runId: run.id, status: run.status });

/**
 * Retry (board): a new run of the same agent with the finished run's reason, issue and context
 * (`retryOfRunId` added), queued for the dispatcher. A live run: 409; an agent that cannot run now
 * (paused, terminated, budget-stopped, the company paused): 409 with the reason; a live run of the
 * agent on the same issue: 409 naming it.
 */
export const retryRun = defineCommand("run.retry", async (ctx, actor, input: { runId: string }) => {
  if (actor.type !== "board") throw forbidden("Runs are retried by board members");
  const { db } = ctx;
  const r = schema.heartbeatRuns;
  const run = await loadRun(ctx, input.runId);
  if (isLiveRun(run.status)) throw conflict(`The run is still ${run.status}: cancel it first, or wait for it`, { runId: run.id, status: run.status });
  const [[agent], [company], live] = await ctx.batch([
    db
      .select()
      .from(schema.agents)
      .where(and(eq(schema.agents.id, run.agentId), eq(schema.agents.companyId, ctx.companyId))),
    db
      .select({ status: schema.companies.status, pauseReason: schema.companies.pauseReason })
      .from(schema.companies)
      .where(eq(schema.companies.id, ctx.companyId)),
    db
      .select({ id: r.id })
      .from(r)
      .where(and(eq(r.agentId, run.agentId), eq(r.issueId, run.issueId ?? ""), sql`${r.status} IN ('queued', 'running', 'scheduled_retry')`)),
  ]);
  if (!agent) throw notFound("Agent not found");
  const skip = company ? skipReasonOf(company, agent) : "company.inactive";
  if (skip) throw conflict(`The agent cannot run now (${skip})`, { reason: skip });
  if (live[0]) throw conflict("A run of the agent on this issue is already live", { runId: live[0].id });
  const reason = run.reason ?? "on_demand";
  const { coalescedReasons: _coalesced, ...context } = (run.context ?? {}) as Record<string, unknown>;
  const wakeupId = newId();
  const { actorType, actorId } = actorRef(actor);
  const retry = newRunRow({
    id: newId(),
    companyId: ctx.companyId,
    agentId: agent.id,
    status: "queued",
    adapterType: agent.adapterType,
    invocationSource: run.invocationSource === "external" ? "on_demand" : run.invocationSource,
    wakeupRequestId: wakeupId,
    createdAt: ctx.now,
    issueId: run.issueId,
    reason,
    context: { ...context, retryOfRunId: run.id },
  });
  await ctx.batch([
    db.insert(r).values(retry),
    db.insert(schema.agentWakeupRequests).values({
      id: wakeupId,
      companyId: ctx.companyId,
      agentId: agent.id,
      reason,
      source: "retry",
      issueId: run.issueId,
      context: { ...context, retryOfRunId: run.id },
      requestedByActorType: actorType,
      requestedByActorId: actorId,
      status: "claimed",
      runId: retry.id,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    }),
    wakeActivity(ctx, agent.id, wakeupId, reason, { runId: retry.id, retryOfRunId: run.id }),
  ]);
  ctx.requestDispatch();
  return runView(retry);
});

export const cancelRun = defineCommand("run.cancel", async (ctx, actor, input: { runId: string }) => {
  const run = await loadRun(ctx, input.runId);
  if (actor.type === "agent" && actor.agentId !== run.agentId) throw forbidden("Only the board or the run's own agent may cancel it");
  if (!isLiveRun(run.status)) throw finishedConflict(run);
  await ctx.batch([
    ...endRunStatements(ctx, run.id, { status: "cancelled", errorCode: "cancelled", error: "Cancelled" }),
    runEvent(ctx, run, "status", "Cancelled"),
    ctx.activity({ action: "run.cancelled", entityType: "heartbeat_run", entityId: run.id, agentId: run.agentId, details: { from: run.status } }),
  ]);
  ctx.requestDispatch();
  return runView({ ...run, status: "cancelled", finishedAt: ctx.now, error: "Cancelled", errorCode: "cancelled", nextRetryAt: null, deadlineAt: null });
});

export const appendRunEvents = defineCommand(
  "run.events.append",
  async (ctx, actor, input: { runId: string; events: Array<RunEventInput & { kind: Exclude<RunEventInput["kind"], "status"> }> }) => {
    const run = await loadRun(ctx, input.runId);
    requireOwnAgent(actor, run, "post its events");
    if (!isLiveRun(run.status)) throw finishedConflict(run);
    await ctx.batch([
      runEventsInsert(ctx, run, input.events),
      ctx.db.update(schema.heartbeatRuns).set({ lastActivityAt: ctx.now }).where(eq(schema.heartbeatRuns.id, run.id)),
    ]);
    return { accepted: input.events.length };
  },
);

export interface CompleteRunInput {
  runId: string;
  status: "succeeded" | "failed";
  summary?: string | null;
  result?: Record<string, unknown> | null;
  error?: string | null;
  usage?: RunUsage | null;
}

export const completeRun = defineCommand("run.complete", async (ctx, actor, input: CompleteRunInput) => {
  const run = await loadRun(ctx, input.runId);
  requireOwnAgent(actor, run, "complete it");
  if (actor.type === "agent" && actor.runId !== run.id)
    throw forbidden("Complete a run with its own run id (the run JWT, or X-Service-Run-Id)", { runId: run.id });
  if (!isLiveRun(run.status)) throw finishedConflict(run);
  const ending = {
    status: input.status,
    summary: input.summary ?? null,
    result: input.result ?? null,
    usage: (input.usage ?? null) as Record<string, unknown> | null,
    error: input.status === "failed" ? (input.error ?? "Failed") : null,
    errorCode: input.status === "failed" ? ("agent_failed" as const) : null,
  };
  await ctx.batch([
    ...endRunStatements(ctx, run.id, ending),
    runEvent(ctx, run, "status", `Completed: ${input.status}`),
    ctx.activity({ action: "run.completed", entityType: "heartbeat_run", entityId: run.id, agentId: run.agentId, details: { status: input.status } }),
  ]);
  const cost = await recordRunUsage(ctx, run, input.usage);
  ctx.requestDispatch();
  return {
    ...runView({
      ...run,
      status: input.status,
      finishedAt: ctx.now,
      summary: ending.summary,
      resultJson: ending.result,
      usageJson: ending.usage,
      error: ending.error,
      errorCode: ending.errorCode,
      nextRetryAt: null,
      deadlineAt: null,
    }),
    costEventId: cost?.id ?? null,
  };
});

export const runCommands = [wakeAgent, retryRun, cancelRun, appendRunEvents, completeRun, resetAgentSessions];
