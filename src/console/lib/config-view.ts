// An agent's (or project's) configuration as rows to read (pure). Secrets appear only as references:
// a `{ type: "secret_ref", secretId, version }` binding names its company secret, and a string under
// a secret-looking key (the service stores those as references, but a response may carry a redacted
// or unexpected value) is never shown.
import { isSensitiveKey } from "../../domain/sensitive-keys";

export type ConfigValue = { kind: "text"; text: string } | { kind: "secret"; secretId: string; version: string } | { kind: "hidden" } | { kind: "empty" };

export interface ConfigRow {
  /** `env.OPENAI_API_KEY`, `url`, `headers.x-team`. */
  path: string;
  value: ConfigValue;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const MAX_ROWS = 200;

export function configRows(config: Record<string, unknown> | null | undefined): ConfigRow[] {
  const rows: ConfigRow[] = [];
  const walk = (value: unknown, path: string, key: string, depth: number) => {
    if (rows.length >= MAX_ROWS) return;
    if (isRecord(value) && value.type === "secret_ref" && typeof value.secretId === "string") {
      rows.push({ path, value: { kind: "secret", secretId: value.secretId, version: String(value.version ?? "latest") } });
      return;
    }
    if (isRecord(value) && value.type === "plain" && typeof value.value === "string") {
      rows.push({ path, value: isSensitiveKey(key) ? { kind: "hidden" } : { kind: "text", text: value.value } });
      return;
    }
    if (isRecord(value) && depth < 6) {
      const entries = Object.entries(value);
      if (entries.length === 0) rows.push({ path, value: { kind: "empty" } });
      for (const [k, v] of entries) walk(v, path ? `${path}.${k}` : k, k, depth + 1);
      return;
    }
    if (Array.isArray(value) && depth < 6 && value.some((item) => typeof item === "object" && item !== null)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`, key, depth + 1));
      return;
    }
    if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) {
      rows.push({ path, value: { kind: "empty" } });
      return;
    }
    if (isSensitiveKey(key)) {
      rows.push({ path, value: { kind: "hidden" } });
      return;
    }
    const text = typeof value === "string" ? value : Array.isArray(value) ? value.map(String).join(", ") : String(value);
    rows.push({ path, value: { kind: "text", text } });
  };
  if (config) for (const [k, v] of Object.entries(config)) walk(v, k, k, 0);
  return rows;
}
