// What the company object and its events hub (src/company/events-hub.ts) know of each other, in one
// place. After a command writes events the company object notifies the hub (a Durable Object call),
// but only when that can matter: deliveries pending (or not known), streams open (or not known), or
// the hub's hourly pruning due. The hub answers each notification with whether streams are open,
// and tells the company object when a stream opens (streamsOpened); an epoch makes an answer that
// crossed a stream's opening not count.
import { eventsHub } from "./client";

/** How often a hub prunes its company's events; the company object notifies it at least this often. */
export const PRUNE_EVERY_MS = 3600_000;

export class HubLink {
  /** Whether the hub has streams open (undefined: not known since this instance started). */
  private streaming: boolean | undefined;
  private epoch = 0;
  private notifiedAt = 0;

  /** Whether written events need the hub (otherwise the notification would do nothing). */
  wantsNotice(deliveriesPending: boolean | undefined, now = Date.now()): boolean {
    return deliveriesPending !== false || this.streaming !== false || now - this.notifiedAt >= PRUNE_EVERY_MS;
  }

  /** Tells the hub that events were written (the minute cron covers a lost notification). */
  async notify(env: Env, companyId: string, deliveriesPending?: boolean): Promise<void> {
    const epoch = this.epoch;
    this.notifiedAt = Date.now();
    try {
      const streaming = await eventsHub(env, companyId).notify(companyId, deliveriesPending);
      if (epoch === this.epoch) this.streaming = streaming;
    } catch (err) {
      this.streaming = undefined;
      console.error("event hub notification failed", err);
    }
  }

  /** The hub opened a stream: every command writing events notifies it from now on. */
  streamsOpened(): void {
    this.epoch++;
    this.streaming = true;
  }
}
