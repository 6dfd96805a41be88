// The `{issueId}` guards: 401 without a caller, 404 when the issue is missing or belongs to a
// company the caller cannot reach. Issue routes look the issue up as domain/issues/load does;
// document, attachment and artifact routes with the stricter domain/documents/issue-lookup.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { dbOf } from "../../http/db";
import { requireActor, requireEntityAccess } from "../../http/access";
import { notFound } from "../../domain/errors";
import { findIssue } from "../../domain/issues/load";
import { findIssue as findIssueByRef } from "../../domain/documents/issue-lookup";

/** The issue if the caller may reach its company: 401 without a caller, then 404. */
export async function issueFor(c: Context<AppEnv>, issueId: string) {
  requireActor(c);
  const issue = await findIssue(dbOf(c), issueId);
  requireEntityAccess(c, issue?.companyId, "Issue");
  return issue!;
}

/** The issue and the caller, for document, attachment and artifact routes. */
export async function requireIssue(c: Context<AppEnv>, issueIdOrIdentifier: string) {
  const actor = requireActor(c);
  const issue = await findIssueByRef(dbOf(c), issueIdOrIdentifier);
  if (!issue) throw notFound("Issue not found");
  requireEntityAccess(c, issue.companyId, "Issue");
  return { issue, actor };
}
