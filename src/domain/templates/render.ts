// The one `{{…}}` template engine: routines' titles and descriptions (`{{variable}}`) and the
// agents' prompt templates (`{{agent.name}}`, `{{issue.identifier}}`, `{{wakeReason}}`). A
// reference is a name or a dotted path into the values; an unknown path renders empty.

const REFERENCE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

export type TemplateValue = string | number | boolean | null | undefined | TemplateValues | readonly unknown[];
export interface TemplateValues {
  [name: string]: TemplateValue | unknown;
}

/** The names or paths `texts` reference, in order of first use. */
export function referencedPaths(...texts: Array<string | null | undefined>): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const match of (text ?? "").matchAll(REFERENCE)) names.add(match[1]);
  return [...names];
}

/** The value at a dotted `path` of `values` (undefined when any step is missing). */
export function valueAt(values: TemplateValues, path: string): unknown {
  let current: unknown = values;
  for (const step of path.split(".")) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

const display = (value: unknown): string => {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
};

/** `text` with each `{{path}}` replaced by its value (missing ones render empty; objects as JSON). */
export function renderTemplate(text: string, values: TemplateValues): string {
  return text.replace(REFERENCE, (_, path: string) => display(valueAt(values, path)));
}
