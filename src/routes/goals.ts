// Goals: the company's intent tree.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess, requireEntityAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { goalView } from "../domain/goals/view";
import { listGoals, loadGoal } from "../domain/goals/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { CreateGoalSchema, GoalIdParam, GoalSchema, UpdateGoalSchema } from "../schemas/goals";
import { createGoal, deleteGoal, updateGoal } from "../domain/goals/commands";

const tags = ["Goals"];
export const goalsRouter = createRouter();

goalsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/goals",
    tags,
    summary: "All goals of the company (oldest first)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(GoalSchema), "Goals"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await listGoals(dbOf(c), companyId), 200);
  },
);

goalsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/goals/{goalId}",
    tags,
    summary: "Get a goal (404 if missing or outside the caller's company)",
    request: { params: GoalIdParam },
    responses: { 200: jsonContent(GoalSchema, "The goal"), ...errors(401, 404) },
  }),
  async (c) => {
    const goal = await loadGoal(dbOf(c), c.req.valid("param").goalId);
    requireEntityAccess(c, goal.companyId, "Goal");
    return c.json(goalView(goal), 200);
  },
);

goalsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/goals",
    tags,
    summary: "Create a goal (defaults: level `task`, status `planned`)",
    description:
      "parentId must be a goal of the same company and ownerAgentId an agent of the same company (else 422). " +
      "isCompanyDefault: true makes it the company default goal (the previous default loses the flag). " +
      "When the company's CEO agent (role `ceo`) creates a `company`-level goal, a pending `approve_ceo_strategy` " +
      "approval is created for it ({ summary, goalId, title, level, status }); approving it marks the goal `active`.",
    request: { params: CompanyIdParam, body: jsonBody(CreateGoalSchema) },
    responses: { 201: jsonContent(GoalSchema, "The new goal"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const goal = await runCompanyCommand(c.env, companyId, createGoal, c.get("actor"), c.req.valid("json"));
    return c.json(goal, 201);
  },
);

goalsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/goals/{goalId}",
    tags,
    summary: "Update a goal (partial; omitted fields unchanged)",
    description:
      "A parentId that is the goal itself, one of its descendants or a goal of another company is rejected with 422. " +
      "The CEO agent turning a goal into a `company`-level goal (first time for that goal) opens an `approve_ceo_strategy` approval.",
    request: { params: GoalIdParam, body: jsonBody(UpdateGoalSchema) },
    responses: { 200: jsonContent(GoalSchema, "The updated goal"), ...errors(400, 401, 404, 422) },
  }),
  async (c) => {
    const goal = await loadGoal(dbOf(c), c.req.valid("param").goalId);
    const actor = requireEntityAccess(c, goal.companyId, "Goal");
    const updated = await runCompanyCommand(c.env, goal.companyId, updateGoal, actor, { goalId: goal.id, fields: c.req.valid("json") });
    return c.json(updated, 200);
  },
);

goalsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/goals/{goalId}",
    tags,
    summary: "Delete a goal; returns the deleted row (children become top-level goals, linked issues and projects drop it)",
    request: { params: GoalIdParam },
    responses: { 200: jsonContent(GoalSchema, "The deleted goal"), ...errors(401, 404) },
  }),
  async (c) => {
    const goal = await loadGoal(dbOf(c), c.req.valid("param").goalId);
    const actor = requireEntityAccess(c, goal.companyId, "Goal");
    return c.json(await runCompanyCommand(c.env, goal.companyId, deleteGoal, actor, { goalId: goal.id }), 200);
  },
);
