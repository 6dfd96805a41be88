// Issue mutations: create, update, comment, labels, per-user read/archive marks. Checkout and
// release live in ./checkout.ts. Each command with reads loads them in one batch outside the
// serialised section and writes one guarded batch inside it (see src/company/command.ts).
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Statement } from "../../db/batch";
import { ReadBatch } from "../../db/read-batch";
import { template } from "../../db/templates";
import { schema } from "../../db/client";
import { sameVersion } from "../../db/guards";
import { defineCommand, type CommandContext, type LoadScope } from "../../company/command";
import type { Actor } from "../actor";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { addTaskAssignmentDecision, requireAssignmentAllowed } from "../authorization/assignment";
import type { Db } from "../../db/client";
import { liveHolder, wakeupStatementsFrom, type WakeFacts, type WakeupRequestInput } from "../wakeups/enqueue";
import type { CreateIssueBody, UpdateIssueBody } from "../../schemas/issues";
import { actorRunFrom, actorRunSeen, addActorRunRead, type ActorRunFacts } from "../runs/actor-run";
import { agentRunForIssueMutation, requireIssueRunOwnership, runLinkStatement } from "./ownership";
import { loadIssueInCompany } from "./load";
import { commitIssueNumber, companyCounterStatement, isNumberClash, issueNumbering, recountIssueNumbers } from "./numbering";
import { addReferenceChecks, issueIdOf, type CheckedReferences } from "./references";
import { addCompanyAgentsRead, addDependentsRead, addIssueSnapshotReads, type CompanyAgents, type Dependent, type IssueSnapshot } from "./snapshot";
import { assignmentWakeups, blockerResolvedWakeups, commentWakeups } from "./wakeups";
import { commentView, issueView, isTerminalStatus, labelView, type IssueRelations, type IssueRow } from "./view";
import { LIVE_RUN_STATUSES } from "../../db/schema/runs";
import { CLEARED_LOCK_FIELDS, lockAsRead } from "./locks";
import { routineRunOutcomeStatement } from "../routines/outcome";

export { CLEARED_LOCK_FIELDS } from "./locks";

/** startedAt / completedAt / cancelledAt for a status change. */
function statusTimestamps(from: IssueRow | null, to: string, now: string) {
  const fields: Partial<Pick<IssueRow, "startedAt" | "completedAt" | "cancelledAt">> = {};
  if (to === "in_progress" && !from?.startedAt) fields.startedAt = now;
  if (to === "done") fields.completedAt = now;
  else if (from?.completedAt) fields.completedAt = null;
  if (to === "cancelled") fields.cancelledAt = now;
  else if (from?.cancelledAt) fields.cancelledAt = null;
  return fields;
}

function creatorFields(actor: Actor) {
  return {
    createdByAgentId: actor.type === "agent" ? actor.agentId : null,
    createdByUserId: actor.type === "board" ? actor.userId : null,
  };
}

function labelStatements(ctx: CommandContext, issueId: string, labelIds: string[]): Statement[] {
  return labelIds.map((labelId) => ctx.db.insert(schema.issueLabels).values({ issueId, labelId, companyId: ctx.companyId }));
}

function blockerStatements(ctx: CommandContext, issueId: string, blockerIds: string[]): Statement[] {
  return blockerIds.map((blockerIssueId) =>
    ctx.db.insert(schema.issueBlockers).values({ issueId, blockerIssueId, companyId: ctx.companyId, createdAt: ctx.now }),
  );
}

/** The company a loader works in: the scope's, else the issue's own (entity routes). */
const companyOfIssue = (scope: LoadScope, ref: string) =>
  scope.companyId ?? sql<string>`(SELECT ${schema.issues.companyId} FROM ${schema.issues} WHERE ${schema.issues.id} = ${issueIdOf(ref)})`;

/** The snapshot of the issue in the command's company (404 otherwise). */
function issueIn(ctx: { companyId: string }, snapshot: IssueSnapshot | null): IssueSnapshot {
  if (!snapshot || snapshot.issue.companyId !== ctx.companyId) throw notFound("Issue not found");
  return snapshot;
}

/** Wake facts without holders (a new issue is held by nobody). */
const wakeFactsOf = (company: CompanyAgents): WakeFacts => ({
  companyActive: company.companyActive,
  companyPauseReason: company.companyPauseReason,
  agentStatus: new Map(company.agents.map((a) => [a.id, a.status])),
  agentPauseReason: new Map(company.agents.map((a) => [a.id, a.pauseReason])),
  holders: new Map(),
});

/** Wake facts for requests about `issue` (and the dependents, each with its holder). */
function wakeFacts(ctx: CommandContext, company: CompanyAgents, issue: IssueSnapshot, dependents: Dependent[] = []): WakeFacts {
  const holders = new Map<string, { runId: string; agentId: string }>();
  const own = liveHolder(issue.checkoutRun, ctx.now, ctx.env);
  if (own) holders.set(issue.issue.id, own);
  for (const d of dependents) {
    const holder = liveHolder(d.holder, ctx.now, ctx.env);
    if (holder) holders.set(d.id, holder);
  }
  return { ...wakeFactsOf(company), holders };
}

/** Statement that holds only while the issue is exactly the version the rule read. */
const unchanged = (ctx: CommandContext, issue: IssueRow) => ctx.guard(sameVersion(schema.issues, issue));

/** The insert of a new issue's row (newIssueRow), built once (src/db/templates.ts): every column is a slot. */
const insertIssue = template(Object.keys(getTableColumns(schema.issues)) as Array<keyof IssueRow>, (db, slot) => db.insert(schema.issues).values(slot));
export const issueInsert = (db: Db, row: IssueRow) => insertIssue(db, row);

/** The row of a new issue: given fields, defaults for the rest, no lock, status timestamps, the creator. */
export function newIssueRow(
  ctx: CommandContext,
  actor: Actor,
  fields: Pick<IssueRow, "id" | "number" | "identifier" | "title" | "status" | "goalId" | "parentId"> &
    Partial<
      Pick<
        IssueRow,
        | "description"
        | "priority"
        | "projectId"
        | "assigneeAgentId"
        | "assigneeUserId"
        | "executionPolicy"
        | "executionWorkspaceId"
        | "executionWorkspacePreference"
        | "executionWorkspaceSettings"
        | "originKind"
        | "originId"
      >
    >,
): IssueRow {
  return {
    id: fields.id,
    companyId: ctx.companyId,
    number: fields.number,
    identifier: fields.identifier,
    title: fields.title,
    description: fields.description ?? null,
    status: fields.status,
    priority: fields.priority ?? "medium",
    projectId: fields.projectId ?? null,
    goalId: fields.goalId,
    parentId: fields.parentId,
    assigneeAgentId: fields.assigneeAgentId ?? null,
    assigneeUserId: fields.assigneeUserId ?? null,
    ...CLEARED_LOCK_FIELDS,
    executionPolicy: fields.executionPolicy ?? null,
    executionWorkspaceId: fields.executionWorkspaceId ?? null,
    executionWorkspacePreference: fields.executionWorkspacePreference ?? null,
    executionWorkspaceSettings: fields.executionWorkspaceSettings ?? null,
    originKind: fields.originKind ?? "manual",
    originId: fields.originId ?? null,
    hiddenAt: null,
    startedAt: null,
    completedAt: null,
    cancelledAt: null,
    ...statusTimestamps(null, fields.status, ctx.now),
    ...creatorFields(actor),
    createdAt: ctx.now,
    updatedAt: ctx.now,
    version: 0,
  };
}

export interface CreateIssueInput extends CreateIssueBody {}

interface CreateIssueLoaded {
  refs: CheckedReferences;
  run: ActorRunFacts | null;
  /** Who may be woken (only read when the issue is assigned to an agent). */
  company: CompanyAgents | null;
}

export const createIssue = defineCommand("issue.create", {
  /** References, the assignment decision and the caller's run: one batch (none for a plain `{ title }`). */
  load: async (db, scope, input: CreateIssueInput): Promise<CreateIssueLoaded> => {
    const companyId = scope.companyId!;
    const batch = new ReadBatch(db);
    const assignment =
      input.assigneeAgentId || input.assigneeUserId
        ? addTaskAssignmentDecision(batch, {
            actor: scope.actor,
            companyId,
            assigneeAgentId: input.assigneeAgentId ?? null,
            assigneeUserId: input.assigneeUserId ?? null,
            projectId: input.projectId ?? null,
            issue: { id: "new", executionPolicy: input.executionPolicy ?? null },
          })
        : null;
    const refs = addReferenceChecks(batch, input, null);
    const run = addActorRunRead(batch, scope.actor);
    const company = input.assigneeAgentId ? addCompanyAgentsRead(batch, companyId) : null;
    await batch.run();
    if (assignment) requireAssignmentAllowed(assignment());
    return { refs: refs(companyId), run: run?.() ?? null, company: company?.() ?? null };
  },
  run: async (ctx, actor, input, loaded) => {
    const { refs } = loaded;
    const id = newId();
    const run = actorRunFrom(ctx, actor, loaded.run);
    const inherited = refs.inheritSource;
    const status = input.status ?? "backlog";
    const labels = refs.labels ?? [];
    const blockerIds = refs.blockerIds ?? [];
    for (let attempt = 0; ; attempt++) {
      const numbering = await issueNumbering(ctx);
      // Goal: the given one, else the project's, else (no project) the company default goal.
      const goalId = refs.goal?.id ?? (refs.project ? (refs.projectGoalId ?? null) : numbering.defaultGoalId);
      const number = numbering.next;
      const identifier = `${numbering.prefix}-${number}`;
      const row = newIssueRow(ctx, actor, {
        ...input,
        id,
        number,
        identifier,
        status,
        goalId,
        parentId: refs.parent?.id ?? null,
        executionWorkspaceId: input.executionWorkspaceId ?? inherited?.executionWorkspaceId ?? null,
        executionWorkspacePreference: input.executionWorkspacePreference ?? inherited?.executionWorkspacePreference ?? null,
        executionWorkspaceSettings: input.executionWorkspaceSettings ?? inherited?.executionWorkspaceSettings ?? null,
      });
      const statements: Statement[] = [
        issueInsert(ctx.db, row),
        companyCounterStatement(ctx, number),
        ...labelStatements(
          ctx,
          id,
          labels.map((l) => l.id),
        ),
        ...blockerStatements(ctx, id, blockerIds),
        ...(run ? [...run.statements, runLinkStatement(ctx, id, run.run.id)] : []),
        ...(loaded.company ? wakeupStatementsFrom(ctx, actor, assignmentWakeups(actor, row, null), wakeFactsOf(loaded.company)).statements : []),
        ctx.activity({
          action: "issue.created",
          entityType: "issue",
          entityId: id,
          details: {
            identifier,
            title: row.title,
            status: row.status,
            priority: row.priority,
            assigneeAgentId: row.assigneeAgentId,
            assigneeUserId: row.assigneeUserId,
          },
        }),
      ];
      try {
        await ctx.batch(statements);
      } catch (err) {
        // Someone stored this number behind the object's back: recount from D1 and retry.
        if (isNumberClash(err) && attempt < 3) {
          await recountIssueNumbers(ctx);
          continue;
        }
        throw err;
      }
      commitIssueNumber(ctx, number);
      // Everything the view shows is known here: no read-back.
      return issueView(row, { labels, blockedByIssueIds: [...blockerIds].sort() });
    }
  },
});

export interface UpdateIssueInput {
  issueId: string;
  body: UpdateIssueBody;
}

const SIMPLE_FIELDS = [
  "title",
  "description",
  "status",
  "priority",
  "executionPolicy",
  "executionWorkspaceId",
  "executionWorkspacePreference",
  "executionWorkspaceSettings",
  "hiddenAt",
] as const;

interface UpdateIssueLoaded {
  snapshot: IssueSnapshot;
  refs: CheckedReferences;
  run: ActorRunFacts | null;
  company: CompanyAgents;
  dependents: Dependent[];
}

/** An issue of the scope's company (404 otherwise); entity routes learn the company from it. */
function requireIssueSnapshot(scope: LoadScope, snapshot: IssueSnapshot | null): IssueSnapshot {
  if (!snapshot || (scope.companyId && snapshot.issue.companyId !== scope.companyId)) throw notFound("Issue not found");
  return snapshot;
}

/** The patch's input-only rules, checked before anything is read. */
function checkPatchInput(actor: Actor, body: UpdateIssueBody) {
  if (body.interrupt && actor.type !== "board") throw forbidden("Only board users may interrupt a run");
  if (body.interrupt && !body.comment) throw badRequest("interrupt is only allowed together with a comment");
  if (body.reopen && !body.comment && body.status === undefined) throw badRequest("reopen needs a comment (or an explicit status)");
}

export const updateIssue = defineCommand("issue.update", {
  /** The issue, its references, the caller's run, who may be woken and (moving to done) who waits on it: one batch. */
  load: async (db: Db, scope, input: UpdateIssueInput): Promise<UpdateIssueLoaded> => {
    const { body } = input;
    checkPatchInput(scope.actor, body);
    const batch = new ReadBatch(db);
    const snapshot = addIssueSnapshotReads(batch, input.issueId);
    const self = issueIdOf(input.issueId);
    const refs = addReferenceChecks(
      batch,
      {
        assigneeAgentId: body.assigneeAgentId || null,
        projectId: body.projectId || null,
        executionWorkspaceId: body.executionWorkspaceId || null,
        goalId: body.goalId || null,
        parentId: body.parentId || null,
        labelIds: body.labelIds,
        blockedByIssueIds: body.blockedByIssueIds,
        inheritExecutionWorkspaceFromIssueId: body.inheritExecutionWorkspaceFromIssueId || null,
      },
      self,
    );
    const run = addActorRunRead(batch, scope.actor);
    const company = addCompanyAgentsRead(batch, scope.companyId ?? { issueRef: input.issueId });
    const dependents = body.status === "done" ? addDependentsRead(batch, input.issueId) : null;
    // The assignment rule needs the project the issue will have: the patch's, else its current one.
    const assignees = body.assigneeAgentId !== undefined || body.assigneeUserId !== undefined;
    const decide = assignees
      ? addTaskAssignmentDecision(batch, {
          actor: scope.actor,
          companyId: scope.companyId ?? companyOfIssue(scope, input.issueId),
          resolveCompanyId: true,
          assigneeAgentId: body.assigneeAgentId || null,
          assigneeUserId: body.assigneeUserId || null,
          projectId:
            body.projectId !== undefined ? body.projectId : sql`(SELECT ${schema.issues.projectId} FROM ${schema.issues} WHERE ${schema.issues.id} = ${self})`,
          issue: { id: "patched", executionPolicy: body.executionPolicy ?? null },
        })
      : null;
    await batch.run();
    const loaded = requireIssueSnapshot(scope, snapshot());
    const before = loaded.issue;
    const runFacts = run?.() ?? null;
    checkRunOwnership(scope.actor, before, runFacts, "update");
    // Only the assignees this patch changes are decided (both, when both change); clearing one decides with no target.
    const agentChanged = body.assigneeAgentId !== undefined && body.assigneeAgentId !== before.assigneeAgentId;
    const userChanged = body.assigneeUserId !== undefined && body.assigneeUserId !== before.assigneeUserId;
    if (decide && (agentChanged || userChanged)) {
      const choice = {
        assigneeAgentId: agentChanged ? (body.assigneeAgentId ?? null) : null,
        assigneeUserId: userChanged ? (body.assigneeUserId ?? null) : null,
      };
      requireAssignmentAllowed(decide(choice, before.companyId));
    }
    return { snapshot: loaded, refs: refs(before.companyId, before.id), run: runFacts, company: company(), dependents: dependents?.() ?? [] };
  },
  run: async (ctx, actor, input, loaded) => {
    const { body } = input;
    const { refs } = loaded;
    const before = issueIn(ctx, loaded.snapshot).issue;
    const run = agentRunForIssueMutation(ctx, actor, before, "update", loaded.run);

    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const set: Partial<IssueRow> = {};
    const note = (key: keyof IssueRow, value: unknown) => {
      const previous = (before as Record<string, unknown>)[key] ?? null;
      if (JSON.stringify(previous) !== JSON.stringify(value ?? null)) {
        changes[key] = { from: previous, to: value ?? null };
        (set as Record<string, unknown>)[key] = value ?? null;
      }
    };
    for (const key of SIMPLE_FIELDS) {
      if (body[key] === undefined) continue;
      // Stored times are UTC ISO strings (they sort as text).
      note(key, key === "hiddenAt" && body.hiddenAt ? new Date(body.hiddenAt).toISOString() : body[key]);
    }
    if (body.assigneeAgentId !== undefined) note("assigneeAgentId", body.assigneeAgentId);
    if (body.assigneeUserId !== undefined) note("assigneeUserId", body.assigneeUserId);
    if (body.projectId !== undefined) note("projectId", body.projectId);
    if (body.goalId !== undefined) note("goalId", body.goalId ? refs.goal!.id : null);
    if (body.parentId !== undefined) note("parentId", body.parentId ? refs.parent!.id : null);
    if (refs.inheritSource) {
      const inherited = refs.inheritSource;
      if (body.executionWorkspaceId === undefined) note("executionWorkspaceId", inherited.executionWorkspaceId);
      if (body.executionWorkspacePreference === undefined) note("executionWorkspacePreference", inherited.executionWorkspacePreference);
      if (body.executionWorkspaceSettings === undefined) note("executionWorkspaceSettings", inherited.executionWorkspaceSettings);
    }

    const reopening = Boolean(body.reopen) && isTerminalStatus(before.status) && body.status === undefined;
    const nextStatus = body.status ?? (reopening ? "todo" : before.status);
    if (nextStatus !== before.status) {
      note("status", nextStatus);
      Object.assign(set, statusTimestamps(before, nextStatus, ctx.now));
    }
    // A checkout ends when the issue leaves in_progress or changes hands.
    const lockEnds =
      before.checkoutRunId !== null &&
      (nextStatus !== "in_progress" || (body.assigneeAgentId !== undefined && body.assigneeAgentId !== before.assigneeAgentId));
    if (lockEnds) Object.assign(set, CLEARED_LOCK_FIELDS);

    const relations: IssueRelations = { ...loaded.snapshot.relations };
    const statements: Statement[] = [
      unchanged(ctx, before),
      ctx.db
        .update(schema.issues)
        .set({ ...set, updatedAt: ctx.now })
        .where(eq(schema.issues.id, before.id)),
    ];
    if (body.labelIds !== undefined) {
      const labels = refs.labels ?? [];
      statements.push(ctx.db.delete(schema.issueLabels).where(eq(schema.issueLabels.issueId, before.id)));
      statements.push(
        ...labelStatements(
          ctx,
          before.id,
          labels.map((l) => l.id),
        ),
      );
      changes.labelIds = { from: null, to: labels.map((l) => l.id) };
      relations.labels = labels;
    }
    if (body.blockedByIssueIds !== undefined) {
      const blockerIds = refs.blockerIds ?? [];
      statements.push(ctx.db.delete(schema.issueBlockers).where(eq(schema.issueBlockers.issueId, before.id)));
      statements.push(...blockerStatements(ctx, before.id, blockerIds));
      changes.blockedByIssueIds = { from: null, to: blockerIds };
      relations.blockedByIssueIds = blockerIds;
    }
    const after: IssueRow = { ...before, ...set, updatedAt: ctx.now };
    if (run) statements.push(...run.statements, runLinkStatement(ctx, before.id, run.run.id));

    const wakeRequests: WakeupRequestInput[] = [...assignmentWakeups(actor, after, before.assigneeAgentId)];
    let commentId: string | null = null;
    if (body.comment) {
      commentId = newId();
      statements.push(commentInsert(ctx, actor, before.id, commentId, body.comment, run?.run.id ?? null));
      wakeRequests.push(...commentWakeups(actor, after, { id: commentId, body: body.comment }, loaded.company.agents));
    }
    if (nextStatus === "done" && before.status !== "done") wakeRequests.push(...blockerResolvedWakeups(actor, after, loaded.dependents));
    statements.push(...wakeupStatementsFrom(ctx, actor, wakeRequests, wakeFacts(ctx, loaded.company, loaded.snapshot, loaded.dependents)).statements);
    if (body.interrupt) statements.push(interruptStatement(ctx, after, before.checkoutRunId));
    const routineOutcome = routineRunOutcomeStatement(ctx, before, before.status, nextStatus);
    if (routineOutcome) statements.push(routineOutcome);

    statements.push(
      ctx.activity({
        action: "issue.updated",
        entityType: "issue",
        entityId: before.id,
        details: { identifier: before.identifier, changes, ...(reopening ? { reopened: true } : {}), ...(body.interrupt ? { interrupted: true } : {}) },
      }),
    );
    if (commentId) {
      statements.push(
        ctx.activity({ action: "issue.comment_added", entityType: "issue", entityId: before.id, details: { identifier: before.identifier, commentId } }),
      );
    }
    await ctx.batch(statements);
    return issueView(after, relations);
  },
});

/** The ownership rule on loaded facts, so a refusal comes before anything is sent to the object. */
function checkRunOwnership(actor: Actor, issue: IssueRow, facts: ActorRunFacts | null, kind: "update" | "comment") {
  requireIssueRunOwnership(actor, issue, actorRunSeen(actor, facts), kind);
}

function commentInsert(ctx: CommandContext, actor: Actor, issueId: string, id: string, body: string, runId: string | null) {
  return ctx.db.insert(schema.issueComments).values({
    id,
    companyId: ctx.companyId,
    issueId,
    body,
    authorAgentId: actor.type === "agent" ? actor.agentId : null,
    authorUserId: actor.type === "board" ? actor.userId : null,
    runId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
}

/** Interrupt: the issue's live runs (the checkout run, runs that touched it, runs woken about it) become cancelled. */
function interruptStatement(ctx: CommandContext, issue: IssueRow, checkoutRunId: string | null) {
  const t = schema.heartbeatRuns;
  return ctx.db
    .update(t)
    .set({
      status: "cancelled",
      finishedAt: ctx.now,
      updatedAt: ctx.now,
      error: "interrupted by board",
      errorCode: "interrupted",
      nextRetryAt: null,
      deadlineAt: null,
    })
    .where(
      and(
        eq(t.companyId, ctx.companyId),
        inArray(t.status, [...LIVE_RUN_STATUSES]),
        sql`(${t.id} = ${checkoutRunId ?? ""} OR ${t.issueId} = ${issue.id} OR ${t.id} IN (SELECT run_id FROM issue_run_links WHERE issue_id = ${issue.id}))`,
      ),
    );
}

export interface AddCommentInput {
  issueId: string;
  body: string;
  reopen?: boolean;
  interrupt?: boolean;
}

interface AddCommentLoaded {
  snapshot: IssueSnapshot;
  run: ActorRunFacts | null;
  company: CompanyAgents;
}

export const addComment = defineCommand("issue.comment", {
  /** The issue, the caller's run and who may be woken: one batch. */
  load: async (db: Db, scope, input: AddCommentInput): Promise<AddCommentLoaded> => {
    if (input.interrupt && scope.actor.type !== "board") throw forbidden("Only board users may interrupt a run");
    const batch = new ReadBatch(db);
    const snapshot = addIssueSnapshotReads(batch, input.issueId);
    const run = addActorRunRead(batch, scope.actor);
    const company = addCompanyAgentsRead(batch, scope.companyId ?? { issueRef: input.issueId });
    await batch.run();
    const loaded = requireIssueSnapshot(scope, snapshot());
    const runFacts = run?.() ?? null;
    checkRunOwnership(scope.actor, loaded.issue, runFacts, "comment");
    return { snapshot: loaded, run: runFacts, company: company() };
  },
  run: async (ctx, actor, input, loaded) => {
    const before = issueIn(ctx, loaded.snapshot).issue;
    const run = agentRunForIssueMutation(ctx, actor, before, "comment", loaded.run);
    const reopening = Boolean(input.reopen) && isTerminalStatus(before.status);
    const set: Partial<IssueRow> = { updatedAt: ctx.now };
    if (reopening) Object.assign(set, { status: "todo" }, statusTimestamps(before, "todo", ctx.now));
    const after: IssueRow = { ...before, ...set };
    const id = newId();
    const row = {
      id,
      companyId: ctx.companyId,
      issueId: before.id,
      body: input.body,
      authorAgentId: actor.type === "agent" ? actor.agentId : null,
      authorUserId: actor.type === "board" ? actor.userId : null,
      runId: run?.run.id ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    // The rule read the issue's status, lock and assignee: the comment is written only while they hold.
    const statements: Statement[] = [
      ctx.guard(lockAsRead(before)),
      ctx.db.insert(schema.issueComments).values(row),
      ctx.db.update(schema.issues).set(set).where(eq(schema.issues.id, before.id)),
      ...(run ? [...run.statements, runLinkStatement(ctx, before.id, run.run.id)] : []),
      ...wakeupStatementsFrom(
        ctx,
        actor,
        commentWakeups(actor, after, { id, body: input.body }, loaded.company.agents),
        wakeFacts(ctx, loaded.company, loaded.snapshot),
      ).statements,
    ];
    if (input.interrupt) statements.push(interruptStatement(ctx, after, before.checkoutRunId));
    statements.push(
      ctx.activity({
        action: "issue.comment_added",
        entityType: "issue",
        entityId: before.id,
        details: {
          identifier: before.identifier,
          commentId: id,
          ...(reopening ? { reopened: true, changes: { status: { from: before.status, to: "todo" } } } : {}),
          ...(input.interrupt ? { interrupted: true } : {}),
        },
      }),
    );
    await ctx.batch(statements);
    return commentView(row);
  },
});

export const createLabel = defineCommand("label.create", async (ctx, _actor, input: { name: string; color?: string | null }) => {
  const nameKey = input.name.trim().toLowerCase();
  const existing = await ctx.db.query.labels.findFirst({
    where: and(eq(schema.labels.companyId, ctx.companyId), eq(schema.labels.nameKey, nameKey)),
  });
  if (existing) throw conflict("Label name already used in this company", { labelId: existing.id, name: existing.name });
  const row = { id: newId(), companyId: ctx.companyId, name: input.name.trim(), nameKey, color: input.color ?? null, createdAt: ctx.now, updatedAt: ctx.now };
  await ctx.batch([
    ctx.db.insert(schema.labels).values(row),
    ctx.activity({ action: "label.created", entityType: "label", entityId: row.id, details: { name: row.name, color: row.color } }),
  ]);
  return labelView(row);
});

export interface UserStateInput {
  issueId: string;
  userId: string;
  mark: "read" | "archive" | "unarchive";
}

/** A board user's read cursor / inbox archive mark (no activity entry: personal state, not a change to the issue). */
export const setIssueUserState = defineCommand("issue.userState", async (ctx, _actor, input: UserStateInput) => {
  const issue = await loadIssueInCompany(ctx.db, ctx.companyId, input.issueId);
  const t = schema.issueUserStates;
  const current = await ctx.db.query.issueUserStates.findFirst({ where: and(eq(t.issueId, issue.id), eq(t.userId, input.userId)) });
  const next = {
    issueId: issue.id,
    userId: input.userId,
    companyId: ctx.companyId,
    lastReadAt: input.mark === "read" ? ctx.now : (current?.lastReadAt ?? null),
    inboxArchivedAt: input.mark === "archive" ? ctx.now : input.mark === "unarchive" ? null : (current?.inboxArchivedAt ?? null),
    updatedAt: ctx.now,
  };
  await ctx.db
    .insert(t)
    .values(next)
    .onConflictDoUpdate({ target: [t.issueId, t.userId], set: { lastReadAt: next.lastReadAt, inboxArchivedAt: next.inboxArchivedAt, updatedAt: ctx.now } })
    .run();
  return { issueId: issue.id, userId: input.userId, lastReadAt: next.lastReadAt, inboxArchivedAt: next.inboxArchivedAt };
});

export const issueCommands = [createIssue, updateIssue, addComment, setIssueUserState, createLabel];
