// The issue detail object: the issue plus project, goal, ancestors, blockers, mentioned projects
// and the parts other areas contribute (documents, execution workspace, work products). Those
// parts are gathered in `contributedParts` so their owners can plug in without touching the rest.
import { asc, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { issueViewFor } from "./load";
import { mentionsWord } from "./mentions";
import { issueSummary, type IssueRow } from "./view";
import { executionWorkspaceView } from "../execution-workspaces/view";
import { documentSummariesForIssue, legacyPlanDocumentFromDescription, planDocumentForIssue } from "../documents/summaries";
import { workProductsForIssue } from "../attachments/summaries";

type ProjectRow = typeof schema.projects.$inferSelect;
type GoalRow = typeof schema.goals.$inferSelect;

export const projectSummary = (p: ProjectRow) => ({ id: p.id, name: p.name, urlKey: p.urlKey, status: p.status, pausedAt: p.pausedAt ?? null });
export const goalSummary = (g: GoalRow) => ({ id: g.id, title: g.title, level: g.level, status: g.status });

const summaryColumns = {
  id: schema.issues.id,
  identifier: schema.issues.identifier,
  title: schema.issues.title,
  status: schema.issues.status,
  priority: schema.issues.priority,
  assigneeAgentId: schema.issues.assigneeAgentId,
  projectId: schema.issues.projectId,
  parentId: schema.issues.parentId,
  updatedAt: schema.issues.updatedAt,
};

/** Parent first, up to the root (cycle-safe, at most 50 levels). */
export async function loadAncestors(db: Db, issue: IssueRow) {
  if (!issue.parentId) return [];
  const rows = await db.all<{ id: string; identifier: string; title: string; status: IssueRow["status"]; priority: IssueRow["priority"]; assignee_agent_id: string | null; project_id: string | null; parent_id: string | null; updated_at: string }>(sql`
    WITH RECURSIVE chain(id, depth) AS (
      SELECT ${issue.parentId}, 1
      UNION SELECT i.parent_id, c.depth + 1 FROM issues i JOIN chain c ON i.id = c.id
      WHERE i.parent_id IS NOT NULL AND c.depth < 50
    )
    SELECT i.id, i.identifier, i.title, i.status, i.priority, i.assignee_agent_id, i.project_id, i.parent_id, i.updated_at
    FROM chain c JOIN issues i ON i.id = c.id
    WHERE i.company_id = ${issue.companyId} AND i.id != ${issue.id}
    ORDER BY c.depth`);
  return rows.map((r) =>
    issueSummary({
      id: r.id,
      identifier: r.identifier,
      title: r.title,
      status: r.status,
      priority: r.priority,
      assigneeAgentId: r.assignee_agent_id,
      projectId: r.project_id,
      parentId: r.parent_id,
      updatedAt: r.updated_at,
    }),
  );
}

export async function loadProjectAndGoal(db: Db, issue: IssueRow) {
  const [project, goal] = await Promise.all([
    issue.projectId ? db.query.projects.findFirst({ where: eq(schema.projects.id, issue.projectId) }) : undefined,
    issue.goalId ? db.query.goals.findFirst({ where: eq(schema.goals.id, issue.goalId) }) : undefined,
  ]);
  return {
    project: project && project.companyId === issue.companyId ? projectSummary(project) : null,
    goal: goal && goal.companyId === issue.companyId ? goalSummary(goal) : null,
  };
}

/** Projects of the company whose name or urlKey appears as a whole word in the description. */
async function mentionedProjects(db: Db, issue: IssueRow) {
  if (!issue.description) return [];
  const projects = await db.query.projects.findMany({ where: eq(schema.projects.companyId, issue.companyId), orderBy: asc(schema.projects.name) });
  const text = issue.description;
  return projects.filter((p) => mentionsWord(text, p.name) || mentionsWord(text, p.urlKey) || text.includes(p.id)).map(projectSummary);
}

/**
 * Parts owned by other areas: documents (planDocument, documentSummaries, legacyPlanDocument),
 * work products (attachments) and the current execution workspace. Each owner keeps its loader here.
 */
async function contributedParts(db: Db, issue: IssueRow) {
  const [planDocument, documentSummaries, workProducts, workspace] = await Promise.all([
    planDocumentForIssue(db, issue.id),
    documentSummariesForIssue(db, issue.id),
    workProductsForIssue(db, issue.id),
    issue.executionWorkspaceId
      ? db.query.executionWorkspaces.findFirst({ where: eq(schema.executionWorkspaces.id, issue.executionWorkspaceId) })
      : undefined,
  ]);
  return {
    planDocument: planDocument as Record<string, unknown> | null,
    documentSummaries: documentSummaries as Record<string, unknown>[],
    legacyPlanDocument: (planDocument ? null : legacyPlanDocumentFromDescription(issue.description)) as Record<string, unknown> | null,
    currentExecutionWorkspace: (workspace && workspace.companyId === issue.companyId ? executionWorkspaceView(workspace) : null) as Record<string, unknown> | null,
    workProducts: workProducts as Record<string, unknown>[],
  };
}

export async function buildIssueDetail(db: Db, issue: IssueRow) {
  const [view, ancestors, related, blockedBy, blocks, mentioned, parts] = await Promise.all([
    issueViewFor(db, issue),
    loadAncestors(db, issue),
    loadProjectAndGoal(db, issue),
    db
      .select(summaryColumns)
      .from(schema.issueBlockers)
      .innerJoin(schema.issues, eq(schema.issues.id, schema.issueBlockers.blockerIssueId))
      .where(eq(schema.issueBlockers.issueId, issue.id))
      .orderBy(asc(schema.issues.number)),
    db
      .select(summaryColumns)
      .from(schema.issueBlockers)
      .innerJoin(schema.issues, eq(schema.issues.id, schema.issueBlockers.issueId))
      .where(eq(schema.issueBlockers.blockerIssueId, issue.id))
      .orderBy(asc(schema.issues.number)),
    mentionedProjects(db, issue),
    contributedParts(db, issue),
  ]);
  return {
    ...view,
    ...related,
    ancestors,
    blockedBy: blockedBy.map(issueSummary),
    blocks: blocks.map(issueSummary),
    mentionedProjects: mentioned,
    ...parts,
  };
}
