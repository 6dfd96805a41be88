// What a company command is: a named rule run as a short critical section inside the company's
// Durable Object, one at a time per company. Routes hold the command object (go-to-definition
// lands on the rule); only its name crosses the RPC boundary.
import type { Db } from "../db/client";
import { runBatch, type BatchResults, type Statement } from "../db/batch";
import type { Actor } from "../domain/actor";
import { activityInsert, type ActivityEntry } from "../domain/activity/record";
import type { CompanyStorage } from "./storage";


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
  /** One D1 round trip for all of `statements`, as one transaction; none when empty. */
  batch<T extends readonly Statement[]>(statements: T): Promise<BatchResults<T>>;
  /** The activity-log insert for this command, to go into its batch. */
  activity(entry: CommandActivity): Statement;
}

export type CommandRule<I, O> = (ctx: CommandContext, actor: Actor, input: I) => Promise<O>;

export interface CompanyCommand<I, O> {
  readonly name: string;
  readonly run: CommandRule<I, O>;
}

export type AnyCompanyCommand = CompanyCommand<any, any>;

/** Crosses the RPC boundary intact (thrown errors would lose status and details). */
export type CommandResult<O> =
  | { ok: true; value: O }
  | { ok: false; status: number; error: string; details?: unknown };

/** A command: its name (unique across the registry) and its rule. */
export const defineCommand = <I, O>(name: string, run: CommandRule<I, O>): CompanyCommand<I, O> => ({ name, run });

/** The context a command runs with. */
export function commandContext(fields: Pick<CommandContext, "env" | "db" | "companyId" | "actor" | "storage" | "now">): CommandContext {
  const ctx: CommandContext = {
    ...fields,
    batch: (statements) => runBatch(fields.db, statements),
    activity: (entry) => activityInsert(fields.db, { ...entry, actor: entry.actor ?? fields.actor, companyId: fields.companyId, now: fields.now }),
  };
  return ctx;
}
