// Attachment and work-product parts of other areas' issue views (issue detail, heartbeat context).
import { asc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { attachmentView, workProductView } from "./view";

/** Work products of the issue, oldest first. */
export async function workProductsForIssue(db: Db, issueId: string) {
  const t = schema.workProducts;
  const rows = await db.select().from(t).where(eq(t.issueId, issueId)).orderBy(asc(t.createdAt), asc(t.id));
  return rows.map(workProductView);
}

/** Attachment summaries of the issue (metadata and content paths, no bytes), oldest first. */
export async function attachmentSummariesForIssue(db: Db, issueId: string) {
  const t = schema.issueAttachments;
  const rows = await db.select().from(t).where(eq(t.issueId, issueId)).orderBy(asc(t.createdAt), asc(t.id));
  return rows.map(attachmentView);
}
