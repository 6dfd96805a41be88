// Company creation: a unique issue prefix across the instance, the creator as owner,
// a calendar-month budget policy when a budget is given, and the activity entry, in one batch.
import { and, eq, inArray, like, or, sql } from "drizzle-orm";
import { chooseShard, forgetPlacement, onShardOf, rememberPlacement } from "../../db/placement";
import { drainDirectoryOutbox } from "../../db/directory-sync";
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

const isPrefixClash = (err: unknown) => /companies\.issue_prefix/.test(`${(err as Error)?.message ?? err} ${(err as { cause?: unknown })?.cause ?? ""}`);

/**
 * The issue prefix a company of this name would get now (src/domain/companies/issue-prefix.ts), in one
 * query: the taken prefixes among its letter combinations and its numbered ones (longer, older
 * prefixes cannot clash and are not read).
 */
export async function freeIssuePrefix(db: Db, name: string): Promise<string> {
  const candidates = issuePrefixCandidates(name);
  // The directory holds every company's prefix (the shards only their own companies').
  const prefix = schema.directoryCompanies.issuePrefix;
  const taken = await db
    .select({ prefix })
    .from(schema.directoryCompanies)
    .where(or(inArray(prefix, candidates.letters), and(like(prefix, `${candidates.stem}%`), sql`length(${prefix}) <= ${ISSUE_PREFIX_MAX_LENGTH}`)));
  return firstFreePrefix(candidates, new Set(taken.map((t) => t.prefix)));
}

export async function createCompany(env: Env, db: Db, actor: BoardActor, input: CreateCompanyInput) {
  // Another create may take the same prefix between our read and our write: the unique index refuses it and we retry.
  for (let attempt = 0; attempt < 8; attempt++) {
    const issuePrefix = await freeIssuePrefix(db, input.name);
    const shard = await chooseShard(env, db);
    const now = new Date().toISOString();
    const id = newId();
    const budget = input.budgetMonthlyCents ?? 0;
    // The directory entry first: it claims the prefix across the instance and places the company.
    try {
      await db.insert(schema.directoryCompanies).values({ id, shard, name: input.name, issuePrefix, status: "active", createdAt: now, updatedAt: now });
    } catch (err) {
      if (isPrefixClash(err)) continue;
      throw err;
    }
    rememberPlacement({ companyId: id, shard, fencedAt: null });
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
    // The company's rows go to the shard just chosen (its placement is remembered: no read).
    try {
      await onShardOf(db, id, () => runBatch(db, statements));
    } catch (err) {
      await db.delete(schema.directoryCompanies).where(eq(schema.directoryCompanies.id, id));
      forgetPlacement(id);
      throw err;
    }
    // The owner's membership reaches the directory (src/db/directory-sync.ts) before the answer.
    await onShardOf(db, id, () => drainDirectoryOutbox(db));
    return id;
  }
  throw new Error("could not allocate a unique issue prefix");
}
