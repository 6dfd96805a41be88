// API views of documents, revisions and annotation threads.
import type { schema } from "../../db/client";

type DocumentRow = typeof schema.issueDocuments.$inferSelect;
type RevisionRow = typeof schema.issueDocumentRevisions.$inferSelect;
type ThreadRow = typeof schema.documentAnnotationThreads.$inferSelect;
type CommentRow = typeof schema.documentAnnotationComments.$inferSelect;

export const documentPath = (issueId: string, key: string) => `/api/issues/${issueId}/documents/${key}`;

export function documentSummaryView(doc: DocumentRow) {
  return {
    id: doc.id,
    companyId: doc.companyId,
    issueId: doc.issueId,
    key: doc.key,
    title: doc.title ?? null,
    format: doc.format as "markdown",
    latestRevisionId: doc.latestRevisionId,
    latestRevisionNumber: doc.latestRevisionNumber,
    lockedAt: doc.lockedAt ?? null,
    lockedByAgentId: doc.lockedByAgentId ?? null,
    lockedByUserId: doc.lockedByUserId ?? null,
    createdByAgentId: doc.createdByAgentId ?? null,
    createdByUserId: doc.createdByUserId ?? null,
    updatedByAgentId: doc.updatedByAgentId ?? null,
    updatedByUserId: doc.updatedByUserId ?? null,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** A document with its latest revision's body and change summary. */
export function documentView(doc: DocumentRow, latest: RevisionRow) {
  return {
    ...documentSummaryView(doc),
    body: latest.body,
    changeSummary: latest.changeSummary ?? null,
  };
}

export function revisionView(rev: RevisionRow, key: string) {
  return {
    id: rev.id,
    documentId: rev.documentId,
    issueId: rev.issueId,
    key,
    revisionNumber: rev.revisionNumber,
    title: rev.title ?? null,
    format: rev.format as "markdown",
    body: rev.body,
    changeSummary: rev.changeSummary ?? null,
    baseRevisionId: rev.baseRevisionId ?? null,
    restoredFromRevisionId: rev.restoredFromRevisionId ?? null,
    createdByAgentId: rev.createdByAgentId ?? null,
    createdByUserId: rev.createdByUserId ?? null,
    createdAt: rev.createdAt,
  };
}

export function annotationCommentView(c: CommentRow) {
  return {
    id: c.id,
    threadId: c.threadId,
    body: c.body,
    authorAgentId: c.authorAgentId ?? null,
    authorUserId: c.authorUserId ?? null,
    createdAt: c.createdAt,
  };
}

export function annotationThreadView(t: ThreadRow, key: string, comments: CommentRow[]) {
  return {
    id: t.id,
    issueId: t.issueId,
    documentId: t.documentId,
    documentKey: key,
    status: t.status,
    anchorState: t.anchorState,
    anchor: {
      revisionId: t.anchorRevisionId,
      start: t.anchorStart,
      end: t.anchorEnd,
      quote: t.quote,
      prefix: t.prefix,
      suffix: t.suffix,
    },
    createdRevisionId: t.createdRevisionId,
    resolvedAt: t.resolvedAt ?? null,
    resolvedByAgentId: t.resolvedByAgentId ?? null,
    resolvedByUserId: t.resolvedByUserId ?? null,
    createdByAgentId: t.createdByAgentId ?? null,
    createdByUserId: t.createdByUserId ?? null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    comments: comments.map(annotationCommentView),
  };
}
