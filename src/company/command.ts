// What a company command is: a named rule run as a short critical section inside the company's
// Durable Object, one at a time per company. Routes hold the command object (go-to-definition
// lands on the rule); only its name crosses the RPC boundary.
//
// A command that needs reads has a `load` step that runs *outside* the serialised section (in the
// Worker, one read batch). Its rule decides on that snapshot and writes one guarded batch whose
// first statements check that what it read still holds (`ctx.guard`). If it no longer holds, the
// batch rolls back, the object re-loads (now serialised) and runs the rule once more — so the
// uncontended path costs one D1 round trip inside the object.
import { sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../db/client";
import { hasFollowUps, runBatch, type BatchResults, type Statement, type Trailing } from "../db/batch";
import type { Actor } from "../domain/actor";
import { activityInsert, type ActivityEntry } from "../domain/activity/record";
import { pendingDeliveriesRead } from "../domain/events/outbox";
import type { CompanyStorage } from "./storage";
import type { FaultRule } from "../db/faults";
import { receiptInsert, type IdempotencyRequest } from "../domain/idempotency/receipts";

/** An activity entry as a command writes it: company, time and (by default) actor come from the command. */
export type CommandActivity = Omit<ActivityEntry, "companyId" | "now" | "actor"> & { actor?: Actor };

export interface CommandContext {
  env: Env;
  db: Db;
  companyId: string;
  /** Who runs the command. */
  actor: Actor;
  /** The object's own transactional SQLite: counters and other hot state. */
  storage: CompanyStorage;
  /** Start time of the command (ISO). */
  now: string;
  /** The request's Idempotency-Key: its receipt goes into the command's first write batch (src/domain/idempotency/). */
  idempotency?: IdempotencyRequest;
  /** Whether that receipt was written. */
  readonly receiptWritten: boolean;
  /** One D1 round trip for all of `statements`, as one transaction; none when empty. Throws StaleRead when a guard fails. */
  batch<const T extends readonly Statement[]>(statements: T): Promise<BatchResults<T>>;
  /** The activity-log insert for this command, to go into its batch. */
  activity(entry: CommandActivity): Statement;
  /** A precondition for the batch it goes into: the whole batch rolls back unless `condition` holds. */
  guard(condition: SQL): Statement;
  /** Says the command revoked keys or ended agents: the Worker then forgets cached credentials. */
  credentialsChanged(): void;
  /** Whether credentialsChanged() was called. */
  readonly changedCredentials: boolean;
  /** Says the command queued wake-ups or freed a run slot: the object's dispatcher runs after it. */
  requestDispatch(): void;
  /** Whether requestDispatch() was called. */
  readonly dispatchRequested: boolean;
  /** Says the command ended runs: runs executing remotely (gateway, runner) are then told to stop. */
  noteRunsEnded(): void;
  /** Whether noteRunsEnded() was called. */
  readonly runsEnded: boolean;
  /** Whether a batch of this command wrote outbound events (the company's event hub is then told). */
  readonly eventsWritten: boolean;
  /**
   * Whether the company had webhook deliveries pending when the command's last batch committed (read
   * at the end of every batch that writes events); undefined when the last batch did not look. The
   * event hub needs no delivery pass when it is false.
   */
  readonly deliveriesPending: boolean | undefined;
}

/** What a loader sees: no company yet for entity routes (the loaded entity names it). */
export interface LoadScope {
  env: Env;
  actor: Actor;
  now: string;
  companyId?: string;
}

export type CommandLoader<I, L> = (db: Db, scope: LoadScope, input: I) => Promise<L>;
export type CommandRule<I, O, L = undefined> = (ctx: CommandContext, actor: Actor, input: I, loaded: L) => Promise<O>;

export interface CompanyCommand<I, O, L = undefined> {
  readonly name: string;
  readonly load?: CommandLoader<I, L>;
  /** Commands without a loader are also called directly by other commands: (ctx, actor, input). */
  readonly run: [L] extends [undefined] ? (ctx: CommandContext, actor: Actor, input: I) => Promise<O> : CommandRule<I, O, L>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds commands of every input, output and loader type
export type AnyCompanyCommand = CompanyCommand<any, any, any>;

/** Crosses the RPC boundary intact (thrown errors would lose status and details). */
export type CommandResult<O> = ({ ok: true; value: O } | { ok: false; status: number; error: string; details?: unknown }) & {
  /** D1 round trips the command made inside the serialised section. */
  roundTrips?: number;
  /** The command revoked keys or ended agents (see CommandContext.credentialsChanged). */
  credentialsChanged?: boolean;
  /** D1 bookmark after the command (src/db/sessions.ts): reads sending it see the command's writes. */
  bookmark?: string | null;
  /** Test-only: the request's fault rules with the object's counts (src/db/faults.ts). */
  faults?: FaultRule[];
};

/** The data a guarded batch was decided on changed before it was written. */
export class StaleRead extends Error {
  constructor() {
    super("The data changed while the command was deciding");
  }
}

/** A command: its name (unique across the registry), optionally its loader, and its rule. */
export function defineCommand<I, O>(name: string, run: CommandRule<I, O>): CompanyCommand<I, O>;
export function defineCommand<I, O, L>(name: string, spec: { load: CommandLoader<I, L>; run: CommandRule<I, O, L> }): CompanyCommand<I, O, L>;
export function defineCommand<I, O, L>(
  name: string,
  spec: CommandRule<I, O, L> | { load: CommandLoader<I, L>; run: CommandRule<I, O, L> },
): CompanyCommand<I, O, L> {
  const command = typeof spec === "function" ? { name, run: spec } : { name, load: spec.load, run: spec.run };
  return command as CompanyCommand<I, O, L>;
}

const isGuardFailure = (err: unknown) => /CHECK constraint failed: held/.test(`${(err as Error)?.message ?? ""} ${(err as { cause?: unknown })?.cause ?? ""}`);

/** The context a command runs with. */
export function commandContext(
  fields: Pick<CommandContext, "env" | "db" | "companyId" | "actor" | "storage" | "now" | "idempotency"> & { trailing?: Trailing },
): CommandContext {
  const { db, trailing } = fields;
  let receiptWritten = false;
  /** The subject of the command's latest activity entry: what a receipt names. */
  let subject: { type: string; id: string } | null = null;
  /** The command's activity inserts: the batch carrying one is the command's write (the receipt goes with it). */
  const activityStatements = new WeakSet<object>();
  let changedCredentials = false;
  let dispatchRequested = false;
  let runsEnded = false;
  let eventsWritten = false;
  let deliveriesPending: boolean | undefined;
  /** A batch that writes events also reads, after them, whether deliveries are pending (no extra round trip). */
  const withDeliveriesRead = (): Trailing => ({
    statements: () => [...(trailing?.statements() ?? []), pendingDeliveriesRead(db, fields.companyId)],
    settle: async (results) => {
      deliveriesPending = (results.pop() as unknown[]).length > 0;
      await trailing?.settle(results);
    },
  });
  return {
    ...fields,
    noteRunsEnded: () => {
      runsEnded = true;
    },
    get runsEnded() {
      return runsEnded;
    },
    requestDispatch: () => {
      dispatchRequested = true;
    },
    get dispatchRequested() {
      return dispatchRequested;
    },
    credentialsChanged: () => {
      changedCredentials = true;
    },
    get changedCredentials() {
      return changedCredentials;
    },
    get eventsWritten() {
      return eventsWritten;
    },
    get deliveriesPending() {
      return deliveriesPending;
    },
    get receiptWritten() {
      return receiptWritten;
    },
    batch: async (statements) => {
      try {
        const events = hasFollowUps(statements);
        // An empty batch (nothing to write) keeps what the last read said about pending deliveries.
        if (statements.length) deliveriesPending = undefined;
        // The receipt goes with the command's first write batch (read-only batches carry none).
        const receipt = fields.idempotency && !receiptWritten && statements.some((s) => activityStatements.has(s));
        const all = receipt ? [...statements, receiptInsert(db, fields.companyId, fields.idempotency!, subject, fields.now)] : statements;
        const results = await runBatch(db, all, events ? withDeliveriesRead() : trailing);
        if (receipt) receiptWritten = true;
        if (events) eventsWritten = true;
        return results as BatchResults<typeof statements>;
      } catch (err) {
        if (isGuardFailure(err)) throw new StaleRead();
        throw err;
      }
    },
    activity: (entry) => {
      subject = { type: entry.entityType, id: entry.entityId };
      const statement = activityInsert(db, { ...entry, actor: entry.actor ?? fields.actor, companyId: fields.companyId, now: fields.now });
      activityStatements.add(statement);
      return statement;
    },
    guard: (condition) =>
      db
        .insert(schema.commandGuards)
        .values({ id: 1, held: sql`CASE WHEN ${condition} THEN 1 ELSE 0 END` })
        .onConflictDoUpdate({ target: schema.commandGuards.id, set: { held: sql`excluded.held` } }),
  };
}
