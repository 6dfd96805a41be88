// The company issue list: every filter of GET /api/companies/{id}/issues in one SQL statement,
// ordered by priority (critical, high, medium, low) then latest update, or by match rank with `q`
// (the ranking and how its first page is found: ./search.ts).
// Labels and blockers come back in the same statement (JSON subqueries): one round trip per list.
import type { ReadBatch } from "../../db/read-batch";
import { and, eq, inArray, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { template } from "../../db/templates";
import { ISSUE_ID, PRIORITY_RANK } from "./order";
import { rankExpression, searchable, searchPage } from "./search";
import { issueView, issueViewJson, type IssueRelations, type IssueRow } from "./view";

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
  OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${ISSUE_ID} AND c.author_user_id = ${userId})
  OR EXISTS (SELECT 1 FROM issue_user_states s WHERE s.issue_id = ${ISSUE_ID} AND s.user_id = ${userId} AND s.last_read_at IS NOT NULL)
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
      OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${ISSUE_ID} AND c.author_agent_id = ${a}))`,
  ],
  assigneeUserId: (u) => [eq(t.assigneeUserId, u)],
  touchedByUserId: (u) => [touchedBy(u)],
  inboxArchivedByUserId: (u) => [
    sql`EXISTS (SELECT 1 FROM issue_user_states s WHERE s.issue_id = ${ISSUE_ID} AND s.user_id = ${u} AND s.inbox_archived_at IS NOT NULL)`,
  ],
  unreadForUserId: (u) => [
    touchedBy(u),
    sql`EXISTS (
      SELECT 1 FROM issue_comments c WHERE c.issue_id = ${ISSUE_ID}
        AND (c.author_user_id IS NULL OR c.author_user_id != ${u})
        AND c.created_at > COALESCE((SELECT s.last_read_at FROM issue_user_states s WHERE s.issue_id = ${ISSUE_ID} AND s.user_id = ${u}), '')
    )`,
  ],
  projectId: (v) => [eq(t.projectId, v)],
  executionWorkspaceId: (v) => [eq(t.executionWorkspaceId, v)],
  parentId: (v) => [eq(t.parentId, v)],
  labelId: (v) => [sql`EXISTS (SELECT 1 FROM issue_labels l WHERE l.issue_id = ${ISSUE_ID} AND l.label_id = ${v})`],
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
/** Each issue as its view's JSON text (issueViewJson), for lists answered as one JSON text. */
const jsonListSelect = (db: Db) => db.select({ view: ISSUE_VIEW_JSON.as("view") }).from(t);

/** The filtered list without `q`, in priority order. */
const filteredList = (db: Db, companyId: Value, f: Filters<Value>, limit: number | Placeholder) =>
  listSelect(db)
    .where(and(...conditionsOf(companyId, f)))
    .orderBy(PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id)
    .limit(limit);

/**
 * The same list as one JSON array text: the views in list order, concatenated by SQLite
 * (group_concat keeps the order of the ordered subquery it reads, as the labels' JSON does).
 */
const filteredJsonList = (db: Db, companyId: Value, f: Filters<Value>, limit: number | Placeholder) => {
  const page = jsonListSelect(db)
    .where(and(...conditionsOf(companyId, f)))
    .orderBy(PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id)
    .limit(limit)
    .as("page");
  // No row for an empty page (so a company not yet placed, read on every shard, finds rows on none).
  return db
    .select({ json: sql<string>`'[' || group_concat(${page.view}, ',') || ']'` })
    .from(page)
    .having(sql`count(*) > 0`);
};

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

const jsonListTemplates = new Map<string, ReturnType<typeof jsonListTemplateFor>>();

function listSlots(present: readonly SimpleFilter[], statuses: number, includeRoutineExecutions: boolean) {
  const statusSlots = Array.from({ length: statuses }, (_, i) => `status${i}`);
  const names = ["companyId", "limit", ...present, ...statusSlots];
  const filters = (slot: Record<string, Placeholder>) => {
    const f: Filters<Placeholder> = { includeRoutineExecutions };
    for (const name of present) f[name] = slot[name];
    if (statuses) f.statuses = statusSlots.map((name) => slot[name]);
    return f;
  };
  return { names, filters };
}

function listTemplateFor(present: readonly SimpleFilter[], statuses: number, includeRoutineExecutions: boolean) {
  const { names, filters } = listSlots(present, statuses, includeRoutineExecutions);
  return template(names, (db, slot) => filteredList(db, slot.companyId, filters(slot), slot.limit));
}

function jsonListTemplateFor(present: readonly SimpleFilter[], statuses: number, includeRoutineExecutions: boolean) {
  const { names, filters } = listSlots(present, statuses, includeRoutineExecutions);
  return template(names, (db, slot) => filteredJsonList(db, slot.companyId, filters(slot), slot.limit));
}

/** One template per shape (which filters are present, how many statuses), at most MAX_LIST_SHAPES kept. */
function shapeTemplate<T>(cache: Map<string, T>, f: IssueListFilters, make: (present: SimpleFilter[], statuses: number, routine: boolean) => T) {
  const present = SIMPLE_FILTERS.filter((name) => f[name]);
  const statuses = f.statuses?.length ?? 0;
  const shape = `${present.join(",")}|${statuses}|${f.includeRoutineExecutions ? 1 : 0}`;
  let made = cache.get(shape);
  if (!made) {
    if (cache.size >= MAX_LIST_SHAPES) cache.clear();
    cache.set(shape, (made = make(present, statuses, Boolean(f.includeRoutineExecutions))));
  }
  return { made, present };
}

function templateValues(companyId: string, f: IssueListFilters, present: SimpleFilter[]) {
  const values: Record<string, unknown> = { companyId, limit: listLimit(f) };
  for (const name of present) values[name] = f[name];
  f.statuses?.forEach((status, i) => {
    values[`status${i}`] = status;
  });
  return values;
}

function templatedList(db: Db, companyId: string, f: IssueListFilters) {
  const { made, present } = shapeTemplate(listTemplates, f, listTemplateFor);
  return made(db, templateValues(companyId, f, present));
}

function templatedJsonList(db: Db, companyId: string, f: IssueListFilters) {
  const { made, present } = shapeTemplate(jsonListTemplates, f, jsonListTemplateFor);
  return made(db, templateValues(companyId, f, present));
}

/** Adds the list (issue views, labels and blockers included: one statement) to a read batch. */
export function addIssueListRead(batch: ReadBatch, companyId: string, f: IssueListFilters) {
  const rows = batch.add(f.q ? listIssueRows(batch.db, companyId, f) : templatedList(batch.db, companyId, f));
  return () => rows.value.map((r) => issueView(r.issue, relationsOf(r)));
}

/**
 * Adds the list without `q` to a read batch as one JSON array text of issue views (what the list
 * route answers as is); with `q`, the views are made in the Worker (addIssueListRead) and stringified.
 */
export function addIssueListJsonRead(batch: ReadBatch, companyId: string, f: IssueListFilters): () => string {
  if (f.q) {
    const views = addIssueListRead(batch, companyId, f);
    return () => JSON.stringify(views());
  }
  const page = batch.add(templatedJsonList(batch.db, companyId, f));
  return () => page.value[0]?.json ?? "[]";
}

const LABELS_JSON = sql<string>`(SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'color', l.color)) FROM (
  SELECT l.id, l.name, l.color FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = ${ISSUE_ID} ORDER BY l.name
) l)`;
const BLOCKERS_JSON = sql<string>`(SELECT json_group_array(b.blocker_issue_id) FROM (
  SELECT blocker_issue_id FROM issue_blockers WHERE issue_id = ${ISSUE_ID} ORDER BY created_at, blocker_issue_id
) b)`;

const LABEL_IDS_JSON = sql<string>`(SELECT json_group_array(l.id) FROM (
  SELECT l.id FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = ${ISSUE_ID} ORDER BY l.name
) l)`;
const ISSUE_VIEW_JSON = issueViewJson({ labels: LABELS_JSON, labelIds: LABEL_IDS_JSON, blockedByIssueIds: BLOCKERS_JSON });

function relationsOf(row: { labelsJson: string | null; blockersJson: string | null }): IssueRelations {
  return {
    labels: JSON.parse(row.labelsJson ?? "[]") as IssueRelations["labels"],
    blockedByIssueIds: JSON.parse(row.blockersJson ?? "[]") as string[],
  };
}
