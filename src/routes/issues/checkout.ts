// Issue checkout: an agent takes an issue for its run, and the holder (or the board) releases it.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { runCompanyCommand } from "../../company/client";
import { idempotencyOf } from "../../http/idempotency";
import { errors, jsonBody, jsonContent, IdempotencyHeaders } from "../../schemas/common";
import { CheckoutSchema, IssueIdParam, IssueSchema } from "../../schemas/issues";
import { checkoutIssue, releaseIssue } from "../../domain/issues/checkout";
import { loadForIssue } from "./guard";

const tags = ["Issues"];
export const issueCheckoutRouter = createRouter();

issueCheckoutRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/checkout",
    tags,
    summary: "Check out an issue (agents, as themselves)",
    description:
      "The caller must be the agent named by agentId (403 otherwise, board callers included) and send a run id (X-Service-Run-Id or the JWT's run_id; 401 without). " +
      "The issue's status must be in expectedStatuses and its project not paused (409). Sets in_progress, the assignee and checkoutRunId. " +
      "Idempotent for the same agent and run. A lock whose run finished, failed, was cancelled, timed out (including a live run idle past the run lease) or is missing " +
      "is adopted by the same agent when expectedStatuses includes in_progress. Otherwise 409 `Issue checkout conflict` with details { issueId, status, assigneeAgentId, checkoutRunId }.",
    request: { params: IssueIdParam, headers: IdempotencyHeaders, body: jsonBody(CheckoutSchema) },
    responses: { 200: jsonContent(IssueSchema, "The checked-out issue"), ...errors(400, 401, 403, 404, 409) },
  }),

  async (c) => {
    const body = c.req.valid("json");
    const { issue, input, loaded } = await loadForIssue(c, checkoutIssue, c.req.valid("param").issueId, (issueId) => ({ issueId, ...body }));
    const result = await runCompanyCommand(c.env, issue.companyId, checkoutIssue, c.get("actor"), input, loaded, idempotencyOf(c));
    return c.json(result, 200);
  },
);

issueCheckoutRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/release",
    tags,
    summary: "Release a checked-out issue",
    description:
      "Board callers, or the assignee agent from its current checkout run (another run: 409 `Issue run ownership conflict`; another agent: 403). " +
      "The issue goes back to todo; the assignee agent, checkoutRunId and every other lock field are cleared in one statement; assigneeUserId is kept. " +
      "An issue that is not checked out gives 409.",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(IssueSchema, "The released issue"), ...errors(401, 403, 404, 409) },
  }),

  async (c) => {
    const { issue, input, loaded } = await loadForIssue(c, releaseIssue, c.req.valid("param").issueId, (issueId) => ({ issueId }));
    const result = await runCompanyCommand(c.env, issue.companyId, releaseIssue, c.get("actor"), input, loaded);
    return c.json(result, 200);
  },
);
