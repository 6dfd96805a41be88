// The company issue list: every filter of GET /api/companies/{id}/issues in one SQL statement,
// ordered by priority (critical, high, medium, low) then latest update, or by match rank with `q`.
//
// `q` rank (lower is better), computed in SQL with a CASE:
//   0 title starts with q · 1 title contains q · 2 identifier starts with q · 3 identifier contains q
//   4 a comment contains q · 5 description contains q — issues matching none are left out.
//   Ties: priority, then latest activity (updatedAt; comments bump it), then id.
// Matching is case-insensitive (SQLite LIKE on ASCII); %, _ and \ in q are matched literally.
// Candidates come from the FTS5 trigram index `issue_search` (migration 0010) when q has at least
// three characters, so the cost follows the number of matches, not the size of the company; the
// rank above is then computed on the candidates only. Shorter q falls back to scanning the company.
// Labels and blockers come back in the same statement (JSON subqueries): one round trip per list.
import type { ReadBatch } from "../../db/read-batch";
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { issueView, type IssueRelations, type IssueRow } from "./view";

export const MAX_ISSUE_LIST_LIMIT = 500;

export interface IssueListFilters {
  statuses?: string[];
  assigneeAgentId?: string;
  participantAgentId?: string;
  assigneeUserId?: string;
  touchedByUserId?: string;
  inboxArchivedByUserId?: string;
  unreadForUserId?: string;
  projectId?: string;
  executionWorkspaceId?: string;
  parentId?: string;
  labelId?: string;
  originKind?: string;
  originId?: string;
  includeRoutineExecutions?: boolean;
  q?: string;
  limit?: number;
}

const t = schema.issues;
export const PRIORITY_RANK = sql`CASE ${t.priority} WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END`;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Touched: created by, assigned to, commented on, or read by the user. */
const touchedBy = (userId: string) => sql`(
  ${t.createdByUserId} = ${userId} OR ${t.assigneeUserId} = ${userId}
  OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id} AND c.author_user_id = ${userId})
  OR EXISTS (SELECT 1 FROM issue_user_states s WHERE s.issue_id = ${t.id} AND s.user_id = ${userId} AND s.last_read_at IS NOT NULL)
)`;

/**
 * FTS5 phrase query: issues containing q in any text column (trigram: substrings); the list's own
 * `company_id =` condition keeps the company's. (Matching company_id inside the FTS query made
 * every search intersect the posting lists of a 36-character id — every row of the company.)
 */
function searchCandidates(q: string): SQL {
  const phrase = (value: string) => `"${value.replace(/"/g, '""')}"`;
  const match = `{title identifier description comments} : ${phrase(q)}`;
  return sql`${t}.rowid IN (SELECT rowid FROM issue_search WHERE issue_search MATCH ${match})`;
}

/** Trigram search needs at least three characters. */
const searchable = (q: string) => [...q].length >= 3;

export function rankExpression(q: string): SQL {
  const starts = `${escapeLike(q)}%`;
  const contains = `%${escapeLike(q)}%`;
  return sql`CASE
    WHEN ${t.title} LIKE ${starts} ESCAPE '\\' THEN 0
    WHEN ${t.title} LIKE ${contains} ESCAPE '\\' THEN 1
    WHEN ${t.identifier} LIKE ${starts} ESCAPE '\\' THEN 2
    WHEN ${t.identifier} LIKE ${contains} ESCAPE '\\' THEN 3
    WHEN EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id} AND c.body LIKE ${contains} ESCAPE '\\') THEN 4
    WHEN ${t.description} LIKE ${contains} ESCAPE '\\' THEN 5
  END`;
}

function listIssueRows(db: Db, companyId: string, f: IssueListFilters) {
  const conditions: Array<SQL | undefined> = [eq(t.companyId, companyId), isNull(t.hiddenAt)];
  if (f.statuses?.length) conditions.push(inArray(t.status, f.statuses as IssueRow["status"][]));
  if (f.assigneeAgentId) conditions.push(eq(t.assigneeAgentId, f.assigneeAgentId));
  if (f.participantAgentId) {
    const a = f.participantAgentId;
    conditions.push(
      sql`(${t.assigneeAgentId} = ${a} OR ${t.createdByAgentId} = ${a}
        OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id} AND c.author_agent_id = ${a}))`,
    );
  }
  if (f.assigneeUserId) conditions.push(eq(t.assigneeUserId, f.assigneeUserId));
  if (f.touchedByUserId) conditions.push(touchedBy(f.touchedByUserId));
  if (f.inboxArchivedByUserId) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM issue_user_states s WHERE s.issue_id = ${t.id} AND s.user_id = ${f.inboxArchivedByUserId} AND s.inbox_archived_at IS NOT NULL)`,
    );
  }
  if (f.unreadForUserId) {
    const u = f.unreadForUserId;
    conditions.push(touchedBy(u));
    conditions.push(sql`EXISTS (
      SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id}
        AND (c.author_user_id IS NULL OR c.author_user_id != ${u})
        AND c.created_at > COALESCE((SELECT s.last_read_at FROM issue_user_states s WHERE s.issue_id = ${t.id} AND s.user_id = ${u}), '')
    )`);
  }
  if (f.projectId) conditions.push(eq(t.projectId, f.projectId));
  if (f.executionWorkspaceId) conditions.push(eq(t.executionWorkspaceId, f.executionWorkspaceId));
  if (f.parentId) conditions.push(eq(t.parentId, f.parentId));
  if (f.labelId) conditions.push(sql`EXISTS (SELECT 1 FROM issue_labels l WHERE l.issue_id = ${t.id} AND l.label_id = ${f.labelId})`);
  if (f.originKind) conditions.push(eq(t.originKind, f.originKind));
  if (f.originId) conditions.push(eq(t.originId, f.originId));
  if (!f.includeRoutineExecutions && !f.originKind && !f.originId) conditions.push(sql`${t.originKind} != 'routine_execution'`);

  const limit = Math.min(f.limit ?? MAX_ISSUE_LIST_LIMIT, MAX_ISSUE_LIST_LIMIT);
  const query = db.select({ issue: t, labelsJson: LABELS_JSON, blockersJson: BLOCKERS_JSON }).from(t);
  if (f.q) {
    const rank = rankExpression(f.q);
    if (searchable(f.q)) conditions.push(searchCandidates(f.q));
    return query
      .where(and(...conditions, sql`(${rank}) IS NOT NULL`))
      .orderBy(rank, PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id)
      .limit(limit);
  }
  return query
    .where(and(...conditions))
    .orderBy(PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id)
    .limit(limit);
}

/** Adds the list (issue views, labels and blockers included: one statement) to a read batch. */
export function addIssueListRead(batch: ReadBatch, companyId: string, f: IssueListFilters) {
  const rows = batch.add(listIssueRows(batch.db, companyId, f));
  return () => rows.value.map((r) => issueView(r.issue, relationsOf(r)));
}

const LABELS_JSON = sql<string>`(SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'color', l.color)) FROM (
  SELECT l.id, l.name, l.color FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = ${t.id} ORDER BY l.name
) l)`;
const BLOCKERS_JSON = sql<string>`(SELECT json_group_array(b.blocker_issue_id) FROM (
  SELECT blocker_issue_id FROM issue_blockers WHERE issue_id = ${t.id} ORDER BY created_at, blocker_issue_id
) b)`;

function relationsOf(row: { labelsJson: string | null; blockersJson: string | null }): IssueRelations {
  return {
    labels: JSON.parse(row.labelsJson ?? "[]") as IssueRelations["labels"],
    blockedByIssueIds: JSON.parse(row.blockersJson ?? "[]") as string[],
  };
}
