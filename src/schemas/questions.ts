// Questions agents ask people on an issue: request and response shapes.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";
import { IssueIdParam } from "./issues";
import { QUESTION_STATUSES } from "../db/schema/questions";

const OptionSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, _ . : -"),
    label: z.string().min(1).max(200),
  })
  .openapi("QuestionOption");

export const AskQuestionSchema = z
  .object({
    prompt: z.string().trim().min(1).max(4000).openapi({ description: "The question, markdown" }),
    options: z
      .array(OptionSchema)
      .max(20)
      .refine((options) => new Set(options.map((o) => o.id)).size === options.length, "option ids must be unique")
      .optional()
      .openapi({ description: "Choices to answer with (the console shows them as buttons)" }),
    allowFreeText: z.boolean().optional().openapi({ description: "Whether a written answer is accepted (default: true without options, false with)" }),
    askedOfUserId: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .openapi({ description: "The member asked (an active member of the company); default the board" }),
    blocksIssue: z.boolean().optional().openapi({ description: "Sets the issue blocked until the answer, which returns it to its status before" }),
  })
  .strict()
  .openapi("AskQuestion");

export const AnswerQuestionSchema = z
  .object({
    optionId: z.string().min(1).max(64).nullable().optional(),
    text: z.string().max(20_000).nullable().optional(),
  })
  .strict()
  .refine((v) => Boolean(v.optionId) || Boolean(v.text?.trim()), { message: "send optionId or text" })
  .openapi("AnswerQuestion");

export const QuestionSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    issueId: z.string(),
    askedByAgentId: z.string(),
    runId: z.string().nullable(),
    askedOfUserId: z.string().nullable(),
    prompt: z.string(),
    options: z.array(OptionSchema),
    allowFreeText: z.boolean(),
    blocksIssue: z.boolean(),
    status: z.enum(QUESTION_STATUSES),
    answer: z
      .object({
        optionId: z.string().nullable(),
        optionLabel: z.string().nullable(),
        text: z.string().nullable(),
        answeredByUserId: z.string().nullable(),
        answeredAt: z.string().nullable(),
        commentId: z.string().nullable(),
      })
      .nullable(),
    cancelledAt: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Question");

export const CompanyQuestionSchema = QuestionSchema.extend({
  issue: z.object({ id: z.string(), identifier: z.string(), title: z.string(), status: z.string() }),
}).openapi("CompanyQuestion");

export const QuestionIdParam = IssueIdParam.extend({
  questionId: z
    .string()
    .min(1)
    .openapi({ param: { name: "questionId", in: "path" } }),
});

export const QuestionListQuery = z.object({
  status: z.enum(QUESTION_STATUSES).optional(),
  askedOfUserId: z.string().min(1).max(200).optional().openapi({ description: "Only questions asked of this member" }),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
