// Feedback traces: votes and remarks on agent output.
import { z } from "@hono/zod-openapi";
import { FEEDBACK_STATUSES, FEEDBACK_TARGET_TYPES, FEEDBACK_VOTES } from "../db/schema/feedback";
import { JsonObject, Timestamp } from "./common";

export const CreateFeedbackTraceSchema = z
  .object({
    targetType: z.enum(FEEDBACK_TARGET_TYPES),
    targetId: z.string().uuid(),
    vote: z.enum(FEEDBACK_VOTES),
    comment: z.string().max(10_000).optional(),
    payload: JsonObject.optional().openapi({ description: "What the feedback is about (e.g. the output excerpt, the prompt); at most 64 KiB as JSON" }),
    share: z
      .boolean()
      .optional()
      .openapi({ description: "Ask for the trace to be shareable; granted only while the company's feedbackSharingConsent is enabled" }),
  })
  .strict()
  .openapi("CreateFeedbackTrace");
export type CreateFeedbackTraceBody = z.infer<typeof CreateFeedbackTraceSchema>;

export const FeedbackTraceSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    targetType: z.enum(FEEDBACK_TARGET_TYPES),
    targetId: z.string(),
    issueId: z.string().nullable(),
    projectId: z.string().nullable(),
    vote: z.enum(FEEDBACK_VOTES),
    status: z.enum(FEEDBACK_STATUSES),
    comment: z.string().nullable(),
    payload: JsonObject.nullable().optional().openapi({ description: "Only with includePayload=true" }),
    shared: z.boolean(),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .openapi("FeedbackTrace");

const bool = z.enum(["true", "false"]).transform((v) => v === "true");
const isoDate = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: "must be an ISO date or date-time" })
  .transform((v) => new Date(v).toISOString());

export const FeedbackTraceQuery = z.object({
  targetType: z.enum(FEEDBACK_TARGET_TYPES).optional(),
  vote: z.enum(FEEDBACK_VOTES).optional(),
  status: z.enum(FEEDBACK_STATUSES).optional(),
  issueId: z.string().uuid().optional(),
  projectId: z.string().uuid().optional(),
  from: isoDate.optional().openapi({ description: "Created at or after (ISO date-time)" }),
  to: isoDate.optional().openapi({ description: "Created before (ISO date-time)" }),
  sharedOnly: bool.optional(),
  includePayload: bool.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: "1–500, default 100" }),
});
export type FeedbackTraceFilters = z.infer<typeof FeedbackTraceQuery>;
