// Issue attachments: upload (multipart, bytes in R2, metadata in D1), list, content
// (inline or download, HTTP Range, ETag) and delete.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { allowLargerBodies } from "../http/body-limit";
import { requireActor, requireCompanyAccess, requireEntityAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { requireCompanyIssue } from "../domain/documents/issue-lookup";
import { loadAttachment } from "../domain/attachments/queries";
import { requireIssue } from "./issues/guard";
import { readUpload, UPLOAD_BODY_LIMIT_BYTES } from "../domain/attachments/upload";
import { serveStoredObject } from "../domain/attachments/serve";
import { attachmentObjectKey } from "../domain/attachments/view";
import { attachmentSummariesForIssue } from "../domain/attachments/summaries";
import { newId } from "../crypto/random";
import { errors, jsonContent } from "../schemas/common";
import { IssueIdParam } from "../schemas/documents";
import {
  AttachmentIdParam,
  AttachmentSchema,
  binaryContent,
  CompanyIssueParams,
  ContentQuery,
  DeletedAttachmentSchema,
  multipartFileBody,
} from "../schemas/attachments";
import { createAttachment, deleteAttachment } from "../domain/attachments/commands";

allowLargerBodies(/^\/api\/companies\/[^/]+\/issues\/[^/]+\/attachments\/?$/, UPLOAD_BODY_LIMIT_BYTES);

const tags = ["Attachments"];
export const attachmentsRouter = createRouter();

attachmentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/issues/{issueId}/attachments",
    tags,
    summary: "Upload an attachment to an issue (multipart part `file`, at most 25 MiB)",
    description:
      "Any caller with company access. Bytes go to R2 under companies/<companyId>/attachments/<id>; the record keeps content type (from the part), size, SHA-256, original filename and uploader. Files over 25 MiB (26,214,400 bytes) get 413. Records issue.attachment_added.",
    request: { params: CompanyIssueParams, body: multipartFileBody("The file to attach") },
    responses: { 201: jsonContent(AttachmentSchema, "The attachment"), ...errors(400, 401, 403, 404, 413) },
  }),
  async (c) => {
    const { companyId, issueId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const actor = requireActor(c);
    const issue = await requireCompanyIssue(dbOf(c), companyId, issueId);
    const upload = await readUpload(c, { allowEmpty: true });
    const id = newId();
    const objectKey = attachmentObjectKey(companyId, id);
    await c.env.FILES.put(objectKey, upload.bytes, {
      httpMetadata: { contentType: upload.contentType },
      sha256: upload.sha256,
    });
    try {
      const attachment = await runCompanyCommand(c.env, companyId, createAttachment, actor, {
        id,
        issueId: issue.id,
        objectKey,
        contentType: upload.contentType,
        byteSize: upload.byteSize,
        sha256: upload.sha256,
        originalFilename: upload.filename,
      });
      return c.json(attachment, 201);
    } catch (err) {
      await c.env.FILES.delete(objectKey);
      throw err;
    }
  },
);

attachmentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/attachments",
    tags,
    summary: "Attachments of an issue, oldest first",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(z.array(AttachmentSchema), "Attachments"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { issue } = await requireIssue(c, c.req.valid("param").issueId);
    return c.json(await attachmentSummariesForIssue(dbOf(c), issue.id), 200);
  },
);

async function requireAttachment(c: Parameters<typeof requireActor>[0], attachmentId: string) {
  requireActor(c);
  const row = await loadAttachment(dbOf(c), attachmentId);
  const actor = requireEntityAccess(c, row.companyId, "Attachment");
  return { row, actor };
}

attachmentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/attachments/{attachmentId}/content",
    tags,
    summary: "Attachment bytes: inline by default, `download=1` forces a download; HTTP Range and ETag supported",
    description:
      "Single ranges (`bytes=a-b`, `a-`, `-n`) give 206 with Content-Range; an unsatisfiable range gives 416 with `Content-Range: bytes */size`; several ranges are answered with the whole body (200). " +
      "ETag is the quoted SHA-256; If-None-Match gives 304. Always Accept-Ranges: bytes and X-Content-Type-Options: nosniff; script-capable types (SVG, HTML, XML) also get a restrictive Content-Security-Policy.",
    request: { params: AttachmentIdParam, query: ContentQuery },
    responses: {
      200: binaryContent("The whole body"),
      206: binaryContent("The requested range"),
      304: { description: "Not modified (If-None-Match matched the ETag)" },
      416: jsonContent(z.object({ error: z.string(), details: z.unknown().optional() }), "Range not satisfiable"),
      ...errors(400, 401, 404),
    },
  }),
  async (c) => {
    const { attachmentId } = c.req.valid("param");
    const { download } = c.req.valid("query");
    const { row } = await requireAttachment(c, attachmentId);
    return serveStoredObject(
      c.env.FILES,
      c.req.raw,
      { ...row, filename: row.originalFilename },
      {
        download: download === "1" || download === "true",
      },
    );
  },
);

attachmentsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/attachments/{attachmentId}",
    tags,
    summary: "Delete an attachment and its bytes (board callers, or the agent that uploaded it; records issue.attachment_deleted)",
    request: { params: AttachmentIdParam },
    responses: { 200: jsonContent(DeletedAttachmentSchema, "Deleted"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { attachmentId } = c.req.valid("param");
    const { row, actor } = await requireAttachment(c, attachmentId);
    return c.json(await runCompanyCommand(c.env, row.companyId, deleteAttachment, actor, { attachmentId: row.id }), 200);
  },
);
