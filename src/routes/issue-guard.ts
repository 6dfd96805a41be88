// The `{issueId}` guard shared by the issue route modules (UUID or identifier).
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { dbOf } from "../http/db";
import { requireActor, requireEntityAccess } from "../http/access";
import { findIssue } from "../domain/issues/load";

/** The issue if the caller may reach its company: 401 without a caller, then 404. */
export async function issueFor(c: Context<AppEnv>, issueId: string) {
  requireActor(c);
  const issue = await findIssue(dbOf(c), issueId);
  requireEntityAccess(c, issue?.companyId, "Issue");
  return issue!;
}
