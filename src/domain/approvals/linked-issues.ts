// Issues linked to an approval (approval issueIds, a hire's sourceIssueIds): unknown ids are 404,
// issues of another company 422.
import { inIds } from "../../db/id-list";

import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { notFound, unprocessable } from "../errors";

export async function checkLinkedIssues(ctx: CommandContext, issueIds: string[]) {
  if (!issueIds.length) return;
  const rows = await ctx.db.select({ id: schema.issues.id, companyId: schema.issues.companyId }).from(schema.issues).where(inIds(schema.issues.id, issueIds));
  const missing = issueIds.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) throw notFound(`Issue not found: ${missing.join(", ")}`);
  const foreign = rows.filter((r) => r.companyId !== ctx.companyId).map((r) => r.id);
  if (foreign.length) throw unprocessable("Linked issues must belong to the approval's company", { issueIds: foreign });
}
