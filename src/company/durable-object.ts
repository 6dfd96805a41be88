// CompanyDurableObject: the single writer for one company. Every company-scoped
// mutation runs here, one at a time (see ARCHITECTURE.md).
import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import { HttpError } from "../domain/errors";
import type { Actor } from "../domain/actor";
import { commandContext, type CommandResult } from "./command";
import { CompanyStorage, migrateCompanyStorage } from "./storage";
import { commandRegistry } from "./commands";

export class CompanyDurableObject extends DurableObject<Env> {
  private tail: Promise<unknown> = Promise.resolve();

  private readonly storage: CompanyStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateCompanyStorage(ctx.storage.sql);
    this.storage = new CompanyStorage(ctx.storage.sql);
  }

  /** Runs one named command for `companyId` after every earlier one has finished. */
  async execute(companyId: string, name: string, actor: Actor, input: unknown): Promise<CommandResult<unknown>> {
    return this.serialise(async () => {
      // Fencing write first: a stale duplicate instance fails here instead of racing.
      this.storage.advanceFence();
      const command = commandRegistry.get(name);
      if (!command) return { ok: false, status: 400, error: `Unknown command ${name}` };
      try {
        const ctx = commandContext({ env: this.env, db: createDb(this.env.DB), companyId, actor, storage: this.storage, now: new Date().toISOString() });
        const value = await command.run(ctx, actor, input);
        return { ok: true, value };
      } catch (err) {
        if (err instanceof HttpError) return { ok: false, status: err.status, error: err.message, details: err.details };
        console.error(`company command ${name} failed`, err);
        return { ok: false, status: 500, error: "Internal server error" };
      }
    });
  }

  /** Forgets everything this object stored (the company was deleted). */
  async purge(): Promise<void> {
    await this.serialise(async () => {
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    });
  }

  private serialise<T>(section: () => Promise<T>): Promise<T> {
    const run = this.tail.then(section, section);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
