// Questions agents ask people on an issue: ask (the assignee agent), answer (board members, once),
// cancel (the asking agent or the board), and the issue's and the company's lists.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { idempotencyOf } from "../http/idempotency";
import { runCompanyCommand } from "../company/client";
import { CompanyIdParam, errors, IdempotencyHeaders, jsonBody, jsonContent } from "../schemas/common";
import { IssueIdParam } from "../schemas/issues";
import { AnswerQuestionSchema, AskQuestionSchema, CompanyQuestionSchema, QuestionIdParam, QuestionListQuery, QuestionSchema } from "../schemas/questions";
import { answerQuestion, askQuestion, cancelQuestion } from "../domain/questions/commands";
import { listCompanyQuestions, listIssueQuestions } from "../domain/questions/queries";
import { issueFor } from "./issues/guard";

const tags = ["Questions"];
export const questionsRouter = createRouter();

questionsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/questions",
    operationId: "askQuestion",
    tags,
    summary: "Ask a person a question on the issue (the issue's assignee agent)",
    description:
      "The assignee agent asks with its key, in a run or not (the run id is recorded when sent). `askedOfUserId` must be an active member of the company (422); " +
      "without options a free-text answer is allowed (a question with neither is 422). `blocksIssue: true` sets the issue `blocked` until the question is answered " +
      "or cancelled, then returns it to its status before (422 on a done or cancelled issue). Board callers and other agents: 403. Accepts an Idempotency-Key.",
    request: { params: IssueIdParam, headers: IdempotencyHeaders, body: jsonBody(AskQuestionSchema) },
    responses: { 201: jsonContent(QuestionSchema, "The open question"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const question = await runCompanyCommand(
      c.env,
      issue.companyId,
      askQuestion,
      c.get("actor"),
      { ...c.req.valid("json"), issueId: issue.id },
      undefined,
      idempotencyOf(c),
    );
    return c.json(question, 201);
  },
);

questionsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/questions",
    operationId: "listIssueQuestions",
    tags,
    summary: "The issue's questions, oldest first (board members and the company's agents)",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(z.array(QuestionSchema), "The questions"), ...errors(401, 404) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    return c.json(await listIssueQuestions(dbOf(c), issue.id), 200);
  },
);

questionsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/questions/{questionId}/answer",
    operationId: "answerQuestion",
    tags,
    summary: "Answer an open question (board members; once)",
    description:
      "With `optionId` (one of the question's options, 422 otherwise) and/or `text` (refused when the question takes only its options). " +
      "Records who answered, posts the answer on the issue as the answerer's comment (it wakes no one), unblocks the issue it blocked, and wakes the asking agent once " +
      "(reason `question_answered`, the answer in its context). A question already answered or cancelled: 409. Agents: 403.",
    request: { params: QuestionIdParam, body: jsonBody(AnswerQuestionSchema) },
    responses: { 200: jsonContent(QuestionSchema, "The answered question"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { issueId, questionId } = c.req.valid("param");
    const issue = await issueFor(c, issueId);
    const body = c.req.valid("json");
    return c.json(await runCompanyCommand(c.env, issue.companyId, answerQuestion, c.get("actor"), { ...body, issueId: issue.id, questionId }), 200);
  },
);

questionsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/questions/{questionId}/cancel",
    operationId: "cancelQuestion",
    tags,
    summary: "Cancel an open question (the asking agent, or a board member)",
    description: "Unblocks the issue it blocked. Another agent: 403; a question already answered or cancelled: 409.",
    request: { params: QuestionIdParam },
    responses: { 200: jsonContent(QuestionSchema, "The cancelled question"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const { issueId, questionId } = c.req.valid("param");
    const issue = await issueFor(c, issueId);
    return c.json(await runCompanyCommand(c.env, issue.companyId, cancelQuestion, c.get("actor"), { issueId: issue.id, questionId }), 200);
  },
);

questionsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/questions",
    operationId: "listCompanyQuestions",
    tags,
    summary: "The company's questions, newest first, with their issues (board members and the company's agents)",
    description: "Filters: `status` (open, answered, cancelled), `askedOfUserId`; `limit` 1–200 (default 100).",
    request: { params: CompanyIdParam, query: QuestionListQuery },
    responses: { 200: jsonContent(z.array(CompanyQuestionSchema), "The questions"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await listCompanyQuestions(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);
