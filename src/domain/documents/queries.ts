// Document reads (answered at the edge from D1).
import { inIds } from "../../db/id-list";
import { and, asc, desc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { ANNOTATION_THREAD_STATUSES } from "../../db/schema/documents";
import { notFound } from "../errors";
import { annotationThreadView, documentView, revisionView } from "./view";

const d = schema.issueDocuments;
const r = schema.issueDocumentRevisions;

/** Every document of the issue with its latest body, ordered by key. */
export async function listDocuments(db: Db, issueId: string) {
  const rows = await db.select({ doc: d, rev: r }).from(d).innerJoin(r, eq(r.id, d.latestRevisionId)).where(eq(d.issueId, issueId)).orderBy(asc(d.key));
  return rows.map(({ doc, rev }) => documentView(doc, rev));
}

export async function getDocument(db: Db, issueId: string, key: string) {
  const [row] = await db
    .select({ doc: d, rev: r })
    .from(d)
    .innerJoin(r, eq(r.id, d.latestRevisionId))
    .where(and(eq(d.issueId, issueId), eq(d.key, key)))
    .limit(1);
  return row ? documentView(row.doc, row.rev) : null;
}

export async function findDocumentRow(db: Db, issueId: string, key: string) {
  return db.query.issueDocuments.findFirst({ where: and(eq(d.issueId, issueId), eq(d.key, key)) });
}

/** The document row of the issue under `key`; 404 when there is none. */
export async function requireDocumentRow(db: Db, issueId: string, key: string) {
  const doc = await findDocumentRow(db, issueId, key);
  if (!doc) throw notFound(`Document '${key}' not found`);
  return doc;
}

/** Revisions newest first. */
export async function listRevisions(db: Db, documentId: string, key: string) {
  const rows = await db.select().from(r).where(eq(r.documentId, documentId)).orderBy(desc(r.revisionNumber));
  return rows.map((row) => revisionView(row, key));
}

/** Annotation threads of a document (optionally only open or resolved), oldest first, with their comments. */
export async function listAnnotationThreads(db: Db, documentId: string, key: string, status?: (typeof ANNOTATION_THREAD_STATUSES)[number]) {
  const t = schema.documentAnnotationThreads;
  const threads = await db
    .select()
    .from(t)
    .where(and(eq(t.documentId, documentId), status ? eq(t.status, status) : undefined))
    .orderBy(asc(t.createdAt), asc(t.id));
  if (!threads.length) return [];
  const c = schema.documentAnnotationComments;
  const ids = threads.map((x) => x.id);
  const comments = await db.select().from(c).where(inIds(c.threadId, ids)).orderBy(asc(c.createdAt), asc(c.id));
  const byThread = new Map<string, (typeof c.$inferSelect)[]>();
  for (const comment of comments) {
    const list = byThread.get(comment.threadId) ?? [];
    list.push(comment);
    byThread.set(comment.threadId, list);
  }
  return threads.map((thread) => annotationThreadView(thread, key, byThread.get(thread.id) ?? []));
}
