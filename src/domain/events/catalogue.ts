// The outbound event catalogue (version 1): every type the service sends, with what its `data`
// carries. Webhook subscriptions and stream filters name these exactly or as `prefix.*` wildcards.
// The OpenAPI description and the README list the same catalogue (test/http/events.test.ts checks
// that every type is produced).
export const EVENT_CATALOGUE_VERSION = 1;

export const EVENT_CATALOGUE = {
  "issue.created": "An issue was created. data: identifier, title, status, priority, assigneeAgentId",
  "issue.updated": "An issue changed. data: identifier, changed (field names), changes ({ field: { from, to } } for short fields)",
  "issue.assigned": "An issue got a new assignee (on creation or by a change). data: identifier, assigneeAgentId, assigneeUserId",
  "issue.commented": "A comment was added to an issue. data: identifier, commentId",
  "issue.checked_out": "An agent checked an issue out. data: identifier, runId",
  "issue.released": "An issue's checkout was released. data: identifier",
  "approval.created": "An approval was requested. data: type",
  "approval.resolved": "An approval was approved, rejected or sent back for revision. data: type, status, decisionNote",
  "agent.created": "An agent was created (hired or joined). data: name, role, status",
  "agent.status_changed": "An agent's status changed (paused, resumed, terminated, approved). data: from, to",
  "run.queued": "A heartbeat run was queued. data: agentId, reason, invocationSource, issueId",
  "run.started": "A heartbeat run started. data: agentId, adapterType, issueId",
  "run.finished": "A heartbeat run ended. data: agentId, status, errorCode",
  "budget.incident_opened": "A budget threshold was crossed (soft warning or hard stop). data: kind, scopeType, scopeId, amountCents, observedCents",
  "budget.incident_resolved": "A budget incident was resolved. data: action, amountCents",
  "routine.run_created": "A routine fired. data: runId, source, status, linkedIssueId",
  "cost.recorded": "A cost event was recorded. data: agentId, provider, model, costCents, issueId, projectId",
  ping: "A test delivery (POST …/webhooks/{webhookId}/test). data: webhookId",
} as const;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** Finance and webhook-test events are the board's: agents' streams and lists leave them out. */
export const BOARD_ONLY_EVENT_PREFIXES = ["budget.", "cost.", "ping"] as const;
export const visibleToAgents = (type: string) => !BOARD_ONLY_EVENT_PREFIXES.some((prefix) => type.startsWith(prefix));

/** A subscription or filter pattern: an exact type, `prefix.*`, or `*` (everything). */
export function isEventPattern(pattern: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) {
    const prefix = pattern.slice(0, -1);
    return EVENT_TYPES.some((type) => type.startsWith(prefix));
  }
  return (EVENT_TYPES as string[]).includes(pattern);
}

/** Whether `type` matches any of `patterns` (an empty or missing list matches everything). */
export function matchesEventPatterns(type: string, patterns: readonly string[] | null | undefined): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((p) => p === "*" || p === type || (p.endsWith(".*") && type.startsWith(p.slice(0, -1))));
}

/** The catalogue as the OpenAPI description and the README show it. */
export const eventCatalogueMarkdown = () => EVENT_TYPES.map((type) => `- \`${type}\`: ${EVENT_CATALOGUE[type]}`).join("\n");
