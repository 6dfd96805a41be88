// Which fields an API error names (pure), so a form can show the refusal next to the field: a
// 400's zod issues (`details: [{ path, message }]`), or the fields a 4xx rule names
// (`details: { reportsTo: … }`, `{ field: "apiKey" }`). Keys are paths as the body spells them:
// `name`, `adapterConfig.url`, `runtimeConfig.heartbeat.intervalSec`.
export type FieldErrors = Record<string, string>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The refused fields of an error with this `message` and `details`, each with what to say about it. */
export function fieldErrors(message: string, details: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (Array.isArray(details)) {
    for (const issue of details) {
      if (!isRecord(issue) || !Array.isArray(issue.path) || issue.path.length === 0) continue;
      const path = issue.path.join(".");
      out[path] ??= typeof issue.message === "string" ? issue.message : message;
    }
  } else if (isRecord(details)) {
    for (const [key, value] of Object.entries(details)) out[key === "field" && typeof value === "string" ? value : key] ??= message;
  }
  return out;
}

/**
 * The errors placed on the form's own fields (`known` paths): a path the form has, else the field
 * it lies under (`adapterConfig.headers.x-team` → `adapterConfig.headers`), else a bare field name
 * under one of the `under` prefixes (`apiKey` → `adapterConfig.apiKey`), else an alias
 * (`urlKey` → `name`). Errors that fit no field are left out: the form's alert still says them.
 */
export function placeErrors(errors: FieldErrors, known: string[], { under = [], aliases = {} }: { under?: string[]; aliases?: Record<string, string> } = {}) {
  const have = new Set(known);
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const parts = path.split(".");
    const enclosing = parts.map((_, i) => parts.slice(0, parts.length - i).join(".")).find((p) => have.has(p));
    const target =
      enclosing ?? under.map((prefix) => `${prefix}.${path}`).find((p) => have.has(p)) ?? (have.has(aliases[path] ?? "") ? aliases[path] : undefined);
    if (target) out[target] ??= message;
  }
  return out;
}
