// Execution workspace mutations (run inside the company Durable Object): open (with an
// environment lease), status/desired-state/metadata updates, and runtime services/commands.
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { conflict, notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import type { EXECUTION_WORKSPACE_MODES, EXECUTION_WORKSPACE_STATUSES, RuntimeServiceState } from "../../db/schema/execution-workspaces";
import type { DESIRED_STATES } from "../../db/schema/projects";
import { releaseLeasesStatement } from "../environments/commands";
import { leaseView } from "../environments/view";
import { operationInsert, operationRow } from "../projects/operations";
import { operationView } from "../projects/view";
import { configuredServices } from "../projects/workspaces";
import { canMove, closeBlockers } from "./lifecycle";
import { executionWorkspaceView, type ExecutionWorkspaceRow } from "./view";

async function loadWorkspace(ctx: CommandContext, id: string) {
  const row = await ctx.db.query.executionWorkspaces.findFirst({ where: eq(schema.executionWorkspaces.id, id) });
  if (!row || row.companyId !== ctx.companyId) throw notFound("Execution workspace not found");
  return row;
}

const activity = (ctx: CommandContext, action: string, id: string, details: Record<string, unknown>) =>
  ctx.activity({ action, entityType: "execution_workspace", entityId: id, details });

export interface OpenExecutionWorkspaceInput {
  projectId?: string | null;
  projectWorkspaceId?: string | null;
  issueId?: string | null;
  environmentId?: string | null;
  mode?: (typeof EXECUTION_WORKSPACE_MODES)[number];
  cwd?: string | null;
  branch?: string | null;
  baseRef?: string | null;
  metadata?: Record<string, unknown> | null;
  agentId?: string | null;
  leaseTtlSec?: number;
}

const DEFAULT_LEASE_TTL_SEC = 3600;

/** Opens a workspace; with an environment, a lease is acquired in the same batch (409 at capacity). */
export const openExecutionWorkspace = defineCommand("executionWorkspace.open", async (ctx, actor, input: OpenExecutionWorkspaceInput) => {
  let projectId = input.projectId ?? null;
  const projectWorkspace = input.projectWorkspaceId
    ? await ctx.db.query.projectWorkspaces.findFirst({ where: eq(schema.projectWorkspaces.id, input.projectWorkspaceId) })
    : null;
  if (input.projectWorkspaceId) {
    if (!projectWorkspace || projectWorkspace.companyId !== ctx.companyId)
      throw unprocessable("projectWorkspaceId must reference a project workspace of this company");
    if (projectId && projectWorkspace.projectId !== projectId) throw unprocessable("projectWorkspaceId belongs to another project");
    projectId = projectWorkspace.projectId;
  }
  const project = projectId ? await ctx.db.query.projects.findFirst({ where: eq(schema.projects.id, projectId) }) : null;
  if (projectId && (!project || project.companyId !== ctx.companyId)) throw unprocessable("projectId must reference a project of this company");
  if (input.issueId) {
    const issue = await ctx.db.query.issues.findFirst({ where: eq(schema.issues.id, input.issueId) });
    if (!issue || issue.companyId !== ctx.companyId) throw unprocessable("issueId must reference an issue of this company");
  }
  const agentId = input.agentId ?? (actor.type === "agent" ? actor.agentId : null);
  if (input.agentId) {
    const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, input.agentId) });
    if (!agent || agent.companyId !== ctx.companyId) throw unprocessable("agentId must reference an agent of this company");
  }
  const statements: Statement[] = [];
  const id = newId();
  let lease: typeof schema.environmentLeases.$inferSelect | null = null;
  if (input.environmentId) {
    const environment = await ctx.db.query.environments.findFirst({ where: eq(schema.environments.id, input.environmentId) });
    if (!environment || environment.companyId !== ctx.companyId) throw unprocessable("environmentId must reference an environment of this company");
    if (environment.status !== "active") throw unprocessable("The environment is disabled");
    const l = schema.environmentLeases;
    const [{ n }] = await ctx.db
      .select({ n: sql<number>`COUNT(*)`.mapWith(Number) })
      .from(l)
      .where(and(eq(l.environmentId, environment.id), eq(l.status, "active"), or(isNull(l.expiresAt), gt(l.expiresAt, ctx.now))));
    if (n >= environment.maxConcurrentLeases) {
      throw conflict("The environment has no free lease", {
        environmentId: environment.id,
        maxConcurrentLeases: environment.maxConcurrentLeases,
        activeLeases: n,
      });
    }
    lease = {
      id: newId(),
      companyId: ctx.companyId,
      environmentId: environment.id,
      executionWorkspaceId: id,
      issueId: input.issueId ?? null,
      agentId,
      runId: actor.runId ?? null,
      status: "active",
      acquiredAt: ctx.now,
      releasedAt: null,
      expiresAt: new Date(Date.parse(ctx.now) + (input.leaseTtlSec ?? DEFAULT_LEASE_TTL_SEC) * 1000).toISOString(),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
  }
  const policyMode = project?.executionWorkspacePolicy?.defaultMode;
  const row: ExecutionWorkspaceRow = {
    id,
    companyId: ctx.companyId,
    projectId,
    projectWorkspaceId: projectWorkspace?.id ?? null,
    issueId: input.issueId ?? null,
    environmentId: input.environmentId ?? null,
    mode: input.mode ?? (policyMode === "isolated" || policyMode === "shared" ? policyMode : "shared"),
    status: "open",
    cwd: input.cwd ?? projectWorkspace?.cwd ?? null,
    branch: input.branch ?? null,
    baseRef: input.baseRef ?? projectWorkspace?.repoRef ?? projectWorkspace?.defaultRef ?? null,
    desiredState: "stopped",
    runtimeServices: configuredServices(projectWorkspace?.runtimeConfig).map((s) => ({
      name: s.name,
      command: s.command,
      port: s.port ?? null,
      status: "stopped" as const,
      updatedAt: ctx.now,
    })),
    metadata: input.metadata ?? null,
    openedByAgentId: actor.type === "agent" ? actor.agentId : null,
    openedByUserId: actor.type === "board" ? actor.userId : null,
    openedAt: ctx.now,
    closedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  statements.push(ctx.db.insert(schema.executionWorkspaces).values(row));
  if (lease) statements.push(ctx.db.insert(schema.environmentLeases).values(lease));
  if (input.issueId) {
    statements.push(ctx.db.update(schema.issues).set({ executionWorkspaceId: id, updatedAt: ctx.now }).where(eq(schema.issues.id, input.issueId)));
  }
  statements.push(
    activity(ctx, "execution_workspace.opened", id, { projectId, issueId: row.issueId, environmentId: row.environmentId, leaseId: lease?.id ?? null }),
  );
  await ctx.batch(statements);
  return { ...executionWorkspaceView(row), lease: lease ? leaseView(lease, ctx.now) : null };
});

const stopAll = (services: RuntimeServiceState[], now: string) =>
  services.map((s) => (s.status === "running" ? { ...s, status: "stopped" as const, updatedAt: now } : s));
const desiredOf = (services: RuntimeServiceState[]) => (services.some((s) => s.status === "running") ? ("running" as const) : ("stopped" as const));

export interface UpdateExecutionWorkspaceInput {
  status?: (typeof EXECUTION_WORKSPACE_STATUSES)[number];
  desiredState?: (typeof DESIRED_STATES)[number];
  metadata?: Record<string, unknown> | null;
}

export const updateExecutionWorkspace = defineCommand(
  "executionWorkspace.update",
  async (ctx, actor, input: { id: string; fields: UpdateExecutionWorkspaceInput }) => {
    const before = await loadWorkspace(ctx, input.id);
    const { fields } = input;
    const set: Partial<ExecutionWorkspaceRow> = { updatedAt: ctx.now };
    const statements: Statement[] = [];
    let services = before.runtimeServices ?? [];
    const nextStatus = fields.status ?? before.status;
    if (!canMove(before.status, nextStatus)) {
      throw unprocessable(`Cannot move an execution workspace from ${before.status} to ${nextStatus}`, { from: before.status, to: nextStatus });
    }
    if (before.status === "closed" && (fields.desiredState !== undefined || fields.metadata !== undefined)) {
      throw unprocessable("The execution workspace is closed");
    }
    if (nextStatus === "closed" && before.status !== "closed") {
      const blockers = await closeBlockers(ctx.db, before, ctx.now);
      if (blockers.length) throw unprocessable("The execution workspace is not ready to close", { blockers });
      set.closedAt = ctx.now;
    }
    if (nextStatus === "closing" && before.status !== "closing") {
      services = stopAll(services, ctx.now);
      statements.push(releaseLeasesStatement(ctx, before.id));
    }
    if (fields.desiredState !== undefined && nextStatus === "open") {
      if (fields.desiredState === "stopped") services = stopAll(services, ctx.now);
      else {
        if (!services.length) throw unprocessable("The execution workspace has no runtime services to run");
        services = services.map((s) => ({ ...s, status: "running" as const, updatedAt: ctx.now }));
      }
    } else if (fields.desiredState === "running") {
      throw unprocessable(`Runtime services cannot run in a ${nextStatus} execution workspace`);
    }
    set.status = nextStatus;
    set.runtimeServices = services;
    set.desiredState = desiredOf(services);
    if (fields.metadata !== undefined) set.metadata = fields.metadata;
    statements.unshift(ctx.db.update(schema.executionWorkspaces).set(set).where(eq(schema.executionWorkspaces.id, before.id)));
    statements.push(
      activity(ctx, nextStatus !== before.status ? `execution_workspace.${nextStatus}` : "execution_workspace.updated", before.id, {
        from: before.status,
        to: nextStatus,
        desiredState: set.desiredState,
      }),
    );
    await ctx.batch(statements);
    return executionWorkspaceView(await loadWorkspace(ctx, before.id));
  },
);

export interface RuntimeActionBody {
  serviceName?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

export type RuntimeActionInput =
  | { id: string; kind: "runtime_service"; action: "start" | "stop" | "restart"; body: RuntimeActionBody }
  | { id: string; kind: "runtime_command"; action: "run" | "cancel"; body: RuntimeActionBody };

/**
 * Runtime services (start/stop/restart, one service by serviceName or all) and runtime commands
 * (run queues a command; cancel cancels queued ones, optionally only those of `command`).
 * Each call records a workspace operation; services update runtimeServices and desiredState.
 */
export const executionWorkspaceRuntimeAction = defineCommand("executionWorkspace.runtimeAction", async (ctx, actor, input: RuntimeActionInput) => {
  const ws = await loadWorkspace(ctx, input.id);
  if (
    ws.status !== "open" &&
    !(input.kind === "runtime_service" && input.action === "stop") &&
    !(input.kind === "runtime_command" && input.action === "cancel")
  ) {
    throw unprocessable(`The execution workspace is ${ws.status}`, { status: ws.status });
  }
  const { body } = input;
  const statements: Statement[] = [];
  let services = [...(ws.runtimeServices ?? [])];
  let operation;
  if (input.kind === "runtime_service") {
    const starting = input.action !== "stop";
    if (starting && !ws.cwd) throw unprocessable(`Cannot ${input.action} runtime services: the workspace has no cwd`);
    let targets: string[];
    if (body.serviceName) {
      const known = services.find((s) => s.name === body.serviceName);
      if (!known) {
        if (!starting || !body.command) {
          throw unprocessable(`Unknown runtime service "${body.serviceName}"${starting ? " (pass command to define it)" : ""}`, {
            serviceName: body.serviceName,
          });
        }
        services.push({ name: body.serviceName, command: body.command, port: null, status: "stopped", updatedAt: ctx.now });
      } else if (body.command && starting) {
        services = services.map((s) => (s.name === body.serviceName ? { ...s, command: body.command! } : s));
      }
      targets = [body.serviceName];
    } else {
      if (starting && !services.length) throw unprocessable("The execution workspace has no runtime services configured");
      targets = services.map((s) => s.name);
    }
    const status = starting ? ("running" as const) : ("stopped" as const);
    services = services.map((s) => (targets.includes(s.name) ? { ...s, status, updatedAt: ctx.now } : s));
    operation = operationRow(ctx, actor, {
      executionWorkspaceId: ws.id,
      kind: "runtime_service",
      action: input.action,
      target: body.serviceName ?? null,
      args: body.args ?? null,
      env: body.env ?? null,
      status: "applied",
      result: {
        desiredState: desiredOf(services),
        services: services.filter((s) => targets.includes(s.name)).map((s) => ({ name: s.name, status: s.status })),
      },
    });
  } else if (input.action === "run") {
    if (!body.command) throw unprocessable("command is required to run a runtime command");
    if (!ws.cwd) throw unprocessable("Cannot run a runtime command: the workspace has no cwd");
    operation = operationRow(ctx, actor, {
      executionWorkspaceId: ws.id,
      kind: "runtime_command",
      action: "run",
      target: body.command,
      args: body.args ?? null,
      env: body.env ?? null,
      status: "queued",
      result: null,
    });
  } else {
    const o = schema.workspaceOperations;
    const queued = await ctx.db
      .select({ id: o.id })
      .from(o)
      .where(
        and(eq(o.executionWorkspaceId, ws.id), eq(o.kind, "runtime_command"), eq(o.status, "queued"), body.command ? eq(o.target, body.command) : undefined),
      );
    const ids = queued.map((q) => q.id);
    if (ids.length) statements.push(ctx.db.update(o).set({ status: "cancelled", updatedAt: ctx.now }).where(inIds(o.id, ids)));
    operation = operationRow(ctx, actor, {
      executionWorkspaceId: ws.id,
      kind: "runtime_command",
      action: "cancel",
      target: body.command ?? null,
      status: "applied",
      result: { cancelledOperationIds: ids },
    });
  }
  statements.unshift(
    ctx.db
      .update(schema.executionWorkspaces)
      .set({ runtimeServices: services, desiredState: desiredOf(services), updatedAt: ctx.now })
      .where(eq(schema.executionWorkspaces.id, ws.id)),
  );
  statements.push(operationInsert(ctx, operation));
  statements.push(activity(ctx, `execution_workspace.${input.kind}_${input.action}`, ws.id, { operationId: operation.id, target: operation.target }));
  await ctx.batch(statements);
  return { workspace: executionWorkspaceView(await loadWorkspace(ctx, ws.id)), operation: operationView(operation) };
});

export const executionWorkspaceCommands = [openExecutionWorkspace, updateExecutionWorkspace, executionWorkspaceRuntimeAction];
