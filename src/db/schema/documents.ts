// Issue documents and their immutable revisions, and annotation threads.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { issues } from "./issues";

export const issueDocuments = sqliteTable(
  "issue_documents",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    title: text("title"),
    format: text("format").notNull().default("markdown"),
    latestRevisionId: text("latest_revision_id").notNull(),
    latestRevisionNumber: integer("latest_revision_number").notNull(),
    lockedAt: text("locked_at"),
    lockedByAgentId: text("locked_by_agent_id"),
    lockedByUserId: text("locked_by_user_id"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    updatedByAgentId: text("updated_by_agent_id"),
    updatedByUserId: text("updated_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("issue_documents_issue_key_uq").on(t.issueId, t.key), index("issue_documents_company_updated_idx").on(t.companyId, t.updatedAt)],
);

export const issueDocumentRevisions = sqliteTable(
  "issue_document_revisions",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id").notNull(),
    documentId: text("document_id")
      .notNull()
      .references(() => issueDocuments.id, { onDelete: "cascade" }),
    revisionNumber: integer("revision_number").notNull(),
    title: text("title"),
    format: text("format").notNull().default("markdown"),
    body: text("body").notNull(),
    changeSummary: text("change_summary"),
    baseRevisionId: text("base_revision_id"),
    restoredFromRevisionId: text("restored_from_revision_id"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("issue_document_revisions_number_uq").on(t.documentId, t.revisionNumber)],
);

export const ANNOTATION_ANCHOR_STATES = ["active", "shifted", "orphaned"] as const;
export const ANNOTATION_THREAD_STATUSES = ["open", "resolved"] as const;

export const documentAnnotationThreads = sqliteTable(
  "document_annotation_threads",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id").notNull(),
    documentId: text("document_id")
      .notNull()
      .references(() => issueDocuments.id, { onDelete: "cascade" }),
    createdRevisionId: text("created_revision_id").notNull(),
    /** The revision that anchorStart/anchorEnd index into (the last one the quote was found in). */
    anchorRevisionId: text("anchor_revision_id").notNull(),
    anchorStart: integer("anchor_start").notNull(),
    anchorEnd: integer("anchor_end").notNull(),
    quote: text("quote").notNull(),
    prefix: text("prefix").notNull().default(""),
    suffix: text("suffix").notNull().default(""),
    anchorState: text("anchor_state", { enum: ANNOTATION_ANCHOR_STATES }).notNull().default("active"),
    status: text("status", { enum: ANNOTATION_THREAD_STATUSES }).notNull().default("open"),
    resolvedAt: text("resolved_at"),
    resolvedByAgentId: text("resolved_by_agent_id"),
    resolvedByUserId: text("resolved_by_user_id"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("document_annotation_threads_document_idx").on(t.documentId, t.status)],
);

export const documentAnnotationComments = sqliteTable(
  "document_annotation_comments",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    threadId: text("thread_id")
      .notNull()
      .references(() => documentAnnotationThreads.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    authorAgentId: text("author_agent_id"),
    authorUserId: text("author_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("document_annotation_comments_thread_idx").on(t.threadId, t.createdAt)],
);
