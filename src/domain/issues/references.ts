// Checks of everything an issue points at: project, goal, parent, labels, blockers, assignee,
// the issue to inherit an execution workspace from. Other-company or missing targets are 422.
// Written as "add the reads to a batch, then check": every reference of a request is read in the
// same round trip as the rest of what the command needs, outside the serialised section.
import { asc, eq, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { schema } from "../../db/client";
import { idList, inIds } from "../../db/id-list";
import type { ReadBatch } from "../../db/read-batch";
import { unprocessable } from "../errors";
import type { IssueRow } from "./view";
import { ISSUE_IDENTIFIER_PATTERN } from "../companies/issue-prefix";

// Prefixes may end in digits (ACM2-5).
const ISSUE_IDENTIFIER = ISSUE_IDENTIFIER_PATTERN;

/** How a ref names its issue: by id, or by identifier (compared upper-cased). */
export type IssueRefKind = "id" | "identifier";

/** The ref's kind and the value its condition compares. */
export const issueRefKey = (ref: string): { kind: IssueRefKind; value: string } =>
  ISSUE_IDENTIFIER.test(ref) ? { kind: "identifier", value: ref.toUpperCase() } : { kind: "id", value: ref };

/** The condition for a ref of `kind` whose value is `value` (a string, or a template's placeholder: src/db/templates.ts). */
export const issueRefConditionBy = (kind: IssueRefKind, value: string | Placeholder): SQL =>
  kind === "identifier" ? eq(schema.issues.identifier, value) : eq(schema.issues.id, value);

/** SQL for "this issue ref" (UUID or case-insensitive identifier) among a company's issues. */
export function issueRefCondition(ref: string): SQL {
  const { kind, value } = issueRefKey(ref);
  return issueRefConditionBy(kind, value);
}

/** The id of the issue a ref of `kind` names, as a scalar subquery (so other reads in the batch can key on it). */
export const issueIdBy = (kind: IssueRefKind, value: string | Placeholder): SQL =>
  sql`(SELECT ${schema.issues.id} FROM ${schema.issues} WHERE ${issueRefConditionBy(kind, value)})`;

/** The id of the issue `ref` names, as a scalar subquery (so other reads in the batch can key on it). */
export const issueIdOf = (ref: string): SQL => sql`(SELECT ${schema.issues.id} FROM ${schema.issues} WHERE ${issueRefCondition(ref)})`;

export interface ReferenceFields {
  projectId?: string | null;
  goalId?: string | null;
  parentId?: string | null;
  labelIds?: string[];
  blockedByIssueIds?: string[];
  executionWorkspaceId?: string | null;
  assigneeAgentId?: string | null;
  inheritExecutionWorkspaceFromIssueId?: string | null;
}

export type ProjectRow = typeof schema.projects.$inferSelect;
export type GoalRow = typeof schema.goals.$inferSelect;

export interface CheckedReferences {
  project?: ProjectRow;
  /** The project's goal for goal resolution: its legacy goalId, else its first linked goal. */
  projectGoalId?: string | null;
  goal?: GoalRow;
  parent?: IssueRow;
  labels?: Array<{ id: string; name: string; color: string | null }>;
  blockerIds?: string[];
  executionWorkspaceId?: string;
  assigneeAgent?: typeof schema.agents.$inferSelect;
  inheritSource?: IssueRow;
}

/**
 * Adds the reads for every reference set in `fields` (null/undefined ones are skipped). `self` is
 * the issue being changed (its id, or SQL for it), for the self-reference and cycle checks.
 */
export function addReferenceChecks(
  batch: ReadBatch,
  fields: ReferenceFields,
  self: string | SQL | null,
): (companyId: string, selfId?: string) => CheckedReferences {
  const db = batch.db;
  const checks: Array<(out: CheckedReferences, companyId: string, selfId: string | null) => void> = [];

  if (fields.projectId) {
    const projectId = fields.projectId;
    const project = batch.add(db.select().from(schema.projects).where(eq(schema.projects.id, projectId)));
    const links = batch.add(
      db
        .select({ goalId: schema.projectGoals.goalId })
        .from(schema.projectGoals)
        .where(eq(schema.projectGoals.projectId, projectId))
        .orderBy(asc(schema.projectGoals.position))
        .limit(1),
    );
    checks.push((out, companyId) => {
      const row = project.value[0];
      if (!row || row.companyId !== companyId) throw unprocessable("projectId must reference a project of this company", { projectId });
      out.project = row;
      out.projectGoalId = row.goalId ?? links.value[0]?.goalId ?? null;
    });
  }
  if (fields.goalId) {
    const goalId = fields.goalId;
    const goal = batch.add(db.select().from(schema.goals).where(eq(schema.goals.id, goalId)));
    checks.push((out, companyId) => {
      const row = goal.value[0];
      if (!row || row.companyId !== companyId) throw unprocessable("goalId must reference a goal of this company", { goalId });
      out.goal = row;
    });
  }
  if (fields.executionWorkspaceId) {
    const executionWorkspaceId = fields.executionWorkspaceId;
    const workspace = batch.add(
      db
        .select({ companyId: schema.executionWorkspaces.companyId })
        .from(schema.executionWorkspaces)
        .where(eq(schema.executionWorkspaces.id, executionWorkspaceId)),
    );
    checks.push((out, companyId) => {
      if (workspace.value[0]?.companyId !== companyId) {
        throw unprocessable("executionWorkspaceId must reference an execution workspace of this company", { executionWorkspaceId });
      }
      out.executionWorkspaceId = executionWorkspaceId;
    });
  }
  if (fields.assigneeAgentId) {
    const agentId = fields.assigneeAgentId;
    const agent = batch.add(db.select().from(schema.agents).where(eq(schema.agents.id, agentId)));
    checks.push((out, companyId) => {
      const row = agent.value[0];
      if (!row || row.companyId !== companyId) throw unprocessable("assigneeAgentId must reference an agent of this company", { assigneeAgentId: agentId });
      if (row.status === "terminated") throw unprocessable("Cannot assign a terminated agent", { assigneeAgentId: agentId });
      out.assigneeAgent = row;
    });
  }
  if (fields.inheritExecutionWorkspaceFromIssueId) {
    const ref = fields.inheritExecutionWorkspaceFromIssueId;
    const source = batch.add(db.select().from(schema.issues).where(issueRefCondition(ref)));
    checks.push((out, companyId) => {
      const row = source.value[0];
      if (!row || row.companyId !== companyId) {
        throw unprocessable("inheritExecutionWorkspaceFromIssueId must reference an issue of this company", { inheritExecutionWorkspaceFromIssueId: ref });
      }
      out.inheritSource = row;
    });
  }
  if (fields.parentId) {
    const ref = fields.parentId;
    const parent = batch.add(db.select().from(schema.issues).where(issueRefCondition(ref)));
    // Would `self` become its own ancestor? Walk up from the parent.
    const cycle = self
      ? batch.add(
          db.select({ found: sql<number>`found` }).from(sql`(
            WITH RECURSIVE chain(id, depth) AS (
              SELECT ${issueIdOf(ref)}, 0
              UNION SELECT i.parent_id, c.depth + 1 FROM issues i JOIN chain c ON i.id = c.id WHERE i.parent_id IS NOT NULL AND c.depth < 1000
            ) SELECT 1 AS found FROM chain WHERE id = ${self} LIMIT 1)`),
        )
      : null;
    checks.push((out, companyId, selfId) => {
      const row = parent.value[0];
      if (!row || row.companyId !== companyId) throw unprocessable("parentId must reference an issue of this company", { parentId: ref });
      if (self && cycle?.value.length) {
        const selfIsParent = row.id === selfId;
        throw unprocessable(selfIsParent ? "An issue cannot be its own parent" : "parentId would make the issue its own ancestor", { parentId: ref });
      }
      out.parent = row;
    });
  }
  if (fields.labelIds !== undefined) {
    const ids = [...new Set(fields.labelIds)];
    const labels = ids.length
      ? batch.add(
          db
            .select({ id: schema.labels.id, companyId: schema.labels.companyId, name: schema.labels.name, color: schema.labels.color })
            .from(schema.labels)
            .where(inIds(schema.labels.id, ids)),
        )
      : null;
    checks.push((out, companyId) => {
      const rows = (labels?.value ?? []).filter((r) => r.companyId === companyId);
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw unprocessable("labelIds must reference labels of this company", { missingLabelIds: missing });
      out.labels = rows.map((r) => ({ id: r.id, name: r.name, color: r.color ?? null })).sort((a, b) => a.name.localeCompare(b.name));
    });
  }
  if (fields.blockedByIssueIds !== undefined) {
    const refs = [...new Set(fields.blockedByIssueIds)];
    const uuids = refs.filter((r) => !ISSUE_IDENTIFIER.test(r));
    const identifiers = refs.filter((r) => ISSUE_IDENTIFIER.test(r)).map((r) => r.toUpperCase());
    const rows = refs.length
      ? batch.add(
          db
            .select({ id: schema.issues.id, companyId: schema.issues.companyId, identifier: schema.issues.identifier })
            .from(schema.issues)
            .where(or(inIds(schema.issues.id, uuids), inIds(schema.issues.identifier, identifiers))),
        )
      : null;
    // Adding self -> blockers closes a cycle iff self is reachable from a blocker along blocker edges.
    const cycle =
      self && refs.length
        ? batch.add(
            db.select({ found: sql<number>`found` }).from(sql`(
              WITH RECURSIVE reach(id) AS (
                SELECT id FROM issues WHERE id IN ${idList(uuids)} OR identifier IN ${idList(identifiers)}
                UNION SELECT b.blocker_issue_id FROM issue_blockers b JOIN reach r ON b.issue_id = r.id
              ) SELECT 1 AS found FROM reach WHERE id = ${self} LIMIT 1)`),
          )
        : null;
    checks.push((out, companyId, selfId) => {
      const byRef = new Map<string, string>();
      for (const r of (rows?.value ?? []).filter((row) => row.companyId === companyId)) {
        byRef.set(r.id, r.id);
        byRef.set(r.identifier, r.id);
      }
      const key = (r: string) => (ISSUE_IDENTIFIER.test(r) ? r.toUpperCase() : r);
      const missing = refs.filter((r) => !byRef.has(key(r)));
      if (missing.length) throw unprocessable("blockedByIssueIds must reference issues of this company", { missingIssueIds: missing });
      const ids = [...new Set(refs.map((r) => byRef.get(key(r))!))];
      if (selfId && ids.includes(selfId)) throw unprocessable("An issue cannot block itself", { issueId: selfId });
      if (cycle?.value.length) throw unprocessable("blockedByIssueIds would create a blocking cycle", { issueId: selfId, blockedByIssueIds: ids });
      out.blockerIds = ids;
    });
  }
  return (companyId, selfId) => {
    const out: CheckedReferences = {};
    for (const check of checks) check(out, companyId, selfId ?? (typeof self === "string" ? self : null));
    return out;
  };
}
