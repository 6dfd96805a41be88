// Goal mutations (run inside the company Durable Object): create, update, delete.
// The parent chain stays inside one company and acyclic; the owner is an agent of the company;
// at most one goal is the company default.
import type { Statement } from "../../db/batch";
import { and, eq, ne } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { ceoStrategyApprovalStatements } from "../approvals/ceo-strategy";
import { goalView, type GoalRow } from "./view";

type Level = GoalRow["level"];
type Status = GoalRow["status"];

export interface GoalFields {
  title?: string;
  description?: string | null;
  level?: Level;
  status?: Status;
  parentId?: string | null;
  ownerAgentId?: string | null;
  isCompanyDefault?: boolean;
}

async function loadGoal(ctx: CommandContext, goalId: string) {
  const row = await ctx.db.query.goals.findFirst({ where: eq(schema.goals.id, goalId) });
  if (!row || row.companyId !== ctx.companyId) throw notFound("Goal not found");
  return row;
}

/** 422 unless `parentId` is a goal of this company whose ancestor chain does not contain `goalId`. */
async function checkParent(ctx: CommandContext, goalId: string | null, parentId: string) {
  if (goalId && parentId === goalId) throw unprocessable("A goal cannot be its own parent", { parentId });
  const rows = await ctx.db
    .select({ id: schema.goals.id, parentId: schema.goals.parentId })
    .from(schema.goals)
    .where(eq(schema.goals.companyId, ctx.companyId));
  const parentOf = new Map(rows.map((r) => [r.id, r.parentId]));
  if (!parentOf.has(parentId)) throw unprocessable("parentId must reference a goal of this company", { parentId });
  if (!goalId) return;
  const seen = new Set<string>();
  for (let cursor: string | null | undefined = parentId; cursor; cursor = parentOf.get(cursor)) {
    if (cursor === goalId) throw unprocessable("parentId would create a cycle in the goal tree", { parentId });
    if (seen.has(cursor)) break;
    seen.add(cursor);
  }
}

async function checkOwner(ctx: CommandContext, ownerAgentId: string) {
  const agent = await ctx.db.query.agents.findFirst({ where: eq(schema.agents.id, ownerAgentId) });
  if (!agent || agent.companyId !== ctx.companyId) throw unprocessable("ownerAgentId must reference an agent of this company", { ownerAgentId });
}

function clearOtherDefaults(ctx: CommandContext, keepId: string) {
  return ctx.db
    .update(schema.goals)
    .set({ isCompanyDefault: false, updatedAt: ctx.now })
    .where(and(eq(schema.goals.companyId, ctx.companyId), eq(schema.goals.isCompanyDefault, true), ne(schema.goals.id, keepId)));
}

export const createGoal = defineCommand("goal.create", async (ctx, actor, input: GoalFields & { title: string }) => {
  if (input.parentId) await checkParent(ctx, null, input.parentId);
  if (input.ownerAgentId) await checkOwner(ctx, input.ownerAgentId);
  const row: GoalRow = {
    id: newId(),
    companyId: ctx.companyId,
    title: input.title,
    description: input.description ?? null,
    level: input.level ?? "task",
    status: input.status ?? "planned",
    parentId: input.parentId ?? null,
    ownerAgentId: input.ownerAgentId ?? null,
    isCompanyDefault: input.isCompanyDefault ?? false,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const statements: Statement[] = [];
  if (row.isCompanyDefault) statements.push(clearOtherDefaults(ctx, row.id));
  statements.push(ctx.db.insert(schema.goals).values(row));
  statements.push(
    ctx.activity({
      action: "goal.created",
      entityType: "goal",
      entityId: row.id,
      details: { title: row.title, level: row.level, status: row.status, parentId: row.parentId },
    }),
  );
  statements.push(...(await ceoStrategyApprovalStatements(ctx, actor, row)));
  await ctx.batch(statements);
  if (row.isCompanyDefault) ctx.storage.facts.set("defaultGoalId", row.id);
  return goalView(row);
});

export const updateGoal = defineCommand("goal.update", async (ctx, actor, input: { goalId: string; fields: GoalFields }) => {
  const before = await loadGoal(ctx, input.goalId);
  const { fields } = input;
  if (fields.parentId) await checkParent(ctx, before.id, fields.parentId);
  if (fields.ownerAgentId) await checkOwner(ctx, fields.ownerAgentId);
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const previous = (before as Record<string, unknown>)[key] ?? null;
    if (previous !== value) changes[key] = { from: previous, to: value };
  }
  const after: GoalRow = { ...before, ...stripUndefined(fields), updatedAt: ctx.now };
  const statements: Statement[] = [];
  if (fields.isCompanyDefault) statements.push(clearOtherDefaults(ctx, before.id));
  statements.push(
    ctx.db
      .update(schema.goals)
      .set({ ...stripUndefined(fields), updatedAt: ctx.now })
      .where(eq(schema.goals.id, before.id)),
  );
  statements.push(
    ctx.activity({
      action: "goal.updated",
      entityType: "goal",
      entityId: before.id,
      details: { changes },
    }),
  );
  statements.push(...(await ceoStrategyApprovalStatements(ctx, actor, after)));
  await ctx.batch(statements);
  if (fields.isCompanyDefault) ctx.storage.facts.set("defaultGoalId", before.id);
  else if (fields.isCompanyDefault === false && before.isCompanyDefault) ctx.storage.facts.set("defaultGoalId", null);
  return goalView(await loadGoal(ctx, before.id));
});

/** Deletes the goal; children become roots, issues lose the goal, projects keep their remaining goals. */
export const deleteGoal = defineCommand("goal.delete", async (ctx, actor, input: { goalId: string }) => {
  const goal = await loadGoal(ctx, input.goalId);
  const links = await ctx.db.query.projectGoals.findMany({ where: eq(schema.projectGoals.goalId, goal.id) });
  const statements: Statement[] = [
    ctx.db
      .update(schema.goals)
      .set({ parentId: null, updatedAt: ctx.now })
      .where(and(eq(schema.goals.companyId, ctx.companyId), eq(schema.goals.parentId, goal.id))),
    ctx.db
      .update(schema.issues)
      .set({ goalId: null })
      .where(and(eq(schema.issues.companyId, ctx.companyId), eq(schema.issues.goalId, goal.id))),
    ctx.db.delete(schema.projectGoals).where(eq(schema.projectGoals.goalId, goal.id)),
  ];
  statements.push(
    ctx.db
      .update(schema.projects)
      .set({ goalId: null, updatedAt: ctx.now })
      .where(and(eq(schema.projects.companyId, ctx.companyId), eq(schema.projects.goalId, goal.id))),
  );
  // Keep each linked project's legacy goalId equal to its first remaining goal.
  for (const projectId of new Set(links.map((l) => l.projectId))) {
    const remaining = await ctx.db.query.projectGoals.findMany({
      where: and(eq(schema.projectGoals.projectId, projectId), ne(schema.projectGoals.goalId, goal.id)),
      orderBy: (t, { asc }) => [asc(t.position)],
    });
    statements.push(
      ctx.db
        .update(schema.projects)
        .set({ goalId: remaining[0]?.goalId ?? null, updatedAt: ctx.now })
        .where(eq(schema.projects.id, projectId)),
    );
  }
  statements.push(ctx.db.delete(schema.goals).where(eq(schema.goals.id, goal.id)));
  statements.push(
    ctx.activity({
      action: "goal.deleted",
      entityType: "goal",
      entityId: goal.id,
      details: { title: goal.title },
    }),
  );
  await ctx.batch(statements);
  if (goal.isCompanyDefault) ctx.storage.facts.set("defaultGoalId", null);
  return goalView(goal);
});

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const goalCommands = [createGoal, updateGoal, deleteGoal];
