// How budgets read in the console: a policy's scope by name, its window in words.
import { agentName } from "./agents";
import type { Schemas } from "./api";

export type BudgetPolicy = Schemas["BudgetPolicyState"];

export const WINDOW_LABEL = { calendar_month_utc: "Calendar month (UTC)", lifetime: "Lifetime" } as const;

/** "The company", "Agent Ada", "Project Website". */
export function scopeLabel(scope: { scopeType: string; scopeId: string }, projects: Array<{ id: string; name: string }> = []): string {
  if (scope.scopeType === "agent") return `Agent ${agentName(scope.scopeId)}`;
  if (scope.scopeType === "project") return `Project ${projects.find((p) => p.id === scope.scopeId)?.name ?? "(unknown)"}`;
  return "The company";
}
