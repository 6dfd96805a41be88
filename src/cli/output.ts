// How the CLI prints: `--json` gives the API's JSON for scripts; otherwise readable tables.

export class CliError extends Error {}

export interface Printer {
  json: boolean;
  /** A value: JSON with --json, else `human()` (or key: value lines). */
  value(value: unknown, human?: () => string): void;
  /** Rows as a table with human headers (names, not ids), or the rows as the API's JSON. */
  table<Row extends object>(rows: Row[], columns: Array<Column<Row>>): void;
  /** Progress and notes (stderr, never mixed into --json output). */
  note(line: string): void;
}

/** A table column: its header as a person reads it, and the row's field (or a function of the row) it shows. */
export type Column<Row> = readonly [header: string, cell: (keyof Row & string) | ((row: Row) => unknown)];

const cell = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** An ISO timestamp to the minute, as "2026-11-21 09:30" (UTC). */
export const minute = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace("T", " ") : "");

export function formatTable<Row extends object>(rows: Row[], columns: Array<Column<Row>>): string {
  if (!rows.length) return "(none)";
  const value = (row: Row, [, pick]: Column<Row>) => (typeof pick === "function" ? pick(row) : row[pick as keyof Row]);
  const cells = rows.map((row) => columns.map((c) => cell(value(row, c)).replace(/\s+/g, " ").slice(0, 60)));
  const widths = columns.map(([header], i) => Math.max(header.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(columns.map(([header]) => header)), ...cells.map(line)].join("\n");
}

export function printer(json: boolean): Printer {
  return {
    json,
    value(value, human) {
      if (json) return void process.stdout.write(JSON.stringify(value, null, 2) + "\n");
      if (human) return void process.stdout.write(human() + "\n");
      const record = (value ?? {}) as Record<string, unknown>;
      process.stdout.write(
        Object.entries(record)
          .map(([k, v]) => `${k}: ${cell(v)}`)
          .join("\n") + "\n",
      );
    },
    table(rows, columns) {
      if (json) return void process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
      process.stdout.write(formatTable(rows, columns) + "\n");
    },
    note(line) {
      process.stderr.write(line + "\n");
    },
  };
}
