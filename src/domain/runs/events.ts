// A run's event log: rows appended with the next sequence numbers, computed inside the insert
// (the writer is serialised in the company object, so MAX(seq) + i cannot race).
import { sql } from "drizzle-orm";
import { writesEventsByTrigger, type Statement } from "../../db/batch";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import type { RunRow } from "./lifecycle";
import type { RunEventKind } from "../../protocol/runner";

export interface RunEventInput {
  kind: RunEventKind;
  message: string;
  data?: unknown;
}

/** One insert for `events`, numbered after the run's last event (all rows see the same MAX, so offsets 1..n). */
export function runEventsInsert(ctx: CommandContext, run: Pick<RunRow, "id" | "companyId">, events: RunEventInput[]): Statement {
  const e = schema.heartbeatRunEvents;
  // Each line is also a `run.event` on the company's stream (trigger run_event_published, migrations/0024).
  return writesEventsByTrigger(
    ctx.db.insert(e).values(
      events.map((event, i) => ({
        id: newId(),
        companyId: run.companyId,
        runId: run.id,
        seq: sql`(SELECT COALESCE(MAX(${e.seq}), 0) + ${i + 1} FROM ${e} WHERE ${e.runId} = ${run.id})`,
        kind: event.kind,
        message: event.message,
        data: event.data ?? null,
        createdAt: ctx.now,
      })),
    ),
  );
}

/** A service-written event (status changes). */
export const runEvent = (ctx: CommandContext, run: Pick<RunRow, "id" | "companyId">, kind: RunEventInput["kind"], message: string, data: unknown = null) =>
  runEventsInsert(ctx, run, [{ kind, message, data }]);
