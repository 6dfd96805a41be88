// What the dispatcher and the attempts need from the company object (src/company/durable-object.ts).
import type { Db } from "../../db/client";
import type { Actor } from "../../domain/actor";
import { commandContext, type CommandContext } from "../command";
import type { CompanyStorage } from "../storage";
import type { RunnerHub } from "./runners";

export interface DispatcherHost {
  env: Env;
  db: Db;
  storage: CompanyStorage;
  /** Runs `fn` serialised with the company's commands, reading and writing the primary. */
  serialise<T>(fn: () => Promise<T>): Promise<T>;
  /** The end of a dispatch: the next alarm at `at` (ms), or none (unless asked for meanwhile). */
  settleAlarm(at: number | null): Promise<void>;
  /** The connected runners (src/company/runs/runners.ts). */
  runners: RunnerHub;
  /** Runs this instance's dispatches are handing out right now (their journal entries are not left over). */
  handingOut: Set<string>;
}

const SYSTEM: Actor = { type: "none", runId: null };

/** A command context of the service itself, at the current time. */
export const systemContext = (host: Pick<DispatcherHost, "env" | "db" | "storage">, companyId: string): CommandContext =>
  commandContext({ env: host.env, db: host.db, companyId, actor: SYSTEM, storage: host.storage, now: new Date().toISOString() });
