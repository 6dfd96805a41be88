// Routine reads answered at the edge: the company list, one routine's detail, its runs, and the
// lookups entity routes start from. Each is one D1 round trip (the company-path access check
// joins the list's batch).
import { and, desc, eq, notInArray, sql } from "drizzle-orm";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import { issueSummary } from "../issues/view";
import { TERMINAL_ISSUE_STATUSES } from "../../db/schema/issues";
import { ROUTINE_RUNS_LIMIT } from "./constants";
import { routineRunView, routineView, triggerSummary, triggerView, type RoutineRow } from "./view";

const RECENT_RUNS = 10;
const r = schema.routines;
const t = schema.routineTriggers;
const runs = schema.routineRuns;
const issues = schema.issues;

const issueSummaryColumns = {
  id: issues.id,
  identifier: issues.identifier,
  title: issues.title,
  status: issues.status,
  priority: issues.priority,
  assigneeAgentId: issues.assigneeAgentId,
  projectId: issues.projectId,
  parentId: issues.parentId,
  updatedAt: issues.updatedAt,
  originId: issues.originId,
};

/** Open execution issues of routines in `companyId` (optionally one routine), newest first. */
const openExecutionIssues = (db: Db, companyId: string, routineId?: string) =>
  db
    .select(issueSummaryColumns)
    .from(issues)
    .where(
      and(
        eq(issues.companyId, companyId),
        eq(issues.originKind, "routine_execution"),
        routineId ? eq(issues.originId, routineId) : undefined,
        notInArray(issues.status, [...TERMINAL_ISSUE_STATUSES]),
      ),
    )
    .orderBy(desc(issues.createdAt), desc(issues.id));

/** Adds the list's reads to `batch`; the result is ready after the batch ran. */
export function addRoutineListReads(batch: ReadBatch, companyId: string) {
  const { db } = batch;
  const routines = batch.add(db.select().from(r).where(eq(r.companyId, companyId)).orderBy(desc(r.updatedAt), desc(r.id)));
  const triggers = batch.add(db.select().from(t).where(eq(t.companyId, companyId)).orderBy(t.createdAt, t.id));
  // The newest run of each routine: no newer run of the same routine exists.
  const latest = batch.add(
    db
      .select()
      .from(runs)
      .where(
        and(
          eq(runs.companyId, companyId),
          sql`NOT EXISTS (SELECT 1 FROM routine_runs AS newer WHERE newer.routine_id = routine_runs.routine_id AND (newer.created_at > routine_runs.created_at OR (newer.created_at = routine_runs.created_at AND newer.id > routine_runs.id)))`,
        ),
      ),
  );
  const active = batch.add(openExecutionIssues(db, companyId));
  return () => {
    const triggersOf = new Map<string, typeof triggers.value>();
    for (const row of triggers.value) triggersOf.set(row.routineId, [...(triggersOf.get(row.routineId) ?? []), row]);
    const latestOf = new Map(latest.value.map((row) => [row.routineId, row]));
    const activeOf = new Map<string, (typeof active.value)[number]>();
    for (const issue of active.value) if (issue.originId && !activeOf.has(issue.originId)) activeOf.set(issue.originId, issue);
    return routines.value.map((row) => {
      const run = latestOf.get(row.id);
      const issue = activeOf.get(row.id);
      return {
        ...routineView(row),
        triggers: (triggersOf.get(row.id) ?? []).map(triggerSummary),
        latestRun: run ? routineRunView(run) : null,
        activeExecutionIssue: issue ? issueSummary(issue) : null,
      };
    });
  };
}

/** The routine row, or undefined. */
export const findRoutine = (db: Db, routineId: string): Promise<RoutineRow | undefined> => db.query.routines.findFirst({ where: eq(r.id, routineId) });

/** The trigger with its routine, or undefined. */
export async function findTriggerWithRoutine(db: Db, triggerId: string) {
  const [row] = await db.select({ trigger: t, routine: r }).from(t).innerJoin(r, eq(r.id, t.routineId)).where(eq(t.id, triggerId));
  return row;
}

/** One routine with project, assignee, parent issue, triggers, recent runs and the active execution issue (one round trip). */
export async function routineDetail(db: Db, routine: RoutineRow) {
  const batch = new ReadBatch(db);
  const project = routine.projectId
    ? batch.add(
        db
          .select({ id: schema.projects.id, name: schema.projects.name, status: schema.projects.status })
          .from(schema.projects)
          .where(eq(schema.projects.id, routine.projectId)),
      )
    : null;
  const agent = routine.assigneeAgentId
    ? batch.add(
        db
          .select({ id: schema.agents.id, name: schema.agents.name, role: schema.agents.role, status: schema.agents.status })
          .from(schema.agents)
          .where(eq(schema.agents.id, routine.assigneeAgentId)),
      )
    : null;
  const parent = routine.parentIssueId ? batch.add(db.select(issueSummaryColumns).from(issues).where(eq(issues.id, routine.parentIssueId))) : null;
  const triggers = batch.add(db.select().from(t).where(eq(t.routineId, routine.id)).orderBy(t.createdAt, t.id));
  const recent = batch.add(db.select().from(runs).where(eq(runs.routineId, routine.id)).orderBy(desc(runs.createdAt), desc(runs.id)).limit(RECENT_RUNS));
  const active = batch.add(openExecutionIssues(db, routine.companyId, routine.id).limit(1));
  await batch.run();
  const parentRow = parent?.value[0];
  const activeRow = active.value[0];
  return {
    ...routineView(routine),
    project: project?.value[0] ?? null,
    assignee: agent?.value[0] ?? null,
    parentIssue: parentRow ? issueSummary(parentRow) : null,
    triggers: triggers.value.map(triggerView),
    recentRuns: recent.value.map(routineRunView),
    activeExecutionIssue: activeRow ? issueSummary(activeRow) : null,
  };
}

/** The routine's runs, newest first. */
export async function listRoutineRuns(db: Db, routineId: string, limit: number = ROUTINE_RUNS_LIMIT.default) {
  const rows = await db.select().from(runs).where(eq(runs.routineId, routineId)).orderBy(desc(runs.createdAt), desc(runs.id)).limit(limit);
  return rows.map(routineRunView);
}

/** Schedule triggers due at `at` of active routines in active companies, grouped by company (the tick's index scan). */
export async function dueScheduleTriggers(db: Db, at: Date): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ id: t.id, companyId: t.companyId })
    .from(t)
    .innerJoin(r, eq(r.id, t.routineId))
    .innerJoin(schema.companies, eq(schema.companies.id, t.companyId))
    .where(and(sql`${t.nextRunAt} IS NOT NULL`, sql`${t.nextRunAt} <= ${at.toISOString()}`, eq(r.status, "active"), eq(schema.companies.status, "active")));
  const byCompany = new Map<string, string[]>();
  for (const row of rows) byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row.id]);
  return byCompany;
}

/** The webhook trigger behind a public id, with its routine. */
export async function findTriggerByPublicId(db: Db, publicId: string) {
  const [row] = await db.select({ trigger: t, routine: r }).from(t).innerJoin(r, eq(r.id, t.routineId)).where(eq(t.publicId, publicId));
  return row;
}
