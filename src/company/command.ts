// What a company command is: a named rule run as a short critical section inside the company's
// Durable Object, one at a time per company. Routes hold the command object (go-to-definition
// lands on the rule); only its name crosses the RPC boundary.
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

export type CommandRule<I, O> = (ctx: CommandContext, actor: Actor, input: I) => Promise<O>;

export interface CompanyCommand<I, O> {
  readonly name: string;
  readonly run: CommandRule<I, O>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCompanyCommand = CompanyCommand<any, any>;

/** Crosses the RPC boundary intact (thrown errors would lose status and details). */
export type CommandResult<O> =
  | { ok: true; value: O }
  | { ok: false; status: number; error: string; details?: unknown };

/** A command: its name (unique across the registry) and its rule. */
export const defineCommand = <I, O>(name: string, run: CommandRule<I, O>): CompanyCommand<I, O> => ({ name, run });
