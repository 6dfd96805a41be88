// Who an issue event wakes: mentioned agents and the assignee on comments, assignees of issues
// whose last open blocker just got done. The acting agent never wakes itself.
import { eq, and, ne } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import type { WakeupRequestInput } from "../wakeups/enqueue";
import { mentionedNames } from "./mentions";
import { isTerminalStatus, type IssueRow } from "./view";

const selfAgentId = (actor: Actor) => (actor.type === "agent" ? actor.agentId : null);

/** Wake-ups for a new comment: each mentioned agent (`mention`), else the assignee (`comment`). */
export async function commentWakeups(
  ctx: CommandContext,
  actor: Actor,
  issue: IssueRow,
  comment: { id: string; body: string },
): Promise<WakeupRequestInput[]> {
  const self = selfAgentId(actor);
  const requests: WakeupRequestInput[] = [];
  const woken = new Set<string>();
  if (comment.body.includes("@")) {
    const agents = await ctx.db
      .select({ id: schema.agents.id, name: schema.agents.name })
      .from(schema.agents)
      .where(and(eq(schema.agents.companyId, ctx.companyId), ne(schema.agents.status, "terminated")));
    for (const agent of mentionedNames(comment.body, agents)) {
      if (agent.id === self || woken.has(agent.id)) continue;
      woken.add(agent.id);
      requests.push({
        agentId: agent.id,
        reason: "mention",
        source: "issue_comment",
        issueId: issue.id,
        context: { issueId: issue.id, identifier: issue.identifier, commentId: comment.id, wakeCommentId: comment.id },
      });
    }
  }
  const assignee = issue.assigneeAgentId;
  if (assignee && assignee !== self && !woken.has(assignee) && !isTerminalStatus(issue.status)) {
    requests.push({
      agentId: assignee,
      reason: "comment",
      source: "issue_comment",
      issueId: issue.id,
      context: { issueId: issue.id, identifier: issue.identifier, commentId: comment.id, wakeCommentId: comment.id },
    });
  }
  return requests;
}

/** When `resolved` moves to done: assignees of open issues it blocked whose blockers are now all resolved. */
export async function blockerResolvedWakeups(ctx: CommandContext, actor: Actor, resolved: IssueRow): Promise<WakeupRequestInput[]> {
  const self = selfAgentId(actor);
  const rows = await ctx.db.all<{ id: string; identifier: string; assignee_agent_id: string }>(sql`
    SELECT i.id, i.identifier, i.assignee_agent_id FROM issue_blockers b
    JOIN issues i ON i.id = b.issue_id
    WHERE b.blocker_issue_id = ${resolved.id}
      AND i.status NOT IN ('done', 'cancelled')
      AND i.assignee_agent_id IS NOT NULL
      AND NOT EXISTS (
        SELECT 1 FROM issue_blockers b2 JOIN issues o ON o.id = b2.blocker_issue_id
        WHERE b2.issue_id = i.id AND b2.blocker_issue_id != ${resolved.id} AND o.status NOT IN ('done', 'cancelled')
      )`);
  return rows
    .filter((r) => r.assignee_agent_id !== self)
    .map((r) => ({
      agentId: r.assignee_agent_id,
      reason: "blocker_resolved",
      source: "issue_blocker",
      issueId: r.id,
      context: { issueId: r.id, identifier: r.identifier, resolvedBlockerIssueId: resolved.id, resolvedBlockerIdentifier: resolved.identifier },
    }));
}
