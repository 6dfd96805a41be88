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
]);
export const MEMBER_ROLES = tuple<Schemas["CompanyMember"]["membershipRole"]>()(["owner", "admin", "member", "viewer"]);
export const BUDGET_WINDOWS = tuple<Schemas["BudgetPolicyState"]["windowKind"]>()(["calendar_month_utc", "lifetime"]);
export const TRIGGER_KINDS = tuple<Schemas["RoutineTrigger"]["kind"]>()(["schedule", "webhook", "api"]);

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

/** `in_progress` → "In progress". */
export function label(value: string): string {
  const words = value.replace(/[_.]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
