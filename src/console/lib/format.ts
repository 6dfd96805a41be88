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

const units = ["bytes", "KiB", "MiB", "GiB"];
/** 2048 → "2.0 KiB". */
export function bytes(count: number): string {
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${count} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

const integer = new Intl.NumberFormat("en-US");
/** 1234567 → "1,234,567". */
export function count(value: number): string {
  return integer.format(value);
}

/** Milliseconds as "45 s", "3 min 5 s", "2 h 10 min". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ""}`;
}
