// API views of projects (with goals, workspaces, primary workspace and codebase) and their workspaces.
import { inIds } from "../../db/id-list";
import { and, asc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { redactSecrets } from "../redaction";

export type ProjectRow = typeof schema.projects.$inferSelect;
export type WorkspaceRow = typeof schema.projectWorkspaces.$inferSelect;
export type OperationRow = typeof schema.workspaceOperations.$inferSelect;

export function workspaceView(row: WorkspaceRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    projectId: row.projectId,
    name: row.name,
    sourceType: row.sourceType,
    cwd: row.cwd ?? null,
    repoUrl: row.repoUrl ?? null,
    repoRef: row.repoRef ?? null,
    defaultRef: row.defaultRef ?? null,
    visibility: row.visibility,
    setupCommand: row.setupCommand ?? null,
    cleanupCommand: row.cleanupCommand ?? null,
    remoteProvider: row.remoteProvider ?? null,
    remoteWorkspaceRef: row.remoteWorkspaceRef ?? null,
    sharedWorkspaceKey: row.sharedWorkspaceKey ?? null,
    metadata: row.metadata ? redactSecrets(row.metadata) : null,
    runtimeConfig: row.runtimeConfig ? redactSecrets(row.runtimeConfig) : null,
    isPrimary: row.isPrimary,
    desiredState: row.desiredState,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type WorkspaceView = ReturnType<typeof workspaceView>;

export function operationView(row: OperationRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    projectWorkspaceId: row.projectWorkspaceId ?? null,
    executionWorkspaceId: row.executionWorkspaceId ?? null,
    kind: row.kind,
    action: row.action,
    target: row.target ?? null,
    args: row.args ?? null,
    env: row.env ?? null,
    status: row.status,
    result: row.result ?? null,
    requestedByActorType: row.requestedByActorType,
    requestedByActorId: row.requestedByActorId,
    runId: row.runId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

type GoalSummary = { id: string; title: string; level: string; status: string };

export function projectView(row: ProjectRow, goals: GoalSummary[], workspaces: WorkspaceRow[]) {
  const views = workspaces.map(workspaceView);
  const primary = views.find((w) => w.isPrimary) ?? null;
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    urlKey: row.urlKey,
    description: row.description ?? null,
    status: row.status,
    goalId: row.goalId ?? null,
    goalIds: goals.map((g) => g.id),
    goals,
    leadAgentId: row.leadAgentId ?? null,
    targetDate: row.targetDate ?? null,
    color: row.color ?? null,
    env: row.env ? redactSecrets(row.env) : null,
    executionWorkspacePolicy: row.executionWorkspacePolicy ?? null,
    pausedAt: row.pausedAt ?? null,
    pauseReason: row.pauseReason ?? null,
    archivedAt: row.archivedAt ?? null,
    codebase: primary ? { repoUrl: primary.repoUrl, repoRef: primary.repoRef, cwd: primary.cwd } : null,
    workspaces: views,
    primaryWorkspace: primary,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type ProjectView = ReturnType<typeof projectView>;

/** Views of the given projects (all of the company when `projectIds` is omitted), in three queries. */
export async function loadProjectViews(db: Db, companyId: string, projectIds?: string[]): Promise<ProjectView[]> {
  if (projectIds && !projectIds.length) return [];
  const p = schema.projects;
  const rows = await db
    .select()
    .from(p)
    .where(and(eq(p.companyId, companyId), projectIds ? inIds(p.id, projectIds) : undefined))
    .orderBy(asc(p.createdAt), asc(p.id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const links = await db
    .select({
      projectId: schema.projectGoals.projectId,
      id: schema.goals.id,
      title: schema.goals.title,
      level: schema.goals.level,
      status: schema.goals.status,
    })
    .from(schema.projectGoals)
    .innerJoin(schema.goals, eq(schema.goals.id, schema.projectGoals.goalId))
    .where(and(eq(schema.projectGoals.companyId, companyId), projectIds ? inIds(schema.projectGoals.projectId, ids) : undefined))
    .orderBy(asc(schema.projectGoals.position));
  const w = schema.projectWorkspaces;
  const workspaces = await db
    .select()
    .from(w)
    .where(and(eq(w.companyId, companyId), projectIds ? inIds(w.projectId, ids) : undefined))
    .orderBy(asc(w.createdAt), asc(w.id));
  return rows.map((row) =>
    projectView(
      row,
      links.filter((l) => l.projectId === row.id).map(({ projectId: _, ...g }) => g),
      workspaces.filter((ws) => ws.projectId === row.id),
    ),
  );
}

export async function loadProjectView(db: Db, companyId: string, projectId: string): Promise<ProjectView | null> {
  return (await loadProjectViews(db, companyId, [projectId]))[0] ?? null;
}
