// The issue detail object: the issue plus project, goal, ancestors, blockers, mentioned projects
// and the parts other areas contribute (documents, execution workspace, work products). Those
// parts are gathered in `contributedParts` so their owners can plug in without touching the rest.
import { asc, eq, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { schema, type Db } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { template, type Slots } from "../../db/templates";
import { notFound } from "../errors";
import { mentionsWord } from "./mentions";
import { issueIdBy, issueRefKey, type IssueRefKind } from "./references";
import { addIssueSnapshotReads } from "./snapshot";
import { issueSummary, issueView, type IssueRow } from "./view";
import { executionWorkspaceView } from "../execution-workspaces/view";
import { PLAN_DOCUMENT_KEY, legacyPlanDocumentFromDescription } from "../documents/summaries";
import { documentSummaryView, documentView } from "../documents/view";
import { workProductView } from "../attachments/view";

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
  const rows = await db.all<{
    id: string;
    identifier: string;
    title: string;
    status: IssueRow["status"];
    priority: IssueRow["priority"];
    assignee_agent_id: string | null;
    project_id: string | null;
    parent_id: string | null;
    updated_at: string;
  }>(sql`
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
function mentionedProjectsIn(issue: IssueRow, projects: ProjectRow[]) {
  const text = issue.description;
  if (!text) return [];
  return projects.filter((p) => mentionsWord(text, p.name) || mentionsWord(text, p.urlKey) || text.includes(p.id)).map(projectSummary);
}

/** The detail's reads (besides the snapshot's) for a ref of one kind, built once (src/db/templates.ts). */
function detailTemplates(kind: IssueRefKind) {
  const id = (slot: Slots<"ref">) => issueIdBy(kind, slot.ref);
  const col = (column: AnySQLiteColumn, slot: Slots<"ref">) => sql`(SELECT ${column} FROM ${schema.issues} WHERE ${schema.issues.id} = ${id(slot)})`;
  /** Summaries of the issues a blocker link joins to this one: `from` is this issue's side of the link, `to` the other's. */
  const linked = (from: AnySQLiteColumn, to: AnySQLiteColumn) =>
    template(["ref"], (db, slot) =>
      db
        .select(summaryColumns)
        .from(schema.issueBlockers)
        .innerJoin(schema.issues, eq(schema.issues.id, to))
        .where(sql`${from} = ${id(slot)}`)
        .orderBy(asc(schema.issues.number)),
    );
  return {
    ancestors: template(["ref"], (db, slot) =>
      db
        .select({
          id: sql<string>`i.id`,
          identifier: sql<string>`i.identifier`,
          title: sql<string>`i.title`,
          status: sql<IssueRow["status"]>`i.status`,
          priority: sql<IssueRow["priority"]>`i.priority`,
          assigneeAgentId: sql<string | null>`i.assignee_agent_id`,
          projectId: sql<string | null>`i.project_id`,
          parentId: sql<string | null>`i.parent_id`,
          updatedAt: sql<string>`i.updated_at`,
        })
        // CROSS JOIN makes SQLite walk the (short) ancestor chain first and look each issue up by id,
        // instead of scanning the company's issues (which grew with the company).
        .from(sql`(
          WITH RECURSIVE chain(id, depth) AS (
            SELECT ${col(schema.issues.parentId, slot)}, 1
            UNION SELECT p.parent_id, c.depth + 1 FROM issues p JOIN chain c ON p.id = c.id WHERE p.parent_id IS NOT NULL AND c.depth < 50
          ) SELECT c.id AS chain_id, c.depth AS depth FROM chain c WHERE c.id IS NOT NULL
        ) chain CROSS JOIN issues i ON i.id = chain.chain_id AND i.company_id = ${col(schema.issues.companyId, slot)} AND i.id != ${id(slot)}`)
        .orderBy(sql`chain.depth`),
    ),
    project: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.projects)
        .where(sql`${schema.projects.id} = ${col(schema.issues.projectId, slot)}`),
    ),
    goal: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.goals)
        .where(sql`${schema.goals.id} = ${col(schema.issues.goalId, slot)}`),
    ),
    blockedBy: linked(schema.issueBlockers.issueId, schema.issueBlockers.blockerIssueId),
    blocks: linked(schema.issueBlockers.blockerIssueId, schema.issueBlockers.issueId),
    projects: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.projects)
        .where(sql`${schema.projects.companyId} = ${col(schema.issues.companyId, slot)}`)
        .orderBy(asc(schema.projects.name)),
    ),
    documents: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.issueDocuments)
        .where(sql`${schema.issueDocuments.issueId} = ${id(slot)}`)
        .orderBy(asc(schema.issueDocuments.key)),
    ),
    planRevision: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.issueDocumentRevisions)
        .where(
          sql`${schema.issueDocumentRevisions.id} = (SELECT ${schema.issueDocuments.latestRevisionId} FROM ${schema.issueDocuments} WHERE ${schema.issueDocuments.issueId} = ${id(slot)} AND ${schema.issueDocuments.key} = ${PLAN_DOCUMENT_KEY})`,
        ),
    ),
    workProducts: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.workProducts)
        .where(sql`${schema.workProducts.issueId} = ${id(slot)}`)
        .orderBy(asc(schema.workProducts.createdAt), asc(schema.workProducts.id)),
    ),
    workspace: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.executionWorkspaces)
        .where(sql`${schema.executionWorkspaces.id} = ${col(schema.issues.executionWorkspaceId, slot)}`),
    ),
  };
}
const detailReads = { id: detailTemplates("id"), identifier: detailTemplates("identifier") };

/**
 * The issue `ref` names (UUID or identifier) with everything its detail shows, read in ONE batch:
 * every read keys on the issue through a subquery, so nothing waits for the issue row first.
 * Null when there is no such issue (the caller checks company access on `issue.companyId`).
 */
export async function loadIssueDetail(db: Db, ref: string) {
  const batch = new ReadBatch(db);
  const { kind, value } = issueRefKey(ref);
  const reads = detailReads[kind];
  const slots = { ref: value };
  const snapshot = addIssueSnapshotReads(batch, ref);
  const ancestors = batch.add(reads.ancestors(db, slots));
  const project = batch.add(reads.project(db, slots));
  const goal = batch.add(reads.goal(db, slots));
  const blockedBy = batch.add(reads.blockedBy(db, slots));
  const blocks = batch.add(reads.blocks(db, slots));
  const projects = batch.add(reads.projects(db, slots));
  const documents = batch.add(reads.documents(db, slots));
  const planRevision = batch.add(reads.planRevision(db, slots));
  const workProducts = batch.add(reads.workProducts(db, slots));
  const workspace = batch.add(reads.workspace(db, slots));
  await batch.run();

  const loaded = snapshot();
  if (!loaded) return null;
  const { issue, relations } = loaded;
  const sameCompany = <T extends { companyId: string }>(row: T | undefined) => (row && row.companyId === issue.companyId ? row : undefined);
  const planDoc = documents.value.find((d) => d.key === PLAN_DOCUMENT_KEY);
  const planDocument = planDoc && planRevision.value[0] ? documentView(planDoc, planRevision.value[0]) : null;
  const currentWorkspace = sameCompany(workspace.value[0]);
  const projectRow = sameCompany(project.value[0]);
  const goalRow = sameCompany(goal.value[0]);
  return {
    issue,
    detail: {
      ...issueView(issue, relations),
      project: projectRow ? projectSummary(projectRow) : null,
      goal: goalRow ? goalSummary(goalRow) : null,
      ancestors: ancestors.value.map(issueSummary),
      blockedBy: blockedBy.value.map(issueSummary),
      blocks: blocks.value.map(issueSummary),
      mentionedProjects: mentionedProjectsIn(issue, projects.value),
      planDocument: planDocument as Record<string, unknown> | null,
      documentSummaries: documents.value.map(documentSummaryView) as Record<string, unknown>[],
      legacyPlanDocument: (planDocument ? null : legacyPlanDocumentFromDescription(issue.description)) as Record<string, unknown> | null,
      currentExecutionWorkspace: (currentWorkspace ? executionWorkspaceView(currentWorkspace) : null) as Record<string, unknown> | null,
      workProducts: workProducts.value.map(workProductView) as Record<string, unknown>[],
    },
  };
}

/** The detail of an issue already loaded (one batch). */
export async function buildIssueDetail(db: Db, issue: IssueRow) {
  const loaded = await loadIssueDetail(db, issue.id);
  if (!loaded) throw notFound("Issue not found");
  return loaded.detail;
}
