// Company creation: a unique issue prefix across the instance, the creator as owner,
// a calendar-month budget policy when a budget is given, and the activity entry, in one batch.
import { and, inArray, like, or, sql } from "drizzle-orm";
import { runBatch, type Statement } from "../../db/batch";
import { schema, type Db } from "../../db/client";
import { newId } from "../../crypto/random";
import type { BoardActor } from "../actor";
import { activityInsert } from "../activity/record";
import { budgetPolicySyncStatement } from "../budgets/policy-sync";
import { firstFreePrefix, issuePrefixCandidates, ISSUE_PREFIX_MAX_LENGTH } from "./issue-prefix";

export interface CreateCompanyInput {
  name: string;
  description?: string | null;
  budgetMonthlyCents?: number;
  requireBoardApprovalForNewAgents?: boolean;
  brandColor?: string | null;
}

const isPrefixClash = (err: unknown) => String((err as Error)?.message ?? err).includes("companies.issue_prefix");

/**
 * The issue prefix a company of this name would get now (src/domain/companies/issue-prefix.ts), in one
 * query: the taken prefixes among its letter combinations and its numbered ones (longer, older
 * prefixes cannot clash and are not read).
 */
export async function freeIssuePrefix(db: Db, name: string): Promise<string> {
  const candidates = issuePrefixCandidates(name);
  const prefix = schema.companies.issuePrefix;
  const taken = await db
    .select({ prefix })
    .from(schema.companies)
    .where(or(inArray(prefix, candidates.letters), and(like(prefix, `${candidates.stem}%`), sql`length(${prefix}) <= ${ISSUE_PREFIX_MAX_LENGTH}`)));
  return firstFreePrefix(candidates, new Set(taken.map((t) => t.prefix)));
}

export async function createCompany(db: Db, actor: BoardActor, input: CreateCompanyInput) {
  // Another create may take the same prefix between our read and our write: the unique index refuses it and we retry.
  for (let attempt = 0; attempt < 8; attempt++) {
    const issuePrefix = await freeIssuePrefix(db, input.name);
    const now = new Date().toISOString();
    const id = newId();
    const budget = input.budgetMonthlyCents ?? 0;
    const statements: Statement[] = [
      db.insert(schema.companies).values({
        id,
        name: input.name,
        description: input.description ?? null,
        status: "active",
        issuePrefix,
        issueCounter: 0,
        budgetMonthlyCents: budget,
        spentMonthlyCents: 0,
        requireBoardApprovalForNewAgents: input.requireBoardApprovalForNewAgents ?? false,
        brandColor: input.brandColor ?? null,
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(schema.companyMemberships).values({
        id: newId(),
        companyId: id,
        principalType: "user",
        principalId: actor.userId,
        membershipRole: "owner",
        status: "active",
        createdAt: now,
        updatedAt: now,
      }),
    ];
    if (budget > 0) {
      statements.push(budgetPolicySyncStatement(db, { companyId: id, scopeType: "company", scopeId: id, amountCents: budget, now }));
    }
    statements.push(
      activityInsert(db, {
        companyId: id,
        actor,
        action: "company.created",
        entityType: "company",
        entityId: id,
        details: { name: input.name, issuePrefix, budgetMonthlyCents: budget },
        now,
      }),
    );
    try {
      await runBatch(db, statements);
      return id;
    } catch (err) {
      if (!isPrefixClash(err)) throw err;
    }
  }
  throw new Error("could not allocate a unique issue prefix");
}
