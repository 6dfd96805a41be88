// Grant scopes: which assignments a scoped `tasks:assign` / `tasks:assign_scope` grant covers.
// Structured keys (projectId/projectIds; agentId/agentIds/assigneeAgentId(s)/targetAgentId(s);
// managerAgentId/subtreeRootAgentId and similar) and shorthand strings in `allow` arrays
// (`project:<id>`, `agent:<id>`, `subtree:<id>`). Every recognised constraint must match;
// unknown keys do not constrain.

export interface RequestedScope {
  projectId: string | null;
  targetAgentId: string | null;
  /** The target agent's managers up the reportsTo chain, nearest first. */
  targetAncestors: string[];
}

const PROJECT_KEYS = ["projectId", "projectIds"];
const AGENT_KEYS = ["agentId", "agentIds", "assigneeAgentId", "assigneeAgentIds", "targetAgentId", "targetAgentIds"];
const SUBTREE_KEYS = [
  "managerAgentId",
  "managerAgentIds",
  "subtreeRootAgentId",
  "subtreeRootAgentIds",
  "subtreeAgentId",
  "subtreeAgentIds",
  "managedSubtreeAgentId",
  "managedSubtreeAgentIds",
];

function values(value: unknown): string[] {
  if (typeof value === "string") return value.trim() ? [value.trim()] : [];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === "string" && v.trim().length > 0).map((v) => v.trim());
}

function collect(scope: Record<string, unknown>, keys: string[], prefix: string): string[] {
  const structured = keys.flatMap((k) => values(scope[k]));
  const shorthand = values(scope.allow)
    .filter((rule) => rule.startsWith(prefix))
    .map((rule) => rule.slice(prefix.length))
    .filter(Boolean);
  return [...structured, ...shorthand];
}

/** Whether the scope carries at least one recognised constraint. */
export function isStructuredScope(scope: Record<string, unknown> | null | undefined): boolean {
  if (!scope) return false;
  return (
    collect(scope, PROJECT_KEYS, "project:").length > 0 ||
    collect(scope, AGENT_KEYS, "agent:").length > 0 ||
    collect(scope, SUBTREE_KEYS, "subtree:").length > 0
  );
}

/**
 * Whether a grant scope covers the requested assignment. An absent or unconstrained scope is
 * company-wide unless `requireStructured` (tasks:assign_scope needs at least one constraint).
 */
export function scopeCovers(
  scope: Record<string, unknown> | null | undefined,
  requested: RequestedScope,
  options: { requireStructured?: boolean } = {},
): boolean {
  if (!scope || !isStructuredScope(scope)) return !options.requireStructured;
  const projects = collect(scope, PROJECT_KEYS, "project:");
  if (projects.length && !(requested.projectId && projects.includes(requested.projectId))) return false;
  const agents = collect(scope, AGENT_KEYS, "agent:");
  if (agents.length && !(requested.targetAgentId && agents.includes(requested.targetAgentId))) return false;
  const roots = collect(scope, SUBTREE_KEYS, "subtree:");
  if (roots.length) {
    const target = requested.targetAgentId;
    if (!target) return false;
    if (!roots.some((root) => root === target || requested.targetAncestors.includes(root))) return false;
  }
  return true;
}
