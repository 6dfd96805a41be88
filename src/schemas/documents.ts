// Issue documents, revisions and annotation threads: request and response schemas.
import { z } from "@hono/zod-openapi";
import { Timestamp, Uuid } from "./common";
import { ANNOTATION_ANCHOR_STATES, ANNOTATION_THREAD_STATUSES } from "../db/schema/documents";
import { DOCUMENT_KEY_MAX_LENGTH, DOCUMENT_KEY_PATTERN } from "../domain/documents/keys";

export const IssueIdParam = z.object({
  issueId: z
    .string()
    .min(1)
    .openapi({ param: { name: "issueId", in: "path" }, description: "Issue UUID or identifier such as ACM-12", example: "ACM-12" }),
});

const DocumentKey = z
  .string()
  .min(1)
  .max(DOCUMENT_KEY_MAX_LENGTH)
  .regex(DOCUMENT_KEY_PATTERN, "document keys use lowercase letters, digits, '_' and '-'")
  .openapi({ param: { name: "key", in: "path" }, example: "plan" });

export const DocumentKeyParams = IssueIdParam.extend({ key: DocumentKey });
export const RevisionParams = DocumentKeyParams.extend({
  revisionId: z
    .string()
    .min(1)
    .openapi({ param: { name: "revisionId", in: "path" } }),
});
export const ThreadParams = DocumentKeyParams.extend({
  threadId: z
    .string()
    .min(1)
    .openapi({ param: { name: "threadId", in: "path" } }),
});

const Actorish = z.string().nullable();

export const DocumentSummarySchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    issueId: z.string(),
    key: z.string(),
    title: z.string().nullable(),
    format: z.literal("markdown"),
    latestRevisionId: z.string(),
    latestRevisionNumber: z.number().int(),
    lockedAt: Timestamp.nullable(),
    lockedByAgentId: Actorish,
    lockedByUserId: Actorish,
    createdByAgentId: Actorish,
    createdByUserId: Actorish,
    updatedByAgentId: Actorish,
    updatedByUserId: Actorish,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("IssueDocumentSummary");

export const DocumentSchema = DocumentSummarySchema.extend({
  body: z.string(),
  changeSummary: z.string().nullable().openapi({ description: "Change summary of the latest revision" }),
}).openapi("IssueDocument");

export const DocumentWriteResponseSchema = DocumentSchema.extend({
  redirectedFromLockedDocument: z
    .object({ sourceKey: z.string(), key: z.string() })
    .optional()
    .openapi({ description: "Present when an agent wrote to a locked document and the write went to a new derived document" }),
}).openapi("IssueDocumentWrite");

export const PutDocumentSchema = z
  .object({
    title: z.string().max(200).nullable().optional().openapi({ description: "Kept from the previous revision when omitted" }),
    format: z.literal("markdown").optional().openapi({ description: "Only markdown (the default)" }),
    body: z.string().openapi({ description: "Markdown, at most 512 KiB (UTF-8); larger bodies get 413" }),
    changeSummary: z.string().max(1000).nullable().optional(),
    baseRevisionId: Uuid.nullable().optional().openapi({ description: "Omit to create; to update, the document's current latestRevisionId" }),
  })
  .openapi("PutIssueDocument");

export const RevisionSchema = z
  .object({
    id: z.string(),
    documentId: z.string(),
    issueId: z.string(),
    key: z.string(),
    revisionNumber: z.number().int(),
    title: z.string().nullable(),
    format: z.literal("markdown"),
    body: z.string(),
    changeSummary: z.string().nullable(),
    baseRevisionId: z.string().nullable(),
    restoredFromRevisionId: z.string().nullable(),
    createdByAgentId: Actorish,
    createdByUserId: Actorish,
    createdAt: Timestamp,
  })
  .openapi("IssueDocumentRevision");

export const RestoreRevisionSchema = z
  .object({
    changeSummary: z.string().max(1000).nullable().optional(),
    baseRevisionId: Uuid.nullable().optional().openapi({ description: "Optional guard: 409 if the document moved past it" }),
  })
  .openapi("RestoreIssueDocumentRevision");

export const DeletedDocumentSchema = z.object({ deleted: z.literal(true), key: z.string(), documentId: z.string() }).openapi("DeletedIssueDocument");

export const DocumentLockedErrorSchema = z
  .object({ error: z.literal("Document is locked"), key: z.string(), lockedAt: Timestamp, details: z.unknown().optional() })
  .openapi("DocumentLockedError");

export const AnnotationCommentSchema = z
  .object({
    id: z.string(),
    threadId: z.string(),
    body: z.string(),
    authorAgentId: Actorish,
    authorUserId: Actorish,
    createdAt: Timestamp,
  })
  .openapi("AnnotationComment");

export const AnnotationThreadSchema = z
  .object({
    id: z.string(),
    issueId: z.string(),
    documentId: z.string(),
    documentKey: z.string(),
    status: z.enum(ANNOTATION_THREAD_STATUSES),
    anchorState: z.enum(ANNOTATION_ANCHOR_STATES).openapi({
      description:
        "active: the quote is where it was; shifted: found elsewhere (start/end updated); orphaned: gone (anchor keeps the last revision it was found in)",
    }),
    anchor: z.object({
      revisionId: z.string().openapi({ description: "The revision start/end index into" }),
      start: z.number().int(),
      end: z.number().int(),
      quote: z.string(),
      prefix: z.string(),
      suffix: z.string(),
    }),
    createdRevisionId: z.string(),
    resolvedAt: Timestamp.nullable(),
    resolvedByAgentId: Actorish,
    resolvedByUserId: Actorish,
    createdByAgentId: Actorish,
    createdByUserId: Actorish,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    comments: z.array(AnnotationCommentSchema),
  })
  .openapi("AnnotationThread");

const CommentBody = z.string().trim().min(1).max(20_000);

export const CreateAnnotationSchema = z
  .object({
    revisionId: Uuid.openapi({ description: "Must be the document's current latestRevisionId (else 409)" }),
    start: z.number().int().min(0).openapi({ description: "UTF-16 code-unit offset into the revision body (inclusive)" }),
    end: z.number().int().min(1).openapi({ description: "Offset (exclusive); end > start" }),
    quote: z.string().min(1).openapi({ description: "The text between start and end (checked)" }),
    prefix: z.string().max(1000).optional().openapi({ description: "Optional text just before start (checked); the server stores up to 32 characters" }),
    suffix: z.string().max(1000).optional().openapi({ description: "Optional text just after end (checked)" }),
    body: CommentBody.openapi({ description: "The thread's first comment (markdown)" }),
  })
  .openapi("CreateAnnotationThread");

export const AnnotationCommentBodySchema = z.object({ body: CommentBody }).openapi("CreateAnnotationComment");

export const AnnotationListQuery = z.object({
  status: z.enum(["open", "resolved", "all"]).optional().openapi({ description: "Default all" }),
});
