// One D1 round trip for a list of statements, as one transaction (none when the list is empty).
// The only place that turns a statement list into drizzle's non-empty tuple type, and where the
// statements a statement must be written with (writeWith) join its batch.
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { Db } from "./client";

export type Statement = BatchItem<"sqlite">;
type Writable<T> = { -readonly [K in keyof T]: T[K] };
/** Typed per position when the statements are a tuple (an array literal passed to batch()). */
export type BatchResults<T extends readonly Statement[]> = BatchResponse<
  Writable<T> extends [Statement, ...Statement[]] ? Writable<T> : [Statement, ...Statement[]]
>;

/** Statements that must be written with another one, in the same batch (an activity entry's outbound event). */
const followUps = new WeakMap<object, Statement[]>();

/** Whatever batch `statement` goes into also writes `more` (after the batch's own statements). */
export function writeWith<S extends Statement>(statement: S, more: Statement[]): S {
  if (more.length) followUps.set(statement, [...(followUps.get(statement) ?? []), ...more]);
  return statement;
}

/** Statements whose database triggers write outbound events (a run's log lines: `run.event`). */
const triggersEvents = new WeakSet<object>();

/** Marks `statement` as writing outbound events through a trigger: its batch counts as one that writes events. */
export function writesEventsByTrigger<S extends Statement>(statement: S): S {
  triggersEvents.add(statement);
  return statement;
}

/** Whether any of `statements` carries follow-ups or writes events by trigger (the batch writes outbound events). */
export const hasFollowUps = (statements: readonly Statement[]) => statements.some((s) => followUps.has(s) || triggersEvents.has(s));

export function runBatch<const T extends readonly Statement[]>(db: Db, statements: T, trailing?: Trailing): Promise<BatchResults<T>> {
  if (!statements.length) return Promise.resolve([] as unknown as BatchResults<T>);
  // Follow-ups go last, so every result keeps the position of its statement; then the trailing
  // statements (their results go to `trailing.settle`, not to the caller).
  const all = [...statements, ...statements.flatMap((s) => followUps.get(s) ?? [])];
  const extra = trailing?.statements() ?? [];
  if (!extra.length) return db.batch(all as unknown as [Statement, ...Statement[]]) as unknown as Promise<BatchResults<T>>;
  return (db.batch([...all, ...extra] as unknown as [Statement, ...Statement[]]) as Promise<unknown[]>).then(async (results) => {
    await trailing!.settle(results.splice(all.length));
    return results as unknown as BatchResults<T>;
  });
}

/** Statements that end a batch after its follow-ups, and what to do with their results (src/db/directory-sync.ts). */
export interface Trailing {
  statements(): Statement[];
  settle(results: unknown[]): Promise<void>;
}
