// Issue numbers and the company facts an issue create needs, held in the company object's own
// SQLite: the issue prefix, the default goal and the counter (next = counter + 1). They are read
// from D1 once per object (cold) and kept in step by the commands that change them, which all run
// in this object; the counter is written through to companies.issue_counter in the create batch.
// Someone writing issues behind the object's back (a clash on the unique number) makes it recount.
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { notFound } from "../errors";

const ISSUE_COUNTER = "issue";

export interface IssueNumbering {
  prefix: string;
  defaultGoalId: string | null;
  /** The next free number (the hot counter + 1). */
  next: number;
}

/** Prefix, default goal and next number from the object's storage; one D1 read batch when cold. */
export async function issueNumbering(ctx: CommandContext): Promise<IssueNumbering> {
  const { facts, counters } = ctx.storage;
  const knownPrefix = facts.get("issuePrefix");
  const knownGoal = facts.get("defaultGoalId");
  if (knownPrefix && knownGoal !== undefined) return { prefix: knownPrefix, defaultGoalId: knownGoal, next: counters.get(ISSUE_COUNTER) + 1 };
  {
    const [company, goal] = await ctx.batch([
      ctx.db
        .select({ prefix: schema.companies.issuePrefix, counter: schema.companies.issueCounter })
        .from(schema.companies)
        .where(eq(schema.companies.id, ctx.companyId)),
      ctx.db
        .select({ id: schema.goals.id })
        .from(schema.goals)
        .where(and(eq(schema.goals.companyId, ctx.companyId), eq(schema.goals.isCompanyDefault, true)))
        .limit(1),
    ]);
    if (!company[0]) throw notFound("Company not found");
    const prefix = company[0].prefix;
    const defaultGoalId = goal[0]?.id ?? null;
    facts.set("issuePrefix", prefix);
    facts.set("defaultGoalId", defaultGoalId);
    counters.raise(ISSUE_COUNTER, company[0].counter);
    return { prefix, defaultGoalId, next: counters.get(ISSUE_COUNTER) + 1 };
  }
}

/** After a clash: the highest number stored in D1 becomes the counter (one read). */
export async function recountIssueNumbers(ctx: CommandContext): Promise<void> {
  const [row] = await ctx.batch([
    ctx.db
      .select({ n: sql<number | null>`MAX(${schema.issues.number})` })
      .from(schema.issues)
      .where(eq(schema.issues.companyId, ctx.companyId)),
  ]);
  ctx.storage.counters.raise(ISSUE_COUNTER, Number(row[0]?.n ?? 0));
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
