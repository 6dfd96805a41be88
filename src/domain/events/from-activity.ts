// Which outbound events an activity entry announces. Every change a command makes writes an
// activity entry in its batch; the events derived here are written in that same batch
// (src/domain/events/outbox.ts), so an event never announces a change that did not happen and a
// change never loses its event. Details are already redacted (src/domain/redaction.ts).
import type { EventType } from "./catalogue";

export interface ActivityFacts {
  action: string;
  entityType: string;
  entityId: string;
  agentId?: string | null;
  details?: Record<string, unknown> | null;
}

export interface EventDraft {
  type: EventType;
  subject: { type: string; id: string };
  data: Record<string, unknown>;
}

/** Short field values are carried in issue.updated's `changes`; long text is named in `changed` only. */
const MAX_CHANGE_VALUE = 200;
const short = (value: unknown) => (typeof value === "string" && value.length > MAX_CHANGE_VALUE ? undefined : value);

const pick = (details: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(keys.filter((k) => k in details).map((k) => [k, details[k]]));

const AGENT_STATUS_ACTIONS = new Set(["agent.paused", "agent.resumed", "agent.terminated", "agent.hire_approved"]);
const AGENT_CREATED_ACTIONS = new Set(["agent.created", "agent.hired", "agent.hire_requested"]);
const APPROVAL_RESOLVED_ACTIONS = new Set(["approval.approved", "approval.rejected", "approval.revision_requested"]);

export function eventsFromActivity(entry: ActivityFacts): EventDraft[] {
  const details = entry.details ?? {};
  const subject = { type: entry.entityType, id: entry.entityId };
  const one = (type: EventType, data: Record<string, unknown>): EventDraft[] => [{ type, subject, data }];
  switch (entry.action) {
    case "issue.created": {
      const created = one("issue.created", pick(details, "identifier", "title", "status", "priority", "assigneeAgentId", "routineId"));
      if (details.assigneeAgentId || details.assigneeUserId) {
        created.push({
          type: "issue.assigned",
          subject,
          data: { identifier: details.identifier, assigneeAgentId: details.assigneeAgentId ?? null, assigneeUserId: details.assigneeUserId ?? null },
        });
      }
      return created;
    }
    case "issue.updated": {
      const changes = (details.changes ?? {}) as Record<string, { from: unknown; to: unknown }>;
      const shown = Object.fromEntries(
        Object.entries(changes)
          .filter(([, change]) => short(change?.from) !== undefined && short(change?.to) !== undefined)
          .map(([field, change]) => [field, { from: change.from, to: change.to }]),
      );
      const updated = one("issue.updated", { identifier: details.identifier, changed: Object.keys(changes), changes: shown });
      if ("assigneeAgentId" in changes || "assigneeUserId" in changes) {
        updated.push({
          type: "issue.assigned",
          subject,
          data: { identifier: details.identifier, assigneeAgentId: changes.assigneeAgentId?.to ?? null, assigneeUserId: changes.assigneeUserId?.to ?? null },
        });
      }
      return updated;
    }
    case "issue.comment_added":
      return one("issue.commented", pick(details, "identifier", "commentId"));
    case "issue.checked_out":
      return one("issue.checked_out", pick(details, "identifier", "runId"));
    case "issue.released":
      return one("issue.released", pick(details, "identifier"));
    case "approval.created":
      return one("approval.created", pick(details, "type"));
    case "question.asked":
      return one("question.asked", { ...pick(details, "issueId", "identifier", "askedOfUserId", "blocksIssue"), agentId: entry.agentId ?? null });
    case "question.answered":
      return one("question.answered", {
        ...pick(details, "issueId", "identifier", "optionId", "commentId", "answeredByUserId"),
        agentId: entry.agentId ?? null,
      });
    case "question.cancelled":
      return one("question.cancelled", { ...pick(details, "issueId", "identifier"), agentId: entry.agentId ?? null });
    case "budget.hard_stop":
    case "budget.soft_threshold_reached":
      return one("budget.incident_opened", {
        kind: entry.action === "budget.hard_stop" ? "hard" : "soft",
        ...pick(details, "scopeType", "scopeId", "amountCents", "thresholdCents", "observedCents"),
      });
    case "budget.incident_resolved":
      return one("budget.incident_resolved", pick(details, "action", "amountCents"));
    case "routine.fired":
      return one("routine.run_created", pick(details, "runId", "source", "status", "linkedIssueId", "triggerId"));
    case "cost.reported":
      return one("cost.recorded", { agentId: entry.agentId ?? null, ...pick(details, "provider", "model", "costCents", "issueId", "projectId") });
    case "wiki.page_written":
      return one(
        "wiki.page_written",
        pick(details, "wikiId", "spaceSlug", "path", "title", "hash", "previousHash", "revisionId", "operationType", "querySessionId"),
      );
    case "wiki.page_moved":
      return one("wiki.page_moved", pick(details, "wikiId", "spaceSlug", "path", "previousPath", "hash"));
    case "wiki.page_deleted":
      return one("wiki.page_deleted", pick(details, "wikiId", "spaceSlug", "path", "previousHash"));
    case "wiki.source_captured":
      return one("wiki.source_captured", pick(details, "wikiId", "spaceSlug", "rawPath", "hash", "title", "sourceType", "sizeChars"));
    case "wiki.space_created":
    case "wiki.space_updated":
    case "wiki.space_archived":
      return one("wiki.space_changed", { ...pick(details, "wikiId", "spaceSlug", "status"), change: entry.action.slice("wiki.space_".length) });
    case "wiki.bootstrapped":
      return one("wiki.bootstrapped", pick(details, "wikiId", "writtenFiles", "preservedFiles", "managedAgentId"));
    case "wiki.query_started":
      return one("wiki.query.started", pick(details, "querySessionId", "operationId", "title", "maintainerAgentId"));
    case "wiki.query_blocked":
      return one("wiki.query.blocked", pick(details, "querySessionId", "operationId", "reason", "maintainerAgentId"));
    case "project.created":
      return one("project.created", pick(details, "name", "urlKey", "goalIds"));
    case "project.updated":
      return one("project.updated", { changed: details.fields ?? [] });
    case "goal.created":
      return one("goal.created", pick(details, "title", "level", "status", "parentId"));
    case "goal.updated": {
      const changes = (details.changes ?? {}) as Record<string, unknown>;
      return one("goal.updated", { changed: Object.keys(changes), changes });
    }
    case "company.updated":
    case "company.branding_updated":
    case "company.archived":
      return one("company.updated", { changed: Object.keys((details.changes ?? {}) as Record<string, unknown>) });
    case "company.logo_uploaded":
      return one("company.updated", { changed: ["logoAssetId"] });
    case "invite.created":
      return one("invite.created", pick(details, "inviteType", "membershipRole", "expiresAt"));
    case "invite.accepted":
      return details.membershipId ? one("member.added", { userId: details.userId ?? null, membershipRole: details.membershipRole ?? null }) : [];
    case "join_request.approved":
      return details.userId ? one("member.added", { userId: details.userId, membershipRole: details.membershipRole ?? null }) : [];
    case "company_member.updated":
      return memberEvents(entry, details);
    case "issue.document_created":
    case "issue.document_updated":
    case "issue.document_restored":
      return one("document.written", { issueId: entry.entityId, ...pick(details, "key", "documentId", "revisionId", "revisionNumber") });
    case "issue.attachment_added":
      return one("attachment.added", { issueId: entry.entityId, ...pick(details, "attachmentId", "originalFilename", "contentType", "byteSize") });
    case "agent.key_created":
      return one("agent_key.created", { agentId: entry.entityId, ...pick(details, "keyId", "name") });
    case "agent.key_revoked":
      return one("agent_key.revoked", { agentId: entry.entityId, ...pick(details, "keyId", "name") });
    case "webhook.disabled":
      return one("webhook.disabled", pick(details, "reason"));
    case "notification_channel.disabled":
      return one("notification_channel.disabled", pick(details, "kind", "name", "reason"));
    case "plugin.installed":
      return one("plugin.installed", pick(details, "pluginKey", "version", "status"));
    case "plugin.status_changed":
      return one("plugin.status_changed", pick(details, "pluginKey", "version", "from", "to", "lastError"));
    case "plugin.uninstalled":
      return one("plugin.uninstalled", pick(details, "pluginKey", "version", "purged"));
  }
  if (APPROVAL_RESOLVED_ACTIONS.has(entry.action))
    return one("approval.resolved", { ...pick(details, "type", "decisionNote"), status: details.to ?? entry.action.slice("approval.".length) });
  if (AGENT_CREATED_ACTIONS.has(entry.action)) return one("agent.created", pick(details, "name", "role", "status", "adapterType"));
  if (AGENT_STATUS_ACTIONS.has(entry.action)) {
    return one("agent.status_changed", entry.action === "agent.hire_approved" ? { from: "pending_approval", to: "idle" } : pick(details, "from", "to"));
  }
  if (entry.action === "agent.updated" && details.status && typeof details.status === "object")
    return one("agent.status_changed", details.status as Record<string, unknown>);
  return [];
}

/** A membership change as member events: added (a new or reactivated membership), removed, role changed. */
function memberEvents(entry: ActivityFacts, details: Record<string, unknown>): EventDraft[] {
  if (details.principalType !== "user") return [];
  const subject = { type: entry.entityType, id: entry.entityId };
  const changes = (details.changes ?? {}) as Record<string, unknown>;
  const change = (field: string) => (changes[field] && typeof changes[field] === "object" ? (changes[field] as { from?: unknown; to?: unknown }) : null);
  const userId = details.principalId;
  const status = change("status");
  const role = change("membershipRole");
  if (changes.created) return [{ type: "member.added", subject, data: { userId, membershipRole: changes.membershipRole ?? null } }];
  if (status && status.from !== "active" && status.to === "active")
    return [{ type: "member.added", subject, data: { userId, membershipRole: role?.to ?? null } }];
  if (status && status.from === "active" && status.to !== "active") return [{ type: "member.removed", subject, data: { userId } }];
  if (role && role.from !== role.to) return [{ type: "member.role_changed", subject, data: { userId, from: role.from, to: role.to } }];
  return [];
}
