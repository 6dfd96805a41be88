// Re-anchors a document's open annotation threads onto a new revision: the statements
// go into the same D1 batch as the revision that moved the text.
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { reanchor, RevisionMapping } from "./anchoring";

type ThreadRow = typeof schema.documentAnnotationThreads.$inferSelect;

/** Maps every thread's anchor revision text to `newText`; orphaned threads keep their last anchor. */
export async function reanchorStatements(
  db: Db,
  args: { documentId: string; newRevisionId: string; newText: string; now: string; threads?: ThreadRow[]; anchorBodies?: Map<string, string> },
): Promise<Statement[]> {
  const threads =
    args.threads ??
    (await db.query.documentAnnotationThreads.findMany({
      where: and(eq(schema.documentAnnotationThreads.documentId, args.documentId), eq(schema.documentAnnotationThreads.status, "open")),
    }));
  if (!threads.length) return [];

  const bodies = args.anchorBodies ?? (await anchorBodiesOf(db, threads));

  const mappings = new Map<string, RevisionMapping>();
  const statements: Statement[] = [];
  for (const thread of threads) {
    const oldText = bodies.get(thread.anchorRevisionId);
    if (oldText === undefined) continue;
    let mapping = mappings.get(thread.anchorRevisionId);
    if (!mapping) {
      mapping = new RevisionMapping(oldText, args.newText);
      mappings.set(thread.anchorRevisionId, mapping);
    }
    const result = reanchor({ start: thread.anchorStart, end: thread.anchorEnd, quote: thread.quote, prefix: thread.prefix, suffix: thread.suffix }, mapping);
    const set =
      result.state === "orphaned"
        ? { anchorState: "orphaned" as const, updatedAt: args.now }
        : {
            anchorState: result.state,
            anchorRevisionId: args.newRevisionId,
            anchorStart: result.start,
            anchorEnd: result.end,
            prefix: result.prefix,
            suffix: result.suffix,
            updatedAt: args.now,
          };
    statements.push(db.update(schema.documentAnnotationThreads).set(set).where(eq(schema.documentAnnotationThreads.id, thread.id)));
  }
  return statements;
}

/** The texts the threads are anchored in (one query). */
async function anchorBodiesOf(db: Db, threads: ThreadRow[]): Promise<Map<string, string>> {
  const revisionIds = [...new Set(threads.map((t) => t.anchorRevisionId))];
  const rows = await db
    .select({ id: schema.issueDocumentRevisions.id, body: schema.issueDocumentRevisions.body })
    .from(schema.issueDocumentRevisions)
    .where(inIds(schema.issueDocumentRevisions.id, revisionIds));
  return new Map(rows.map((r) => [r.id, r.body]));
}
