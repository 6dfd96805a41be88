// Routines: the routine, its variables, triggers (schedule, webhook, api) and runs.
import { z } from "@hono/zod-openapi";
import { atLeastOneField, JsonObject, Timestamp, Uuid } from "./common";
import { IssuePriority, IssueSummarySchema } from "./issues";
import {
  CATCH_UP_POLICIES,
  CONCURRENCY_POLICIES,
  ROUTINE_RUN_SOURCES,
  ROUTINE_RUN_STATUSES,
  ROUTINE_STATUSES,
  SIGNING_MODES,
  TRIGGER_KINDS,
  VARIABLE_TYPES,
} from "../db/schema/routines";

import { REPLAY_WINDOW, ROUTINE_RUNS_LIMIT, SCHEDULE_KEY_PREFIX } from "../domain/routines/constants";
/** Largest webhook body accepted by the public fire route (it becomes the run's triggerPayload). */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

const VariableValue = z.union([z.string().max(10_000), z.number(), z.boolean()]);

export const RoutineVariableSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "a variable name is a letter or _ followed by letters, digits or _ (at most 64)")
      .openapi({ description: "Referenced as `{{name}}` in the title and description" }),
    label: z.string().trim().max(200).nullish(),
    type: z.enum(VARIABLE_TYPES).default("text"),
    required: z.boolean().default(false),
    defaultValue: VariableValue.nullish(),
  })
  .openapi("RoutineVariable");

const RoutineFields = {
  title: z.string().trim().min(1).max(500).openapi({ description: "May use `{{variable}}` templates" }),
  description: z.string().max(50_000).nullish().openapi({ description: "May use `{{variable}}` templates" }),
  projectId: Uuid.nullish(),
  goalId: Uuid.nullish(),
  parentIssueId: Uuid.nullish(),
  priority: IssuePriority.optional().openapi({ description: "Default `medium`" }),
  status: z.enum(ROUTINE_STATUSES).optional().openapi({ description: "Default `active`" }),
  concurrencyPolicy: z.enum(CONCURRENCY_POLICIES).optional().openapi({ description: "Default `coalesce_if_active`" }),
  catchUpPolicy: z.enum(CATCH_UP_POLICIES).optional().openapi({ description: "Default `skip_missed`; `enqueue_missed_with_cap` fires up to 25 missed slots" }),
  variables: z.array(RoutineVariableSchema).max(50).optional(),
};

export const CreateRoutineSchema = z
  .object({ ...RoutineFields, assigneeAgentId: Uuid })
  .strict()
  .openapi("CreateRoutine");
export type CreateRoutineBody = z.infer<typeof CreateRoutineSchema>;

export const UpdateRoutineSchema = z
  .object({
    ...RoutineFields,
    title: RoutineFields.title.optional(),
    assigneeAgentId: Uuid.nullish().openapi({ description: "null clears it (an active routine then becomes paused)" }),
  })
  .strict()
  .refine(...atLeastOneField)
  .openapi("UpdateRoutine");
export type UpdateRoutineBody = z.infer<typeof UpdateRoutineSchema>;

const replayWindowSec = z.number().int().min(REPLAY_WINDOW.min).max(REPLAY_WINDOW.max);
// Five fields only: Cron Triggers tick once a minute, so a seconds (or years) field cannot be honoured.
const cronExpression = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^\S+(\s+\S+){4}$/, "Five fields: minute hour day-of-month month day-of-week (no seconds or years field: schedules fire at most once a minute)")
  .openapi({ description: "Five fields: minute hour day-of-month month day-of-week (lists, ranges, steps and names allowed)", example: "0 9 * * 1-5" });
const timezone = z.string().trim().min(1).max(100).openapi({ description: "IANA time zone name; default UTC", example: "America/New_York" });

export const CreateTriggerSchema = z
  .discriminatedUnion("kind", [
    z
      .object({
        kind: z.literal("schedule"),
        label: z.string().trim().max(200).nullish(),
        enabled: z.boolean().optional(),
        cronExpression,
        timezone: timezone.optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal("webhook"),
        label: z.string().trim().max(200).nullish(),
        enabled: z.boolean().optional(),
        signingMode: z.enum(SIGNING_MODES).optional().openapi({ description: "Default `bearer`" }),
        replayWindowSec: replayWindowSec.optional().openapi({ description: "30 to 86,400 seconds, default 300 (timestamped HMAC mode)" }),
      })
      .strict(),
    z.object({ kind: z.literal("api"), label: z.string().trim().max(200).nullish(), enabled: z.boolean().optional() }).strict(),
  ])
  .openapi("CreateRoutineTrigger");
export type CreateTriggerBody = z.infer<typeof CreateTriggerSchema>;

export const UpdateTriggerSchema = z
  .object({
    label: z.string().trim().max(200).nullish(),
    enabled: z.boolean().optional(),
    cronExpression: cronExpression.optional(),
    timezone: timezone.optional(),
    signingMode: z.enum(SIGNING_MODES).optional(),
    replayWindowSec: replayWindowSec.optional(),
  })
  .strict()
  .refine(...atLeastOneField)
  .openapi("UpdateRoutineTrigger");
export type UpdateTriggerBody = z.infer<typeof UpdateTriggerSchema>;

export const RoutineTriggerSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    routineId: z.string(),
    kind: z.enum(TRIGGER_KINDS),
    label: z.string().nullable(),
    enabled: z.boolean(),
    cronExpression: z.string().nullable(),
    timezone: z.string().nullable(),
    nextRunAt: Timestamp.nullable().openapi({ description: "Next due slot (UTC) of an enabled schedule trigger of an active routine" }),
    lastFiredAt: Timestamp.nullable(),
    signingMode: z.enum(SIGNING_MODES).nullable(),
    replayWindowSec: z.number().int().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("RoutineTrigger");

export const TriggerWithSecretSchema = RoutineTriggerSchema.extend({
  webhookUrl: z.string().optional().openapi({ description: "Webhook triggers: the public fire URL (returned at creation and on rotation only)" }),
  webhookSecret: z.string().optional().openapi({ description: "Webhook triggers: the signing secret (returned at creation and on rotation only)" }),
}).openapi("RoutineTriggerWithSecret");

export const RoutineRunSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    routineId: z.string(),
    triggerId: z.string().nullable(),
    source: z.enum(ROUTINE_RUN_SOURCES),
    status: z.enum(ROUTINE_RUN_STATUSES),
    triggerPayload: z.unknown().nullable(),
    variables: JsonObject.nullable(),
    linkedIssueId: z.string().nullable(),
    coalescedIntoRunId: z.string().nullable(),
    failureReason: z.string().nullable(),
    idempotencyKey: z.string().nullable(),
    completedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("RoutineRun");

export const RoutineSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    assigneeAgentId: z.string().nullable(),
    projectId: z.string().nullable(),
    goalId: z.string().nullable(),
    parentIssueId: z.string().nullable(),
    priority: IssuePriority,
    status: z.enum(ROUTINE_STATUSES),
    concurrencyPolicy: z.enum(CONCURRENCY_POLICIES),
    catchUpPolicy: z.enum(CATCH_UP_POLICIES),
    variables: z.array(RoutineVariableSchema),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    lastTriggeredAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Routine");

export const TriggerSummarySchema = RoutineTriggerSchema.pick({
  id: true,
  kind: true,
  label: true,
  enabled: true,
  nextRunAt: true,
  cronExpression: true,
  timezone: true,
  signingMode: true,
}).openapi("RoutineTriggerSummary");

export const RoutineListItemSchema = RoutineSchema.extend({
  triggers: z.array(TriggerSummarySchema),
  latestRun: RoutineRunSchema.nullable(),
  activeExecutionIssue: IssueSummarySchema.nullable(),
}).openapi("RoutineListItem");

export const RoutineDetailSchema = RoutineSchema.extend({
  project: z.object({ id: z.string(), name: z.string(), status: z.string() }).nullable(),
  assignee: z.object({ id: z.string(), name: z.string(), role: z.string(), status: z.string() }).nullable(),
  parentIssue: IssueSummarySchema.nullable(),
  triggers: z.array(RoutineTriggerSchema),
  recentRuns: z.array(RoutineRunSchema).openapi({ description: "The 10 newest runs" }),
  activeExecutionIssue: IssueSummarySchema.nullable(),
}).openapi("RoutineDetail");

export const RunRoutineSchema = z
  .object({
    source: z.enum(["manual", "api"]).optional().openapi({ description: "Default `manual`" }),
    triggerId: Uuid.optional().openapi({ description: "An enabled trigger of this routine" }),
    payload: z.unknown().optional().openapi({ description: "Stored as the run's triggerPayload" }),
    variables: z.record(z.string(), VariableValue).optional(),
    projectId: Uuid.optional(),
    assigneeAgentId: Uuid.optional(),
    idempotencyKey: z
      .string()
      .min(1)
      .max(200)
      .refine((key) => !key.startsWith(SCHEDULE_KEY_PREFIX), { message: `keys starting with "${SCHEDULE_KEY_PREFIX}" are reserved for schedule slots` })
      .optional()
      .openapi({ description: "The same key returns the first run" }),
    executionWorkspaceId: Uuid.optional(),
    executionWorkspacePreference: z.string().max(100).optional(),
    executionWorkspaceSettings: JsonObject.optional(),
  })
  .strict()
  .openapi("RunRoutine");
export type RunRoutineBody = z.infer<typeof RunRoutineSchema>;

export const RoutineRunsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, "limit must be between 1 and 200")
    .max(ROUTINE_RUNS_LIMIT.max, "limit must be between 1 and 200")
    .optional()
    .openapi({ description: "Default 50, at most 200" }),
});

const idParam = (name: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name, in: "path" } });
export const RoutineIdParam = z.object({ routineId: idParam("routineId") });
export const TriggerIdParam = z.object({ triggerId: idParam("triggerId") });
export const PublicIdParam = z.object({ publicId: idParam("publicId") });
