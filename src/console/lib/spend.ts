// The dashboard's 14-day spend chart from the newest cost events: one request in the usual case.
// When the page of events is full before reaching the window's start, the days it does not cover
// completely are asked for one by one (costs/summary with from/to), so a busy company's chart is
// exact too.

export interface DaySpend {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  cents: number;
}

export interface Bucketed {
  days: DaySpend[];
  /** Days (oldest first) the events did not cover completely; their totals must be asked for. */
  incomplete: string[];
}

const DAY_MS = 86_400_000;
export const dayOf = (iso: string | number | Date) => new Date(iso).toISOString().slice(0, 10);

/** The UTC days of the window ending today, oldest first. */
export function windowDays(count: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => dayOf(today - (count - 1 - i) * DAY_MS));
}

/**
 * Sums `events` (newest first, as the API lists them) per UTC day. `full` says the page was full,
 * so days at or before the oldest event's day may have more events than the page held.
 */
export function bucketSpend(events: Array<{ occurredAt: string; costCents: number }>, full: boolean, count: number, now: Date): Bucketed {
  const days = windowDays(count, now);
  const totals = new Map(days.map((day) => [day, 0]));
  for (const event of events) {
    const day = dayOf(event.occurredAt);
    if (totals.has(day)) totals.set(day, totals.get(day)! + event.costCents);
  }
  const oldest = events.length ? dayOf(events[events.length - 1].occurredAt) : null;
  const incomplete = full && oldest ? days.filter((day) => day <= oldest) : [];
  return { days: days.map((day) => ({ day, cents: totals.get(day)! })), incomplete };
}

/** The inclusive ISO bounds of a UTC day, for costs/summary. */
export function dayBounds(day: string): { from: string; to: string } {
  const start = new Date(`${day}T00:00:00.000Z`).getTime();
  return { from: new Date(start).toISOString(), to: new Date(start + DAY_MS - 1).toISOString() };
}
