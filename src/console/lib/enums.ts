// The enums the console offers as choices, typed against the generated client so a tuple that
// drifts from the API fails to compile (every listed value is valid, and every valid value listed).
import type { Schemas } from "./api";

type Exactly<T, U extends readonly unknown[]> = [T] extends [U[number]] ? ([U[number]] extends [T] ? U : never) : never;

const tuple =
  <T>() =>
  <const U extends readonly T[]>(values: Exactly<T, U>) =>
    values;

export const ISSUE_STATUSES = tuple<Schemas["Issue"]["status"]>()(["backlog", "todo", "in_progress", "in_review", "blocked", "done", "cancelled"]);
export const ISSUE_PRIORITIES = tuple<Schemas["Issue"]["priority"]>()(["critical", "high", "medium", "low"]);
export const AGENT_STATUSES = tuple<Schemas["Agent"]["status"]>()(["active", "idle", "running", "paused", "error", "pending_approval", "terminated"]);
export const PROJECT_STATUSES = tuple<Schemas["Project"]["status"]>()(["backlog", "planned", "in_progress", "completed", "cancelled"]);
export const GOAL_LEVELS = tuple<Schemas["Goal"]["level"]>()(["company", "team", "agent", "task"]);
export const GOAL_STATUSES = tuple<Schemas["Goal"]["status"]>()(["planned", "active", "achieved", "cancelled"]);
export const ADAPTER_TYPES = tuple<Schemas["HireAgent"]["adapterType"]>()([
  "http",
  "process",
  "claude_local",
  "codex_local",
  "gemini_local",
  "opencode_local",
  "cursor_local",
  "pi_local",
  "remote_gateway",
  "llm_api",
]);
export const MEMBER_ROLES = tuple<Schemas["CompanyMember"]["membershipRole"]>()(["owner", "admin", "member", "viewer"]);
export const BUDGET_WINDOWS = tuple<Schemas["BudgetPolicyState"]["windowKind"]>()(["calendar_month_utc", "lifetime"]);
export const TRIGGER_KINDS = tuple<Schemas["RoutineTrigger"]["kind"]>()(["schedule", "webhook", "api"]);
export const SIGNING_MODES = tuple<NonNullable<Schemas["RoutineTrigger"]["signingMode"]>>()(["bearer", "hmac_sha256", "vendor_hmac", "none"]);
export const BUDGET_SCOPES = tuple<Schemas["BudgetPolicyState"]["scopeType"]>()(["company", "agent", "project"]);
export const INVITE_TYPES = tuple<Schemas["Invite"]["inviteType"]>()(["human", "agent"]);

export type IssueStatus = Schemas["Issue"]["status"];
export type IssuePriority = Schemas["Issue"]["priority"];
export type AgentStatus = Schemas["Agent"]["status"];
export type ProjectStatus = Schemas["Project"]["status"];
export type GoalLevel = Schemas["Goal"]["level"];
export type GoalStatus = Schemas["Goal"]["status"];
export type AdapterType = Schemas["HireAgent"]["adapterType"];
export type MemberRole = Schemas["CompanyMember"]["membershipRole"];
export type BudgetWindow = Schemas["BudgetPolicyState"]["windowKind"];
export type TriggerKind = Schemas["RoutineTrigger"]["kind"];
export type SigningMode = NonNullable<Schemas["RoutineTrigger"]["signingMode"]>;
export type BudgetScope = Schemas["BudgetPolicyState"]["scopeType"];
export type InviteType = Schemas["Invite"]["inviteType"];

/** Whether `value` (a form's string) is one of the enum's `values`: checked, never cast. */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** A select's onChange for the enum's values: `then` gets the chosen value, checked (any other is ignored). */
export function onChosen<T extends string>(values: readonly T[], then: (value: T) => void) {
  return (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    if (isOneOf(values, value)) then(value);
  };
}

/** `value` as one of the enum's `values`; throws (the running action shows it) when it is none of them. */
export function oneOf<T extends string>(values: readonly T[], value: string): T {
  if (isOneOf(values, value)) return value;
  throw new Error(`“${value}” is not one of: ${values.join(", ")}.`);
}

/** `in_progress` → "In progress". */
export function label(value: string): string {
  const words = value.replace(/[_.]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
