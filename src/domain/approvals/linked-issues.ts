// Issues linked to an approval (approval issueIds, a hire's sourceIssueIds): unknown ids are 404,
// issues of another company 422.
import { inIds } from "../../db/id-list";

import { schema } from "../../db/client";
import { onEveryShard, shardNames } from "../../db/shards";
import type { CommandContext } from "../../company/command";
import { notFound, unprocessable } from "../errors";

export async function checkLinkedIssues(ctx: CommandContext, issueIds: string[]) {
  if (!issueIds.length) return;
  const read = (ids: string[]) =>
    ctx.db.select({ id: schema.issues.id, companyId: schema.issues.companyId }).from(schema.issues).where(inIds(schema.issues.id, ids));
  const rows = await read(issueIds);
  // Not on this company's shard: another company's on another shard (422), or missing (404).
  const elsewhere = issueIds.filter((id) => !rows.some((r) => r.id === id));
  if (elsewhere.length && shardNames(ctx.env).length > 1) rows.push(...(await onEveryShard(() => read(elsewhere))));
  const missing = issueIds.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) throw notFound(`Issue not found: ${missing.join(", ")}`);
  const foreign = rows.filter((r) => r.companyId !== ctx.companyId).map((r) => r.id);
  if (foreign.length) throw unprocessable("Linked issues must belong to the approval's company", { issueIds: foreign });
}
