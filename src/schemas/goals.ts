// Goal request and response schemas.
import { z } from "@hono/zod-openapi";
import { Timestamp, atLeastOneField, Uuid } from "./common";
import { GOAL_LEVELS, GOAL_STATUSES } from "../db/schema/goals";

export const GoalSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    level: z.enum(GOAL_LEVELS),
    status: z.enum(GOAL_STATUSES),
    parentId: z.string().nullable(),
    ownerAgentId: z.string().nullable(),
    isCompanyDefault: z.boolean().openapi({ description: "The company's default goal (at most one); used for issues with no project" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Goal");

const Title = z.string().trim().min(1).max(500);
const Description = z.string().max(20_000).nullable();
const Ref = Uuid;

export const CreateGoalSchema = z
  .object({
    title: Title,
    description: Description.optional(),
    level: z.enum(GOAL_LEVELS).optional().openapi({ description: "Default `task`" }),
    status: z.enum(GOAL_STATUSES).optional().openapi({ description: "Default `planned`" }),
    parentId: Ref.nullable().optional().openapi({ description: "Parent goal of the same company" }),
    ownerAgentId: Ref.nullable().optional().openapi({ description: "Owning agent of the same company" }),
    isCompanyDefault: z.boolean().optional().openapi({ description: "Make this the company default goal (clears the flag on the previous one)" }),
  })
  .openapi("CreateGoal");

export const UpdateGoalSchema = z
  .object({
    title: Title.optional(),
    description: Description.optional(),
    level: z.enum(GOAL_LEVELS).optional(),
    status: z.enum(GOAL_STATUSES).optional(),
    parentId: Ref.nullable().optional(),
    ownerAgentId: Ref.nullable().optional(),
    isCompanyDefault: z.boolean().optional(),
  })
  .refine(...atLeastOneField)
  .openapi("UpdateGoal");

export const GoalIdParam = z.object({
  goalId: z
    .string()
    .min(1)
    .openapi({ param: { name: "goalId", in: "path" } }),
});
