// Resolves `{issueId}` on issue-scoped routes (a UUID or the `<PREFIX>-<number>` identifier)
// and applies the entity guard: an issue of another company is reported as missing.
import type { Context } from "hono";
import { eq } from "drizzle-orm";
import type { AppEnv } from "../../env";
import { createDb, schema, type Db } from "../../db/client";
import { requireActor, requireEntityAccess } from "../../http/access";
import { notFound } from "../errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IDENTIFIER = /^[A-Za-z]+-\d+$/;

export type IssueRow = typeof schema.issues.$inferSelect;

/** The issue by UUID or identifier (case-insensitive), or undefined. */
export async function findIssue(db: Db, issueIdOrIdentifier: string): Promise<IssueRow | undefined> {
  if (UUID.test(issueIdOrIdentifier)) {
    return db.query.issues.findFirst({ where: eq(schema.issues.id, issueIdOrIdentifier.toLowerCase()) });
  }
  if (IDENTIFIER.test(issueIdOrIdentifier)) {
    return db.query.issues.findFirst({ where: eq(schema.issues.identifier, issueIdOrIdentifier.toUpperCase()) });
  }
  return undefined;
}

/** 401 without a caller, 404 when the issue is missing or belongs to a company the caller cannot reach. */
export async function requireIssue(c: Context<AppEnv>, issueIdOrIdentifier: string) {
  const actor = requireActor(c);
  const issue = await findIssue(createDb(c.env.DB), issueIdOrIdentifier);
  if (!issue) throw notFound("Issue not found");
  requireEntityAccess(c, issue.companyId, "Issue");
  return { issue, actor };
}
