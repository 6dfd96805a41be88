// The `{issueId}` guards: 401 without a caller, 404 when the issue is missing or belongs to a
// company the caller cannot reach. Issue routes look the issue up as domain/issues/load does;
// document, attachment and artifact routes with the stricter domain/documents/issue-lookup.
// A command's guard and its loader share one read batch where they can (loadForIssue, loadInCompany).
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { dbOf } from "../../http/db";
import { addCompanyAccessCheck, requireActor, requireCompanyAccess, requireEntityAccess } from "../../http/access";
import { notFound } from "../../domain/errors";
import { findIssue } from "../../domain/issues/load";
import { issueRefCondition } from "../../domain/issues/references";
import { findIssue as findIssueByRef } from "../../domain/documents/issue-lookup";
import { eq, type SQL } from "drizzle-orm";
import { schema } from "../../db/client";
import { withJoinedReads } from "../../db/read-batch";
import { currentShardScope, shardNames } from "../../db/shards";
import { LOWERCASE_UUID, rememberIssue, scopeToSeenIssue, type SeenIssue } from "../../http/seen-issues";
import type { CompanyCommand } from "../../company/command";

/** The issue if the caller may reach its company: 401 without a caller, then 404. */
export async function issueFor(c: Context<AppEnv>, issueId: string) {
  scopeToSeenIssue(requireActor(c), issueId);
  const issue = await findIssue(dbOf(c), issueId);
  requireEntityAccess(c, issue?.companyId, "Issue");
  return rememberIssue(issue!);
}

/** The issue and the caller, for document, attachment and artifact routes. */
export async function requireIssue(c: Context<AppEnv>, issueIdOrIdentifier: string) {
  const actor = requireActor(c);
  scopeToSeenIssue(actor, issueIdOrIdentifier);
  const issue = await findIssueByRef(dbOf(c), issueIdOrIdentifier);
  if (!issue) throw notFound("Issue not found");
  requireEntityAccess(c, issue.companyId, "Issue");
  return { issue: rememberIssue(issue), actor };
}

type GuardedIssue = SeenIssue;

/**
 * For a command on the issue `ref` names: the issue (guarded as issueFor: 401, then 404), the
 * command's input for it (`inputFor(issue.id)`) and its loaded facts, the guard's read and the
 * loader's in one round trip (the guard decides before the loader looks at its rows). Where the
 * request's company database is not known yet (a board caller's entity route with several shards,
 * src/db/shards.ts) the guard reads first and runCompanyCommand loads, as before.
 */
export function loadForIssue<I, L>(c: Context<AppEnv>, command: CompanyCommand<I, unknown, L>, ref: string, inputFor: (issueId: string) => I) {
  return loadGuarded(c, command, ref, inputFor, issueRefCondition(ref), () => issueFor(c, ref));
}

/**
 * loadForIssue for document, attachment and artifact routes (guarded as requireIssue). Their
 * loaders key on the issue's id, so only a ref that is already one (a lowercase UUID) joins the
 * loader's batch; an identifier is looked up first.
 */
export function loadForIssueDocument<I, L>(c: Context<AppEnv>, command: CompanyCommand<I, unknown, L>, ref: string, inputFor: (issueId: string) => I) {
  const twoStep = async () => (await requireIssue(c, ref)).issue;
  return LOWERCASE_UUID.test(ref)
    ? loadGuarded(c, command, ref, inputFor, eq(schema.issues.id, ref), twoStep)
    : loadGuarded(c, command, ref, inputFor, null, twoStep);
}

async function loadGuarded<I, L>(
  c: Context<AppEnv>,
  command: CompanyCommand<I, unknown, L>,
  ref: string,
  inputFor: (issueId: string) => I,
  where: SQL | null,
  twoStep: () => Promise<GuardedIssue>,
): Promise<{ issue: GuardedIssue; input: I; loaded: L | undefined }> {
  const actor = requireActor(c);
  const load = command.load;
  scopeToSeenIssue(actor, ref);
  if (!load || !where || (!currentShardScope()?.shard && shardNames(c.env).length > 1)) {
    const issue = rememberIssue(await twoStep());
    return { issue, input: inputFor(issue.id), loaded: undefined };
  }
  const db = dbOf(c);
  let issue: GuardedIssue | undefined;
  const loaded = await withJoinedReads(
    db,
    (batch) => {
      const row = batch.add(db.select({ id: schema.issues.id, companyId: schema.issues.companyId }).from(schema.issues).where(where));
      return () => {
        issue = row.value[0];
        requireEntityAccess(c, issue?.companyId, "Issue");
      };
    },
    () => load(db, { env: c.env, actor, now: new Date().toISOString() }, inputFor(ref)),
  );
  return { issue: rememberIssue(issue!), input: inputFor(issue!.id), loaded };
}

/** A command's loaded facts on a company path, read in one round trip with requireCompanyAccess's check (which decides first). */
export async function loadInCompany<I, L>(c: Context<AppEnv>, companyId: string, command: CompanyCommand<I, unknown, L>, input: I): Promise<L | undefined> {
  const actor = requireActor(c);
  const load = command.load;
  if (!load) {
    await requireCompanyAccess(c, companyId);
    return undefined;
  }
  const db = dbOf(c);
  return withJoinedReads(
    db,
    (batch) => addCompanyAccessCheck(c, batch, companyId),
    () => load(db, { env: c.env, actor, now: new Date().toISOString(), companyId }, input),
  );
}
