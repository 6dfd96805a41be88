// An issue's documents: issues/<identifier>/documents/<key>.md (key, title, format; body: the
// latest revision), when the export includes documents. Imported as revision 1.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { newId } from "../../../crypto/random";
import { unprocessable } from "../../errors";
import { DOCUMENT_KEY_PATTERN } from "../../documents/keys";
import { markdownWith } from "../format";
import type { IssuePart } from "./kind";
import { text } from "./fields";

/** The longest document body a package may carry. */
const MAX_DOCUMENT = 512 * 1024;

// Keys of 64 characters get `-2`, `-3`, … when an agent's write is redirected from a locked document.
const DocumentSchema = z.object({ key: z.string().max(200).regex(DOCUMENT_KEY_PATTERN), title: text(300), format: z.string().max(20).nullish() });

export type PkgDocument = z.infer<typeof DocumentSchema> & { body: string };

export const documents: IssuePart<PkgDocument> = {
  key: "documents",
  exportPage({ db, batch, issueIds }) {
    const rows = batch.add(
      db
        .select({
          issueId: schema.issueDocuments.issueId,
          key: schema.issueDocuments.key,
          title: schema.issueDocumentRevisions.title,
          format: schema.issueDocumentRevisions.format,
          body: schema.issueDocumentRevisions.body,
        })
        .from(schema.issueDocuments)
        .innerJoin(schema.issueDocumentRevisions, eq(schema.issueDocumentRevisions.id, schema.issueDocuments.latestRevisionId))
        .where(inIds(schema.issueDocuments.issueId, issueIds)),
    );
    return {
      write(ctx, issueId, base) {
        for (const doc of rows.value.filter((d) => d.issueId === issueId)) {
          ctx.counts.documents++;
          ctx.put(`${base}/documents/${doc.key}.md`, markdownWith({ key: doc.key, title: doc.title, format: doc.format }, doc.body));
        }
      },
    };
  },
  parse(pkg, base) {
    const docs = Object.keys(pkg.files)
      .filter((p) => p.startsWith(`${base}/documents/`) && p.endsWith(".md"))
      .sort()
      .map((path) => {
        const { fields, body } = pkg.markdown(path);
        return { ...pkg.check(DocumentSchema, fields, path), body: pkg.bounded(body, path, MAX_DOCUMENT) ?? "" };
      });
    const keys = new Set<string>();
    for (const doc of docs) {
      if (keys.has(doc.key)) throw unprocessable(`${base}/documents: two documents have the key ${doc.key}`, { path: `${base}/documents` });
      keys.add(doc.key);
    }
    return docs;
  },
  apply(ctx, issueId, items) {
    const { command, at } = ctx;
    return items.flatMap((doc) => {
      const documentId = newId();
      const revisionId = newId();
      return [
        command.db.insert(schema.issueDocuments).values({
          id: documentId,
          companyId: command.companyId,
          issueId,
          key: doc.key,
          title: doc.title,
          format: doc.format ?? "markdown",
          latestRevisionId: revisionId,
          latestRevisionNumber: 1,
          ...at,
        }),
        command.db.insert(schema.issueDocumentRevisions).values({
          id: revisionId,
          companyId: command.companyId,
          issueId,
          documentId,
          revisionNumber: 1,
          title: doc.title,
          format: doc.format ?? "markdown",
          body: doc.body,
          createdAt: command.now,
        }),
      ];
    });
  },
};
