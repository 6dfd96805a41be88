// Moving a company to another shard (src/db/shards.ts): claim the move in the directory, fence the
// company's object (its commands answer 503 + Retry-After, no dispatch starts), apply what the old
// shard's outbox still holds for the directory, copy every company row (src/domain/shards/copy.ts),
// verify each table's count and hash on both sides, flip the directory entry, unfence the object
// on the new shard, then delete the old copy. Until the flip the old shard is the company's and
// untouched: a failure before it deletes whatever reached the target and lifts the fence.
import { and, eq, isNull, lte } from "drizzle-orm";
import { createDb, schema, type Db } from "../../db/client";
import { runBatch } from "../../db/batch";
import { directoryStatements } from "../../db/directory-sync";
import { forgetPlacement } from "../../db/placement";
import { databaseNamed } from "../../db/round-trips";
import { DIRECTORY_BINDING, shardNames } from "../../db/shards";
import { companyObject } from "../../company/client";
import { conflict, HttpError } from "../errors";
import { copyPlan } from "./tables";
import { copyStep, deleteCompanyRows, eventSeqOffset, summarise, type Offsets, type StepSummary } from "./copy";
import { decideMove } from "./decide";

export interface MoveResult {
  companyId: string;
  from: string;
  to: string;
  /** Each table's (and search index's) rows as verified on the target. */
  tables: StepSummary[];
  /** The old shard's copy was deleted (false: it failed; the rows stay there, unused, until the next move to that shard clears them). */
  oldCopyDeleted: boolean;
}

type Stage = "fence" | "directory" | "copy" | "verify" | "flip";

/** A move that failed before its flip: undone, the company stays where it was. */
function failed(stage: Stage, from: string, cause: unknown, details: Record<string, unknown> = {}): HttpError {
  return new HttpError(503, `The move failed while ${STAGE_WORDS[stage]} and was undone: the company stays on ${from}`, {
    stage,
    cause: rootMessage(cause),
    ...details,
  });
}

/** The innermost cause's message (drizzle wraps D1's error in "Failed query: …"). */
function rootMessage(err: unknown): string {
  let current = err;
  while (current instanceof Error && current.cause) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

const STAGE_WORDS: Record<Stage, string> = {
  fence: "fencing the company",
  directory: "settling the directory",
  copy: "copying",
  verify: "verifying the copy",
  flip: "updating the directory",
};

const entryOf = async (db: Db, companyId: string) => {
  const d = schema.directoryCompanies;
  const [entry] = await db.select({ shard: d.shard, fencedAt: d.fencedAt }).from(d).where(eq(d.id, companyId));
  return entry ?? null;
};

/** Moves the company's rows to shard `to`, keeping every id (see the top of this file). */
export async function moveCompany(env: Env, companyId: string, to: string): Promise<MoveResult> {
  const db = createDb(env.DB);
  const d = schema.directoryCompanies;
  const decision = decideMove(await entryOf(db, companyId), to, shardNames(env), Date.now());
  if (!decision.ok) throw new HttpError(decision.status, decision.error);
  const { from, takesOverFence } = decision;
  // The claim: the directory's fence is the move's lock and token (a dead move's, once stale, is taken over).
  const token = new Date().toISOString();
  const claimed = await db
    .update(d)
    .set({ fencedAt: token })
    .where(and(eq(d.id, companyId), eq(d.shard, from), takesOverFence ? eq(d.fencedAt, takesOverFence) : isNull(d.fencedAt)))
    .returning({ id: d.id });
  if (!claimed.length) throw conflict("Another move of the company started; try again later");
  forgetPlacement(companyId);

  const object = companyObject(env, companyId);
  const source = databaseNamed(env, from);
  const target = databaseNamed(env, to);
  let stage: Stage = "fence";
  let tables: StepSummary[];
  try {
    const fenced = await object.fence(companyId, token);
    if (!fenced.ok) throw new Error(fenced.error);
    stage = "directory";
    await settleDirectory(db, source, companyId);
    stage = "copy";
    const offsets = await copyCompany(source, target, companyId);
    stage = "verify";
    tables = await verifyCopy(source, target, companyId, offsets);
    stage = "flip";
    await flip(db, companyId, from, to, token);
  } catch (err) {
    // The flip may have landed before its answer was lost: the directory says.
    if (stage !== "flip" || (await entryOf(db, companyId).catch(() => null))?.shard !== to) {
      const undone = await undo(env, db, target, companyId, from, token);
      throw failed(stage, from, err, { ...(err instanceof VerifyMismatch ? { mismatches: err.mismatches } : {}), ...undone });
    }
    tables = await verifyCopy(source, target, companyId, null).catch(() => []);
  }
  forgetPlacement(companyId);

  // Moved: the object serves the company from the new shard, then the old copy goes.
  const unfenced = await retry(() => object.unfence(token, to));
  await db
    .update(d)
    .set({ fencedAt: null })
    .where(and(eq(d.id, companyId), eq(d.fencedAt, token)));
  forgetPlacement(companyId);
  if (!unfenced?.ok)
    throw new HttpError(500, `The company moved to ${to}, but its object did not lift the fence: run a move of it again to clear it`, { from, to });
  const oldCopyDeleted = await retry(() => deleteCompanyRows(source, companyId, { keepCompanyRow: from === DIRECTORY_BINDING })).then(
    () => true,
    (err) => {
      console.error(`deleting the old copy of company ${companyId} from ${from} failed`, err);
      return false;
    },
  );
  return { companyId, from, to, tables, oldCopyDeleted };
}

/**
 * What the old shard's outbox still holds for the company (a row a command's sync failed to apply,
 * or applied but not yet deleted) reaches the directory now, and leaves that outbox: once the
 * company writes elsewhere, a late application of these rows would undo newer state.
 */
async function settleDirectory(db: Db, source: D1Database, companyId: string) {
  const out = schema.directoryOutbox;
  const rows = await createDb(source).select().from(out).where(eq(out.companyId, companyId)).orderBy(out.seq);
  if (!rows.length) return;
  if (rows.some((r) => r.kind === "company_deleted")) throw new Error("The company is being deleted");
  await runBatch(db, directoryStatements(db, rows));
  await createDb(source)
    .delete(out)
    .where(and(eq(out.companyId, companyId), lte(out.seq, rows[rows.length - 1].seq)));
}

/** Clears the target of the company (rows of a move that died half-way), then copies every step. */
async function copyCompany(source: D1Database, target: D1Database, companyId: string): Promise<Offsets> {
  await deleteCompanyRows(target, companyId);
  const offsets: Offsets = { eventSeq: await eventSeqOffset(source, target, companyId) };
  for (const step of copyPlan()) await copyStep(source, target, step, companyId, offsets);
  return offsets;
}

class VerifyMismatch extends Error {
  constructor(readonly mismatches: Array<{ table: string; source: Omit<StepSummary, "table">; target: Omit<StepSummary, "table"> }>) {
    super(`The copy differs from the source in ${mismatches.map((m) => m.table).join(", ")}`);
  }
}

/** Each step's count and hash on both sides (`offsets` null: only the target's, after the fact). */
async function verifyCopy(source: D1Database, target: D1Database, companyId: string, offsets: Offsets | null): Promise<StepSummary[]> {
  const tables: StepSummary[] = [];
  const mismatches: VerifyMismatch["mismatches"] = [];
  for (const step of copyPlan()) {
    const [there, here] = await Promise.all([summarise(target, step, companyId, null), offsets ? summarise(source, step, companyId, offsets) : null]);
    tables.push(there);
    if (!here) continue;
    if (here.rows !== there.rows || here.hash !== there.hash)
      mismatches.push({ table: step.name, source: { rows: here.rows, hash: here.hash }, target: { rows: there.rows, hash: there.hash } });
  }
  if (mismatches.length) throw new VerifyMismatch(mismatches);
  return tables;
}

/** The directory entry names the new shard (only if still this move's: fenced with its token, on the old shard). */
async function flip(db: Db, companyId: string, from: string, to: string, token: string) {
  const d = schema.directoryCompanies;
  const flipped = await db
    .update(d)
    .set({ shard: to, updatedAt: new Date().toISOString() })
    .where(and(eq(d.id, companyId), eq(d.shard, from), eq(d.fencedAt, token)))
    .returning({ id: d.id });
  if (!flipped.length) throw new Error("The directory entry changed during the move (another move took it over)");
}

/** Before the flip: the target loses what was copied, the object and the directory lose the fence. */
async function undo(env: Env, db: Db, target: D1Database, companyId: string, from: string, token: string): Promise<Record<string, unknown>> {
  const problems: string[] = [];
  await retry(() => deleteCompanyRows(target, companyId)).catch((err) =>
    problems.push(`the partial copy could not be deleted (the next move to that shard clears it): ${rootMessage(err)}`),
  );
  await retry(() => companyObject(env, companyId).unfence(token, from)).catch((err) =>
    problems.push(`the company object did not lift the fence (run a move again to clear it): ${rootMessage(err)}`),
  );
  const d = schema.directoryCompanies;
  await retry(() =>
    db
      .update(d)
      .set({ fencedAt: null })
      .where(and(eq(d.id, companyId), eq(d.fencedAt, token)))
      .run(),
  ).catch((err) => problems.push(`the directory fence could not be cleared (it goes stale after 10 minutes): ${rootMessage(err)}`));
  forgetPlacement(companyId);
  return problems.length ? { undoProblems: problems } : {};
}

/** Three tries: clean-up steps outlive a transient D1 or RPC error. */
async function retry<T>(fn: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
    }
  }
  throw last;
}
