// Approval request and response schemas.
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp, Uuid } from "./common";
import { APPROVAL_STATUSES, APPROVAL_TYPES } from "../db/schema/approvals";

export const ApprovalSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    type: z.enum(APPROVAL_TYPES),
    status: z.enum(APPROVAL_STATUSES),
    payload: JsonObject.openapi({ description: "Type-specific; secret-looking values are redacted" }),
    requestedByAgentId: z.string().nullable(),
    requestedByUserId: z.string().nullable(),
    decisionNote: z.string().nullable(),
    decidedByUserId: z.string().nullable(),
    decidedAt: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Approval");

export const CreateApprovalSchema = z
  .object({
    type: z.enum(APPROVAL_TYPES),
    payload: JsonObject.openapi({
      description:
        "request_board_approval: { title, summary, recommendedAction, risks[] }; hire_agent: { agentId } of a pending agent, or " +
        "{ name, role, title, adapterType, adapterConfig, reportsTo, budgetMonthlyCents } to create one on approval; " +
        "approve_ceo_strategy: { summary, goalId, ... }",
    }),
    requestedByAgentId: Uuid.nullable().optional().openapi({ description: "Agents: defaults to (and may only be) themselves" }),
    issueIds: z.array(Uuid).max(100).optional().openapi({ description: "Issues to link; duplicates ignored" }),
  })
  .openapi("CreateApproval");

export const DecisionSchema = z
  .object({
    decisionNote: z.string().max(20_000).nullable().optional(),
    amountCents: z.number().int().positive().optional().openapi({
      description:
        "budget_override_required only, on approve: the new budget, above the observed spend in the window. Approving raises the budget and resumes the paused scope (the incident is resolved with raise_budget_and_resume); rejecting keeps the scope paused (keep_paused).",
    }),
  })
  .openapi("ApprovalDecision");

export const ResubmitSchema = z
  .object({ payload: JsonObject.optional().openapi({ description: "Replaces the payload when supplied; kept otherwise" }) })
  .openapi("ApprovalResubmit");

export const ApprovalCommentSchema = z
  .object({
    id: z.string(),
    approvalId: z.string(),
    companyId: z.string(),
    body: z.string(),
    authorAgentId: z.string().nullable(),
    authorUserId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .openapi("ApprovalComment");

export const CreateApprovalCommentSchema = z.object({ body: z.string().trim().min(1).max(100_000) }).openapi("CreateApprovalComment");

export const ApprovalIssueSchema = z
  .object({
    id: z.string(),
    identifier: z.string(),
    title: z.string(),
    status: z.string(),
    priority: z.string(),
    projectId: z.string().nullable(),
    assigneeAgentId: z.string().nullable(),
    linkedAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("ApprovalLinkedIssue");

export const ApprovalIdParam = z.object({
  approvalId: z
    .string()
    .min(1)
    .openapi({ param: { name: "approvalId", in: "path" } }),
});
export const ApprovalListQuery = z.object({
  status: z.enum(APPROVAL_STATUSES).optional(),
  type: z.enum(APPROVAL_TYPES).optional(),
});
