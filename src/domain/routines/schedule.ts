// Schedule triggers: cron expressions evaluated in the trigger's IANA time zone by `croner`
// (maintained, dependency-free, time zones through Intl, so it runs in Workers unchanged). A
// local time skipped by a DST change fires at the first valid time after it; a repeated local
// time fires once (croner's documented behaviour, the Open Cron Pattern Specification).
import { Cron } from "croner";
import { badRequest } from "../errors";

export const DEFAULT_TIMEZONE = "UTC";
/** `enqueue_missed_with_cap` fires at most this many missed slots per tick. */
export const CATCH_UP_CAP = 25;
/** Upper bound on slots walked when a trigger has been due for a long time. */
const MAX_SLOTS_WALKED = 100_000;

/** Whether `timezone` is an IANA zone this runtime knows. */
export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The parsed schedule, or a 400 naming what is wrong. */
export function parseSchedule(cronExpression: string, timezone: string = DEFAULT_TIMEZONE): Cron {
  if (!isValidTimezone(timezone)) throw badRequest(`Unknown time zone "${timezone}": use an IANA name such as America/New_York`, { field: "timezone" });
  let cron: Cron;
  try {
    cron = new Cron(cronExpression.trim(), { timezone, paused: true });
  } catch (err) {
    throw badRequest(`Invalid cron expression "${cronExpression}": ${(err as Error).message.replace(/^CronPattern: /, "")}`, { field: "cronExpression" });
  }
  if (!cron.nextRun(new Date())) throw badRequest(`Cron expression "${cronExpression}" never fires`, { field: "cronExpression" });
  return cron;
}

/** The first slot strictly after `after` (UTC ISO), or null when the schedule has ended. */
export function nextSlot(cron: Cron, after: Date): string | null {
  return cron.nextRun(after)?.toISOString() ?? null;
}

/** The schedule's slots from `first` (a slot) up to and including `until`, oldest first; `keep` bounds how many of the newest are returned. */
export function dueSlots(cron: Cron, first: string, until: Date, keep: number): string[] {
  const slots: string[] = [];
  let slot: Date | null = new Date(first);
  for (let walked = 0; slot && slot.getTime() <= until.getTime() && walked < MAX_SLOTS_WALKED; walked++) {
    slots.push(slot.toISOString());
    if (slots.length > keep) slots.shift();
    slot = cron.nextRun(slot);
  }
  return slots;
}
