// Project and project-workspace mutations (run inside the company Durable Object).
// Everything a request writes goes into one D1 batch, validated before anything is written:
// a project created with an invalid `workspace` leaves no row behind.
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { and, asc, eq, ne } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { conflict, notFound, unprocessable } from "../errors";
import type { Actor } from "../actor";
import { newId } from "../../crypto/random";
import { normalizeEnvBindings } from "../secrets/bindings";
import { projectUrlKey } from "./shortname";
import { loadProjectView, operationView, workspaceView, type ProjectRow, type WorkspaceRow } from "./view";
import { assertValidWorkspace, configuredServices, newWorkspaceRow, type WorkspaceFields } from "./workspaces";
import { operationInsert, operationRow } from "./operations";

/** Colours handed out in turn to projects created without one. */
export const PROJECT_COLOR_PALETTE = ["#6366f1", "#0ea5e9", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#f97316", "#84cc16"];

export interface ProjectFields {
  name?: string;
  description?: string | null;
  status?: ProjectRow["status"];
  goalIds?: string[];
  goalId?: string | null;
  leadAgentId?: string | null;
  targetDate?: string | null;
  color?: string | null;
  env?: Record<string, unknown> | null;
  executionWorkspacePolicy?: Record<string, unknown> | null;
  archivedAt?: string | null;
}

async function loadProject(ctx: CommandContext, projectId: string) {
  const row = await ctx.db.query.projects.findFirst({ where: eq(schema.projects.id, projectId) });
  if (!row || row.companyId !== ctx.companyId) throw notFound("Project not found");
  return row;
}

async function viewOf(ctx: CommandContext, projectId: string) {
  const view = await loadProjectView(ctx.db, ctx.companyId, projectId);
  if (!view) throw notFound("Project not found");
  return view;
}

/** 409 when another project of the company already uses the shortname. */
async function checkShortnameFree(ctx: CommandContext, urlKey: string, exceptId: string | null) {
  const clash = await ctx.db.query.projects.findFirst({
    where: and(eq(schema.projects.companyId, ctx.companyId), eq(schema.projects.urlKey, urlKey), exceptId ? ne(schema.projects.id, exceptId) : undefined),
  });
  if (clash) throw conflict(`A project with the shortname "${urlKey}" already exists in this company`, { urlKey, projectId: clash.id });
}

/** The requested goal list (goalIds preferred, else legacy goalId), deduplicated and checked; undefined = unchanged. */
async function resolveGoalIds(ctx: CommandContext, fields: ProjectFields): Promise<string[] | undefined> {
  let ids: string[] | undefined;
  if (fields.goalIds !== undefined) ids = [...new Set(fields.goalIds)];
  else if (fields.goalId !== undefined) ids = fields.goalId ? [fields.goalId] : [];
  if (!ids?.length) return ids;
  const found = await ctx.db
    .select({ id: schema.goals.id })
    .from(schema.goals)
    .where(and(eq(schema.goals.companyId, ctx.companyId), inIds(schema.goals.id, ids)));
  const missing = ids.filter((id) => !found.some((g) => g.id === id));
  if (missing.length) throw unprocessable("goalIds must reference goals of this company", { goalIds: missing });
  return ids;
}

async function checkLeadAgent(ctx: CommandContext, leadAgentId: string | null | undefined) {
  if (!leadAgentId) return;
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, leadAgentId) });
  if (!agent || agent.companyId !== ctx.companyId) throw unprocessable("leadAgentId must reference an agent of this company", { leadAgentId });
}

function goalLinkStatements(ctx: CommandContext, projectId: string, goalIds: string[]): Statement[] {
  const statements: Statement[] = [ctx.db.delete(schema.projectGoals).where(eq(schema.projectGoals.projectId, projectId))];
  if (goalIds.length) {
    statements.push(ctx.db.insert(schema.projectGoals).values(goalIds.map((goalId, position) => ({ projectId, goalId, companyId: ctx.companyId, position }))));
  }
  return statements;
}

async function normaliseEnv(ctx: CommandContext, actor: Actor, env: Record<string, unknown> | null | undefined, urlKey: string) {
  if (env === undefined) return { env: undefined, statements: [] as Statement[] };
  return normalizeEnvBindings(ctx, actor, env, { ownerLabel: `project_${urlKey.replace(/-/g, "_")}` });
}

const activity = (ctx: CommandContext, action: string, entityId: string, details: Record<string, unknown>, entityType = "project") =>
  ctx.activity({ action, entityType, entityId, details });

export const createProject = defineCommand(
  "project.create",
  async (ctx, actor, input: { fields: ProjectFields & { name: string }; workspace?: WorkspaceFields }) => {
    const { fields } = input;
    const id = newId();
    const urlKey = projectUrlKey(fields.name);
    // Validate everything before writing anything.
    await checkShortnameFree(ctx, urlKey, null);
    const goalIds = (await resolveGoalIds(ctx, fields)) ?? [];
    await checkLeadAgent(ctx, fields.leadAgentId);
    const workspace = input.workspace
      ? newWorkspaceRow({ id: newId(), companyId: ctx.companyId, projectId: id, fields: input.workspace, isPrimary: true, now: ctx.now })
      : null;
    const env = await normaliseEnv(ctx, actor, fields.env, urlKey);
    let color = fields.color ?? null;
    if (fields.color === undefined) {
      const existing = await ctx.db.$count(schema.projects, eq(schema.projects.companyId, ctx.companyId));
      color = PROJECT_COLOR_PALETTE[existing % PROJECT_COLOR_PALETTE.length];
    }
    const row: ProjectRow = {
      id,
      companyId: ctx.companyId,
      name: fields.name,
      urlKey,
      description: fields.description ?? null,
      status: fields.status ?? "backlog",
      goalId: goalIds[0] ?? null,
      leadAgentId: fields.leadAgentId ?? null,
      targetDate: fields.targetDate ?? null,
      color,
      env: env.env ?? null,
      executionWorkspacePolicy: fields.executionWorkspacePolicy ?? null,
      pausedAt: null,
      pauseReason: null,
      archivedAt: fields.archivedAt ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const statements: Statement[] = [...env.statements, ctx.db.insert(schema.projects).values(row), ...goalLinkStatements(ctx, id, goalIds)];
    if (workspace) statements.push(ctx.db.insert(schema.projectWorkspaces).values(workspace));
    statements.push(activity(ctx, "project.created", id, { name: row.name, urlKey, goalIds, workspaceId: workspace?.id ?? null }));
    await ctx.batch(statements);
    return viewOf(ctx, id);
  },
);

export const updateProject = defineCommand("project.update", async (ctx, actor, input: { projectId: string; fields: ProjectFields }) => {
  const before = await loadProject(ctx, input.projectId);
  const { fields } = input;
  const urlKey = fields.name !== undefined ? projectUrlKey(fields.name) : before.urlKey;
  if (urlKey !== before.urlKey) await checkShortnameFree(ctx, urlKey, before.id);
  const goalIds = await resolveGoalIds(ctx, fields);
  await checkLeadAgent(ctx, fields.leadAgentId);
  const env = await normaliseEnv(ctx, actor, fields.env, urlKey);
  const { goalIds: _g, goalId: _l, env: _e, ...plain } = fields;
  const set: Partial<ProjectRow> = { ...stripUndefined(plain), urlKey, updatedAt: ctx.now };
  if (goalIds !== undefined) set.goalId = goalIds[0] ?? null;
  if (env.env !== undefined) set.env = env.env;
  const statements: Statement[] = [...env.statements, ctx.db.update(schema.projects).set(set).where(eq(schema.projects.id, before.id))];
  if (goalIds !== undefined) statements.push(...goalLinkStatements(ctx, before.id, goalIds));
  const changed = Object.keys(stripUndefined(fields as Record<string, unknown>));
  statements.push(activity(ctx, "project.updated", before.id, { fields: changed }));
  await ctx.batch(statements);
  return viewOf(ctx, before.id);
});

export const deleteProject = defineCommand("project.delete", async (ctx, actor, input: { projectId: string }) => {
  const before = await viewOf(ctx, (await loadProject(ctx, input.projectId)).id);
  await ctx.batch([
    ctx.db
      .update(schema.issues)
      .set({ projectId: null })
      .where(and(eq(schema.issues.companyId, ctx.companyId), eq(schema.issues.projectId, before.id))),
    ctx.db.delete(schema.projects).where(eq(schema.projects.id, before.id)),
    activity(ctx, "project.deleted", before.id, { name: before.name }),
  ]);
  return before;
});

async function projectWorkspaces(ctx: CommandContext, projectId: string) {
  return ctx.db
    .select()
    .from(schema.projectWorkspaces)
    .where(eq(schema.projectWorkspaces.projectId, projectId))
    .orderBy(asc(schema.projectWorkspaces.createdAt), asc(schema.projectWorkspaces.id));
}

async function loadWorkspace(ctx: CommandContext, projectId: string, workspaceId: string) {
  const row = await ctx.db.query.projectWorkspaces.findFirst({ where: eq(schema.projectWorkspaces.id, workspaceId) });
  if (!row || row.projectId !== projectId || row.companyId !== ctx.companyId) throw notFound("Workspace not found");
  return row;
}

const setPrimary = (ctx: CommandContext, projectId: string, workspaceId: string) => [
  ctx.db
    .update(schema.projectWorkspaces)
    .set({ isPrimary: false, updatedAt: ctx.now })
    .where(and(eq(schema.projectWorkspaces.projectId, projectId), ne(schema.projectWorkspaces.id, workspaceId), eq(schema.projectWorkspaces.isPrimary, true))),
  ctx.db.update(schema.projectWorkspaces).set({ isPrimary: true, updatedAt: ctx.now }).where(eq(schema.projectWorkspaces.id, workspaceId)),
];

export const createWorkspace = defineCommand("projectWorkspace.create", async (ctx, actor, input: { projectId: string; fields: WorkspaceFields }) => {
  const project = await loadProject(ctx, input.projectId);
  const existing = await projectWorkspaces(ctx, project.id);
  const hasPrimary = existing.some((w) => w.isPrimary);
  const makePrimary = !hasPrimary || input.fields.isPrimary === true;
  const row = newWorkspaceRow({ id: newId(), companyId: ctx.companyId, projectId: project.id, fields: input.fields, isPrimary: false, now: ctx.now });
  const statements: Statement[] = [ctx.db.insert(schema.projectWorkspaces).values(row)];
  if (makePrimary) statements.push(...setPrimary(ctx, project.id, row.id));
  statements.push(activity(ctx, "project.workspace_created", project.id, { workspaceId: row.id, name: row.name, isPrimary: makePrimary }));
  await ctx.batch(statements);
  return workspaceView(await loadWorkspace(ctx, project.id, row.id));
});

export const updateWorkspace = defineCommand(
  "projectWorkspace.update",
  async (ctx, actor, input: { projectId: string; workspaceId: string; fields: WorkspaceFields }) => {
    const project = await loadProject(ctx, input.projectId);
    const before = await loadWorkspace(ctx, project.id, input.workspaceId);
    const { isPrimary, ...rest } = input.fields;
    const merged = { ...before, ...stripUndefined(rest) } as WorkspaceRow;
    assertValidWorkspace(merged);
    const statements: Statement[] = [
      ctx.db
        .update(schema.projectWorkspaces)
        .set({ ...stripUndefined(rest), updatedAt: ctx.now })
        .where(eq(schema.projectWorkspaces.id, before.id)),
    ];
    if (isPrimary === true && !before.isPrimary) statements.push(...setPrimary(ctx, project.id, before.id));
    if (isPrimary === false && before.isPrimary) {
      // The primary flag moves to the oldest other workspace; a lone workspace stays primary.
      const next = (await projectWorkspaces(ctx, project.id)).find((w) => w.id !== before.id);
      if (next) statements.push(...setPrimary(ctx, project.id, next.id));
    }
    statements.push(activity(ctx, "project.workspace_updated", project.id, { workspaceId: before.id, fields: Object.keys(stripUndefined(input.fields)) }));
    await ctx.batch(statements);
    return workspaceView(await loadWorkspace(ctx, project.id, before.id));
  },
);

export const deleteWorkspace = defineCommand("projectWorkspace.delete", async (ctx, actor, input: { projectId: string; workspaceId: string }) => {
  const project = await loadProject(ctx, input.projectId);
  const row = await loadWorkspace(ctx, project.id, input.workspaceId);
  const statements: Statement[] = [ctx.db.delete(schema.projectWorkspaces).where(eq(schema.projectWorkspaces.id, row.id))];
  if (row.isPrimary) {
    const next = (await projectWorkspaces(ctx, project.id)).find((w) => w.id !== row.id);
    if (next)
      statements.push(ctx.db.update(schema.projectWorkspaces).set({ isPrimary: true, updatedAt: ctx.now }).where(eq(schema.projectWorkspaces.id, next.id)));
  }
  statements.push(activity(ctx, "project.workspace_deleted", project.id, { workspaceId: row.id, name: row.name }));
  await ctx.batch(statements);
  return workspaceView(row);
});

/** start/restart need a cwd and configured services (422 otherwise); stop always records `stopped`. */
export const workspaceRuntimeAction = defineCommand(
  "projectWorkspace.runtimeAction",
  async (ctx, actor, input: { projectId: string; workspaceId: string; action: "start" | "stop" | "restart" }) => {
    const project = await loadProject(ctx, input.projectId);
    const row = await loadWorkspace(ctx, project.id, input.workspaceId);
    const services = configuredServices(row.runtimeConfig);
    if (input.action !== "stop") {
      const missing: string[] = [];
      if (!row.cwd?.trim()) missing.push("cwd");
      if (!services.length) missing.push("runtimeConfig.services");
      if (missing.length) {
        throw unprocessable(`Cannot ${input.action} runtime services: the workspace needs ${missing.join(" and ")}`, { missing });
      }
    }
    const desiredState = input.action === "stop" ? "stopped" : "running";
    const operation = operationRow(ctx, actor, {
      projectWorkspaceId: row.id,
      kind: "runtime_service",
      action: input.action,
      status: "applied",
      result: { desiredState, previousDesiredState: row.desiredState, services: services.map((s) => s.name) },
    });
    await ctx.batch([
      ctx.db.update(schema.projectWorkspaces).set({ desiredState, updatedAt: ctx.now }).where(eq(schema.projectWorkspaces.id, row.id)),
      operationInsert(ctx, operation),
      activity(ctx, `project.workspace_runtime_${input.action}`, project.id, { workspaceId: row.id, operationId: operation.id, desiredState }),
    ]);
    return { workspace: workspaceView(await loadWorkspace(ctx, project.id, row.id)), operation: operationView(operation) };
  },
);

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const projectCommands = [createProject, updateProject, deleteProject, createWorkspace, updateWorkspace, deleteWorkspace, workspaceRuntimeAction];
