// One D1 round trip for a list of statements, as one transaction (none when the list is empty).
// The only place that turns a statement list into drizzle's non-empty tuple type.
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { Db } from "./client";

export type Statement = BatchItem<"sqlite">;
type Writable<T> = { -readonly [K in keyof T]: T[K] };
/** Typed per position when the statements are a tuple (an array literal passed to batch()). */
export type BatchResults<T extends readonly Statement[]> = BatchResponse<Writable<T> extends [Statement, ...Statement[]] ? Writable<T> : [Statement, ...Statement[]]>;

export function runBatch<const T extends readonly Statement[]>(db: Db, statements: T): Promise<BatchResults<T>> {
  if (!statements.length) return Promise.resolve([] as unknown as BatchResults<T>);
  return db.batch(statements as unknown as [Statement, ...Statement[]]) as unknown as Promise<BatchResults<T>>;
}
