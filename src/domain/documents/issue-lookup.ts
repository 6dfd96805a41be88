// Resolves `{issueId}` on document, attachment and artifact routes: a UUID (any case) or the
// `<PREFIX>-<number>` identifier; anything else names no issue.
import { eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { ISSUE_IDENTIFIER_PATTERN } from "../companies/issue-prefix";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Prefixes may end in digits (ACM2-5).
const ISSUE_IDENTIFIER = ISSUE_IDENTIFIER_PATTERN;

export type IssueRow = typeof schema.issues.$inferSelect;

/** The issue by UUID or identifier (case-insensitive), or undefined. */
export async function findIssue(db: Db, issueIdOrIdentifier: string): Promise<IssueRow | undefined> {
  if (UUID.test(issueIdOrIdentifier)) {
    return db.query.issues.findFirst({ where: eq(schema.issues.id, issueIdOrIdentifier.toLowerCase()) });
  }
  if (ISSUE_IDENTIFIER.test(issueIdOrIdentifier)) {
    return db.query.issues.findFirst({ where: eq(schema.issues.identifier, issueIdOrIdentifier.toUpperCase()) });
  }
  return undefined;
}

/** The issue of this company by UUID or identifier; 404 when it is missing or another company's. */
export async function requireCompanyIssue(db: Db, companyId: string, issueIdOrIdentifier: string): Promise<IssueRow> {
  const issue = await findIssue(db, issueIdOrIdentifier);
  if (!issue || issue.companyId !== companyId) throw notFound("Issue not found");
  return issue;
}
