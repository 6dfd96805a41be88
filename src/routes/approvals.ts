// Approvals: board review of hires, strategy, budget overrides and general requests.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireBoard, requireCompanyAccess, requireEntityAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { idempotencyOf } from "../http/idempotency";
import { approvalView } from "../domain/approvals/view";
import { approvalIssues, listApprovalComments, listApprovals, loadApproval } from "../domain/approvals/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent, IdempotencyHeaders } from "../schemas/common";
import {
  ApprovalCommentSchema,
  ApprovalIdParam,
  ApprovalIssueSchema,
  ApprovalListQuery,
  ApprovalSchema,
  CreateApprovalCommentSchema,
  CreateApprovalSchema,
  DecisionSchema,
  ResubmitSchema,
} from "../schemas/approvals";
import { commentOnApproval, createApproval, decideApproval, resubmitApproval } from "../domain/approvals/commands";

const tags = ["Approvals"];
export const approvalsRouter = createRouter();

/** The approval behind `{approvalId}` if the caller may reach its company (else 404). */
async function approvalFor(c: Context<AppEnv>, approvalId: string) {
  const row = await loadApproval(dbOf(c), approvalId);
  const actor = requireEntityAccess(c, row.companyId, "Approval");
  return { approval: row, actor };
}

approvalsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/approvals",
    tags,
    summary: "The company's approvals, newest first (optional status and type filters; payloads redacted)",
    request: { params: CompanyIdParam, query: ApprovalListQuery },
    responses: { 200: jsonContent(z.array(ApprovalSchema), "Approvals"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const { status, type } = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    return c.json(await listApprovals(dbOf(c), companyId, { status, type }), 200);
  },
);

approvalsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/approvals/{approvalId}",
    tags,
    summary: "Get an approval (404 if missing or outside the caller's company)",
    request: { params: ApprovalIdParam },
    responses: { 200: jsonContent(ApprovalSchema, "The approval"), ...errors(401, 404) },
  }),
  async (c) => {
    const { approval } = await approvalFor(c, c.req.valid("param").approvalId);
    return c.json(approvalView(approval), 200);
  },
);

approvalsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/approvals",
    tags,
    summary: "Request an approval (status `pending`)",
    description:
      "Agent callers are the requester (requestedByAgentId defaults to them; naming another agent is 403). Board callers are " +
      "recorded as requestedByUserId and may name a requesting agent of the company (else 422). issueIds are linked " +
      "(duplicates ignored): an unknown issue is 404, an issue of another company 422.",
    request: { params: CompanyIdParam, headers: IdempotencyHeaders, body: jsonBody(CreateApprovalSchema) },
    responses: { 201: jsonContent(ApprovalSchema, "The new approval"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const approval = await runCompanyCommand(c.env, companyId, createApproval, c.get("actor"), c.req.valid("json"), undefined, idempotencyOf(c));
    return c.json(approval, 201);
  },
);

approvalsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/approvals/{approvalId}/issues",
    tags,
    summary: "Issues linked to the approval",
    request: { params: ApprovalIdParam },
    responses: { 200: jsonContent(z.array(ApprovalIssueSchema), "Linked issues"), ...errors(401, 404) },
  }),
  async (c) => {
    const { approval } = await approvalFor(c, c.req.valid("param").approvalId);
    return c.json(await approvalIssues(dbOf(c), approval), 200);
  },
);

const decisionRoute = (action: "approve" | "reject" | "request-revision", summary: string) =>
  createRoute({
    method: "post",
    path: `/api/approvals/{approvalId}/${action}`,
    tags,
    summary,
    description:
      "Board only (agents get 403). Allowed from the states of the approval state table (approve/reject: pending or " +
      "revision_requested; request-revision: pending); any other state gives 422. The requesting agent is woken " +
      "(reason `approval_resolved`, env SERVICE_APPROVAL_ID and SERVICE_APPROVAL_STATUS).",
    request: { params: ApprovalIdParam, body: { required: false, content: { "application/json": { schema: DecisionSchema } } } },
    responses: { 200: jsonContent(ApprovalSchema, "The decided approval"), ...errors(400, 401, 403, 404, 422) },
  });

const decisionHandler = (action: "approve" | "reject" | "request-revision") => async (c: Context<AppEnv>) => {
  const { approval } = await approvalFor(c, c.req.param("approvalId")!);
  const actor = requireBoard(c);
  let decisionNote: string | null | undefined;
  let amountCents: number | undefined;
  const raw = await c.req.text();
  if (raw.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return c.json({ error: "Invalid request body: not valid JSON" }, 400);
    }
    const result = DecisionSchema.safeParse(parsed);
    if (!result.success) {
      return c.json({ error: "Invalid request body: decisionNote must be a string, amountCents a positive integer", details: result.error.issues }, 400);
    }
    decisionNote = result.data.decisionNote;
    amountCents = result.data.amountCents;
  }
  const decided = await runCompanyCommand(c.env, approval.companyId, decideApproval, actor, { approvalId: approval.id, action, decisionNote, amountCents });
  return c.json(decided, 200);
};

approvalsRouter.openapi(
  decisionRoute("approve", "Approve (hire_agent: activates or creates the agent; approve_ceo_strategy: marks the goal active)"),
  decisionHandler("approve") as never,
);
approvalsRouter.openapi(
  decisionRoute("reject", "Reject (hire_agent: the pending draft agent is terminated and its keys revoked)"),
  decisionHandler("reject") as never,
);
approvalsRouter.openapi(
  decisionRoute("request-revision", "Ask the requester for a revision (decisionNote stored)"),
  decisionHandler("request-revision") as never,
);

approvalsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/approvals/{approvalId}/resubmit",
    tags,
    summary: "Resubmit after a revision request (the requesting agent itself, or the board)",
    description: "Only from `revision_requested` (else 422); another agent gets 403. The payload is replaced when supplied, else kept.",
    request: { params: ApprovalIdParam, body: { required: false, content: { "application/json": { schema: ResubmitSchema } } } },
    responses: { 200: jsonContent(ApprovalSchema, "The resubmitted approval"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { approval, actor } = await approvalFor(c, c.req.valid("param").approvalId);
    const body = c.req.valid("json") ?? {};
    const result = await runCompanyCommand(c.env, approval.companyId, resubmitApproval, actor, { approvalId: approval.id, payload: body.payload });
    return c.json(result, 200);
  },
);

approvalsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/approvals/{approvalId}/comments",
    tags,
    summary: "Comments on the approval, oldest first",
    request: { params: ApprovalIdParam },
    responses: { 200: jsonContent(z.array(ApprovalCommentSchema), "Comments"), ...errors(401, 404) },
  }),
  async (c) => {
    const { approval } = await approvalFor(c, c.req.valid("param").approvalId);
    return c.json(await listApprovalComments(dbOf(c), approval.id), 200);
  },
);

approvalsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/approvals/{approvalId}/comments",
    tags,
    summary: "Comment on the approval (markdown body; any caller of the company)",
    request: { params: ApprovalIdParam, body: jsonBody(CreateApprovalCommentSchema) },
    responses: { 201: jsonContent(ApprovalCommentSchema, "The comment"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { approval, actor } = await approvalFor(c, c.req.valid("param").approvalId);
    const comment = await runCompanyCommand(c.env, approval.companyId, commentOnApproval, actor, { approvalId: approval.id, body: c.req.valid("json").body });
    return c.json(comment, 201);
  },
);
