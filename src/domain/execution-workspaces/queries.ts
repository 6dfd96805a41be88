// Execution workspace reads answered at the edge: lists, one workspace, its operation records
// and whether it can close.
import { and, desc, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { operationView } from "../projects/view";
import { closeBlockers } from "./lifecycle";
import { executionWorkspaceView, type ExecutionWorkspaceRow } from "./view";

const workspaces = schema.executionWorkspaces;

export interface ExecutionWorkspaceFilters {
  issueId?: string;
  projectId?: string;
  status?: ExecutionWorkspaceRow["status"];
}

/** The company's execution workspaces, newest first. */
export async function listExecutionWorkspaces(db: Db, companyId: string, filters: ExecutionWorkspaceFilters) {
  const rows = await db
    .select()
    .from(workspaces)
    .where(
      and(
        eq(workspaces.companyId, companyId),
        filters.issueId ? eq(workspaces.issueId, filters.issueId) : undefined,
        filters.projectId ? eq(workspaces.projectId, filters.projectId) : undefined,
        filters.status ? eq(workspaces.status, filters.status) : undefined,
      ),
    )
    .orderBy(desc(workspaces.openedAt), desc(sql`rowid`));
  return rows.map(executionWorkspaceView);
}

/** The workspace row; 404 when unknown (callers check the company). */
export async function loadExecutionWorkspace(db: Db, id: string) {
  const row = await db.query.executionWorkspaces.findFirst({ where: eq(workspaces.id, id) });
  if (!row) throw notFound("Execution workspace not found");
  return row;
}

/** Operation records of the workspace's runtime services and commands, newest first. */
export async function listWorkspaceOperations(db: Db, workspaceId: string) {
  const o = schema.workspaceOperations;
  const rows = await db.select().from(o).where(eq(o.executionWorkspaceId, workspaceId)).orderBy(desc(o.createdAt), desc(sql`rowid`));
  return rows.map(operationView);
}

/** Whether the workspace can close, with what blocks it. */
export async function closeReadiness(db: Db, workspace: ExecutionWorkspaceRow, now: string) {
  const blockers = await closeBlockers(db, workspace, now);
  return { executionWorkspaceId: workspace.id, status: workspace.status, ready: blockers.length === 0, blockers };
}
