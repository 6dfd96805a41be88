// Firing a routine: a schedule slot, a manual or API run, or a public webhook call becomes one
// routine run, decided inside the company Durable Object so a routine never double-fires:
//   - the same idempotency key returns the first run;
//   - a paused project gives a `skipped` run (failureReason `paused`); an assignee or company that
//     cannot run gives a `failed` run with the reason (an uninvokable assignee also pauses the routine);
//   - a live execution issue is coalesced into (`coalesce_if_active`), skipped (`skip_if_active`) or
//     ignored (`always_enqueue`);
//   - otherwise a new execution issue (rendered templates, the routine's project, goal and parent,
//     assigned to the routine's agent) is created and the agent woken.
// The facts are read in one batch (in the Worker for requests, in the object for ticks); the write
// batch is guarded by the routine's version, the live execution issue and the idempotency key.
import { and, desc, eq, notInArray, sql, type SQL } from "drizzle-orm";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import type { Statement } from "../../db/batch";
import type { ROUTINE_RUN_SOURCES } from "../../db/schema/routines";
import { noRowExists, sameVersion } from "../../db/guards";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { conflict, HttpError, notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { TERMINAL_ISSUE_STATUSES } from "../../db/schema/issues";
import { ISSUE_DESCRIPTION_MAX, ISSUE_TITLE_MAX } from "../issues/limits";
import { issueInsert, newIssueRow } from "../issues/commands";
import { commitIssueNumber, companyCounterStatement, isNumberClash, issueNumbering, recountIssueNumbers } from "../issues/numbering";
import { wakeupStatementsFrom } from "../wakeups/enqueue";
import { skipReasonOf } from "../runs/dispatch";
import { addRoutineReferenceChecks, isInvokableAgentStatus } from "./references";
import { resolveVariables } from "./templates";
import { renderTemplate } from "../templates/render";
import { routineRunView, type RoutineRow, type RoutineRunRow, type TriggerRow } from "./view";

const r = schema.routines;
const runs = schema.routineRuns;
const issues = schema.issues;

export type FireSource = (typeof ROUTINE_RUN_SOURCES)[number];

export interface FireInput {
  routineId: string;
  source: FireSource;
  triggerId?: string | null;
  payload?: unknown;
  variables?: Record<string, unknown>;
  /** Overrides for this run (manual and API runs). */
  projectId?: string;
  assigneeAgentId?: string;
  executionWorkspaceId?: string;
  executionWorkspacePreference?: string;
  executionWorkspaceSettings?: Record<string, unknown>;
  idempotencyKey?: string | null;
  /** Webhook: the trigger's secret version the signature was checked with (a rotation since refuses the call). */
  secretVersion?: number;
  /** Webhook: the signing mode the call was checked under (a mode changed since refuses the call). */
  signingMode?: string;
  /** Webhook, timestamped mode: the signature to remember until its replay window has passed. */
  replayKey?: { signature: string; expiresAt: number };
}

export interface FireFacts {
  routine: RoutineRow;
  trigger: TriggerRow | null;
  existing: RoutineRunRow | null;
  /** The newest open execution issue of the routine and the run that created it. */
  active: { issueId: string; runId: string | null } | null;
  agent: { id: string; status: string; pauseReason: string | null } | null;
  company: { status: string; pauseReason: string | null };
  project: { id: string; pausedAt: string | null } | null;
}

/** SQL: the routine's execution issues that are still open (the newest is the one a fire coalesces into). */
const openExecutionIssues = (companyId: string | SQL, routineId: string) =>
  and(
    eq(issues.companyId, companyId),
    eq(issues.originKind, "routine_execution"),
    eq(issues.originId, routineId),
    notInArray(issues.status, [...TERMINAL_ISSUE_STATUSES]),
  )!;

/** Every fact a fire decides on, in one read batch; 404 when the routine is not in `companyId` (when given). */
export async function loadFireFacts(db: Db, input: FireInput, companyId?: string): Promise<FireFacts> {
  const batch = new ReadBatch(db);
  const routine = batch.add(db.select().from(r).where(eq(r.id, input.routineId)));
  const trigger = input.triggerId ? batch.add(db.select().from(schema.routineTriggers).where(eq(schema.routineTriggers.id, input.triggerId))) : null;
  const routineCompany = sql<string>`(SELECT ${r.companyId} FROM ${r} WHERE ${r.id} = ${input.routineId})`;
  const existing = input.idempotencyKey
    ? batch.add(
        db
          .select()
          .from(runs)
          .where(and(eq(runs.routineId, input.routineId), eq(runs.idempotencyKey, input.idempotencyKey))),
      )
    : null;
  const active = batch.add(
    db
      .select({
        issueId: issues.id,
        runId: sql<
          string | null
        >`(SELECT rr.id FROM routine_runs rr WHERE rr.linked_issue_id = issues.id AND rr.status != 'coalesced' ORDER BY rr.created_at LIMIT 1)`,
      })
      .from(issues)
      .where(openExecutionIssues(routineCompany, input.routineId))
      .orderBy(desc(issues.createdAt), desc(issues.id))
      .limit(1),
  );
  const company = batch.add(
    db
      .select({ status: schema.companies.status, pauseReason: schema.companies.pauseReason })
      .from(schema.companies)
      .where(sql`${schema.companies.id} = ${routineCompany}`),
  );
  const assigneeRef = input.assigneeAgentId ?? sql<string>`(SELECT ${r.assigneeAgentId} FROM ${r} WHERE ${r.id} = ${input.routineId})`;
  const agent = batch.add(
    db
      .select({ id: schema.agents.id, companyId: schema.agents.companyId, status: schema.agents.status, pauseReason: schema.agents.pauseReason })
      .from(schema.agents)
      .where(sql`${schema.agents.id} = ${assigneeRef}`),
  );
  const projectRef = input.projectId ?? sql<string>`(SELECT ${r.projectId} FROM ${r} WHERE ${r.id} = ${input.routineId})`;
  const project = batch.add(
    db
      .select({ id: schema.projects.id, companyId: schema.projects.companyId, pausedAt: schema.projects.pausedAt })
      .from(schema.projects)
      .where(sql`${schema.projects.id} = ${projectRef}`),
  );
  const overrides = addRoutineReferenceChecks(batch, { executionWorkspaceId: input.executionWorkspaceId });
  await batch.run();
  const row = routine.value[0];
  if (!row || (companyId && row.companyId !== companyId)) throw notFound("Routine not found");
  overrides(row.companyId);
  const agentRow = agent.value[0];
  if (input.assigneeAgentId && agentRow?.companyId !== row.companyId)
    throw unprocessable("assigneeAgentId must reference an agent of this company", { assigneeAgentId: input.assigneeAgentId });
  const projectRow = project.value[0];
  if (input.projectId && projectRow?.companyId !== row.companyId)
    throw unprocessable("projectId must reference a project of this company", { projectId: input.projectId });
  const triggerRow = trigger?.value[0] ?? null;
  return {
    routine: row,
    trigger: triggerRow && triggerRow.companyId === row.companyId ? triggerRow : null,
    existing: existing?.value[0] ?? null,
    active: active.value[0] ?? null,
    agent: agentRow && agentRow.companyId === row.companyId ? { id: agentRow.id, status: agentRow.status, pauseReason: agentRow.pauseReason } : null,
    company: company.value[0] ?? { status: "archived", pauseReason: null },
    project: projectRow && projectRow.companyId === row.companyId ? { id: projectRow.id, pausedAt: projectRow.pausedAt } : null,
  };
}

/** What one fire does. */
export type FireOutcome =
  | { kind: "existing"; run: RoutineRunRow }
  | {
      kind: "record";
      status: "skipped" | "failed" | "coalesced";
      failureReason: string | null;
      linkedIssueId: string | null;
      coalescedIntoRunId: string | null;
      pauseRoutine?: boolean;
    }
  | { kind: "create"; values: Record<string, string | number | boolean>; agentId: string };

/** The refusals that answer the caller (nothing is recorded), then the outcome. Pure. */
export function decideFire(facts: FireFacts, input: FireInput): FireOutcome {
  const { routine } = facts;
  if (facts.existing) return { kind: "existing", run: facts.existing };
  if (input.triggerId) {
    const trigger = facts.trigger;
    if (!trigger || trigger.routineId !== routine.id) throw unprocessable("triggerId must reference a trigger of this routine", { triggerId: input.triggerId });
    if (!trigger.enabled) throw conflict("Trigger is disabled", { triggerId: trigger.id });
    if (input.secretVersion !== undefined && trigger.secretVersion !== input.secretVersion) throw new HttpError(401, "Invalid webhook secret (it was rotated)");
    if (input.signingMode !== undefined && trigger.signingMode !== input.signingMode)
      throw new HttpError(401, "The trigger's signing mode changed; sign the call again");
  }
  if (routine.status === "archived") throw conflict("Routine is archived", { routineId: routine.id, status: routine.status });
  if ((input.source === "schedule" || input.source === "webhook") && routine.status !== "active") {
    throw conflict("Routine is not active", { routineId: routine.id, status: routine.status });
  }
  const values = resolveVariables(routine.variables, input.variables ?? {});
  const record = (
    status: "skipped" | "failed" | "coalesced",
    failureReason: string | null,
    extra: Partial<Extract<FireOutcome, { kind: "record" }>> = {},
  ): FireOutcome => ({
    kind: "record",
    status,
    failureReason,
    linkedIssueId: null,
    coalescedIntoRunId: null,
    ...extra,
  });
  if (!facts.agent) return record("failed", "no_assignee");
  if (!isInvokableAgentStatus(facts.agent.status))
    return record("failed", "agent.not_invokable", { pauseRoutine: facts.agent.id === routine.assigneeAgentId && routine.status === "active" });
  const cannotRun = skipReasonOf(facts.company, facts.agent);
  if (cannotRun) return record("failed", cannotRun);
  if (facts.project?.pausedAt) return record("skipped", "paused");
  if (facts.active && routine.concurrencyPolicy !== "always_enqueue") {
    if (routine.concurrencyPolicy === "skip_if_active") return record("skipped", null, { linkedIssueId: facts.active.issueId });
    return record("coalesced", null, { linkedIssueId: facts.active.issueId, coalescedIntoRunId: facts.active.runId });
  }
  return { kind: "create", values, agentId: facts.agent.id };
}

/** The batch holds only on the facts the rule decided on. */
function factsUnchanged(ctx: CommandContext, facts: FireFacts, input: FireInput): Statement {
  const { routine } = facts;
  const activeNow = sql`(SELECT ${issues.id} FROM ${issues} WHERE ${openExecutionIssues(routine.companyId, routine.id)} ORDER BY ${issues.createdAt} DESC, ${issues.id} DESC LIMIT 1)`;
  const keyFree = input.idempotencyKey ? noRowExists(runs, { routineId: routine.id, idempotencyKey: input.idempotencyKey }) : undefined;
  // always_enqueue does not look at the live execution issue, so it does not depend on it either.
  const sameActive = routine.concurrencyPolicy === "always_enqueue" ? undefined : sql`IFNULL(${activeNow}, '') = ${facts.active?.issueId ?? ""}`;
  return ctx.guard(and(sameVersion(r, routine), sameActive, keyFree)!);
}

/** Records the fire: one guarded write batch (plus a numbering read when the object is cold). */
export async function recordFire(ctx: CommandContext, actor: Actor, facts: FireFacts, input: FireInput, outcome: Exclude<FireOutcome, { kind: "existing" }>) {
  const { routine } = facts;
  const runRow: RoutineRunRow = {
    id: newId(),
    companyId: ctx.companyId,
    routineId: routine.id,
    triggerId: input.triggerId ?? null,
    source: input.source,
    status: "received",
    triggerPayload: input.payload ?? null,
    variables: input.variables && Object.keys(input.variables).length ? input.variables : null,
    linkedIssueId: null,
    coalescedIntoRunId: null,
    failureReason: null,
    idempotencyKey: input.idempotencyKey ?? null,
    completedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const common: Statement[] = [
    factsUnchanged(ctx, facts, input),
    ctx.db.update(r).set({ lastTriggeredAt: ctx.now }).where(eq(r.id, routine.id)),
    ...(input.triggerId ? [ctx.db.update(schema.routineTriggers).set({ lastFiredAt: ctx.now }).where(eq(schema.routineTriggers.id, input.triggerId))] : []),
  ];
  const fired = (row: RoutineRunRow) =>
    ctx.activity({
      action: "routine.fired",
      entityType: "routine",
      entityId: routine.id,
      details: {
        runId: row.id,
        source: row.source,
        triggerId: row.triggerId,
        status: row.status,
        linkedIssueId: row.linkedIssueId,
        failureReason: row.failureReason,
      },
    });

  if (outcome.kind === "record") {
    const row: RoutineRunRow = {
      ...runRow,
      status: outcome.status,
      failureReason: outcome.failureReason,
      linkedIssueId: outcome.linkedIssueId,
      coalescedIntoRunId: outcome.coalescedIntoRunId,
      completedAt: outcome.status === "coalesced" ? null : ctx.now,
    };
    const statements: Statement[] = [...common, ctx.db.insert(runs).values(row), fired(row)];
    // An assignee that can no longer be invoked pauses the routine (it would fail every time).
    if (outcome.pauseRoutine) {
      statements.push(
        ctx.db
          .update(r)
          .set({ status: "paused", version: routine.version + 1, updatedAt: ctx.now })
          .where(eq(r.id, routine.id)),
      );
      statements.push(ctx.db.update(schema.routineTriggers).set({ nextRunAt: null }).where(eq(schema.routineTriggers.routineId, routine.id)));
      statements.push(
        ctx.activity({
          action: "routine.updated",
          entityType: "routine",
          entityId: routine.id,
          details: { changes: { status: { from: "active", to: "paused" } }, reason: "agent.not_invokable" },
        }),
      );
    }
    await ctx.batch(statements);
    return routineRunView(row);
  }

  // Filled-in variables may make the text longer than an issue allows: cut it to the issue limits.
  const title = (renderTemplate(routine.title, outcome.values).trim() || routine.title).slice(0, ISSUE_TITLE_MAX);
  const description = routine.description === null ? null : renderTemplate(routine.description, outcome.values).slice(0, ISSUE_DESCRIPTION_MAX);
  for (let attempt = 0; ; attempt++) {
    const numbering = await issueNumbering(ctx);
    const projectId = input.projectId ?? routine.projectId;
    const goalId = routine.goalId ?? (projectId ? null : numbering.defaultGoalId);
    const issueId = newId();
    const issue = newIssueRow(ctx, actor, {
      id: issueId,
      number: numbering.next,
      identifier: `${numbering.prefix}-${numbering.next}`,
      title,
      description,
      status: "todo",
      priority: routine.priority,
      projectId,
      goalId,
      parentId: routine.parentIssueId,
      assigneeAgentId: outcome.agentId,
      executionWorkspaceId: input.executionWorkspaceId ?? null,
      executionWorkspacePreference: input.executionWorkspacePreference ?? null,
      executionWorkspaceSettings: input.executionWorkspaceSettings ?? null,
      originKind: "routine_execution",
      originId: routine.id,
    });
    const row: RoutineRunRow = { ...runRow, status: "issue_created", linkedIssueId: issueId };
    const wake = wakeupStatementsFrom(
      ctx,
      actor,
      [
        {
          agentId: outcome.agentId,
          reason: "routine",
          source: "routine",
          issueId,
          context: {
            issueId,
            identifier: issue.identifier,
            routineId: routine.id,
            routineRunId: row.id,
            triggerId: row.triggerId,
            source: row.source,
            payload: row.triggerPayload,
          },
        },
      ],
      {
        companyActive: facts.company.status === "active",
        companyPauseReason: facts.company.pauseReason,
        agentStatus: new Map([[outcome.agentId, facts.agent!.status]]),
        agentPauseReason: new Map([[outcome.agentId, facts.agent!.pauseReason]]),
        holders: new Map(),
      },
    );
    const statements: Statement[] = [
      ...common,
      issueInsert(ctx.db, issue),
      companyCounterStatement(ctx, issue.number),
      ctx.db.insert(runs).values(row),
      ...wake.statements,
      ctx.activity({
        action: "issue.created",
        entityType: "issue",
        entityId: issueId,
        details: {
          identifier: issue.identifier,
          title: issue.title,
          status: issue.status,
          priority: issue.priority,
          assigneeAgentId: issue.assigneeAgentId,
          routineId: routine.id,
        },
      }),
      fired(row),
    ];
    try {
      await ctx.batch(statements);
    } catch (err) {
      if (isNumberClash(err) && attempt < 3) {
        await recountIssueNumbers(ctx);
        continue;
      }
      throw err;
    }
    commitIssueNumber(ctx, issue.number);
    return routineRunView(row);
  }
}

/** Decides and records one fire; a timestamped signature is remembered only if the fire happened. */
async function fireOnce(ctx: CommandContext, actor: Actor, facts: FireFacts, input: FireInput) {
  const outcome = decideFire(facts, input);
  if (outcome.kind === "existing") return routineRunView(outcome.run);
  const replay = input.replayKey;
  if (replay && input.triggerId) {
    if (!ctx.storage.signatures.remember(input.triggerId, replay.signature, Date.parse(ctx.now), replay.expiresAt)) {
      throw conflict("This webhook signature was already used (replay refused)");
    }
  }
  try {
    return await recordFire(ctx, actor, facts, input, outcome);
  } catch (err) {
    if (replay && input.triggerId) ctx.storage.signatures.forget(input.triggerId, replay.signature);
    throw err;
  }
}

/** Fires a routine for a request (manual, API or webhook run). */
export const fireRoutine = defineCommand("routine.fire", {
  load: (db: Db, scope, input: FireInput) => loadFireFacts(db, input, scope.companyId),
  run: async (ctx, actor, input, facts) => {
    if (facts.routine.companyId !== ctx.companyId) throw notFound("Routine not found");
    return fireOnce(ctx, actor, facts, input);
  },
});

export { fireOnce };
