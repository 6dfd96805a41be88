// Issue comments: list (with a cursor), one comment, and commenting (which can reopen or interrupt).
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { runCompanyCommand } from "../../company/client";
import { idempotencyOf } from "../../http/idempotency";
import { errors, jsonBody, jsonContent, IdempotencyHeaders } from "../../schemas/common";
import { CommentIdParam, CommentListQuery, CommentSchema, CreateCommentSchema, IssueIdParam } from "../../schemas/issues";
import { getComment, listComments } from "../../domain/issues/queries";
import { addComment } from "../../domain/issues/commands";
import { issueFor, loadForIssue } from "./guard";

const tags = ["Issues"];
export const issueCommentsRouter = createRouter();

issueCommentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/comments",
    tags,
    summary: "Comments of an issue",
    description:
      "`after` (ISO time) or `afterCommentId` keep only comments newer than the cursor; `order` asc (default, oldest first) or desc; `limit` 1–500 (default 100), applied after ordering.",
    request: { params: IssueIdParam, query: CommentListQuery },
    responses: { 200: jsonContent(z.array(CommentSchema), "Comments"), ...errors(400, 401, 404) },
  }),

  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    return c.json(await listComments(dbOf(c), issue.id, c.req.valid("query")), 200);
  },
);

issueCommentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/comments/{commentId}",
    tags,
    summary: "One comment of an issue",
    request: { params: CommentIdParam },
    responses: { 200: jsonContent(CommentSchema, "The comment"), ...errors(401, 404) },
  }),

  async (c) => {
    const { issueId, commentId } = c.req.valid("param");
    const issue = await issueFor(c, issueId);
    return c.json(await getComment(dbOf(c), issue.id, commentId), 200);
  },
);

issueCommentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/comments",
    tags,
    summary: "Comment on an issue (open or closed)",
    description:
      "body: markdown. reopen: a done/cancelled issue goes back to todo. interrupt: board only — cancels the issue's live runs. " +
      "Wakes the assignee agent (reason `comment`, not when the issue stays closed) and every `@AgentName` mentioned (reason `mention`, case-insensitive exact names, multi-word included); " +
      "an agent's own comment never wakes itself. The assignee agent commenting on its checked-out issue must do so from the holding run (409 otherwise); agents need a run id on in_progress issues (401).",
    request: { params: IssueIdParam, headers: IdempotencyHeaders, body: jsonBody(CreateCommentSchema) },
    responses: { 201: jsonContent(CommentSchema, "The comment"), ...errors(400, 401, 403, 404, 409) },
  }),

  async (c) => {
    const body = c.req.valid("json");
    const { issue, input, loaded } = await loadForIssue(c, addComment, c.req.valid("param").issueId, (issueId) => ({ issueId, ...body }));
    const comment = await runCompanyCommand(c.env, issue.companyId, addComment, c.get("actor"), input, loaded, idempotencyOf(c));
    return c.json(comment, 201);
  },
);
