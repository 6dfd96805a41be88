// What a command sets off after its batch, and only when there is something to do: the company's
// event hub runs a delivery pass when webhook deliveries are pending (read at the end of the
// batch that wrote the events) or its hourly pruning is due; checkout and release ask for a run
// dispatch only when they freed a slot or re-queued deferred wake-ups. A notifier that did not read
// whether deliveries are pending (the run dispatcher) has the hub read it.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { schema } from "../../src/db/client";
import { commandContext } from "../../src/company/command";
import type { CompanyStorage } from "../../src/company/storage";
import { placementOf } from "../../src/db/placement";
import { companyScope, withShardScope } from "../../src/db/shards";
import { SYSTEM_ACTOR } from "../../src/domain/actor";
import { post, unique } from "../helpers/api";
import { eventually } from "../helpers/eventually";
import { createCompany, insertAgent, insertAgentKey, insertIssue, insertWakeup, testDb } from "../helpers/fixtures";

/** A command context for `companyId` in its shard, as the company object makes one. */
async function inCommand<T>(companyId: string, fn: (ctx: ReturnType<typeof commandContext>) => Promise<T>): Promise<T> {
  const db = testDb();
  const placement = await placementOf(db, companyId);
  const ctx = commandContext({ env, db, companyId, actor: SYSTEM_ACTOR, storage: undefined as unknown as CompanyStorage, now: new Date().toISOString() });
  return withShardScope(companyScope(companyId, placement!.shard), () => fn(ctx));
}

/** A webhook subscription to every issue event, delivered to the local fake receiver (its deliveries are queued by the outbox trigger). */
async function subscribe(companyId: string) {
  const res = await post(`/api/companies/${companyId}/webhooks`, { url: `${env.FAKE_AGENT_URL}/agent/${crypto.randomUUID()}`, events: ["issue.*"] });
  expect(res.status, res.text).toBe(201);
}

const issueCreated = (ctx: ReturnType<typeof commandContext>) =>
  ctx.activity({ action: "issue.created", entityType: "issue", entityId: crypto.randomUUID(), details: { identifier: unique("X"), title: "t" } });

describe("event hub notifications", () => {
  it("a batch that writes events reads, in the same batch, whether the company has deliveries pending", async () => {
    const company = await createCompany();
    await inCommand(company.id, async (ctx) => {
      expect(ctx.deliveriesPending).toBeUndefined();
      await ctx.batch([issueCreated(ctx)]);
      expect(ctx.eventsWritten).toBe(true);
      expect(ctx.deliveriesPending).toBe(false);
      // A batch without events does not look: whatever it wrote, the hub is told "unknown".
      await ctx.batch([ctx.db.update(schema.companies).set({ updatedAt: ctx.now }).where(eq(schema.companies.id, company.id))]);
      expect(ctx.deliveriesPending).toBeUndefined();
    });
    await subscribe(company.id);
    await inCommand(company.id, async (ctx) => {
      await ctx.batch([issueCreated(ctx)]);
      expect(ctx.deliveriesPending).toBe(true);
    });
  });

  it("the hub arms a delivery pass when deliveries may be pending or pruning is due, not otherwise", async () => {
    const company = await createCompany();
    const hub = env.EVENTS.getByName(company.id);
    // Every delivery pass the hub arms is recorded: an alarm for now (one that fires at once, so reading
    // it back would race). The pass itself may then arm a later one (a retry, the next notification
    // due: at least 50 ms ahead), which is not a notification's decision and is left out.
    const armed: number[] = [];
    await runInDurableObject(hub, (_instance, state) => {
      const setAlarm = state.storage.setAlarm.bind(state.storage);
      state.storage.setAlarm = (at, options) => {
        if (Number(at) <= Date.now() + 10) armed.push(Number(at));
        return setAlarm(at, options);
      };
    });
    // A hub that never pruned prunes at its first notification, deliveries or not.
    await hub.notify(company.id, false);
    expect(armed).toHaveLength(1);
    const prunedAt = () => runInDurableObject(hub, (_instance, state) => state.storage.sql.exec("SELECT value FROM facts WHERE key = 'prunedAt'").toArray());
    await eventually(async () => expect(await prunedAt()).toHaveLength(1));
    await hub.notify(company.id, false);
    expect(armed, "nothing pending, pruned within the hour").toHaveLength(1);
    await hub.notify(company.id, true);
    expect(armed, "deliveries pending").toHaveLength(2);
    // A writer that did not look (the run dispatcher): the hub reads whether deliveries are pending.
    await hub.notify(company.id);
    expect(armed, "did not look, nothing pending").toHaveLength(2);
    await subscribe(company.id);
    await inCommand(company.id, (ctx) => ctx.batch([issueCreated(ctx)]));
    await hub.notify(company.id);
    expect(armed, "did not look, a delivery pending").toHaveLength(3);
  });
});

describe("run dispatch after checkout and release", () => {
  it("is asked for only when release re-queues deferred wake-ups", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const other = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    const issue = await insertIssue(company.id, { status: "todo" });
    const object = env.COMPANY.getByName(company.id);
    const alarm = () => runInDurableObject(object, (_instance, state) => state.storage.getAlarm());
    const cycle = async () => {
      const as = { token: key.token, runId: crypto.randomUUID() };
      const checkout = await post(`/api/issues/${issue.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, as);
      expect(checkout.status, checkout.text).toBe(200);
      return () => post(`/api/issues/${issue.id}/release`, {}, as);
    };
    expect(await alarm()).toBeNull();
    const release = await cycle();
    expect(await alarm(), "checkout").toBeNull();
    expect((await release()).status).toBe(200);
    expect(await alarm(), "release with nothing deferred").toBeNull();

    const releaseAgain = await cycle();
    await insertWakeup(company.id, other.id, { status: "deferred_issue_execution", issueId: issue.id });
    expect((await releaseAgain()).status).toBe(200);
    expect(await alarm(), "release that re-queued a deferred wake-up").not.toBeNull();
  });
});
