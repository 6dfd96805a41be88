// Environment mutations (run inside the company Durable Object): create, update, delete, probe.
import type { Statement } from "../../db/batch";
import { and, eq, gt, isNull, ne, or } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { badRequest, conflict, notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { environmentConfigSchemas, type EnvironmentKind } from "./kinds";
import { probeEnvironmentConfig } from "./probe";
import { environmentViewOf } from "./queries";
import type { EnvironmentRow } from "./view";

type Batch = [Statement, ...Statement[]];

export interface EnvironmentFields {
  name?: string;
  description?: string | null;
  config?: Record<string, unknown>;
  labels?: Record<string, string>;
  maxConcurrentLeases?: number;
  status?: EnvironmentRow["status"];
}

async function loadEnvironment(ctx: CommandContext, environmentId: string) {
  const row = await ctx.db.query.environments.findFirst({ where: eq(schema.environments.id, environmentId) });
  if (!row || row.companyId !== ctx.companyId) throw notFound("Environment not found");
  return row;
}

async function checkNameFree(ctx: CommandContext, name: string, exceptId: string | null) {
  const clash = await ctx.db.query.environments.findFirst({
    where: and(
      eq(schema.environments.companyId, ctx.companyId),
      eq(schema.environments.name, name),
      exceptId ? ne(schema.environments.id, exceptId) : undefined,
    ),
  });
  if (clash) throw conflict(`An environment named "${name}" already exists in this company`, { environmentId: clash.id });
}

/** Parses a config for the kind (400 on a bad shape) and requires its secret references to exist in the company (422). */
async function validConfig(ctx: CommandContext, kind: EnvironmentKind, config: unknown) {
  const parsed = environmentConfigSchemas[kind].safeParse(config);
  if (!parsed.success) {
    throw badRequest(
      `Invalid ${kind} config: ${parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; ")}`,
      parsed.error.issues,
    );
  }
  const probe = await probeEnvironmentConfig(ctx.db, ctx.companyId, kind, parsed.data);
  const badSecrets = probe.checks.filter((c) => c.name.startsWith("secret:") && !c.ok);
  if (badSecrets.length) throw unprocessable(badSecrets.map((c) => c.message).join("; "), { checks: badSecrets });
  return parsed.data as Record<string, unknown>;
}

const activity = (ctx: CommandContext, action: string, id: string, details: Record<string, unknown>) =>
  ctx.activity({ action, entityType: "environment", entityId: id, details });

export const createEnvironment = defineCommand(
  "environment.create",
  async (ctx, actor, input: Required<Pick<EnvironmentFields, "name" | "config">> & EnvironmentFields & { kind: EnvironmentKind }) => {
    await checkNameFree(ctx, input.name, null);
    const config = await validConfig(ctx, input.kind, input.config);
    const row: EnvironmentRow = {
      id: newId(),
      companyId: ctx.companyId,
      name: input.name,
      description: input.description ?? null,
      kind: input.kind,
      status: input.status ?? "active",
      config,
      labels: input.labels ?? {},
      maxConcurrentLeases: input.maxConcurrentLeases ?? 1,
      lastProbeAt: null,
      lastProbeStatus: null,
      lastProbeChecks: null,
      createdByAgentId: actor.type === "agent" ? actor.agentId : null,
      createdByUserId: actor.type === "board" ? actor.userId : null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.batch([ctx.db.insert(schema.environments).values(row), activity(ctx, "environment.created", row.id, { name: row.name, kind: row.kind })]);
    return environmentViewOf(ctx.db, row, ctx.now);
  },
);

export const updateEnvironment = defineCommand("environment.update", async (ctx, actor, input: { environmentId: string; fields: EnvironmentFields }) => {
  const before = await loadEnvironment(ctx, input.environmentId);
  const { fields } = input;
  if (fields.name !== undefined && fields.name !== before.name) await checkNameFree(ctx, fields.name, before.id);
  const set: Partial<EnvironmentRow> = { updatedAt: ctx.now };
  for (const key of ["name", "description", "labels", "maxConcurrentLeases", "status"] as const) {
    if (fields[key] !== undefined) (set as Record<string, unknown>)[key] = fields[key];
  }
  if (fields.config !== undefined) {
    set.config = await validConfig(ctx, before.kind, fields.config);
    // A new config invalidates the last probe.
    set.lastProbeAt = null;
    set.lastProbeStatus = null;
    set.lastProbeChecks = null;
  }
  await ctx.batch([
    ctx.db.update(schema.environments).set(set).where(eq(schema.environments.id, before.id)),
    activity(ctx, "environment.updated", before.id, { fields: Object.keys(fields).filter((k) => (fields as Record<string, unknown>)[k] !== undefined) }),
  ]);
  return environmentViewOf(ctx.db, await loadEnvironment(ctx, before.id), ctx.now);
});

export const deleteEnvironment = defineCommand("environment.delete", async (ctx, actor, input: { environmentId: string }) => {
  const row = await loadEnvironment(ctx, input.environmentId);
  const view = await environmentViewOf(ctx.db, row, ctx.now);
  if (view.activeLeaseCount > 0) {
    throw conflict("The environment has active leases; close their execution workspaces first", { activeLeaseCount: view.activeLeaseCount });
  }
  await ctx.batch([
    ctx.db.delete(schema.environments).where(eq(schema.environments.id, row.id)),
    activity(ctx, "environment.deleted", row.id, { name: row.name }),
  ]);
  return view;
});

export const probeEnvironment = defineCommand("environment.probe", async (ctx, actor, input: { environmentId: string }) => {
  const row = await loadEnvironment(ctx, input.environmentId);
  const result = await probeEnvironmentConfig(ctx.db, ctx.companyId, row.kind, row.config);
  const status = result.ok ? ("ok" as const) : ("failed" as const);
  await ctx.batch([
    ctx.db
      .update(schema.environments)
      .set({ lastProbeAt: ctx.now, lastProbeStatus: status, lastProbeChecks: result.checks, updatedAt: ctx.now })
      .where(eq(schema.environments.id, row.id)),
    activity(ctx, "environment.probed", row.id, { status }),
  ] as Batch);
  return { ...result, environmentId: row.id, probedAt: ctx.now };
});

/** Marks every live lease of an execution workspace released (statement for the caller's batch). */
export function releaseLeasesStatement(ctx: CommandContext, executionWorkspaceId: string) {
  const l = schema.environmentLeases;
  return ctx.db
    .update(l)
    .set({ status: "released", releasedAt: ctx.now, updatedAt: ctx.now })
    .where(and(eq(l.executionWorkspaceId, executionWorkspaceId), eq(l.status, "active"), or(isNull(l.expiresAt), gt(l.expiresAt, ctx.now))));
}

export const environmentCommands = [createEnvironment, updateEnvironment, deleteEnvironment, probeEnvironment];
