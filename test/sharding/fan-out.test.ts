// Reads while the scope spans shards (src/db/shards.ts): a read that orders, limits, groups or
// aggregates is answered by the one shard that has rows, merged when it can be (union, count/sum,
// DISTINCT), or refused — never silently concatenated. Each path that reads before (or without) a
// single company: a board caller with companies on two shards, the local board, the cron, lookups
// by id before the company is known.
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, patch, post, unique } from "../helpers/api";
import { addMembership, agentJwt, boardUser, createCompany, insertAgent } from "../helpers/fixtures";
import { companyScope, mergeAcrossShards, ShardFanOutError, withShardScope } from "../../src/db/shards";
import { withCountedD1 } from "../../src/db/round-trips";
import worker from "../../src/index";

const shardOf = async (companyId: string) =>
  (await env.DB.prepare("SELECT shard FROM directory_companies WHERE id = ?").bind(companyId).first<{ shard: string }>())!.shard;

async function onBothShards() {
  const companies = [await createCompany(), await createCompany(), await createCompany()];
  const shards = await Promise.all(companies.map((c) => shardOf(c.id)));
  const a = companies[0];
  const b = companies.find((_, i) => shards[i] !== shards[0])!;
  expect(b).toBeTruthy();
  return { a: { ...a, shard: await shardOf(a.id) }, b: { ...b, shard: await shardOf(b.id) } };
}

/** A read through the Worker's router while the scope spans both shards. */
const acrossShards = <T>(fn: (db: D1Database) => Promise<T>) =>
  withShardScope({ shard: null, companyId: null, candidates: ["DB_SHARD_0", "DB_SHARD_1"] }, () => fn(withCountedD1(env).DB));

describe("reads across shards", () => {
  it("an ordered, limited read with rows on both shards is refused; with rows on one it is that shard's answer", async () => {
    const { a, b } = await onBothShards();
    const both = acrossShards((db) => db.prepare("SELECT id FROM companies WHERE id IN (?, ?) ORDER BY created_at DESC LIMIT 1").bind(a.id, b.id).all());
    await expect(both).rejects.toBeInstanceOf(ShardFanOutError);
    await expect(acrossShards((db) => db.prepare("SELECT id FROM companies WHERE id IN (?, ?) ORDER BY id").bind(a.id, b.id).raw())).rejects.toThrow(
      /several shards/,
    );
    await expect(acrossShards((db) => db.prepare("SELECT id FROM companies WHERE id IN (?, ?) LIMIT 5").bind(a.id, b.id).first())).rejects.toThrow(
      /several shards/,
    );
    const one = await acrossShards((db) =>
      db.prepare("SELECT id FROM companies WHERE id IN (?, ?) ORDER BY created_at DESC LIMIT 1").bind(a.id, "-").all<{ id: string }>(),
    );
    expect(one.results).toEqual([{ id: a.id }]);
    // Merged where merging is exact: a plain union, count/sum, DISTINCT and UNION (each row once).
    const plain = await acrossShards((db) => db.prepare("SELECT id FROM companies WHERE id IN (?, ?)").bind(a.id, b.id).all<{ id: string }>());
    expect(plain.results.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    const counted = await acrossShards((db) => db.prepare("SELECT COUNT(*) AS n FROM companies WHERE id IN (?, ?)").bind(a.id, b.id).first<{ n: number }>());
    expect(counted?.n).toBe(2);
    const statuses = await acrossShards((db) => db.prepare("SELECT DISTINCT status FROM companies WHERE id IN (?, ?)").bind(a.id, b.id).raw());
    expect(statuses).toEqual([["active"]]);
    // An aggregate other than count/sum with answers on both shards cannot be merged exactly.
    await expect(acrossShards((db) => db.prepare("SELECT MAX(created_at) AS m FROM companies WHERE id IN (?, ?)").bind(a.id, b.id).first())).rejects.toThrow(
      /several shards/,
    );
    // One company's shard named: the same ordered read is simply that shard's.
    const scoped = await withShardScope(companyScope(a.id, a.shard), () =>
      withCountedD1(env).DB.prepare("SELECT id FROM companies WHERE id IN (?, ?) ORDER BY created_at DESC LIMIT 1").bind(a.id, b.id).all<{ id: string }>(),
    );
    expect(scoped.results).toEqual([{ id: a.id }]);
  });

  it("the merge rules on their own", () => {
    expect(mergeAcrossShards("select count(*) from t", [[{ n: 2 }], [{ n: 3 }]])).toEqual([{ n: 5 }]);
    expect(mergeAcrossShards("select min(x) from t", [[{ m: null }], [{ m: 4 }]])).toEqual([{ m: 4 }]);
    expect(mergeAcrossShards("select x from t group by x", [[], [{ x: 1 }]])).toEqual([{ x: 1 }]);
    expect(() => mergeAcrossShards("select x, count(*) from t group by x", [[{ x: 1 }], [{ x: 2 }]])).toThrow(ShardFanOutError);
    expect(mergeAcrossShards("select a from t union select a from u", [[{ a: 1 }], [{ a: 1 }, { a: 2 }]])).toEqual([{ a: 1 }, { a: 2 }]);
    expect(() => mergeAcrossShards("select a from t union all select a from u", [[{ a: 1 }], [{ a: 1 }]])).toThrow(ShardFanOutError);
  });

  it("a board caller with companies on both shards: the company list in order, each entity by id, each company's ordered, limited list", async () => {
    const { a, b } = await onBothShards();
    const board = await boardUser(a.id);
    await addMembership(b.id, board.id, "owner");
    const options = { env: AUTHENTICATED, token: board.token };
    const listed = (await get("/api/companies", options)).body as Array<{ id: string; createdAt: string }>;
    expect(listed.map((c) => c.id)).toEqual([a.id, b.id]);
    expect(listed.map((c) => c.createdAt)).toEqual([...listed.map((c) => c.createdAt)].sort());
    const stats = (await get("/api/companies/stats", options)).body;
    expect(Object.keys(stats).sort()).toEqual([a.id, b.id].sort());
    for (const c of [a, b]) {
      const older = await post(`/api/companies/${c.id}/issues`, { title: unique("older") }, options);
      const newer = await post(`/api/companies/${c.id}/issues`, { title: unique("newer") }, options);
      expect((await get(`/api/issues/${older.body.id}`, options)).body.companyId).toBe(c.id);
      const latest = await get(`/api/companies/${c.id}/issues?limit=1`, options);
      expect(latest.status).toBe(200);
      expect(latest.body.map((i: { id: string }) => i.id)).toEqual([newer.body.id]);
      expect((await get(`/api/issues/${newer.body.identifier}`, options)).body.id).toBe(newer.body.id);
    }
  });

  it("the local board (every shard): the company list, entities by id, and the activity of each", async () => {
    const { a, b } = await onBothShards();
    const listed = ((await get("/api/companies")).body as Array<{ id: string }>).map((c) => c.id);
    expect(listed.indexOf(a.id)).toBeGreaterThanOrEqual(0);
    expect(listed.indexOf(b.id)).toBeGreaterThan(listed.indexOf(a.id));
    for (const c of [a, b]) {
      const issue = await post(`/api/companies/${c.id}/issues`, { title: unique("local") });
      expect((await get(`/api/issues/${issue.body.id}`)).status).toBe(200);
      const activity = await get(`/api/companies/${c.id}/activity`);
      expect(activity.body.every((e: { companyId: string }) => e.companyId === c.id)).toBe(true);
    }
  });

  it("the cron: schedules due on both shards fire in one tick, each company's on its own shard", async () => {
    const { a, b } = await onBothShards();
    const routines: Array<{ companyId: string; routineId: string }> = [];
    for (const c of [a, b]) {
      const agent = await insertAgent(c.id);
      const routine = await post(`/api/companies/${c.id}/routines`, { title: unique("tick"), assigneeAgentId: agent.id });
      await post(`/api/routines/${routine.body.id}/triggers`, { kind: "schedule", cronExpression: "*/5 * * * *" });
      routines.push({ companyId: c.id, routineId: routine.body.id });
    }
    // A tick far in the future: both schedules are due then.
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date("2099-01-01T00:05:00Z"), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    for (const { routineId } of routines) {
      const runs = (await get(`/api/routines/${routineId}/runs`)).body as Array<{ source: string }>;
      expect(runs.some((r) => r.source === "schedule")).toBe(true);
      // Archive it: the shared storage's later ticks must not find it due again.
      expect((await patch(`/api/routines/${routineId}`, { status: "archived" })).status).toBe(200);
    }
  });

  it("lookups by id before the company is known: another company's run named by an agent is refused, not found elsewhere by accident", async () => {
    const { a, b } = await onBothShards();
    const agentA = await insertAgent(a.id);
    const agentB = await insertAgent(b.id);
    const runOfB = await post(`/api/agents/${agentB.id}/wakeup`, {});
    expect(runOfB.body.id).toBeTruthy();
    const token = await agentJwt(agentA.id, a.id);
    const refused = await post(`/api/companies/${a.id}/issues`, { title: "x" }, { token, headers: { "x-service-run-id": runOfB.body.id } });
    expect(refused.status).toBe(403);
    // The issue's activity names a run on the other shard: answered as not found, not merged.
    const issue = await post(`/api/companies/${a.id}/issues`, { title: unique("mine") });
    const runs = await get(`/api/issues/${issue.body.id}/runs`);
    expect(runs.status).toBe(200);
  });
});
