// Schedule triggers on the per-minute Cron Trigger: the Worker finds due triggers through the
// `next_run_at` index and asks each company's object to fire them. The object re-reads each
// trigger (serialised), fires its due slots — the newest one (`skip_missed`) or up to 25 missed
// ones (`enqueue_missed_with_cap`) — each with the idempotency key `schedule:<trigger>:<slot>`,
// and moves `next_run_at` past the tick. A tick that runs twice, or two overlapping ticks, find
// nothing left to fire.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { StaleRead } from "../../company/command";
import { runCompanyCommand } from "../../company/client";
import { HttpError } from "../errors";
import type { Actor } from "../actor";
import { CATCH_UP_CAP, compileSchedule, DEFAULT_TIMEZONE, dueSlots, nextSlot } from "./schedule";
import { fireOnce, loadFireFacts, type FireInput } from "./fire";
import { dueScheduleTriggers } from "./queries";
import { forEachShard } from "../../db/shards";
import { SCHEDULE_KEY_PREFIX } from "./constants";

const SYSTEM: Actor = { type: "none", runId: null };

export interface TickInput {
  triggerIds: string[];
  /** The tick's time (UTC ISO): slots up to it are due. */
  at: string;
}

export interface TickResult {
  fired: Array<{ triggerId: string; slot: string; runId: string | null; status: string; error?: string }>;
}

export const fireDueSchedules = defineCommand("routine.fireDueSchedules", async (ctx, actor, input: TickInput): Promise<TickResult> => {
  const at = new Date(input.at);
  const fired: TickResult["fired"] = [];
  for (const triggerId of input.triggerIds) {
    try {
      await fireTrigger(ctx, actor, triggerId, at, fired);
    } catch (err) {
      // One trigger's failure must not hold up the company's other schedules.
      console.error(`schedule trigger ${triggerId} failed`, err);
      fired.push({ triggerId, slot: input.at, runId: null, status: "error", error: (err as Error)?.message ?? String(err) });
    }
  }
  return { fired };
});

/** Fires one trigger's due slots and moves its next slot past `at` (null when the schedule has ended). */
async function fireTrigger(ctx: CommandContext, actor: Actor, triggerId: string, at: Date, fired: TickResult["fired"]) {
  const t = schema.routineTriggers;
  const [row] = await ctx.db
    .select({ trigger: t, routine: schema.routines })
    .from(t)
    .innerJoin(schema.routines, eq(schema.routines.id, t.routineId))
    .where(and(eq(t.id, triggerId), eq(t.companyId, ctx.companyId)));
  const trigger = row?.trigger;
  if (trigger?.kind !== "schedule" || !trigger.enabled || !trigger.nextRunAt || !trigger.cronExpression || row.routine.status !== "active") return;
  if (Date.parse(trigger.nextRunAt) > at.getTime()) return; // another tick got here first
  const cron = compileSchedule(trigger.cronExpression, trigger.timezone ?? DEFAULT_TIMEZONE);
  const keep = row.routine.catchUpPolicy === "enqueue_missed_with_cap" ? CATCH_UP_CAP : 1;
  for (const slot of dueSlots(cron, trigger.nextRunAt, at, keep)) {
    const fire: FireInput = {
      routineId: trigger.routineId,
      source: "schedule",
      triggerId: trigger.id,
      idempotencyKey: `${SCHEDULE_KEY_PREFIX}${trigger.id}:${slot}`,
      payload: { scheduledFor: slot },
    };
    try {
      let run;
      try {
        run = await fireOnce(ctx, actor, await loadFireFacts(ctx.db, fire, ctx.companyId), fire);
      } catch (err) {
        if (!(err instanceof StaleRead)) throw err;
        run = await fireOnce(ctx, actor, await loadFireFacts(ctx.db, fire, ctx.companyId), fire);
      }
      fired.push({ triggerId: trigger.id, slot, runId: run.id, status: run.status });
    } catch (err) {
      // A refusal (routine archived meanwhile, variables missing) ends this trigger's slots; the schedule still moves on.
      if (!(err instanceof HttpError)) throw err;
      fired.push({ triggerId: trigger.id, slot, runId: null, status: "refused", error: err.message });
      break;
    }
  }
  await ctx.batch([
    ctx.db
      .update(t)
      .set({ nextRunAt: nextSlot(cron, at), updatedAt: ctx.now })
      .where(and(eq(t.id, trigger.id), eq(t.nextRunAt, trigger.nextRunAt))),
  ]);
}

/** The tick's part for routines: every company with due schedule triggers fires them in its own object. */
export async function fireDueRoutines(env: Env, db: Db, at: Date): Promise<TickResult["fired"]> {
  // Each shard answers for its own companies.
  const due = new Map((await forEachShard(env, () => dueScheduleTriggers(db, at))).flatMap((byCompany) => [...byCompany]));
  const results = await Promise.allSettled(
    [...due].map(([companyId, triggerIds]) => runCompanyCommand(env, companyId, fireDueSchedules, SYSTEM, { triggerIds, at: at.toISOString() })),
  );
  const fired: TickResult["fired"] = [];
  for (const result of results) {
    if (result.status === "fulfilled") fired.push(...result.value.fired);
    else console.error("routine tick failed for a company", result.reason);
  }
  return fired;
}

export const routineTickCommands = [fireDueSchedules];
