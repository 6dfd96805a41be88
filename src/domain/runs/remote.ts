// What runs executing outside the service report back (a remote gateway's relayed events and
// terminal status, a runner's output and completion): serialised in the company object like
// every other run write. Internal only: no route calls it, the caller is the service itself.
import { and, eq } from "drizzle-orm";
import { defineCommand } from "../../company/command";
import { schema } from "../../db/client";
import { endRunStatements, type RunEnding } from "./lifecycle";
import { runEvent, runEventsInsert, type RunEventInput } from "./events";
import { recordRunUsage, type RunUsage } from "./usage";

export interface RemoteRunReport {
  runId: string;
  events?: RunEventInput[];
  /** The run's end (with the usage that becomes its cost event). */
  ending?: Omit<RunEnding, "usage"> & { usage?: RunUsage | null };
}

/** Per event: at most this much message text and this much JSON data (a remote cannot flood the log). */
const MAX_MESSAGE = 10_000;
const MAX_DATA_BYTES = 64 * 1024;

/** An event as stored: message cut, oversized data replaced by a note. */
export function boundedEvent(event: RunEventInput): RunEventInput {
  let data = event.data ?? null;
  if (data !== null) {
    const size = JSON.stringify(data)?.length ?? 0;
    if (size > MAX_DATA_BYTES) data = { truncated: true, bytes: size };
  }
  return { kind: event.kind, message: event.message.slice(0, MAX_MESSAGE), data };
}

/**
 * Records a remote run's events and, with `ending`, ends it (cost event from its usage). Answers
 * `live: false` when the run is no longer running (cancelled meanwhile): the remote side stops.
 */
export const reportRemoteRun = defineCommand("run.remote.report", async (ctx, _actor, input: RemoteRunReport) => {
  const r = schema.heartbeatRuns;
  const run = (
    await ctx.db
      .select()
      .from(r)
      .where(and(eq(r.id, input.runId), eq(r.companyId, ctx.companyId)))
  )[0];
  if (run?.status !== "running") return { live: false, status: run?.status ?? null };
  const events = (input.events ?? []).map(boundedEvent);
  const { ending } = input;
  if (!ending) {
    if (events.length) await ctx.batch([runEventsInsert(ctx, run, events), ctx.db.update(r).set({ lastActivityAt: ctx.now }).where(eq(r.id, run.id))]);
    return { live: true, status: run.status };
  }
  await ctx.batch([
    ...(events.length ? [runEventsInsert(ctx, run, events)] : []),
    ...endRunStatements(ctx, run.id, { ...ending, usage: (ending.usage ?? null) as Record<string, unknown> | null }),
    runEvent(ctx, run, "status", `Completed: ${ending.status}${ending.error ? ` (${ending.error})` : ""}`),
  ]);
  // The remote side ended it: nothing to stop there (the object forgets it before sweeping). Only
  // once recorded: a completion whose batch failed is still the run's, and may be sent again.
  ctx.storage.remoteRuns.forget(run.id);
  await recordRunUsage(ctx, run, ending.usage);
  ctx.requestDispatch();
  return { live: false, status: ending.status };
});
