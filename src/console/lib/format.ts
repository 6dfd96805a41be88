// How amounts and times read in the console.

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** 12345 → "$123.45". */
export function money(cents: number): string {
  return dollars.format(cents / 100);
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** An ISO time as "3 minutes ago" / "in 2 hours". */
export function ago(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return iso;
}

/** An ISO time as the reader's local date and time (for title attributes and details). */
export function when(iso: string): string {
  return new Date(iso).toLocaleString();
}
