// AttemptLimiter: one Durable Object per rate-limit key (`sign_in:account:<email>`,
// `sign_in:address:<ip>`, …) holding a sliding log of attempts. The object serialises its key's
// attempts across every isolate and location, so a limit holds exactly (in-isolate memory would not:
// each isolate would count alone). The log is kept in memory and written through to the object's
// storage, so an evicted object keeps its window.
//
// An attempt is taken up front (`take`) so concurrent attempts count against each other; an attempt
// that must not count (a successful sign-in) is given back with `refund`.
import { DurableObject } from "cloudflare:workers";

export type TakeResult = { ok: true; token: number } | { ok: false; retryAfterSec: number };

const LOG_KEY = "log";

export class AttemptLimiter extends DurableObject<Env> {
  /** Attempt times (ms), oldest first; each is also its token. */
  private log: number[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.log = (await ctx.storage.get<number[]>(LOG_KEY)) ?? [];
    });
  }

  /** Takes one attempt if fewer than `limit` were taken in the last `windowMs`; else when to retry. */
  take(limit: number, windowMs: number): TakeResult {
    const now = Date.now();
    this.log = this.log.filter((at) => at > now - windowMs);
    if (this.log.length >= limit) {
      const retryAfterMs = this.log[this.log.length - limit] + windowMs - now;
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    }
    // Tokens are unique even within one millisecond.
    const token = Math.max(now, (this.log[this.log.length - 1] ?? 0) + 1);
    this.log.push(token);
    this.save(windowMs);
    return { ok: true, token };
  }

  /** Gives an attempt back (it did not count, e.g. the sign-in succeeded). */
  refund(token: number): void {
    const at = this.log.indexOf(token);
    if (at < 0) return;
    this.log.splice(at, 1);
    this.save(0);
  }

  private save(windowMs: number) {
    // Output gates hold the response until the write is durable; an empty log clears the object.
    if (this.log.length) void this.ctx.storage.put(LOG_KEY, this.log);
    else void this.ctx.storage.deleteAll();
    if (windowMs) void this.ctx.storage.setAlarm(Date.now() + windowMs);
  }

  /** Armed a window after the newest attempt: every attempt has left the window, so nothing is kept. */
  async alarm() {
    this.log = [];
    await this.ctx.storage.deleteAll();
  }
}
