// Who an issue event wakes: mentioned agents and the assignee on comments, assignees of issues
// whose last open blocker just got done. The acting agent never wakes itself. Pure: the agents
// and dependents come from the command's load batch.
import type { Actor } from "../actor";
import type { WakeupRequestInput } from "../wakeups/enqueue";
import { mentionedNames } from "./mentions";
import type { Dependent } from "./snapshot";
import { isTerminalStatus, type IssueRow } from "./view";

const selfAgentId = (actor: Actor) => (actor.type === "agent" ? actor.agentId : null);

/** Wake-ups for a new comment: each mentioned agent (`mention`), else the assignee (`comment`). */
export function commentWakeups(
  actor: Actor,
  issue: IssueRow,
  comment: { id: string; body: string },
  agents: Array<{ id: string; name: string }>,
): WakeupRequestInput[] {
  const self = selfAgentId(actor);
  const requests: WakeupRequestInput[] = [];
  const woken = new Set<string>();
  const context = { issueId: issue.id, identifier: issue.identifier, commentId: comment.id, wakeCommentId: comment.id };
  for (const agent of mentionedNames(comment.body, agents)) {
    if (agent.id === self || woken.has(agent.id)) continue;
    woken.add(agent.id);
    requests.push({ agentId: agent.id, reason: "mention", source: "issue_comment", issueId: issue.id, context });
  }
  const assignee = issue.assigneeAgentId;
  if (assignee && assignee !== self && !woken.has(assignee) && !isTerminalStatus(issue.status)) {
    requests.push({ agentId: assignee, reason: "comment", source: "issue_comment", issueId: issue.id, context });
  }
  return requests;
}

/** The agent an issue was just assigned to (`assignment`), unless it assigned itself or the issue is closed. */
export function assignmentWakeups(actor: Actor, issue: IssueRow, previousAssigneeAgentId: string | null): WakeupRequestInput[] {
  const assignee = issue.assigneeAgentId;
  if (!assignee || assignee === previousAssigneeAgentId || assignee === selfAgentId(actor) || isTerminalStatus(issue.status)) return [];
  return [
    { agentId: assignee, reason: "assignment", source: "issue_assignment", issueId: issue.id, context: { issueId: issue.id, identifier: issue.identifier } },
  ];
}

/** When `resolved` moves to done: the assignees of the issues it was the last open blocker of. */
export function blockerResolvedWakeups(actor: Actor, resolved: IssueRow, dependents: Dependent[]): WakeupRequestInput[] {
  const self = selfAgentId(actor);
  return dependents
    .filter((d) => d.assigneeAgentId !== self)
    .map((d) => ({
      agentId: d.assigneeAgentId,
      reason: "blocker_resolved",
      source: "issue_blocker",
      issueId: d.id,
      context: { issueId: d.id, identifier: d.identifier, resolvedBlockerIssueId: resolved.id, resolvedBlockerIdentifier: resolved.identifier },
    }));
}
