// Feedback traces: any caller of the company records one (board users and agents); only board
// users read them.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireActor, requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { CreateFeedbackTraceSchema, FeedbackTraceQuery, FeedbackTraceSchema } from "../schemas/feedback";
import { listFeedbackTraces, recordFeedbackTrace } from "../domain/feedback/traces";

const tags = ["Feedback"];
export const feedbackRouter = createRouter();

feedbackRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/feedback-traces",
    operationId: "recordFeedbackTrace",
    tags,
    summary: "Record feedback on agent output (board users and the company's agents)",
    description:
      "`targetType` issue, comment, run, document or approval, `targetId` in this company (422 otherwise); `vote` up, down or neutral; optional `comment`, `payload` (≤ 64 KiB) and `share`. " +
      "The trace is shared only if asked and the company's `feedbackSharingConsent.enabled` is true.",
    request: { params: CompanyIdParam, body: jsonBody(CreateFeedbackTraceSchema) },
    responses: { 201: jsonContent(FeedbackTraceSchema.extend({ warning: z.string().optional() }), "The trace"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await runCompanyCommand(c.env, companyId, recordFeedbackTrace, requireActor(c), c.req.valid("json")), 201);
  },
);

feedbackRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/feedback-traces",
    operationId: "listFeedbackTraces",
    tags,
    summary: "Feedback traces, newest first (board only)",
    description:
      "Filters targetType, vote, status, issueId, projectId, from, to (ISO), sharedOnly, includePayload (payloads are left out by default), limit (1–500, default 100).",
    request: { params: CompanyIdParam, query: FeedbackTraceQuery },
    responses: { 200: jsonContent(z.array(FeedbackTraceSchema), "Traces"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listFeedbackTraces(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);
