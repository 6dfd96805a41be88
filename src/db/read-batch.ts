// Many reads, one D1 round trip: queries are added first (each returns a handle), run together in
// one batch, then read through their handles. Checks written as "add the query, then interpret
// the rows" can share a batch with every other read a request needs.
import type { BatchResponse } from "drizzle-orm/batch";
import type { Db } from "./client";
import type { Statement } from "./batch";

export type ResultOf<Q extends Statement> = BatchResponse<[Q]>[0];

export class Pending<T> {
  private settled = false;
  private result: T | undefined;

  /** The query's result (only after the batch has run). */
  get value(): T {
    if (!this.settled) throw new Error("ReadBatch: read a result before the batch ran");
    return this.result as T;
  }

  settle(result: T) {
    this.result = result;
    this.settled = true;
  }
}

export class ReadBatch {
  private readonly queries: Statement[] = [];
  private readonly pending: Pending<unknown>[] = [];

  constructor(readonly db: Db) {}

  add<Q extends Statement>(query: Q): Pending<ResultOf<Q>> {
    const handle = new Pending<ResultOf<Q>>();
    this.queries.push(query);
    this.pending.push(handle as Pending<unknown>);
    return handle;
  }

  get size() {
    return this.queries.length;
  }

  /** Runs every added query in one round trip (none when nothing was added). */
  async run(): Promise<void> {
    if (!this.queries.length) return;
    const queries = this.queries.splice(0);
    const handles = this.pending.splice(0);
    const results = await this.db.batch(queries as unknown as [Statement, ...Statement[]]);
    results.forEach((result, i) => handles[i].settle(result));
  }
}
