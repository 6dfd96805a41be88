// The company issue list: every filter of GET /api/companies/{id}/issues in one SQL statement,
// ordered by priority (critical, high, medium, low) then latest update, or by match rank with `q`
// (the ranking and how its first page is found: ./search.ts).
// Labels and blockers come back in the same statement (JSON subqueries): one round trip per list.
import type { ReadBatch } from "../../db/read-batch";
import { and, eq, inArray, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { template } from "../../db/templates";
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

/** A filter's value: the request's, or a template's slot (src/db/templates.ts). */
type Value = string | Placeholder;
/** The filters that each compare one value (every filter but `q`, `limit`, `statuses` and `includeRoutineExecutions`). */
type SimpleFilter = Exclude<keyof IssueListFilters, "q" | "limit" | "statuses" | "includeRoutineExecutions">;
/** The filters a list statement is built from, without `q` (its SQL depends on the words). */
type Filters<V extends Value> = { [K in SimpleFilter]?: V } & {
  statuses?: V[];
  includeRoutineExecutions?: boolean;
};

/** Touched: created by, assigned to, commented on, or read by the user. */
const touchedBy = (userId: Value) => sql`(
  ${t.createdByUserId} = ${userId} OR ${t.assigneeUserId} = ${userId}
  OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id} AND c.author_user_id = ${userId})
  OR EXISTS (SELECT 1 FROM issue_user_states s WHERE s.issue_id = ${t.id} AND s.user_id = ${userId} AND s.last_read_at IS NOT NULL)
)`;

/**
 * Every simple filter's conditions, in one table: the general path (a statement built per
 * request) and the templated path (one per filter shape) are both built from it, so a filter in
 * IssueListFilters without an entry here — or an entry without a filter — is a type error.
 */
const FILTER_CONDITIONS: { readonly [K in SimpleFilter]-?: (value: Value) => SQL[] } = {
  assigneeAgentId: (a) => [eq(t.assigneeAgentId, a)],
  participantAgentId: (a) => [
    sql`(${t.assigneeAgentId} = ${a} OR ${t.createdByAgentId} = ${a}
      OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id} AND c.author_agent_id = ${a}))`,
  ],
  assigneeUserId: (u) => [eq(t.assigneeUserId, u)],
  touchedByUserId: (u) => [touchedBy(u)],
  inboxArchivedByUserId: (u) => [
    sql`EXISTS (SELECT 1 FROM issue_user_states s WHERE s.issue_id = ${t.id} AND s.user_id = ${u} AND s.inbox_archived_at IS NOT NULL)`,
  ],
  unreadForUserId: (u) => [
    touchedBy(u),
    sql`EXISTS (
      SELECT 1 FROM issue_comments c WHERE c.issue_id = ${t.id}
        AND (c.author_user_id IS NULL OR c.author_user_id != ${u})
        AND c.created_at > COALESCE((SELECT s.last_read_at FROM issue_user_states s WHERE s.issue_id = ${t.id} AND s.user_id = ${u}), '')
    )`,
  ],
  projectId: (v) => [eq(t.projectId, v)],
  executionWorkspaceId: (v) => [eq(t.executionWorkspaceId, v)],
  parentId: (v) => [eq(t.parentId, v)],
  labelId: (v) => [sql`EXISTS (SELECT 1 FROM issue_labels l WHERE l.issue_id = ${t.id} AND l.label_id = ${v})`],
  originKind: (v) => [eq(t.originKind, v)],
  originId: (v) => [eq(t.originId, v)],
};
const SIMPLE_FILTERS = Object.keys(FILTER_CONDITIONS) as SimpleFilter[];

function conditionsOf(companyId: Value, f: Filters<Value>): Array<SQL | undefined> {
  const conditions: Array<SQL | undefined> = [eq(t.companyId, companyId), isNull(t.hiddenAt)];
  if (f.statuses?.length) conditions.push(inArray(t.status, f.statuses as Array<IssueRow["status"] | Placeholder>));
  for (const name of SIMPLE_FILTERS) {
    const value = f[name];
    if (value) conditions.push(...FILTER_CONDITIONS[name](value));
  }
  if (!f.includeRoutineExecutions && !f.originKind && !f.originId) conditions.push(sql`${t.originKind} != 'routine_execution'`);
  return conditions;
}

const listLimit = (f: IssueListFilters) => Math.min(f.limit ?? MAX_ISSUE_LIST_LIMIT, MAX_ISSUE_LIST_LIMIT);
const listSelect = (db: Db) => db.select({ issue: t, labelsJson: LABELS_JSON, blockersJson: BLOCKERS_JSON }).from(t);

/** The filtered list without `q`, in priority order. */
const filteredList = (db: Db, companyId: Value, f: Filters<Value>, limit: number | Placeholder) =>
  listSelect(db)
    .where(and(...conditionsOf(companyId, f)))
    .orderBy(PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id)
    .limit(limit);

/** The list statement (exported for the search plan test). */
export function listIssueRows(db: Db, companyId: string, f: IssueListFilters) {
  const limit = listLimit(f);
  if (!f.q) return filteredList(db, companyId, f, limit);
  const conditions = conditionsOf(companyId, f);
  const query = listSelect(db);
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

// Lists without `q` are built once per shape (which filters are present, how many statuses): a
// statement template (src/db/templates.ts) with a slot for each value.
const MAX_LIST_SHAPES = 256;
const listTemplates = new Map<string, ReturnType<typeof listTemplateFor>>();

function listTemplateFor(present: readonly SimpleFilter[], statuses: number, includeRoutineExecutions: boolean) {
  const statusSlots = Array.from({ length: statuses }, (_, i) => `status${i}`);
  return template(["companyId", "limit", ...present, ...statusSlots], (db, slot) => {
    const f: Filters<Placeholder> = { includeRoutineExecutions };
    for (const name of present) f[name] = slot[name];
    if (statuses) f.statuses = statusSlots.map((name) => slot[name]);
    return filteredList(db, slot.companyId, f, slot.limit);
  });
}

function templatedList(db: Db, companyId: string, f: IssueListFilters) {
  const present = SIMPLE_FILTERS.filter((name) => f[name]);
  const statuses = f.statuses?.length ?? 0;
  const shape = `${present.join(",")}|${statuses}|${f.includeRoutineExecutions ? 1 : 0}`;
  let made = listTemplates.get(shape);
  if (!made) {
    if (listTemplates.size >= MAX_LIST_SHAPES) listTemplates.clear();
    listTemplates.set(shape, (made = listTemplateFor(present, statuses, Boolean(f.includeRoutineExecutions))));
  }
  const values: Record<string, unknown> = { companyId, limit: listLimit(f) };
  for (const name of present) values[name] = f[name];
  f.statuses?.forEach((status, i) => {
    values[`status${i}`] = status;
  });
  return made(db, values);
}

/** Adds the list (issue views, labels and blockers included: one statement) to a read batch. */
export function addIssueListRead(batch: ReadBatch, companyId: string, f: IssueListFilters) {
  const rows = batch.add(f.q ? listIssueRows(batch.db, companyId, f) : templatedList(batch.db, companyId, f));
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
