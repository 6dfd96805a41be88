// Heartbeat runs: the run object, manual wake-ups, run listings, run events and completion.
import { z } from "@hono/zod-openapi";
import { HEARTBEAT_RUN_STATUSES, RUN_ERROR_CODES } from "../db/schema/runs";
import { RUN_EVENT_KINDS } from "../protocol/runner";

/** What an agent may post to its run's log: every kind but the service's own `status`. */
const AGENT_EVENT_KINDS = RUN_EVENT_KINDS.filter((k) => k !== "status") as [
  Exclude<(typeof RUN_EVENT_KINDS)[number], "status">,
  ...Exclude<(typeof RUN_EVENT_KINDS)[number], "status">[],
];
import { JsonObject, Timestamp } from "./common";

export const HeartbeatRunSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    agentId: z.string(),
    issueId: z.string().nullable(),
    status: z.enum(HEARTBEAT_RUN_STATUSES),
    adapterType: z.string(),
    invocationSource: z
      .string()
      .openapi({ description: "`assignment`, `on_demand`, `timer`, `automation` (or `external`: a run id first seen from an agent)" }),
    reason: z
      .string()
      .nullable()
      .openapi({ description: "Wake reason: assignment, comment, mention, blocker_resolved, approval_resolved, routine, timer, on_demand" }),
    context: JsonObject.nullable().openapi({ description: "Wake context: wakeReason, issueId, commentId(s), approvalId, approvalStatus, payload, …" }),
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    error: z.string().nullable(),
    errorCode: z.enum(RUN_ERROR_CODES).nullable().openapi({ description: "Why the run did not succeed (one list for every adapter)" }),
    summary: z.string().nullable(),
    usage: JsonObject.nullable(),
    result: JsonObject.nullable(),
    retryCount: z.number().int(),
    nextRetryAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("HeartbeatRun");

export const RunPathParam = z.object({
  runId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "runId", in: "path" } }),
});
export const AgentPathParam = z.object({
  agentId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "agentId", in: "path" } }),
});

export const WakeupRequestSchema = z
  .object({
    reason: z.string().trim().min(1).max(64).optional().openapi({ description: "Default `on_demand`" }),
    payload: JsonObject.optional().openapi({ description: "Handed to the agent in the run's context" }),
    issueId: z.string().uuid().optional(),
    idempotencyKey: z.string().min(1).max(200).optional().openapi({ description: "The same key returns the same run, also after it finished" }),
  })
  .openapi("WakeupRequest");

export const SkippedWakeupSchema = z
  .object({
    status: z.literal("skipped"),
    reason: z.string().openapi({ description: "`agent.not_invokable`, `company.inactive`, `budget.blocked`" }),
    wakeupId: z.string(),
  })
  .openapi("SkippedWakeup");

export const RunListQuery = z.object({
  agentId: z.string().optional(),
  issueId: z.string().optional(),
  status: z.enum(HEARTBEAT_RUN_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional().openapi({ description: "Default 50, at most 200" }),
  cursor: z.string().max(400).optional().openapi({ description: "nextCursor of the previous page" }),
});

export const RunPageSchema = z.object({ runs: z.array(HeartbeatRunSchema), nextCursor: z.string().nullable() }).openapi("HeartbeatRunPage");

export const RunEventSchema = z
  .object({ seq: z.number().int(), kind: z.string(), message: z.string().nullable(), data: z.unknown().nullable(), createdAt: Timestamp })
  .openapi("HeartbeatRunEvent");

export const RunEventsQuery = z.object({
  afterSeq: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: "Default 200, at most 1000" }),
});

export const AppendRunEventsSchema = z
  .object({
    events: z
      .array(z.object({ kind: z.enum(AGENT_EVENT_KINDS), message: z.string().max(16_000), data: z.unknown().optional() }))
      .min(1)
      .max(500),
  })
  .openapi("AppendRunEvents");

export const RunUsageSchema = z
  .object({
    provider: z.string().min(1).max(100),
    model: z.string().min(1).max(200),
    inputTokens: z.number().int().min(0).optional(),
    cachedInputTokens: z.number().int().min(0).optional(),
    outputTokens: z.number().int().min(0).optional(),
    costCents: z.number().int().min(0).optional(),
    billingType: z.string().optional(),
  })
  .openapi("RunUsage");

export const CompleteRunSchema = z
  .object({
    status: z.enum(["succeeded", "failed"]),
    summary: z.string().max(10_000).optional(),
    result: JsonObject.optional(),
    error: z.string().max(10_000).optional(),
    usage: RunUsageSchema.optional(),
  })
  .openapi("CompleteRun");

/** Largest run-events request body (413 above). */
export const MAX_RUN_EVENTS_BYTES = 64 * 1024;
