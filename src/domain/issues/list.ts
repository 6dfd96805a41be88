// The company issue list: every filter of GET /api/companies/{id}/issues in one SQL statement,
// ordered by priority (critical, high, medium, low) then latest update, or by match rank with `q`
// (the ranking and how its first page is found: ./search.ts).
// Labels and blockers come back in the same statement (JSON subqueries): one round trip per list.
import type { ReadBatch } from "../../db/read-batch";
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { PRIORITY_RANK } from "./order";
import { rankExpression, searchable, searchPage } from "./search";
import { issueView, type IssueRelations, type IssueRow } from "./view";

export { PRIORITY_RANK };

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

/** Touched: created by, assigned to, commented on, or read by the user. */
const touchedBy = (userId: string) => sql`(
  ${t.createdByUserId} = ${userId} OR ${t.assigneeUserId} = ${userId}
  OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id} AND c.author_user_id = ${userId})
  OR EXISTS (SELECT 1 FROM issue_user_states s WHERE s.issue_id = ${t.id} AND s.user_id = ${userId} AND s.last_read_at IS NOT NULL)
)`;

/** The list statement (exported for the search plan test). */
export function listIssueRows(db: Db, companyId: string, f: IssueListFilters) {
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
    if (!searchable(f.q)) {
      // Under three bytes there are no index terms: the company is scanned and ranked.
      return query
        .where(and(...conditions, sql`(${rank}) IS NOT NULL`))
        .orderBy(rank, PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id)
        .limit(limit);
    }
    // The page (at most `limit` rows, each with its rank) comes from the company's own search index
    // (./search.ts). No LIMIT here: a bound LIMIT over that subquery costs SQLite ~10 ms to prepare.
    const page = searchPage(companyId, f.q, and(...conditions) as SQL, limit);
    return query
      .innerJoin(sql`(${page}) AS search_page`, sql`search_page.r = ${t}.rowid`)
      .orderBy(sql`search_page.tier`, PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id);
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
