// How the CLI prints: `--json` gives the API's JSON for scripts; otherwise readable tables.

export class CliError extends Error {}

export interface Printer {
  json: boolean;
  /** A value: JSON with --json, else `human()` (or key: value lines). */
  value(value: unknown, human?: () => string): void;
  /** Rows as a table (columns picked from each row), or the rows as JSON. */
  table(rows: Array<Record<string, unknown>>, columns: string[]): void;
  /** Progress and notes (stderr, never mixed into --json output). */
  note(line: string): void;
}

const cell = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));

export function formatTable(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (!rows.length) return "(none)";
  const cells = rows.map((row) => columns.map((c) => cell(row[c]).replace(/\s+/g, " ").slice(0, 60)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join("  ").trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join("\n");
}

export function printer(json: boolean): Printer {
  return {
    json,
    value(value, human) {
      if (json) return void process.stdout.write(JSON.stringify(value, null, 2) + "\n");
      if (human) return void process.stdout.write(human() + "\n");
      const record = (value ?? {}) as Record<string, unknown>;
      process.stdout.write(Object.entries(record).map(([k, v]) => `${k}: ${cell(v)}`).join("\n") + "\n");
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
