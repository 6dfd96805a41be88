// `{{variable}}` templates in a routine's title and description: which variables they reference
// and whether the declared variables are consistent. Rendering is the one template engine's
// (src/domain/templates/render.ts).
import type { RoutineVariable } from "../../db/schema/routines";
import { badRequest } from "../errors";
import { referencedPaths } from "../templates/render";

export type VariableValue = string | number | boolean;

/** The variable names `text` references, in order of first use. */
export const referencedVariables = referencedPaths;

/** A value of the variable's type, or an error message. */
function checkValue(variable: RoutineVariable, value: unknown): { value: VariableValue } | { error: string } {
  switch (variable.type) {
    case "number": {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      return Number.isFinite(n) ? { value: n } : { error: `${variable.name} must be a number` };
    }
    case "boolean":
      if (typeof value === "boolean") return { value };
      if (value === "true" || value === "false") return { value: value === "true" };
      return { error: `${variable.name} must be true or false` };
    default:
      return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? { value: String(value) }
        : { error: `${variable.name} must be text` };
  }
}

/** Declared variables are unique, defaults match their type, and every referenced name is declared (400 otherwise). */
export function validateVariables(variables: RoutineVariable[], title: string, description: string | null | undefined): void {
  const seen = new Set<string>();
  for (const variable of variables) {
    if (seen.has(variable.name)) throw badRequest(`Variable ${variable.name} is declared twice`, { variable: variable.name });
    seen.add(variable.name);
    if (variable.defaultValue !== undefined && variable.defaultValue !== null) {
      const checked = checkValue(variable, variable.defaultValue);
      if ("error" in checked) throw badRequest(`Default value of ${checked.error}`, { variable: variable.name });
    }
  }
  const undeclared = referencedVariables(title, description).filter((name) => !seen.has(name));
  if (undeclared.length) throw badRequest(`Templates reference undeclared variables: ${undeclared.join(", ")}`, { undeclared });
}

/** Required variables without a default: a schedule trigger cannot be enabled while there are any. */
export const requiredWithoutDefault = (variables: RoutineVariable[]) =>
  variables.filter((v) => v.required && (v.defaultValue === undefined || v.defaultValue === null || v.defaultValue === "")).map((v) => v.name);

/** The run's values: given ones (typed), else defaults; missing required ones and unknown names are a 400. */
export function resolveVariables(variables: RoutineVariable[], given: Record<string, unknown> = {}): Record<string, VariableValue> {
  const declared = new Map(variables.map((v) => [v.name, v]));
  const unknown = Object.keys(given).filter((name) => !declared.has(name));
  if (unknown.length) throw badRequest(`Unknown variables: ${unknown.join(", ")}`, { unknown });
  const values: Record<string, VariableValue> = {};
  const missing: string[] = [];
  for (const variable of variables) {
    const raw = given[variable.name] ?? variable.defaultValue;
    if (raw === undefined || raw === null || raw === "") {
      if (variable.required) missing.push(variable.name);
      continue;
    }
    const checked = checkValue(variable, raw);
    if ("error" in checked) throw badRequest(checked.error, { variable: variable.name });
    values[variable.name] = checked.value;
  }
  if (missing.length) throw badRequest(`Missing required variables: ${missing.join(", ")}`, { missing });
  return values;
}
