// Goals: goals/<id>.md (id, title, level, status, parentId, ownerAgentId, isCompanyDefault; body:
// description). The target keeps its own default goal.
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { GOAL_LEVELS, GOAL_STATUSES } from "../../../db/schema/goals";
import { markdownWith } from "../format";
import { createdIds, defineKind, parentsFirst } from "./kind";
import { id, nullableId } from "./fields";

/** The longest goal title (an import's renames stay within it). */
export const GOAL_TITLE_MAX = 500;

const GoalSchema = z.object({
  id,
  title: z.string().trim().min(1).max(GOAL_TITLE_MAX),
  level: z.enum(GOAL_LEVELS),
  status: z.enum(GOAL_STATUSES),
  parentId: nullableId,
  ownerAgentId: nullableId,
  isCompanyDefault: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
});

export type PkgGoal = z.infer<typeof GoalSchema> & { path: string; description: string | null };

export const goals = defineKind<PkgGoal[]>({
  key: "goals",
  noun: "goal",
  references: [
    { field: "parentId", to: "goals" },
    { field: "ownerAgentId", to: "agents" },
  ],
  parent: "parentId",
  exportPart({ db, companyId, batch }) {
    const rows = batch.add(db.select().from(schema.goals).where(eq(schema.goals.companyId, companyId)).orderBy(asc(schema.goals.createdAt)));
    return {
      ids: () => rows.value.map((g) => g.id),
      write(ctx) {
        ctx.counts.goals = rows.value.length;
        for (const goal of rows.value) {
          ctx.put(
            ctx.uniquePath("goals", goal.id, ".md"),
            markdownWith(
              {
                id: goal.id,
                title: goal.title,
                level: goal.level,
                status: goal.status,
                parentId: goal.parentId,
                ownerAgentId: ctx.held("agents", goal.ownerAgentId),
                isCompanyDefault: goal.isCompanyDefault,
              },
              goal.description,
            ),
          );
        }
      },
    };
  },
  parse: (pkg) =>
    pkg.under("goals", ".md").map((path) => {
      const { fields, body } = pkg.markdown(path);
      return { ...pkg.check(GoalSchema, fields, path), path, description: pkg.bounded(body, path) };
    }),
  apply(ctx, items) {
    const { command, plan } = ctx;
    for (const goal of parentsFirst(
      items.filter((g) => plan.create.goals.has(g.id)),
      (g) => g.parentId,
    )) {
      ctx.statements.push(
        command.db.insert(schema.goals).values({
          id: plan.ids.goals.get(goal.id)!,
          companyId: command.companyId,
          title: plan.names.get(goal.id)!,
          description: goal.description,
          level: goal.level,
          status: goal.status,
          parentId: ctx.map("goals", goal.parentId),
          ownerAgentId: ctx.map("agents", goal.ownerAgentId),
          // The target keeps its own default goal.
          isCompanyDefault: false,
          ...ctx.at,
        }),
      );
    }
  },
  undo: (ctx, plan) => ctx.db.delete(schema.goals).where(and(eq(schema.goals.companyId, ctx.companyId), inIds(schema.goals.id, createdIds(plan, "goals")))),
});
