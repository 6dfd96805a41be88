// Issue mutations, run inside the company's Durable Object: create, update, comment, labels,
// per-user read/archive marks. Checkout and release live in ./checkout.ts.
import type { Statement } from "../../db/batch";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { assertCanAssign } from "../authorization/assignment";
import { wakeupStatements, type WakeupRequestInput } from "../wakeups/enqueue";
import type { CreateIssueBody, UpdateIssueBody } from "../../schemas/issues";
import { loadIssueInCompany, issueViewFor } from "./load";
import { agentRunForIssueMutation, runLinkStatement } from "./ownership";
import { commitIssueNumber, companyCounterStatement, isNumberClash, nextIssueNumber } from "./numbering";
import { checkAssigneeAgent, checkBlockers, checkGoal, checkIssueRef, checkLabels, checkParent, checkProject, checkExecutionWorkspace } from "./references";
import { blockerResolvedWakeups, commentWakeups } from "./wakeups";
import { commentView, issueView, isTerminalStatus, labelView, type IssueRow } from "./view";
import { LIVE_RUN_STATUSES } from "../runs/lease";
import { resolveActorRun } from "../runs/actor-run";

const runBatch = (ctx: CommandContext, statements: Statement[]) =>
  ctx.batch(statements);

export { CLEARED_LOCK_FIELDS } from "./locks";
import { CLEARED_LOCK_FIELDS } from "./locks";

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

/** The goal an issue gets: its own, else its project's, else (no project) the company default goal. */
async function resolveGoalId(
  ctx: CommandContext,
  goalId: string | null | undefined,
  projectId: string | null | undefined,
  companyDefaultGoalId?: string | null,
) {
  if (goalId) return (await checkGoal(ctx, goalId)).id;
  if (projectId) {
    const project = await checkProject(ctx, projectId);
    if (project.goalId) return project.goalId;
    const link = await ctx.db.query.projectGoals.findFirst({
      where: eq(schema.projectGoals.projectId, projectId),
      orderBy: asc(schema.projectGoals.position),
    });
    return link?.goalId ?? null;
  }
  if (companyDefaultGoalId !== undefined) return companyDefaultGoalId;
  const fallback = await ctx.db.query.goals.findFirst({
    where: and(eq(schema.goals.companyId, ctx.companyId), eq(schema.goals.isCompanyDefault, true)),
  });
  return fallback?.id ?? null;
}

/** Execution workspace copied from another issue of the company when asked to inherit it. */
async function inheritedWorkspace(ctx: CommandContext, sourceRef: string | null | undefined) {
  if (!sourceRef) return null;
  const source = await checkIssueRef(ctx, "inheritExecutionWorkspaceFromIssueId", sourceRef);
  return {
    executionWorkspaceId: source.executionWorkspaceId,
    executionWorkspacePreference: source.executionWorkspacePreference,
    executionWorkspaceSettings: source.executionWorkspaceSettings,
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

async function wakeups(ctx: CommandContext, actor: Actor, requests: WakeupRequestInput[]) {
  return (await wakeupStatements(ctx, actor, requests)).statements;
}

export interface CreateIssueInput extends CreateIssueBody {}

export const createIssue = defineCommand("issue.create", async (ctx, actor, input: CreateIssueInput) => {
  // One round trip for the company row and its default goal (the common no-project case needs both).
  const [companyRows, defaultGoalRows] = await ctx.batch([
    ctx.db.select().from(schema.companies).where(eq(schema.companies.id, ctx.companyId)).limit(1),
    ctx.db
      .select({ id: schema.goals.id })
      .from(schema.goals)
      .where(and(eq(schema.goals.companyId, ctx.companyId), eq(schema.goals.isCompanyDefault, true)))
      .limit(1),
  ]);
  const company = companyRows[0];
  if (!company) throw notFound("Company not found");
  const id = newId();
  if (input.assigneeAgentId || input.assigneeUserId) {
    await assertCanAssign(ctx.db, {
      actor,
      companyId: ctx.companyId,
      assigneeAgentId: input.assigneeAgentId ?? null,
      assigneeUserId: input.assigneeUserId ?? null,
      projectId: input.projectId ?? null,
      issue: { id, executionPolicy: input.executionPolicy ?? null },
    });
  }
  if (input.assigneeAgentId) await checkAssigneeAgent(ctx, input.assigneeAgentId);
  if (input.projectId) await checkProject(ctx, input.projectId);
  if (input.executionWorkspaceId) await checkExecutionWorkspace(ctx, input.executionWorkspaceId);
  const goalId = await resolveGoalId(ctx, input.goalId, input.projectId, defaultGoalRows[0]?.id ?? null);
  const parent = input.parentId ? await checkParent(ctx, input.parentId, null) : null;
  const labels = await checkLabels(ctx, input.labelIds ?? []);
  const labelIds = labels.map((l) => l.id);
  const blockerIds = await checkBlockers(ctx, input.blockedByIssueIds ?? [], null);
  const inherited = await inheritedWorkspace(ctx, input.inheritExecutionWorkspaceFromIssueId);
  const run = await resolveActorRun(ctx, actor);
  const status = input.status ?? "backlog";

  for (let attempt = 0; ; attempt++) {
    const number = await nextIssueNumber(ctx, company.issueCounter, attempt > 0);
    const identifier = `${company.issuePrefix}-${number}`;
    const row: IssueRow = {
      id,
      companyId: ctx.companyId,
      number,
      identifier,
      title: input.title,
      description: input.description ?? null,
      status,
      priority: input.priority ?? "medium",
      projectId: input.projectId ?? null,
      goalId,
      parentId: parent?.id ?? null,
      assigneeAgentId: input.assigneeAgentId ?? null,
      assigneeUserId: input.assigneeUserId ?? null,
      ...CLEARED_LOCK_FIELDS,
      executionPolicy: input.executionPolicy ?? null,
      executionWorkspaceId: input.executionWorkspaceId ?? inherited?.executionWorkspaceId ?? null,
      executionWorkspacePreference: input.executionWorkspacePreference ?? inherited?.executionWorkspacePreference ?? null,
      executionWorkspaceSettings: input.executionWorkspaceSettings ?? inherited?.executionWorkspaceSettings ?? null,
      originKind: input.originKind ?? "manual",
      originId: input.originId ?? null,
      hiddenAt: null,
      startedAt: null,
      completedAt: null,
      cancelledAt: null,
      ...statusTimestamps(null, status, ctx.now),
      ...creatorFields(actor),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const statements: Statement[] = [
      ctx.db.insert(schema.issues).values(row),
      companyCounterStatement(ctx, number),
      ...labelStatements(ctx, id, labelIds),
      ...blockerStatements(ctx, id, blockerIds),
      ...(run ? [...run.statements, runLinkStatement(ctx, id, run.run.id)] : []),
      ctx.activity({
        action: "issue.created",
        entityType: "issue",
        entityId: id,
        details: { identifier, title: row.title, status: row.status, priority: row.priority, assigneeAgentId: row.assigneeAgentId },
      }),
    ];
    try {
      await runBatch(ctx, statements);
    } catch (err) {
      // Someone stored this number behind our back (another writer): recount from D1 and retry.
      if (isNumberClash(err) && attempt < 3) continue;
      throw err;
    }
    commitIssueNumber(ctx, number);
    // Everything the view shows is known here: no read-back.
    return issueView(row, { labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color ?? null })), blockedByIssueIds: [...blockerIds].sort() });
  }
});

export interface UpdateIssueInput {
  issueId: string;
  body: UpdateIssueBody;
}

const SIMPLE_FIELDS = [
  "title",
  "description",
  "priority",
  "executionPolicy",
  "executionWorkspaceId",
  "executionWorkspacePreference",
  "executionWorkspaceSettings",
  "hiddenAt",
] as const;

export const updateIssue = defineCommand("issue.update", async (ctx, actor, input: UpdateIssueInput) => {
  const before = await loadIssueInCompany(ctx.db, ctx.companyId, input.issueId);
  const body = input.body;
  if (body.interrupt && actor.type !== "board") throw forbidden("Only board users may interrupt a run");
  if (body.interrupt && !body.comment) throw badRequest("interrupt is only allowed together with a comment");
  if (body.reopen && !body.comment && body.status === undefined) {
    throw badRequest("reopen needs a comment (or an explicit status)");
  }
  const run = await agentRunForIssueMutation(ctx, actor, before, "update");

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

  const agentAssigneeChanged = body.assigneeAgentId !== undefined && body.assigneeAgentId !== before.assigneeAgentId;
  const userAssigneeChanged = body.assigneeUserId !== undefined && body.assigneeUserId !== before.assigneeUserId;
  const assigneeTouched = agentAssigneeChanged || userAssigneeChanged;
  const projectId = body.projectId !== undefined ? body.projectId : before.projectId;
  if (assigneeTouched) {
    await assertCanAssign(ctx.db, {
      actor,
      companyId: ctx.companyId,
      // Only the assignees this patch sets are decided (both, when both change); clearing one decides with no target.
      assigneeAgentId: agentAssigneeChanged ? body.assigneeAgentId : null,
      assigneeUserId: userAssigneeChanged ? body.assigneeUserId : null,
      projectId,
      issue: { id: before.id, executionPolicy: body.executionPolicy !== undefined ? body.executionPolicy : before.executionPolicy },
    });
  }
  if (body.assigneeAgentId) await checkAssigneeAgent(ctx, body.assigneeAgentId);
  if (body.assigneeAgentId !== undefined) note("assigneeAgentId", body.assigneeAgentId);
  if (body.assigneeUserId !== undefined) note("assigneeUserId", body.assigneeUserId);
  if (body.projectId !== undefined) {
    if (body.projectId) await checkProject(ctx, body.projectId);
    note("projectId", body.projectId);
  }
  if (body.executionWorkspaceId) await checkExecutionWorkspace(ctx, body.executionWorkspaceId);
  if (body.goalId !== undefined) note("goalId", body.goalId ? (await checkGoal(ctx, body.goalId)).id : null);
  if (body.parentId !== undefined) note("parentId", body.parentId ? (await checkParent(ctx, body.parentId, before)).id : null);
  if (body.inheritExecutionWorkspaceFromIssueId) {
    const inherited = await inheritedWorkspace(ctx, body.inheritExecutionWorkspaceFromIssueId);
    if (body.executionWorkspaceId === undefined) note("executionWorkspaceId", inherited!.executionWorkspaceId);
    if (body.executionWorkspacePreference === undefined) note("executionWorkspacePreference", inherited!.executionWorkspacePreference);
    if (body.executionWorkspaceSettings === undefined) note("executionWorkspaceSettings", inherited!.executionWorkspaceSettings);
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

  const statements: Statement[] = [];
  let labelIds: string[] | null = null;
  if (body.labelIds !== undefined) {
    labelIds = (await checkLabels(ctx, body.labelIds)).map((l) => l.id);
    statements.push(ctx.db.delete(schema.issueLabels).where(eq(schema.issueLabels.issueId, before.id)));
    statements.push(...labelStatements(ctx, before.id, labelIds));
    changes.labelIds = { from: null, to: labelIds };
  }
  if (body.blockedByIssueIds !== undefined) {
    const blockerIds = await checkBlockers(ctx, body.blockedByIssueIds, before);
    statements.push(ctx.db.delete(schema.issueBlockers).where(eq(schema.issueBlockers.issueId, before.id)));
    statements.push(...blockerStatements(ctx, before.id, blockerIds));
    changes.blockedByIssueIds = { from: null, to: blockerIds };
  }

  const after: IssueRow = { ...before, ...set, updatedAt: ctx.now };
  statements.unshift(ctx.db.update(schema.issues).set({ ...set, updatedAt: ctx.now }).where(eq(schema.issues.id, before.id)));
  if (run) statements.push(...run.statements, runLinkStatement(ctx, before.id, run.run.id));

  const wakeRequests: WakeupRequestInput[] = [];
  let commentId: string | null = null;
  if (body.comment) {
    commentId = newId();
    statements.push(commentInsert(ctx, actor, before.id, commentId, body.comment, run?.run.id ?? null));
    wakeRequests.push(...(await commentWakeups(ctx, actor, after, { id: commentId, body: body.comment })));
  }
  if (nextStatus === "done" && before.status !== "done") wakeRequests.push(...(await blockerResolvedWakeups(ctx, actor, after)));
  statements.push(...(await wakeups(ctx, actor, wakeRequests)));
  if (body.interrupt) statements.push(interruptStatement(ctx, after, before.checkoutRunId));

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
      ctx.activity({
        action: "issue.comment_added",
        entityType: "issue",
        entityId: before.id,
        details: { identifier: before.identifier, commentId },
      }),
    );
  }
  await runBatch(ctx, statements);
  return issueViewFor(ctx.db, after);
});

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

/** Interrupt: the issue's live runs (the checkout run and runs that touched it) become cancelled. */
function interruptStatement(ctx: CommandContext, issue: IssueRow, checkoutRunId: string | null) {
  const t = schema.heartbeatRuns;
  return ctx.db
    .update(t)
    .set({ status: "cancelled", finishedAt: ctx.now, updatedAt: ctx.now, error: "interrupted by board" })
    .where(
      and(
        eq(t.companyId, ctx.companyId),
        inArray(t.status, [...LIVE_RUN_STATUSES]),
        sql`(${t.id} = ${checkoutRunId ?? ""} OR ${t.id} IN (SELECT run_id FROM issue_run_links WHERE issue_id = ${issue.id}))`,
      ),
    );
}

export interface AddCommentInput {
  issueId: string;
  body: string;
  reopen?: boolean;
  interrupt?: boolean;
}

export const addComment = defineCommand("issue.comment", async (ctx, actor, input: AddCommentInput) => {
  const before = await loadIssueInCompany(ctx.db, ctx.companyId, input.issueId);
  if (input.interrupt && actor.type !== "board") throw forbidden("Only board users may interrupt a run");
  const run = await agentRunForIssueMutation(ctx, actor, before, "comment");
  const reopening = Boolean(input.reopen) && isTerminalStatus(before.status);
  const set: Partial<IssueRow> = { updatedAt: ctx.now };
  if (reopening) Object.assign(set, { status: "todo" }, statusTimestamps(before, "todo", ctx.now));
  const after: IssueRow = { ...before, ...set };
  const id = newId();
  const statements: Statement[] = [
    commentInsert(ctx, actor, before.id, id, input.body, run?.run.id ?? null),
    ctx.db.update(schema.issues).set(set).where(eq(schema.issues.id, before.id)),
    ...(run ? [...run.statements, runLinkStatement(ctx, before.id, run.run.id)] : []),
    ...(await wakeups(ctx, actor, await commentWakeups(ctx, actor, after, { id, body: input.body }))),
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
  await runBatch(ctx, statements);
  const row = await ctx.db.query.issueComments.findFirst({ where: eq(schema.issueComments.id, id) });
  return commentView(row!);
});

export const createLabel = defineCommand("label.create", async (ctx, actor, input: { name: string; color?: string | null }) => {
  const nameKey = input.name.trim().toLowerCase();
  const existing = await ctx.db.query.labels.findFirst({
    where: and(eq(schema.labels.companyId, ctx.companyId), eq(schema.labels.nameKey, nameKey)),
  });
  if (existing) throw conflict("Label name already used in this company", { labelId: existing.id, name: existing.name });
  const row = { id: newId(), companyId: ctx.companyId, name: input.name.trim(), nameKey, color: input.color ?? null, createdAt: ctx.now, updatedAt: ctx.now };
  await runBatch(ctx, [
    ctx.db.insert(schema.labels).values(row),
    ctx.activity({
      action: "label.created",
      entityType: "label",
      entityId: row.id,
      details: { name: row.name, color: row.color },
    }),
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

