// Annotation threads on issue documents: list, create (on the current revision), reply,
// resolve and reopen. Threads are re-anchored by the server on every later revision.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { runCompanyCommand } from "../company/client";
import { requireIssue } from "./issues/guard";
import { listAnnotationThreads, requireDocumentRow } from "../domain/documents/queries";
import { errors, jsonBody, jsonContent } from "../schemas/common";
import {
  AnnotationCommentBodySchema,
  AnnotationListQuery,
  AnnotationThreadSchema,
  CreateAnnotationSchema,
  DocumentKeyParams,
  ThreadParams,
} from "../schemas/documents";
import { addAnnotationComment, createAnnotation, reopenAnnotation, resolveAnnotation } from "../domain/documents/annotation-commands";

const tags = ["Issue documents"];
export const annotationsRouter = createRouter();

annotationsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/documents/{key}/annotations",
    tags,
    summary: "Annotation threads of a document with their comments, oldest first (`status` = open, resolved or all)",
    request: { params: DocumentKeyParams, query: AnnotationListQuery },
    responses: { 200: jsonContent(z.array(AnnotationThreadSchema), "Threads"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { issueId, key } = c.req.valid("param");
    const { status } = c.req.valid("query");
    const { issue } = await requireIssue(c, issueId);
    const db = dbOf(c);
    const doc = await requireDocumentRow(db, issue.id, key);
    return c.json(await listAnnotationThreads(db, doc.id, key, status === "all" ? undefined : status), 200);
  },
);

annotationsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/documents/{key}/annotations",
    tags,
    summary: "Open an annotation thread on a text range of the current revision, with its first comment",
    description:
      "`revisionId` must be the document's latestRevisionId (else 409 with details.currentRevisionId). `quote` must equal the body between `start` and `end` (UTF-16 offsets), else 400. Records issue.document_annotation_created.",
    request: { params: DocumentKeyParams, body: jsonBody(CreateAnnotationSchema) },
    responses: { 201: jsonContent(AnnotationThreadSchema, "The new thread"), ...errors(400, 401, 404, 409) },
  }),
  async (c) => {
    const { issueId, key } = c.req.valid("param");
    const input = c.req.valid("json");
    const { issue, actor } = await requireIssue(c, issueId);
    const thread = await runCompanyCommand(c.env, issue.companyId, createAnnotation, actor, { ...input, issueId: issue.id, key });
    return c.json(thread, 201);
  },
);

annotationsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/documents/{key}/annotations/{threadId}/comments",
    tags,
    summary: "Reply to an annotation thread (open or resolved); returns the thread with every comment",
    request: { params: ThreadParams, body: jsonBody(AnnotationCommentBodySchema) },
    responses: { 201: jsonContent(AnnotationThreadSchema, "The thread"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { issueId, key, threadId } = c.req.valid("param");
    const { body } = c.req.valid("json");
    const { issue, actor } = await requireIssue(c, issueId);
    const thread = await runCompanyCommand(c.env, issue.companyId, addAnnotationComment, actor, { issueId: issue.id, key, threadId, body });
    return c.json(thread, 201);
  },
);

for (const action of ["resolve", "reopen"] as const) {
  annotationsRouter.openapi(
    createRoute({
      method: "post",
      path: `/api/issues/{issueId}/documents/{key}/annotations/{threadId}/${action}`,
      tags,
      summary:
        action === "resolve"
          ? "Resolve an annotation thread (idempotent); resolved threads are no longer re-anchored"
          : "Reopen a resolved thread (idempotent); it is re-anchored onto the current revision",
      request: { params: ThreadParams },
      responses: { 200: jsonContent(AnnotationThreadSchema, "The thread"), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const { issueId, key, threadId } = c.req.valid("param");
      const { issue, actor } = await requireIssue(c, issueId);
      const command = action === "resolve" ? resolveAnnotation : reopenAnnotation;
      return c.json(await runCompanyCommand(c.env, issue.companyId, command, actor, { issueId: issue.id, key, threadId }), 200);
    },
  );
}
