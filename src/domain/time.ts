// Time helpers: ISO timestamps and the UTC calendar month used by budgets.
export const nowIso = () => new Date().toISOString();

/** `YYYY-MM` of the UTC calendar month containing `iso` (default: now). */
export const utcMonth = (iso: string = nowIso()) => iso.slice(0, 7);

/** Spend counters are kept with the month they belong to; another month reads as 0. */
export const currentMonthSpend = (spent: number, spentMonth: string | null, now: string = nowIso()) => (spentMonth === utcMonth(now) ? spent : 0);
