// Issue documents: keyed markdown with immutable revisions, optimistic concurrency
// (`baseRevisionId`) and locks. Writes run in the company's Durable Object.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireBoard } from "../http/access";
import { HttpError, notFound } from "../domain/errors";
import { runCompanyCommand } from "../company/client";
import { idempotencyOf } from "../http/idempotency";
import { loadForIssueDocument, requireIssue } from "./issues/guard";
import { DOCUMENT_BODY_MAX_BYTES, utf8Length } from "../domain/documents/keys";
import { getDocument, listDocuments, listRevisions, requireDocumentRow } from "../domain/documents/queries";
import { ErrorSchema, errors, jsonBody, jsonContent, IdempotencyHeaders } from "../schemas/common";
import {
  DeletedDocumentSchema,
  DocumentKeyParams,
  DocumentLockedErrorSchema,
  DocumentSchema,
  DocumentWriteResponseSchema,
  IssueIdParam,
  PutDocumentSchema,
  RestoreRevisionSchema,
  RevisionParams,
  RevisionSchema,
} from "../schemas/documents";
import { deleteDocument, lockDocument, putDocument, restoreDocumentRevision, unlockDocument } from "../domain/documents/commands";

const tags = ["Issue documents"];
export const documentsRouter = createRouter();

const conflictResponse = jsonContent(
  z.union([DocumentLockedErrorSchema, ErrorSchema]),
  "Conflict: stale or missing baseRevisionId (details.currentRevisionId), or the document is locked (body carries key and lockedAt)",
);

/** A locked-document 409 carries `key` and `lockedAt` at the top level of the body (as the incumbent does). */
function lockedBody(err: unknown) {
  if (!(err instanceof HttpError) || err.status !== 409 || err.message !== "Document is locked") return null;
  const details = err.details as { key: string; lockedAt: string };
  return { error: "Document is locked" as const, key: details.key, lockedAt: details.lockedAt, details };
}

documentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/documents",
    tags,
    summary: "Every document of the issue with its latest body (ordered by key)",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(z.array(DocumentSchema), "Documents"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { issue } = await requireIssue(c, c.req.valid("param").issueId);
    return c.json(await listDocuments(dbOf(c), issue.id), 200);
  },
);

documentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/documents/{key}",
    tags,
    summary: "A document with its latest body",
    request: { params: DocumentKeyParams },
    responses: { 200: jsonContent(DocumentSchema, "The document"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { issueId, key } = c.req.valid("param");
    const { issue } = await requireIssue(c, issueId);
    const doc = await getDocument(dbOf(c), issue.id, key);
    if (!doc) throw notFound(`Document '${key}' not found`);
    return c.json(doc, 200);
  },
);

documentsRouter.openapi(
  createRoute({
    method: "put",
    path: "/api/issues/{issueId}/documents/{key}",
    tags,
    summary: "Create or update a document (each write is a new immutable revision)",
    description:
      "Create: omit baseRevisionId (201). Update: baseRevisionId must be the current latestRevisionId (200); omitted → 409 `Document update requires baseRevisionId`, stale → 409 `Document was updated by someone else`, both with details.currentRevisionId. " +
      "A locked document refuses board callers with 409 { error: `Document is locked`, key, lockedAt }; an agent's write goes to a new derived document (`plan-2`, `plan-3`, …; 201) and the response carries redirectedFromLockedDocument { sourceKey, key }. " +
      "Body up to 512 KiB of UTF-8 (413 beyond). Open annotation threads are re-anchored on every new revision.",
    request: { params: DocumentKeyParams, headers: IdempotencyHeaders, body: jsonBody(PutDocumentSchema) },
    responses: {
      200: jsonContent(DocumentWriteResponseSchema, "Updated: a new latest revision"),
      201: jsonContent(DocumentWriteResponseSchema, "Created (or redirected to a new derived document)"),
      ...errors(400, 401, 404, 413),
      409: conflictResponse,
    },
  }),
  async (c) => {
    const { issueId, key } = c.req.valid("param");
    const body = c.req.valid("json");
    const { issue, input, loaded } = await loadForIssueDocument(c, putDocument, issueId, (id) => ({ ...body, issueId: id, key }));
    const bytes = utf8Length(body.body);
    if (bytes > DOCUMENT_BODY_MAX_BYTES) {
      throw new HttpError(413, `Document body is ${bytes} bytes; the limit is ${DOCUMENT_BODY_MAX_BYTES} bytes (512 KiB)`, {
        limitBytes: DOCUMENT_BODY_MAX_BYTES,
        bodyBytes: bytes,
      });
    }
    try {
      const result = await runCompanyCommand(c.env, issue.companyId, putDocument, c.get("actor"), input, loaded, idempotencyOf(c));
      const body = {
        ...result.document,
        ...(result.redirectedFromLockedDocument ? { redirectedFromLockedDocument: result.redirectedFromLockedDocument } : {}),
      };
      return result.created ? c.json(body, 201) : c.json(body, 200);
    } catch (err) {
      const locked = lockedBody(err);
      if (locked) return c.json(locked, 409);
      throw err;
    }
  },
);

documentsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/issues/{issueId}/documents/{key}",
    tags,
    summary: "Delete a document and all its revisions and annotation threads (board only; a locked document gives 409)",
    request: { params: DocumentKeyParams },
    responses: { 200: jsonContent(DeletedDocumentSchema, "Deleted"), ...errors(400, 401, 403, 404), 409: conflictResponse },
  }),
  async (c) => {
    const { issueId, key } = c.req.valid("param");
    const { issue } = await requireIssue(c, issueId);
    const actor = requireBoard(c);
    try {
      return c.json(await runCompanyCommand(c.env, issue.companyId, deleteDocument, actor, { issueId: issue.id, key }), 200);
    } catch (err) {
      const locked = lockedBody(err);
      if (locked) return c.json(locked, 409);
      throw err;
    }
  },
);

for (const action of ["lock", "unlock"] as const) {
  documentsRouter.openapi(
    createRoute({
      method: "post",
      path: `/api/issues/{issueId}/documents/{key}/${action}`,
      tags,
      summary:
        action === "lock"
          ? "Lock a document: writes are refused for board callers (409) and redirected for agents; idempotent (records issue.document_locked)"
          : "Unlock a document; idempotent (records issue.document_unlocked). Board callers may unlock any lock; an agent only a lock it set (else 403)",
      request: { params: DocumentKeyParams },
      responses: { 200: jsonContent(DocumentSchema, "The document with lockedAt, lockedByAgentId, lockedByUserId"), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { issueId, key } = c.req.valid("param");
      const { issue, actor } = await requireIssue(c, issueId);
      const command = action === "lock" ? lockDocument : unlockDocument;
      return c.json(await runCompanyCommand(c.env, issue.companyId, command, actor, { issueId: issue.id, key }), 200);
    },
  );
}

documentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/documents/{key}/revisions",
    tags,
    summary: "Revisions of a document, newest first",
    request: { params: DocumentKeyParams },
    responses: { 200: jsonContent(z.array(RevisionSchema), "Revisions"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { issueId, key } = c.req.valid("param");
    const { issue } = await requireIssue(c, issueId);
    const doc = await requireDocumentRow(dbOf(c), issue.id, key);
    return c.json(await listRevisions(dbOf(c), doc.id, key), 200);
  },
);

documentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/documents/{key}/revisions/{revisionId}/restore",
    tags,
    summary: "Restore an old revision: creates a new latest revision with its title and body (records issue.document_restored)",
    description:
      "Optional JSON body { changeSummary, baseRevisionId }. Lock rules are those of PUT: board callers get 409 on a locked document, agents are redirected to a derived document (201).",
    request: {
      params: RevisionParams,
      body: { required: false, content: { "application/json": { schema: RestoreRevisionSchema } } },
    },
    responses: {
      200: jsonContent(DocumentWriteResponseSchema, "The document at its new latest revision"),
      201: jsonContent(DocumentWriteResponseSchema, "Redirected to a new derived document (agent, locked source)"),
      ...errors(400, 401, 404),
      409: conflictResponse,
    },
  }),
  async (c) => {
    const { issueId, key, revisionId } = c.req.valid("param");
    const input = c.req.valid("json") ?? {};
    const { issue, actor } = await requireIssue(c, issueId);
    try {
      const result = await runCompanyCommand(c.env, issue.companyId, restoreDocumentRevision, actor, {
        issueId: issue.id,
        key,
        revisionId,
        changeSummary: input.changeSummary ?? null,
        baseRevisionId: input.baseRevisionId ?? null,
      });
      const body = {
        ...result.document,
        ...(result.redirectedFromLockedDocument ? { redirectedFromLockedDocument: result.redirectedFromLockedDocument } : {}),
      };
      return result.created ? c.json(body, 201) : c.json(body, 200);
    } catch (err) {
      const locked = lockedBody(err);
      if (locked) return c.json(locked, 409);
      throw err;
    }
  },
);
