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
  "question.asked": "An agent asked a person a question on an issue. data: issueId, identifier, askedOfUserId, blocksIssue, agentId",
  "question.answered":
    "A board member answered a question (posted as a comment; the asking agent is woken). data: issueId, identifier, optionId, commentId, answeredByUserId, agentId",
  "question.cancelled": "An open question was cancelled. data: issueId, identifier, agentId",
  "agent.created": "An agent was created (hired or joined). data: name, role, status",
  "agent_key.created": "An agent API key was created (never the token). data: agentId, keyId, name",
  "agent_key.revoked": "An agent API key was revoked. data: agentId, keyId, name",
  "agent.status_changed": "An agent's status changed (paused, resumed, terminated, approved). data: from, to",
  "run.queued": "A heartbeat run was queued. data: agentId, reason, invocationSource, issueId",
  "run.started": "A heartbeat run started. data: agentId, adapterType, issueId",
  "run.finished": "A heartbeat run ended. data: agentId, status, errorCode",
  "run.event":
    "A line of a run's event log: its transcript (assistant text, thinking, tool calls and results), status and output. Matched only by a filter or subscription naming it exactly (not `*` or `run.*`: there are many). data: runId, seq, kind, message (its first 2,000 characters)",
  "budget.incident_opened": "A budget threshold was crossed (soft warning or hard stop). data: kind, scopeType, scopeId, amountCents, observedCents",
  "budget.incident_resolved": "A budget incident was resolved. data: action, amountCents",
  "project.created": "A project was created. data: name, urlKey, goalIds",
  "project.updated": "A project changed. data: changed (field names)",
  "goal.created": "A goal was created. data: title, level, status, parentId",
  "goal.updated": "A goal changed. data: changed (field names), changes ({ field: { from, to } })",
  "company.updated": "The company's settings, branding or logo changed, or it was archived. data: changed (field names)",
  "member.added": "A person became a member of the company (an accepted invite, an approved join request, an admin's grant). data: userId, membershipRole",
  "member.removed": "A member's membership was deactivated. data: userId",
  "member.role_changed": "A member's role changed. data: userId, from, to",
  "invite.created": "An invite was created (never its token). data: inviteType, membershipRole, expiresAt",
  "document.written": "An issue document got a new revision (created, updated or restored). data: issueId, key, documentId, revisionId, revisionNumber",
  "attachment.added": "A file was attached to an issue. data: issueId, attachmentId, originalFilename, contentType, byteSize",
  "routine.run_created": "A routine fired. data: runId, source, status, linkedIssueId",
  "cost.recorded": "A cost event was recorded. data: agentId, provider, model, costCents, issueId, projectId",
  "wiki.page_written":
    "A knowledge-wiki page was written (created or changed; also the index, the log and filed answers). data: wikiId, spaceSlug, path, title, hash, previousHash, revisionId, operationType, querySessionId",
  "wiki.page_moved": "A knowledge-wiki page was renamed. data: wikiId, spaceSlug, path, previousPath, hash",
  "wiki.page_deleted": "A knowledge-wiki page was deleted. data: wikiId, spaceSlug, path, previousHash",
  "wiki.source_captured": "A raw source was captured into the knowledge wiki. data: wikiId, spaceSlug, rawPath, hash, title, sourceType, sizeChars",
  "wiki.space_changed": "A knowledge-wiki space was created, updated or archived. data: wikiId, spaceSlug, change, status",
  "wiki.bootstrapped":
    "A knowledge wiki was bootstrapped (missing control files written, managed agent, project, skills and routines ensured). data: wikiId, writtenFiles, preservedFiles, managedAgentId",
  "wiki.query.started":
    "A wiki query session started: an operation issue assigned to the wiki maintainer. data: querySessionId, operationId, title, maintainerAgentId",
  "wiki.query.blocked":
    "A wiki query session could not start (maintainer paused or missing); its operation is blocked. data: querySessionId, operationId, reason, maintainerAgentId",
  "wiki.query.progress": "The maintainer's run for a wiki query session was queued or started. data: querySessionId, operationId, issueId, runId, runStatus",
  "wiki.query.answered":
    "The maintainer's run answered a wiki query session. data: querySessionId, operationId, issueId, runId, answer (its first 4,000 characters)",
  "wiki.query.failed":
    "The maintainer's run for a wiki query session ended without an answer. data: querySessionId, operationId, issueId, runId, runStatus, errorCode",
  "plugin.installed": "A plugin was installed on the instance (announced to every company). data: pluginKey, version, status",
  "plugin.status_changed":
    "A plugin's status changed (ready, disabled, error, upgrade_pending): its tools appear or go. data: pluginKey, version, from, to, lastError",
  "plugin.uninstalled": "A plugin was uninstalled (its data kept unless purged). data: pluginKey, version, purged",
  "webhook.disabled": "A webhook subscription was disabled after 24 hours of failed deliveries. data: reason",
  "notification_channel.disabled": "A notification channel was disabled after 24 hours of failed messages. data: kind, name, reason",
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

/** Types matched only by a pattern naming them exactly — not `*`, a prefix or no filter: a run's log lines, too many for every subscriber. */
export const EXACT_ONLY_EVENT_TYPES = ["run.event"] as const;
const exactOnly = (type: string) => (EXACT_ONLY_EVENT_TYPES as readonly string[]).includes(type);

/**
 * Whether `type` matches any of `patterns`: an exact type, `prefix.*` or `*` (an exact-only type
 * only by its name). No filter (null or undefined) matches everything but the exact-only types; an
 * empty list matches nothing. The one matcher: the Worker (event
 * streams), the console (what a page reloads on) and, as eventPatternMatchSql, the database (which
 * webhook subscriptions an event is queued for; test/http/event-patterns.test.ts keeps them equal).
 */
export function matchesEventPatterns(type: string, patterns: readonly string[] | null | undefined): boolean {
  if (!patterns) return !exactOnly(type);
  return patterns.some((p) => p === type || (!exactOnly(type) && (p === "*" || (p.endsWith(".*") && type.startsWith(p.slice(0, -1))))));
}

/**
 * matchesEventPatterns in SQL, for one pattern expression and one type expression (SQL text): the
 * delivery trigger (migrations/0024_run_event_stream.sql) holds it for `p.value` and NEW.`type`, and
 * event lists filter with it over a JSON array of patterns.
 */
export const eventPatternMatchSql = (pattern: string, type: string) =>
  `${pattern} = ${type} OR (${type} NOT IN (${EXACT_ONLY_EVENT_TYPES.map((t) => `'${t}'`).join(", ")}) AND (${pattern} = '*' OR (substr(${pattern}, -2) = '.*' AND substr(${type}, 1, length(${pattern}) - 1) = substr(${pattern}, 1, length(${pattern}) - 1))))`;

/** The catalogue as the OpenAPI description and the README show it. */
export const eventCatalogueMarkdown = () => EVENT_TYPES.map((type) => `- \`${type}\`: ${EVENT_CATALOGUE[type]}`).join("\n");
