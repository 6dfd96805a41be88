// Document fields of the issue detail: planDocument, documentSummaries and the legacy plan
// (a `<plan>…</plan>` block in the issue description, used when no `plan` document exists).
import { asc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { documentSummaryView } from "./view";
import { findDocumentRow, getDocument, listAnnotationThreads } from "./queries";

export const PLAN_DOCUMENT_KEY = "plan";

/** Every document of the issue without bodies, ordered by key. */
export async function documentSummariesForIssue(db: Db, issueId: string) {
  const rows = await db.select().from(schema.issueDocuments).where(eq(schema.issueDocuments.issueId, issueId)).orderBy(asc(schema.issueDocuments.key));
  return rows.map(documentSummaryView);
}

/** The issue's `plan` document with its latest body, or null. */
export async function planDocumentForIssue(db: Db, issueId: string) {
  return getDocument(db, issueId, PLAN_DOCUMENT_KEY);
}

/** What an agent reviewing the plan needs: the plan document's summary and its open annotation threads; null without a plan. */
export async function planReviewContextForIssue(db: Db, issueId: string) {
  const doc = await findDocumentRow(db, issueId, PLAN_DOCUMENT_KEY);
  if (!doc) return null;
  return { document: documentSummaryView(doc), openAnnotationThreads: await listAnnotationThreads(db, doc.id, PLAN_DOCUMENT_KEY, "open") };
}

const LEGACY_PLAN = /<plan>([\s\S]*?)<\/plan>/i;

/** The plan embedded in an issue description by older clients, or null. */
export function legacyPlanDocumentFromDescription(description: string | null | undefined) {
  const match = description ? LEGACY_PLAN.exec(description) : null;
  if (!match) return null;
  const body = match[1].trim();
  return body ? { key: PLAN_DOCUMENT_KEY, format: "markdown" as const, body, source: "issue_description" as const } : null;
}
