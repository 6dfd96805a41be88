// Issue numbers: allocated inside the company Durable Object, so concurrent creates are serial.
// next = max(hot counter in the DO's SQLite, companies.issue_counter, highest used) + 1; the hot
// counter is advanced only after the issue row is stored, and written through to companies.issue_counter.
import { eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";

const ISSUE_COUNTER = "issue";
const hotCounter = (ctx: CommandContext) => ctx.storage.counters.get(ISSUE_COUNTER);

/** The next free number, given the company row's counter; `recheck` also consults the highest stored number. */
export async function nextIssueNumber(ctx: CommandContext, companyCounter: number, recheck = false): Promise<number> {
  let highest = Math.max(hotCounter(ctx), companyCounter);
  if (recheck) {
    const row = await ctx.db.get<{ n: number | null }>(sql`SELECT MAX(number) AS n FROM issues WHERE company_id = ${ctx.companyId}`);
    highest = Math.max(highest, Number(row?.n ?? 0));
  }
  return highest + 1;
}

/** Records that `number` is used (after the batch that stored it succeeded). */
export function commitIssueNumber(ctx: CommandContext, number: number) {
  ctx.storage.counters.raise(ISSUE_COUNTER, number);
}

/** Write-through of the counter to D1, for the create batch. */
export function companyCounterStatement(ctx: CommandContext, number: number) {
  return ctx.db
    .update(schema.companies)
    .set({ issueCounter: sql`MAX(${schema.companies.issueCounter}, ${number})` })
    .where(eq(schema.companies.id, ctx.companyId));
}

export const isNumberClash = (err: unknown) => {
  const text = String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? "");
  return text.includes("issues.identifier") || text.includes("issues.company_id, issues.number") || text.includes("UNIQUE constraint failed: issues");
};
