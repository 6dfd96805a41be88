// What a company command is: a short critical section run inside the company's
// Durable Object, one at a time per company.
import type { Db } from "../db/client";
import type { Actor } from "../domain/actor";

export interface CommandContext {
  env: Env;
  db: Db;
  companyId: string;
  /** The DO's own transactional SQLite, for hot counters. */
  sql: SqlStorage;
  /** Start time of the command (ISO). */
  now: string;
}

export type Command<I, O> = (ctx: CommandContext, actor: Actor, input: I) => Promise<O>;

/** Crosses the RPC boundary intact (thrown errors would lose status and details). */
export type CommandResult<O> =
  | { ok: true; value: O }
  | { ok: false; status: number; error: string; details?: unknown };

/** Identity helper that keeps each command's input and output types. */
export const defineCommand = <I, O>(command: Command<I, O>) => command;
