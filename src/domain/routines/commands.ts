// Routine mutations: create and update a routine; add, change, delete a trigger and rotate a
// webhook trigger's secret. Each loads in one batch outside the serialised section and writes one
// batch guarded by the routine's version (every change here bumps it).
import { and, eq, sql, type SQL } from "drizzle-orm";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import type { Statement } from "../../db/batch";
import { sameVersion } from "../../db/guards";
import { defineCommand, type CommandContext, type LoadScope } from "../../company/command";
import type { Actor } from "../actor";
import { forbidden, notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { addTaskAssignmentDecision, requireAssignmentAllowed } from "../authorization/assignment";
import type { CreateRoutineBody, CreateTriggerBody, UpdateRoutineBody, UpdateTriggerBody } from "../../schemas/routines";
import { REPLAY_WINDOW } from "./constants";
import type { RoutineVariable } from "../../db/schema/routines";
import { addRoutineReferenceChecks, type RoutineRefsInput } from "./references";
import { requiredWithoutDefault, validateVariables } from "./templates";
import { compileSchedule, DEFAULT_TIMEZONE, nextSlot, parseSchedule } from "./schedule";
import { newPublicId, newWebhookSecret, sealWebhookSecret } from "./webhook-signature";
import { routineView, triggerView, webhookUrl, type RoutineRow, type TriggerRow } from "./view";
import { findRoutine, findTriggerWithRoutine } from "./queries";

const r = schema.routines;
const t = schema.routineTriggers;

/** An agent may change only routines assigned to itself (403 otherwise). */
export function requireRoutineWriter(actor: Actor, routine: Pick<RoutineRow, "assigneeAgentId">) {
  if (actor.type === "agent" && routine.assigneeAgentId !== actor.agentId) throw forbidden("An agent may change only routines assigned to itself");
}

/**
 * Who may assign the routine to `assigneeAgentId`: an agent only to itself (403 otherwise); a board
 * caller needs the tasks:assign decision (added to `batch`, checked after it ran).
 */
function addAssigneeDecision(
  batch: ReadBatch,
  actor: Actor,
  companyId: string | SQL,
  assigneeAgentId: string | null | undefined,
): (resolvedCompanyId: string) => void {
  if (!assigneeAgentId) return () => undefined;
  if (actor.type === "agent") {
    if (assigneeAgentId !== actor.agentId) throw forbidden("An agent may assign routines only to itself");
    return () => undefined;
  }
  const decide = addTaskAssignmentDecision(batch, {
    actor,
    companyId,
    assigneeAgentId,
    assigneeUserId: null,
    projectId: null,
    issue: { id: "routine", executionPolicy: null },
  });
  return (resolvedCompanyId) => void requireAssignmentAllowed(decide(undefined, resolvedCompanyId));
}

/** A schedule trigger's next slot after `now`, when it is enabled and its routine active; else null. */
function scheduleNextRunAt(trigger: Pick<TriggerRow, "kind" | "enabled" | "cronExpression" | "timezone">, routineStatus: string, now: string): string | null {
  if (trigger.kind !== "schedule" || !trigger.enabled || routineStatus !== "active" || !trigger.cronExpression) return null;
  return nextSlot(compileSchedule(trigger.cronExpression, trigger.timezone ?? DEFAULT_TIMEZONE), new Date(now));
}

/** Refuses enabling schedules while required variables have no default. */
function requireSchedulable(variables: RoutineVariable[]) {
  const missing = requiredWithoutDefault(variables);
  if (missing.length) {
    throw unprocessable(`A schedule trigger cannot be enabled while required variables have no default: ${missing.join(", ")}`, {
      variablesWithoutDefault: missing,
    });
  }
}

/** The write batch holds only while the routine is the version the rule decided on. */
const routineUnchanged = (ctx: CommandContext, routine: RoutineRow) => ctx.guard(sameVersion(r, routine));
const bumpRoutine = (ctx: CommandContext, routine: RoutineRow) =>
  ctx.db
    .update(r)
    .set({ version: routine.version + 1, updatedAt: ctx.now })
    .where(eq(r.id, routine.id));

function routineOf(ctx: { companyId: string }, routine: RoutineRow | undefined): RoutineRow {
  if (!routine || routine.companyId !== ctx.companyId) throw notFound("Routine not found");
  return routine;
}

const companyOfRoutine = (scope: LoadScope, routineId: string) =>
  scope.companyId ?? sql<string>`(SELECT ${r.companyId} FROM ${r} WHERE ${r.id} = ${routineId})`;

// ---------------------------------------------------------------------------------------------
// Create

export const createRoutine = defineCommand("routine.create", {
  load: async (db: Db, scope, input: CreateRoutineBody) => {
    const companyId = scope.companyId!;
    const variables = (input.variables ?? []) as RoutineVariable[];
    validateVariables(variables, input.title, input.description);
    const batch = new ReadBatch(db);
    const assignee = addAssigneeDecision(batch, scope.actor, companyId, input.assigneeAgentId);
    const refs = addRoutineReferenceChecks(batch, input);
    await batch.run();
    const checked = refs(companyId);
    assignee(companyId);
    return { parentIssueId: checked.parentIssueId };
  },
  run: async (ctx, actor, input, loaded) => {
    const row: RoutineRow = {
      id: newId(),
      companyId: ctx.companyId,
      title: input.title,
      description: input.description ?? null,
      assigneeAgentId: input.assigneeAgentId,
      projectId: input.projectId ?? null,
      goalId: input.goalId ?? null,
      parentIssueId: loaded.parentIssueId,
      priority: input.priority ?? "medium",
      status: input.status ?? "active",
      concurrencyPolicy: input.concurrencyPolicy ?? "coalesce_if_active",
      catchUpPolicy: input.catchUpPolicy ?? "skip_missed",
      variables: (input.variables ?? []) as RoutineVariable[],
      createdByAgentId: actor.type === "agent" ? actor.agentId : null,
      createdByUserId: actor.type === "board" ? actor.userId : null,
      lastTriggeredAt: null,
      version: 0,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.batch([
      ctx.db.insert(r).values(row),
      ctx.activity({
        action: "routine.created",
        entityType: "routine",
        entityId: row.id,
        details: { title: row.title, assigneeAgentId: row.assigneeAgentId, status: row.status },
      }),
    ]);
    return routineView(row);
  },
});

// ---------------------------------------------------------------------------------------------
// Update

export interface UpdateRoutineInput {
  routineId: string;
  body: UpdateRoutineBody;
}

export const updateRoutine = defineCommand("routine.update", {
  load: async (db: Db, scope, input: UpdateRoutineInput) => {
    const { body } = input;
    const batch = new ReadBatch(db);
    const routine = batch.add(db.select().from(r).where(eq(r.id, input.routineId)));
    const triggers = batch.add(db.select().from(t).where(eq(t.routineId, input.routineId)));
    const refs = addRoutineReferenceChecks(batch, body as RoutineRefsInput);
    const assignee = addAssigneeDecision(batch, scope.actor, companyOfRoutine(scope, input.routineId), body.assigneeAgentId);
    await batch.run();
    const row = routine.value[0];
    if (!row || (scope.companyId && row.companyId !== scope.companyId)) throw notFound("Routine not found");
    const checked = refs(row.companyId);
    if (body.assigneeAgentId !== undefined && body.assigneeAgentId !== row.assigneeAgentId) assignee(row.companyId);
    return { routine: row, triggers: triggers.value, parentIssueId: checked.parentIssueId };
  },
  run: async (ctx, actor, input, loaded) => {
    const before = routineOf(ctx, loaded.routine);
    requireRoutineWriter(actor, before);
    const { body } = input;
    const set: Partial<RoutineRow> = {};
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const note = <K extends keyof RoutineRow>(key: K, value: RoutineRow[K]) => {
      if (JSON.stringify(before[key] ?? null) === JSON.stringify(value ?? null)) return;
      changes[key] = { from: before[key] ?? null, to: value ?? null };
      set[key] = value;
    };
    if (body.title !== undefined) note("title", body.title);
    if (body.description !== undefined) note("description", body.description ?? null);
    if (body.assigneeAgentId !== undefined) note("assigneeAgentId", body.assigneeAgentId ?? null);
    if (body.projectId !== undefined) note("projectId", body.projectId ?? null);
    if (body.goalId !== undefined) note("goalId", body.goalId ?? null);
    if (body.parentIssueId !== undefined) note("parentIssueId", body.parentIssueId ? loaded.parentIssueId : null);
    if (body.priority !== undefined) note("priority", body.priority);
    if (body.concurrencyPolicy !== undefined) note("concurrencyPolicy", body.concurrencyPolicy);
    if (body.catchUpPolicy !== undefined) note("catchUpPolicy", body.catchUpPolicy);
    if (body.variables !== undefined) note("variables", body.variables as RoutineVariable[]);
    const after: RoutineRow = { ...before, ...set };
    validateVariables(after.variables, after.title, after.description);

    // Status: an explicit activation needs an assignee; clearing the assignee pauses an active routine.
    let status = body.status ?? before.status;
    if (!after.assigneeAgentId && status === "active") {
      if (body.status === "active") throw unprocessable("An active routine needs an assignee (assigneeAgentId)");
      status = "paused";
    }
    note("status", status);
    after.status = status;

    const enabledSchedules = loaded.triggers.filter((trigger) => trigger.kind === "schedule" && trigger.enabled);
    if (enabledSchedules.length && body.variables !== undefined) requireSchedulable(after.variables);

    const statements: Statement[] = [
      routineUnchanged(ctx, before),
      ctx.db
        .update(r)
        .set({ ...set, version: before.version + 1, updatedAt: ctx.now })
        .where(eq(r.id, before.id)),
    ];
    // A status change starts or stops the schedule: the next slot is counted from now (missed ones while paused are not caught up).
    if (after.status !== before.status) {
      for (const trigger of enabledSchedules) {
        statements.push(
          ctx.db
            .update(t)
            .set({ nextRunAt: scheduleNextRunAt(trigger, after.status, ctx.now), updatedAt: ctx.now })
            .where(eq(t.id, trigger.id)),
        );
      }
    }
    statements.push(ctx.activity({ action: "routine.updated", entityType: "routine", entityId: before.id, details: { changes } }));
    await ctx.batch(statements);
    return routineView({ ...after, version: before.version + 1, updatedAt: ctx.now });
  },
});

// ---------------------------------------------------------------------------------------------
// Triggers

/** A trigger as the create and rotate responses show it: with the webhook URL and secret once. */
export type TriggerWithSecret = ReturnType<typeof triggerView> & { webhookUrl?: string; webhookSecret?: string };

interface RoutineLoaded {
  routine: RoutineRow;
}

/** The routine for a trigger mutation, with the writer check. */
async function loadRoutineForWrite(db: Db, scope: LoadScope, routineId: string): Promise<RoutineLoaded> {
  const row = await findRoutine(db, routineId);
  if (!row || (scope.companyId && row.companyId !== scope.companyId)) throw notFound("Routine not found");
  return { routine: row };
}

export interface CreateTriggerInput {
  routineId: string;
  body: CreateTriggerBody;
  /** Where the public fire URL points. */
  publicBaseUrl: string;
}

export const createTrigger = defineCommand("routine.triggerCreate", {
  load: (db: Db, scope, input: CreateTriggerInput) => loadRoutineForWrite(db, scope, input.routineId),
  run: async (ctx, actor, input, loaded): Promise<TriggerWithSecret> => {
    const routine = routineOf(ctx, loaded.routine);
    requireRoutineWriter(actor, routine);
    const { body } = input;
    const id = newId();
    const enabled = body.enabled ?? true;
    const row: TriggerRow = {
      id,
      companyId: ctx.companyId,
      routineId: routine.id,
      kind: body.kind,
      label: body.label ?? null,
      enabled,
      cronExpression: null,
      timezone: null,
      nextRunAt: null,
      lastFiredAt: null,
      publicId: null,
      signingMode: null,
      replayWindowSec: null,
      secretCiphertext: null,
      secretVersion: 0,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    let secret: string | undefined;
    if (body.kind === "schedule") {
      row.cronExpression = body.cronExpression;
      row.timezone = body.timezone ?? DEFAULT_TIMEZONE;
      parseSchedule(row.cronExpression, row.timezone);
      if (enabled) requireSchedulable(routine.variables);
      row.nextRunAt = scheduleNextRunAt(row, routine.status, ctx.now);
    } else if (body.kind === "webhook") {
      row.signingMode = body.signingMode ?? "bearer";
      row.replayWindowSec = body.replayWindowSec ?? REPLAY_WINDOW.default;
      row.publicId = newPublicId();
      secret = newWebhookSecret();
      row.secretCiphertext = await sealWebhookSecret(ctx.env, id, 0, secret);
    }
    await ctx.batch([
      routineUnchanged(ctx, routine),
      ctx.db.insert(t).values(row),
      bumpRoutine(ctx, routine),
      ctx.activity({
        action: "routine.trigger_created",
        entityType: "routine",
        entityId: routine.id,
        details: { triggerId: id, kind: row.kind, label: row.label },
      }),
    ]);
    return { ...triggerView(row), ...(row.publicId ? { webhookUrl: webhookUrl(input.publicBaseUrl, row.publicId), webhookSecret: secret } : {}) };
  },
});

interface TriggerLoaded {
  trigger: TriggerRow;
  routine: RoutineRow;
}

async function loadTriggerForWrite(db: Db, scope: LoadScope, triggerId: string): Promise<TriggerLoaded> {
  const row = await findTriggerWithRoutine(db, triggerId);
  if (!row || (scope.companyId && row.trigger.companyId !== scope.companyId)) throw notFound("Trigger not found");
  return row;
}

/** The loaded trigger of the command's company, if the actor may change its routine. */
function triggerOf(ctx: { companyId: string }, actor: Actor, loaded: TriggerLoaded) {
  if (loaded.trigger.companyId !== ctx.companyId) throw notFound("Trigger not found");
  requireRoutineWriter(actor, loaded.routine);
  return loaded;
}

export interface UpdateTriggerInput {
  triggerId: string;
  body: UpdateTriggerBody;
}

export const updateTrigger = defineCommand("routine.triggerUpdate", {
  load: (db: Db, scope, input: UpdateTriggerInput) => loadTriggerForWrite(db, scope, input.triggerId),
  run: async (ctx, actor, input, loaded) => {
    const { trigger: before, routine } = triggerOf(ctx, actor, loaded);
    const { body } = input;
    const scheduleFields = body.cronExpression !== undefined || body.timezone !== undefined;
    const webhookFields = body.signingMode !== undefined || body.replayWindowSec !== undefined;
    if (scheduleFields && before.kind !== "schedule") throw unprocessable("cronExpression and timezone apply only to schedule triggers");
    if (webhookFields && before.kind !== "webhook") throw unprocessable("signingMode and replayWindowSec apply only to webhook triggers");
    const after: TriggerRow = {
      ...before,
      label: body.label !== undefined ? (body.label ?? null) : before.label,
      enabled: body.enabled ?? before.enabled,
      cronExpression: body.cronExpression ?? before.cronExpression,
      timezone: body.timezone ?? before.timezone,
      signingMode: body.signingMode ?? before.signingMode,
      replayWindowSec: body.replayWindowSec ?? before.replayWindowSec,
      updatedAt: ctx.now,
    };
    if (after.kind === "schedule") {
      parseSchedule(after.cronExpression!, after.timezone ?? DEFAULT_TIMEZONE);
      if (after.enabled && (!before.enabled || scheduleFields)) requireSchedulable(routine.variables);
      after.nextRunAt = scheduleNextRunAt(after, routine.status, ctx.now);
    }
    const changed = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    await ctx.batch([
      routineUnchanged(ctx, routine),
      ctx.db
        .update(t)
        .set({
          label: after.label,
          enabled: after.enabled,
          cronExpression: after.cronExpression,
          timezone: after.timezone,
          nextRunAt: after.nextRunAt,
          signingMode: after.signingMode,
          replayWindowSec: after.replayWindowSec,
          updatedAt: ctx.now,
        })
        .where(eq(t.id, before.id)),
      bumpRoutine(ctx, routine),
      ctx.activity({ action: "routine.trigger_updated", entityType: "routine", entityId: routine.id, details: { triggerId: before.id, changes: changed } }),
    ]);
    return triggerView(after);
  },
});

export const deleteTrigger = defineCommand("routine.triggerDelete", {
  load: (db: Db, scope, input: { triggerId: string }) => loadTriggerForWrite(db, scope, input.triggerId),
  run: async (ctx, actor, _input, loaded) => {
    const { trigger, routine } = triggerOf(ctx, actor, loaded);
    await ctx.batch([
      routineUnchanged(ctx, routine),
      ctx.db.delete(t).where(and(eq(t.id, trigger.id), eq(t.companyId, ctx.companyId))),
      bumpRoutine(ctx, routine),
      ctx.activity({ action: "routine.trigger_deleted", entityType: "routine", entityId: routine.id, details: { triggerId: trigger.id, kind: trigger.kind } }),
    ]);
    return { ok: true as const };
  },
});

export const rotateTriggerSecret = defineCommand("routine.triggerRotateSecret", {
  load: (db: Db, scope, input: { triggerId: string; publicBaseUrl: string }) => loadTriggerForWrite(db, scope, input.triggerId),
  run: async (ctx, actor, input, loaded): Promise<TriggerWithSecret> => {
    const { trigger, routine } = triggerOf(ctx, actor, loaded);
    if (trigger.kind !== "webhook" || !trigger.publicId) throw unprocessable("Only webhook triggers have a secret to rotate", { kind: trigger.kind });
    const secret = newWebhookSecret();
    const version = trigger.secretVersion + 1;
    const sealed = await sealWebhookSecret(ctx.env, trigger.id, version, secret);
    await ctx.batch([
      routineUnchanged(ctx, routine),
      ctx.db.update(t).set({ secretCiphertext: sealed, secretVersion: version, updatedAt: ctx.now }).where(eq(t.id, trigger.id)),
      bumpRoutine(ctx, routine),
      ctx.activity({ action: "routine.trigger_secret_rotated", entityType: "routine", entityId: routine.id, details: { triggerId: trigger.id } }),
    ]);
    return {
      ...triggerView({ ...trigger, secretVersion: version, updatedAt: ctx.now }),
      webhookUrl: webhookUrl(input.publicBaseUrl, trigger.publicId),
      webhookSecret: secret,
    };
  },
});

export const routineCrudCommands = [createRoutine, updateRoutine, createTrigger, updateTrigger, deleteTrigger, rotateTriggerSecret];
