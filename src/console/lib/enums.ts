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

export type IssueStatus = Schemas["Issue"]["status"];
export type IssuePriority = Schemas["Issue"]["priority"];
export type AgentStatus = Schemas["Agent"]["status"];

/** `in_progress` → "In progress". */
export function label(value: string): string {
  const words = value.replace(/[_.]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
