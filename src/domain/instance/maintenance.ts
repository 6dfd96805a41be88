// Access upkeep run by the per-minute cron: board-claim tokens in authenticated mode, and the
// experimental issue-graph liveness auto-recovery when it is switched on (or asked for by an admin).
import { eq } from "drizzle-orm";
import { createDb, schema, type Db } from "../../db/client";
import { withCountedD1 } from "../../db/round-trips";
import { readDeploymentConfig } from "../../config";
import { runCompanyCommand } from "../../company/client";
import { SYSTEM_ACTOR, type Actor } from "../actor";
import { notFound } from "../errors";
import { boardClaimPath, mintBoardClaimTokenIfNeeded } from "../access/board-claim";
import { findStuckIssues, recoverStuckIssues } from "./liveness";
import { readSettings } from "./settings";
import { forEachShard } from "../../db/shards";
import { onShardOf } from "../../db/placement";

/** Stuck issues of one company (on its shard), or of every company (each shard answers for its own: the scan orders and limits). */
function stuckIssues(env: Env, db: ReturnType<typeof createDb>, options: { companyId?: string; staleBefore: string }) {
  if (options.companyId) return onShardOf(db, options.companyId, () => findStuckIssues(db, options));
  return forEachShard(env, () => findStuckIssues(db, options)).then((perShard) => perShard.flat());
}

/** Releases stuck issues company by company; returns what was released. */
export async function runLivenessRecovery(env: Env, actor: Actor, options: { companyId?: string; staleAfterMinutes: number; now?: Date }) {
  const staleBefore = new Date((options.now ?? new Date()).getTime() - options.staleAfterMinutes * 60_000).toISOString();
  const db = createDb(env.DB);
  const candidates = await stuckIssues(env, db, { companyId: options.companyId, staleBefore });
  const companyIds = [...new Set(candidates.map((c) => c.companyId))];
  const recovered = [];
  for (const companyId of companyIds) {
    const result = await runCompanyCommand(env, companyId, recoverStuckIssues, actor, {
      staleBefore,
      staleAfterMinutes: options.staleAfterMinutes,
    });
    recovered.push(...result.recovered);
  }
  return { staleBefore, recovered };
}

/**
 * An instance admin's liveness request: a dry run lists the stuck issues, a real run releases
 * them. staleAfterMinutes defaults to the experimental setting; an unknown companyId is a 404.
 */
export async function livenessRecoveryRequest(env: Env, actor: Actor, body: { companyId?: string; staleAfterMinutes?: number }, dryRun: boolean) {
  const db = createDb(env.DB);
  if (body.companyId) {
    const company = await db.query.companies.findFirst({ where: eq(schema.companies.id, body.companyId) });
    if (!company) throw notFound("Company not found");
  }
  const staleAfterMinutes = body.staleAfterMinutes ?? (await readSettings(db, "experimental")).issueGraphLivenessStaleAfterMinutes;
  if (dryRun) {
    const staleBefore = new Date(Date.now() - staleAfterMinutes * 60_000).toISOString();
    const issues = await stuckIssues(env, db, { companyId: body.companyId, staleBefore });
    return { dryRun, staleAfterMinutes, staleBefore, issues, recoveredCount: 0 };
  }
  const { staleBefore, recovered } = await runLivenessRecovery(env, actor, { companyId: body.companyId, staleAfterMinutes });
  return { dryRun, staleAfterMinutes, staleBefore, issues: recovered, recoveredCount: recovered.length };
}

/** What the per-minute cron wrote about its ticks, by scheduler name. */
export const listSchedulerHeartbeats = (db: Db) => db.select().from(schema.schedulerHeartbeats).orderBy(schema.schedulerHeartbeats.name);

export async function runAccessMaintenance(given: Env, at: Date): Promise<void> {
  // The routed databases (src/db/shards.ts): the local board's companies are on the shards, the token in the directory.
  const env = withCountedD1(given);
  const db = createDb(env.DB);
  const config = readDeploymentConfig(env);
  if (config.ok && config.config.mode === "authenticated") {
    const minted = await mintBoardClaimTokenIfNeeded(db, at);
    if (minted) {
      const url = `${config.config.publicBaseUrl ?? ""}${boardClaimPath(minted.token)}`;
      console.log(
        `Board claim: ${minted.companies.length} compan${minted.companies.length === 1 ? "y is" : "ies are"} owned by the implicit local board. ` +
          `Open ${url} while signed in and POST to ${url}/claim to take ownership (valid until ${minted.expiresAt}).`,
      );
    }
  }
  const experimental = await readSettings(db, "experimental");
  if (experimental.issueGraphLivenessAutoRecovery) {
    await runLivenessRecovery(env, SYSTEM_ACTOR, { staleAfterMinutes: experimental.issueGraphLivenessStaleAfterMinutes, now: at });
  }
}
