// Issue request and response schemas: issues, comments, labels, checkout, agent views.
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp, atLeastOneField, Uuid } from "./common";
import { ISSUE_IDENTIFIER_PATTERN } from "../domain/companies/issue-prefix";
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from "../db/schema/issues";
import { ISSUE_DESCRIPTION_MAX, ISSUE_TITLE_MAX } from "../domain/issues/limits";

export const IssueStatus = z.enum(ISSUE_STATUSES);
export const IssuePriority = z.enum(ISSUE_PRIORITIES);
const Id = Uuid;
/** An issue named by its UUID or its identifier (`ABC-12`). */
const IssueRef = z.union([Uuid, z.string().regex(ISSUE_IDENTIFIER_PATTERN, "an issue UUID or identifier such as ABC-12")]);
const IdList = z.array(Id).max(100);
/** User ids come from the auth provider (not UUIDs). */
const UserId = z.string().trim().min(1).max(100);

export const IssueIdParam = z.object({
  issueId: z
    .string()
    .min(1)
    .openapi({ param: { name: "issueId", in: "path" }, description: "Issue UUID or identifier such as ABC-12", example: "ABC-12" }),
});
export const CommentIdParam = IssueIdParam.extend({
  commentId: z
    .string()
    .min(1)
    .openapi({ param: { name: "commentId", in: "path" } }),
});
export const RunIdParam = z.object({
  runId: z
    .string()
    .min(1)
    .openapi({ param: { name: "runId", in: "path" } }),
});

const issueFields = {
  title: z.string().trim().min(1).max(ISSUE_TITLE_MAX),
  description: z.string().max(ISSUE_DESCRIPTION_MAX).nullable(),
  status: IssueStatus,
  priority: IssuePriority,
  projectId: Id.nullable(),
  goalId: Id.nullable(),
  parentId: IssueRef.nullable(),
  blockedByIssueIds: z.array(IssueRef).max(100),
  labelIds: IdList,
  executionPolicy: JsonObject.nullable(),
  executionWorkspaceId: Id.nullable(),
  executionWorkspacePreference: z.string().trim().min(1).max(100).nullable(),
  executionWorkspaceSettings: JsonObject.nullable(),
  assigneeAgentId: Id.nullable(),
  assigneeUserId: UserId.nullable(),
  inheritExecutionWorkspaceFromIssueId: IssueRef.nullable(),
};

/** Every issue field, optional: the shared part of the create and update bodies. */
const optionalIssueFields = z.object(issueFields).partial().shape;

export const CreateIssueSchema = z
  .object({
    ...optionalIssueFields,
    title: issueFields.title,
    status: IssueStatus.default("backlog"),
    priority: IssuePriority.default("medium"),
    originKind: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((kind) => kind !== "routine_execution", { message: "routine_execution is reserved for issues created by routine runs" })
      .optional()
      .openapi({ description: "Defaults to `manual`; `routine_execution` is reserved for routine runs" }),
    originId: z.string().trim().min(1).max(200).nullable().optional(),
  })
  .openapi("CreateIssue");
export type CreateIssueBody = z.infer<typeof CreateIssueSchema>;

export const UpdateIssueSchema = z
  .object({
    ...optionalIssueFields,
    hiddenAt: z.iso.datetime({ offset: true }).nullable().optional().openapi({ description: "ISO time hides the issue from lists; null unhides" }),
    comment: z.string().trim().min(1).max(100_000).optional().openapi({ description: "Markdown comment added with the update" }),
    reopen: z.boolean().optional().openapi({ description: "With a comment: a done/cancelled issue goes back to todo unless status is set" }),
    interrupt: z.boolean().optional().openapi({ description: "Board only, only with a comment: cancels the issue's live runs" }),
  })
  .refine(...atLeastOneField)
  .openapi("UpdateIssue");
export type UpdateIssueBody = z.infer<typeof UpdateIssueSchema>;

const booleanString = z.enum(["true", "false"]);
export const IssueListQuery = z.object({
  status: z.string().max(200).optional().openapi({ description: "One status or a comma list" }),
  assigneeAgentId: z.string().max(100).optional(),
  participantAgentId: z.string().max(100).optional().openapi({ description: "Assignee, creator or commenter" }),
  assigneeUserId: z.string().max(100).optional().openapi({ description: "`me` for the board caller" }),
  touchedByUserId: z.string().max(100).optional().openapi({ description: "Created, assigned, commented or read by the user; `me` for the board caller" }),
  inboxArchivedByUserId: z.string().max(100).optional().openapi({ description: "Archived from the user's inbox; `me` for the board caller" }),
  unreadForUserId: z
    .string()
    .max(100)
    .optional()
    .openapi({ description: "Touched by the user with a comment by someone else after the user's last read; `me` for the board caller" }),
  projectId: z.string().max(100).optional(),
  executionWorkspaceId: z.string().max(100).optional(),
  parentId: z.string().max(100).optional(),
  labelId: z.string().max(100).optional(),
  originKind: z.string().max(100).optional(),
  originId: z.string().max(200).optional(),
  includeRoutineExecutions: booleanString.optional(),
  q: z.string().trim().max(200).optional(),
  limit: z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .refine((n) => n > 0, "must be a positive integer")
    .optional()
    .openapi({ type: "string", description: "Positive integer; default and maximum 500 (larger values are capped)" }),
});

export const LabelRefSchema = z.object({ id: z.string(), name: z.string(), color: z.string().nullable() });

export const IssueSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    identifier: z.string(),
    number: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    status: IssueStatus,
    priority: IssuePriority,
    projectId: z.string().nullable(),
    goalId: z.string().nullable(),
    parentId: z.string().nullable(),
    assigneeAgentId: z.string().nullable(),
    assigneeUserId: z.string().nullable(),
    checkoutRunId: z.string().nullable(),
    checkedOutAt: z.string().nullable(),
    executionPolicy: JsonObject.nullable(),
    executionWorkspaceId: z.string().nullable(),
    executionWorkspacePreference: z.string().nullable(),
    executionWorkspaceSettings: JsonObject.nullable(),
    labelIds: z.array(z.string()),
    labels: z.array(LabelRefSchema),
    blockedByIssueIds: z.array(z.string()),
    originKind: z.string(),
    originId: z.string().nullable(),
    hiddenAt: z.string().nullable(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Issue");

export const IssueSummarySchema = z
  .object({
    id: z.string(),
    identifier: z.string(),
    title: z.string(),
    status: IssueStatus,
    priority: IssuePriority,
    assigneeAgentId: z.string().nullable(),
    projectId: z.string().nullable(),
    parentId: z.string().nullable(),
    updatedAt: Timestamp,
  })
  .openapi("IssueSummary");

const ProjectSummary = z.object({ id: z.string(), name: z.string(), urlKey: z.string(), status: z.string(), pausedAt: z.string().nullable() });
const GoalSummary = z.object({ id: z.string(), title: z.string(), level: z.string(), status: z.string() });

export const IssueDetailSchema = IssueSchema.extend({
  project: ProjectSummary.nullable(),
  goal: GoalSummary.nullable(),
  ancestors: z.array(IssueSummarySchema).openapi({ description: "Parent first, then its parent, up to the root" }),
  blockedBy: z.array(IssueSummarySchema),
  blocks: z.array(IssueSummarySchema),
  planDocument: JsonObject.nullable(),
  documentSummaries: z.array(JsonObject),
  legacyPlanDocument: JsonObject.nullable(),
  mentionedProjects: z.array(ProjectSummary),
  currentExecutionWorkspace: JsonObject.nullable(),
  workProducts: z.array(JsonObject),
}).openapi("IssueDetail");

export const CommentSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    issueId: z.string(),
    body: z.string(),
    authorAgentId: z.string().nullable(),
    authorUserId: z.string().nullable(),
    runId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("IssueComment");

export const CreateCommentSchema = z
  .object({
    body: z.string().trim().min(1).max(100_000).openapi({ description: "Markdown" }),
    reopen: z.boolean().optional(),
    interrupt: z.boolean().optional(),
  })
  .openapi("CreateIssueComment");

export const CommentListQuery = z.object({
  after: z.iso.datetime({ offset: true }).optional().openapi({ description: "Only comments created after this ISO time" }),
  afterCommentId: z.string().max(100).optional().openapi({ description: "Only comments after this one (in the chosen order's time line)" }),
  order: z.enum(["asc", "desc"]).optional().openapi({ description: "Default asc (oldest first)" }),
  limit: z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .refine((n) => n > 0 && n <= 500, "must be an integer from 1 to 500")
    .optional()
    .openapi({ type: "string", description: "1 to 500, default 100" }),
});

export const CheckoutSchema = z
  .object({
    agentId: Id,
    expectedStatuses: z.array(IssueStatus).min(1, "expectedStatuses must be a non-empty array"),
  })
  .openapi("IssueCheckout");

export const LabelSchema = z
  .object({ id: z.string(), companyId: z.string(), name: z.string(), color: z.string().nullable(), createdAt: Timestamp, updatedAt: Timestamp })
  .openapi("Label");
export const CreateLabelSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    color: z
      .string()
      .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour such as #1a2b3c")
      .nullable()
      .optional(),
  })
  .openapi("CreateLabel");

export const IssueRunSchema = z
  .object({
    runId: z.string(),
    status: z.string(),
    agentId: z.string(),
    adapterType: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    createdAt: Timestamp,
    invocationSource: z.string(),
    usageJson: JsonObject.nullable(),
    resultJson: JsonObject.nullable(),
    logBytes: z.number().int(),
  })
  .openapi("IssueRun");

const ActiveRun = z.object({ id: z.string(), status: z.string(), agentId: z.string(), startedAt: z.string().nullable() });
export const InboxLiteItemSchema = z
  .object({
    id: z.string(),
    identifier: z.string(),
    title: z.string(),
    status: IssueStatus,
    priority: IssuePriority,
    projectId: z.string().nullable(),
    goalId: z.string().nullable(),
    parentId: z.string().nullable(),
    updatedAt: Timestamp,
    activeRun: ActiveRun.nullable(),
    dependencyReady: z.boolean(),
    unresolvedBlockerCount: z.number().int(),
    unresolvedBlockerIssueIds: z.array(z.string()),
  })
  .openapi("InboxLiteItem");

export const HeartbeatContextSchema = z
  .object({
    issue: IssueSchema.pick({
      id: true,
      identifier: true,
      title: true,
      description: true,
      status: true,
      priority: true,
      projectId: true,
      goalId: true,
      parentId: true,
      assigneeAgentId: true,
      assigneeUserId: true,
      checkoutRunId: true,
      blockedByIssueIds: true,
      labelIds: true,
      updatedAt: true,
    }),
    ancestors: z.array(IssueSummarySchema),
    project: ProjectSummary.nullable(),
    goal: GoalSummary.nullable(),
    commentCursor: z.object({ totalComments: z.number().int(), latestCommentId: z.string().nullable(), latestCommentAt: z.string().nullable() }),
    wakeComment: CommentSchema.nullable(),
    attachments: z.array(JsonObject),
    planReviewContext: JsonObject.nullable(),
  })
  .openapi("IssueHeartbeatContext");

export const IssueUserStateSchema = z
  .object({ issueId: z.string(), userId: z.string(), lastReadAt: z.string().nullable(), inboxArchivedAt: z.string().nullable() })
  .openapi("IssueUserState");
