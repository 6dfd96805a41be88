// An agent's settings as the agent page edits them (pure): the draft the form shows — text for
// every value, a secret field as the id of the company secret it refers to (never a value), JSON
// text for object and array fields — and the PATCH /api/agents/{agentId} body made from what the
// board changed. Only changed values are sent: adapterConfig merges (null removes a key), a new
// adapter type replaces it; runtimeConfig is replaced whole, so the heartbeat keeps its other keys.
import type { Schemas } from "./api";
import type { FieldErrors } from "./field-errors";

export type Agent = Schemas["Agent"];
export type AdapterInfo = Schemas["AdapterInfo"];
export type AdapterField = Schemas["AdapterField"];
export type AgentPatch = Schemas["UpdateAgent"];

/** What the service shows in place of a value under a secret-like key (it can never be sent back). */
export const REDACTED = "***REDACTED***";

/** The heartbeat settings the form edits (in runtimeConfig.heartbeat). */
export const HEARTBEAT_LIMITS = ["intervalSec", "maxConcurrentRuns", "maxRunsPerHour"] as const;
export type HeartbeatLimit = (typeof HEARTBEAT_LIMITS)[number];

export interface SettingsDraft {
  name: string;
  title: string;
  role: string;
  /** "" for the board. */
  reportsTo: string;
  capabilities: string;
  adapterType: string;
  /** Per adapter field: text (the secret's id for a secret field), or a checkbox's state. */
  adapter: Record<string, string | boolean>;
  heartbeatEnabled: boolean;
  heartbeat: Record<HeartbeatLimit, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function isSecretRef(value: unknown): value is { type: "secret_ref"; secretId: string; version?: unknown } {
  return isRecord(value) && value.type === "secret_ref" && typeof value.secretId === "string";
}

/** Fields shown as a multi-line text box (instructions and prompt templates). */
export const isLongText = (field: AdapterField) => field.type === "string" && !field.enum && /instructions|prompt/i.test(field.name);

/** How a stored adapter value shows in its field. */
export function fieldDraft(field: AdapterField, value: unknown): string | boolean {
  if (field.type === "boolean") return typeof value === "boolean" ? value : field.default === true;
  if (value === undefined || value === null) return "";
  if (field.secret) return isSecretRef(value) ? value.secretId : "";
  if (field.type === "object" || field.type === "array" || typeof value === "object") return JSON.stringify(value, null, 2);
  return String(value);
}

export function adapterDraft(fields: AdapterField[], config: Record<string, unknown> | undefined): Record<string, string | boolean> {
  return Object.fromEntries(fields.map((f) => [f.name, fieldDraft(f, config?.[f.name])]));
}

export function settingsDraft(agent: Agent, adapter: AdapterInfo | undefined): SettingsDraft {
  const heartbeat = isRecord(agent.runtimeConfig?.heartbeat) ? agent.runtimeConfig.heartbeat : {};
  const text = (value: unknown) => (typeof value === "number" ? String(value) : "");
  return {
    name: agent.name,
    title: agent.title ?? "",
    role: agent.role,
    reportsTo: agent.reportsTo ?? "",
    capabilities: agent.capabilities ?? "",
    adapterType: agent.adapterType,
    adapter: adapterDraft(adapter?.fields ?? [], agent.adapterConfig),
    heartbeatEnabled: heartbeat.enabled === true,
    heartbeat: {
      intervalSec: text(heartbeat.intervalSec),
      maxConcurrentRuns: text(heartbeat.maxConcurrentRuns),
      maxRunsPerHour: text(heartbeat.maxRunsPerHour),
    },
  };
}

const containsRedacted = (value: unknown): boolean =>
  value === REDACTED || (Array.isArray(value) ? value.some(containsRedacted) : isRecord(value) && Object.values(value).some(containsRedacted));

/** A field's draft as the value to send (null removes it), or why it cannot be sent. */
export function fieldValue(field: AdapterField, draft: string | boolean): { value: unknown } | { error: string } {
  if (typeof draft === "boolean") return { value: draft };
  if (draft.trim() === "") return { value: null };
  if (field.secret) return { value: { type: "secret_ref", secretId: draft, version: "latest" } };
  if (field.type === "integer" || field.type === "number") {
    const n = Number(draft);
    if (!Number.isFinite(n)) return { error: "Enter a number." };
    if (field.type === "integer" && !Number.isInteger(n)) return { error: "Enter a whole number." };
    return { value: n };
  }
  if (field.type === "object" || field.type === "array") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(draft);
    } catch (err) {
      return { error: `Not valid JSON: ${(err as Error).message}` };
    }
    if (field.type === "array" ? !Array.isArray(parsed) : !isRecord(parsed)) return { error: `Must be a JSON ${field.type === "array" ? "array" : "object"}.` };
    if (containsRedacted(parsed)) return { error: `Hidden values (${REDACTED}) cannot be sent back: type each one again, or remove it.` };
    return { value: parsed };
  }
  return { value: draft };
}

/**
 * The PATCH body for what changed between `initial` and `draft` (undefined when nothing did), or
 * the fields whose text cannot be sent (by path, as the API would name them).
 */
export function settingsPatch(
  agent: Agent,
  initial: SettingsDraft,
  draft: SettingsDraft,
  fields: AdapterField[],
): { body: AgentPatch | undefined; errors: FieldErrors } {
  const body: AgentPatch = {};
  const errors: FieldErrors = {};
  if (draft.name !== initial.name) body.name = draft.name;
  if (draft.title !== initial.title) body.title = draft.title.trim() || null;
  if (draft.role !== initial.role) body.role = draft.role;
  if (draft.reportsTo !== initial.reportsTo) body.reportsTo = draft.reportsTo || null;
  if (draft.capabilities !== initial.capabilities) body.capabilities = draft.capabilities.trim() ? draft.capabilities : null;

  const newType = draft.adapterType !== initial.adapterType;
  const config: Record<string, unknown> = {};
  for (const field of fields) {
    const text = draft.adapter[field.name] ?? (field.type === "boolean" ? field.default === true : "");
    // A new type starts from nothing: only what is set (and a box that differs from its default).
    const send = newType ? text !== "" && !(typeof text === "boolean" && text === (field.default === true)) : text !== initial.adapter[field.name];
    if (!send) continue;
    const value = fieldValue(field, text);
    if ("error" in value) errors[`adapterConfig.${field.name}`] = value.error;
    else config[field.name] = value.value;
  }
  if (newType) {
    body.adapterType = draft.adapterType as AgentPatch["adapterType"];
    body.replaceAdapterConfig = true;
    body.adapterConfig = config;
  } else if (Object.keys(config).length > 0) body.adapterConfig = config;

  const limitsChanged = HEARTBEAT_LIMITS.some((k) => draft.heartbeat[k] !== initial.heartbeat[k]);
  if (limitsChanged || draft.heartbeatEnabled !== initial.heartbeatEnabled) {
    const stored = isRecord(agent.runtimeConfig?.heartbeat) ? agent.runtimeConfig.heartbeat : {};
    const heartbeat: Record<string, unknown> = { ...stored, enabled: draft.heartbeatEnabled };
    for (const key of HEARTBEAT_LIMITS) {
      const text = draft.heartbeat[key].trim();
      if (text === "") delete heartbeat[key];
      else if (!Number.isInteger(Number(text))) errors[`runtimeConfig.heartbeat.${key}`] = "Enter a whole number.";
      else heartbeat[key] = Number(text);
    }
    body.runtimeConfig = { ...(agent.runtimeConfig ?? {}), heartbeat };
  }
  return { body: Object.keys(body).length > 0 ? body : undefined, errors };
}
