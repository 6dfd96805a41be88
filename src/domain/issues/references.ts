// Checks of everything an issue points at: project, goal, parent, labels, blockers, assignee,
// the issue to inherit an execution workspace from. Other-company or missing targets are 422.
import { inIds } from "../../db/id-list";
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { unprocessable } from "../errors";
import { findIssue } from "./load";
import type { IssueRow } from "./view";

const IDENTIFIER = /^[A-Za-z]+-\d+$/;

export async function checkProject(ctx: CommandContext, projectId: string) {
  const project = await ctx.db.query.projects.findFirst({ where: eq(schema.projects.id, projectId) });
  if (!project || project.companyId !== ctx.companyId) {
    throw unprocessable("projectId must reference a project of this company", { projectId });
  }
  return project;
}

export async function checkGoal(ctx: CommandContext, goalId: string) {
  const goal = await ctx.db.query.goals.findFirst({ where: eq(schema.goals.id, goalId) });
  if (!goal || goal.companyId !== ctx.companyId) throw unprocessable("goalId must reference a goal of this company", { goalId });
  return goal;
}

export async function checkExecutionWorkspace(ctx: CommandContext, executionWorkspaceId: string) {
  const workspace = await ctx.db.query.executionWorkspaces.findFirst({ where: eq(schema.executionWorkspaces.id, executionWorkspaceId) });
  if (!workspace || workspace.companyId !== ctx.companyId) {
    throw unprocessable("executionWorkspaceId must reference an execution workspace of this company", { executionWorkspaceId });
  }
  return workspace;
}

export async function checkAssigneeAgent(ctx: CommandContext, agentId: string) {
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, agentId) });
  if (!agent || agent.companyId !== ctx.companyId) {
    throw unprocessable("assigneeAgentId must reference an agent of this company", { assigneeAgentId: agentId });
  }
  if (agent.status === "terminated") throw unprocessable("Cannot assign a terminated agent", { assigneeAgentId: agentId });
  return agent;
}

/** Another issue of this company, by UUID or identifier. */
export async function checkIssueRef(ctx: CommandContext, field: string, ref: string): Promise<IssueRow> {
  const issue = await findIssue(ctx.db, ref);
  if (!issue || issue.companyId !== ctx.companyId) throw unprocessable(`${field} must reference an issue of this company`, { [field]: ref });
  return issue;
}

/** The parent must be another issue of this company that is not (transitively) a child of this one. */
export async function checkParent(ctx: CommandContext, parentRef: string, self: IssueRow | null): Promise<IssueRow> {
  const parent = await checkIssueRef(ctx, "parentId", parentRef);
  if (self && parent.id === self.id) throw unprocessable("An issue cannot be its own parent", { parentId: parentRef });
  if (self) {
    const cycle = await ctx.db.get<{ found: number } | undefined>(sql`
      WITH RECURSIVE chain(id, depth) AS (
        SELECT ${parent.id}, 0
        UNION SELECT i.parent_id, c.depth + 1 FROM issues i JOIN chain c ON i.id = c.id WHERE i.parent_id IS NOT NULL AND c.depth < 1000
      ) SELECT 1 AS found FROM chain WHERE id = ${self.id} LIMIT 1`);
    if (cycle) throw unprocessable("parentId would make the issue its own ancestor", { parentId: parentRef });
  }
  return parent;
}

/** The labels (id, name, color), in name order; every id must be a label of this company. */
export async function checkLabels(ctx: CommandContext, labelIds: string[]) {
  const ids = [...new Set(labelIds)];
  if (!ids.length) return [];
  const rows = await ctx.db
    .select({ id: schema.labels.id, name: schema.labels.name, color: schema.labels.color })
    .from(schema.labels)
    .where(and(eq(schema.labels.companyId, ctx.companyId), inIds(schema.labels.id, ids)));
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw unprocessable("labelIds must reference labels of this company", { missingLabelIds: missing });
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Resolves blocker references (UUIDs or identifiers) to issue ids of this company and checks
 * that the new set neither blocks the issue on itself nor closes a cycle.
 */
export async function checkBlockers(ctx: CommandContext, refs: string[], self: IssueRow | null): Promise<string[]> {
  const unique = [...new Set(refs)];
  if (!unique.length) return [];
  const uuids = unique.filter((r) => !IDENTIFIER.test(r));
  const identifiers = unique.filter((r) => IDENTIFIER.test(r)).map((r) => r.toUpperCase());
  const rows = await ctx.db
    .select({ id: schema.issues.id, identifier: schema.issues.identifier })
    .from(schema.issues)
    .where(
      and(
        eq(schema.issues.companyId, ctx.companyId),
        sql`(${inIds(schema.issues.id, uuids)} OR ${inIds(schema.issues.identifier, identifiers)})`,
      ),
    );
  const byRef = new Map<string, string>();
  for (const r of rows) {
    byRef.set(r.id, r.id);
    byRef.set(r.identifier, r.id);
  }
  const missing = unique.filter((r) => !byRef.has(IDENTIFIER.test(r) ? r.toUpperCase() : r));
  if (missing.length) throw unprocessable("blockedByIssueIds must reference issues of this company", { missingIssueIds: missing });
  const ids = [...new Set(unique.map((r) => byRef.get(IDENTIFIER.test(r) ? r.toUpperCase() : r)!))];
  if (self && ids.includes(self.id)) throw unprocessable("An issue cannot block itself", { issueId: self.id });
  if (self) {
    // Adding self -> blocker closes a cycle iff self is reachable from a blocker along blocker edges.
    const cycle = await ctx.db.get<{ found: number } | undefined>(sql`
      WITH RECURSIVE reach(id) AS (
        SELECT value FROM json_each(${JSON.stringify(ids)})
        UNION SELECT b.blocker_issue_id FROM issue_blockers b JOIN reach r ON b.issue_id = r.id
      ) SELECT 1 AS found FROM reach WHERE id = ${self.id} LIMIT 1`);
    if (cycle) throw unprocessable("blockedByIssueIds would create a blocking cycle", { issueId: self.id, blockedByIssueIds: ids });
  }
  return ids;
}
