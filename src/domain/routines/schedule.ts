// Schedule triggers: cron expressions evaluated in the trigger's IANA time zone by `croner`
// (maintained, dependency-free, time zones through Intl, so it runs in Workers unchanged). A
// local time skipped by a DST change fires at the first valid time after it; a repeated local
// time fires once (croner's documented behaviour, the Open Cron Pattern Specification).
import { Cron } from "croner";
import { badRequest } from "../errors";

export const DEFAULT_TIMEZONE = "UTC";
/** `enqueue_missed_with_cap` fires at most this many missed slots per tick. */
export const CATCH_UP_CAP = 25;

/** Whether `timezone` is an IANA zone this runtime knows. */
export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The compiled schedule of a stored trigger (no "does it still fire" check: a schedule may have ended). */
export function compileSchedule(cronExpression: string, timezone: string = DEFAULT_TIMEZONE): Cron {
  if (!isValidTimezone(timezone)) throw badRequest(`Unknown time zone "${timezone}": use an IANA name such as America/New_York`, { field: "timezone" });
  try {
    return new Cron(cronExpression.trim(), { timezone, paused: true });
  } catch (err) {
    throw badRequest(`Invalid cron expression "${cronExpression}": ${(err as Error).message.replace(/^CronPattern: /, "")}`, { field: "cronExpression" });
  }
}

/** A schedule being saved: it must compile and still fire (a 400 naming what is wrong). */
export function parseSchedule(cronExpression: string, timezone: string = DEFAULT_TIMEZONE): Cron {
  const cron = compileSchedule(cronExpression, timezone);
  if (!cron.nextRun(new Date())) throw badRequest(`Cron expression "${cronExpression}" never fires`, { field: "cronExpression" });
  return cron;
}

/** The first slot strictly after `after` (UTC ISO), or null when the schedule has ended. */
export function nextSlot(cron: Cron, after: Date): string | null {
  return cron.nextRun(after)?.toISOString() ?? null;
}

/**
 * The schedule's slots from `first` (a slot) up to and including `until`, oldest first, at most the
 * newest `keep` of them. Found backwards from `until`, so the cost follows `keep`, not how long the
 * trigger has been due (a minute schedule of a company paused for a year is still a few steps).
 */
export function dueSlots(cron: Cron, first: string, until: Date, keep: number): string[] {
  const from = Date.parse(first);
  if (from > until.getTime()) return [];
  // previousRuns gives slots strictly before its reference second: the next second includes `until`'s.
  const reference = new Date(Math.floor(until.getTime() / 1000) * 1000 + 1000);
  return cron
    .previousRuns(keep, reference)
    .filter((slot) => slot.getTime() >= from && slot.getTime() <= until.getTime())
    .map((slot) => slot.toISOString())
    .reverse();
}
