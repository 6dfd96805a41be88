// The one place a dispatch step's decisions (src/domain/runs/transitions.ts) become D1 statements,
// in the transitions' order; transitions with nothing to write (wait, resume, the object's own
// journal and timers) give none.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import type { CommandContext } from "../command";
import { endRunStatements } from "../../domain/runs/lifecycle";
import { runEvent } from "../../domain/runs/events";
import type { RunTransition } from "../../domain/runs/transitions";

const LOST_RUNNER = "The runner executing this run disconnected and did not come back";

export function transitionStatements(ctx: CommandContext, transitions: readonly RunTransition[]): Statement[] {
  const { db, now } = ctx;
  const r = schema.heartbeatRuns;
  const w = schema.agentWakeupRequests;
  const statements: Statement[] = [];
  for (const t of transitions) {
    switch (t.kind) {
      case "timer":
        statements.push(
          db.insert(w).values({
            ...t.wakeup,
            companyId: ctx.companyId,
            status: "queued",
            source: "timer",
            requestedByActorType: "system",
            requestedByActorId: "system",
            updatedAt: now,
          }),
        );
        break;
      case "skip":
        statements.push(db.update(w).set({ status: "skipped", skipReason: t.reason, updatedAt: now }).where(eq(w.id, t.wakeup.id)));
        break;
      case "coalesce":
        statements.push(db.update(w).set({ status: "coalesced", coalescedIntoRunId: t.runId, updatedAt: now }).where(eq(w.id, t.wakeup.id)));
        break;
      case "start":
        statements.push(db.insert(r).values(t.run).onConflictDoNothing());
        statements.push(db.update(w).set({ status: "claimed", runId: t.run.id, updatedAt: now }).where(eq(w.id, t.wakeup.id)));
        break;
      case "context":
        statements.push(db.update(r).set({ context: t.context, updatedAt: now }).where(eq(r.id, t.runId)));
        break;
      case "cancel_queued":
        statements.push(...endRunStatements(ctx, t.run.id, { status: "cancelled", errorCode: t.reason, error: `Not started: ${t.reason}` }));
        statements.push(db.update(w).set({ status: "skipped", skipReason: t.reason, updatedAt: now }).where(eq(w.runId, t.run.id)));
        break;
      case "start_queued":
        statements.push(
          db
            .update(r)
            .set({ status: "running", startedAt: now, lastActivityAt: now, updatedAt: now })
            .where(and(eq(r.id, t.run.id), eq(r.status, "queued"))),
        );
        break;
      case "lost_retry":
        statements.push(
          db
            .update(r)
            .set({
              status: "scheduled_retry",
              retryCount: t.retryCount,
              nextRetryAt: t.nextRetryAt,
              deadlineAt: null,
              errorCode: "process_lost",
              error: LOST_RUNNER,
              lastActivityAt: now,
              updatedAt: now,
            })
            .where(and(eq(r.id, t.run.id), eq(r.status, "running"))),
          runEvent(ctx, t.run, "status", `${LOST_RUNNER}; retry ${t.retryCount} at ${t.nextRetryAt}`, { errorCode: "process_lost" }),
        );
        break;
      case "lost_failed":
        statements.push(
          ...endRunStatements(ctx, t.run.id, { status: "failed", errorCode: "process_lost", error: `${LOST_RUNNER} (${t.retryCount} attempts)` }),
        );
        break;
      case "retry":
        statements.push(
          db
            .update(r)
            .set({ status: "running", nextRetryAt: null, lastActivityAt: now, updatedAt: now })
            .where(and(eq(r.id, t.run.id), eq(r.status, "scheduled_retry"))),
        );
        break;
      case "timed_out":
        statements.push(
          ...endRunStatements(ctx, t.run.id, {
            status: "timed_out",
            errorCode: "completion_timeout",
            error: "The agent did not complete the run before its completion deadline",
          }),
        );
        break;
      case "timer_forgotten":
      case "wait":
      case "lost_gone":
      case "start_forgotten":
      case "resume":
        break;
    }
  }
  return statements;
}
