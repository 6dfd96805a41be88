// Companies on two shards (test/sharding/wrangler.toml): placement, routing by table and company,
// the directory's lookups, per-binding round trips.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, directoryRoundTrips, get, post, roundTrips, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, testD1 } from "../helpers/fixtures";
import { shardNames } from "../../src/db/shards";

const bindings = env as unknown as Record<string, D1Database>;
const shardOf = async (companyId: string) =>
  (await env.DB.prepare("SELECT shard FROM directory_companies WHERE id = ?").bind(companyId).first<{ shard: string }>())?.shard;
const rowsOn = async (shard: string, table: string, companyId: string) =>
  (await bindings[shard].prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE company_id = ?`).bind(companyId).first<{ n: number }>())?.n ?? 0;

/** Two companies, one per shard (new companies go to the least-loaded shard). */
async function onBothShards() {
  const companies = [await createCompany(), await createCompany(), await createCompany()];
  const shards = await Promise.all(companies.map((c) => shardOf(c.id)));
  const a = companies[0];
  const b = companies.find((_, i) => shards[i] !== shards[0])!;
  expect(b, `companies spread over ${shards.join(", ")}`).toBeTruthy();
  return { a: { ...a, shard: (await shardOf(a.id))! }, b: { ...b, shard: (await shardOf(b.id))! } };
}

describe("shards", () => {
  it("runs with two shards and the directory", () => {
    expect(shardNames(env)).toEqual(["DB_SHARD_0", "DB_SHARD_1"]);
  });

  it("a company's rows exist only on its shard; each company sees only its own data", async () => {
    const { a, b } = await onBothShards();
    for (const c of [a, b]) {
      const made = await post(`/api/companies/${c.id}/issues`, { title: unique(`on-${c.shard}`) });
      expect(made.status).toBe(201);
      const other = c.shard === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0";
      expect(await rowsOn(c.shard, "issues", c.id)).toBe(1);
      expect(await rowsOn(other, "issues", c.id)).toBe(0);
      expect(await rowsOn(other, "companies", c.id).catch(() => 0)).toBe(0);
      expect(await rowsOn(c.shard, "activity_log", c.id)).toBeGreaterThan(0);
      expect(await rowsOn(other, "activity_log", c.id)).toBe(0);
      const listed = await get(`/api/companies/${c.id}/issues`);
      expect(listed.body.map((i: { companyId: string }) => i.companyId)).toEqual([c.id]);
    }
    // The directory holds no company rows, only where they are.
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM issues").first<{ n: number }>())?.n).toBe(0);
  });

  it("board users and agents on different shards reach only their own company, and resolve through the directory", async () => {
    const { a, b } = await onBothShards();
    const aAgent = await insertAgent(a.id);
    const aKey = await insertAgentKey(aAgent.id, a.id);
    const bBoard = await boardUser(b.id);
    // The agent key resolves through directory_agent_keys to A's shard.
    expect((await get("/api/agents/me", { token: aKey.token })).body).toMatchObject({ id: aAgent.id, companyId: a.id });
    expect((await post(`/api/companies/${b.id}/issues`, { title: "x" }, { token: aKey.token })).status).toBe(403);
    expect((await post(`/api/companies/${a.id}/issues`, { title: "x" }, { token: bBoard.token })).status).toBe(403);
    const aIssue = (await post(`/api/companies/${a.id}/issues`, { title: unique("A") })).body;
    expect((await get(`/api/issues/${aIssue.id}`, { token: bBoard.token })).status).toBe(404);
    expect((await get(`/api/issues/${aIssue.id}`, { token: aKey.token })).status).toBe(200);
    const companies = await get("/api/companies", { token: bBoard.token });
    expect(companies.body.map((c: { id: string }) => c.id)).toEqual([b.id]);
  });

  it("a public webhook fire finds its company through the directory", async () => {
    const { b } = await onBothShards();
    const agent = await insertAgent(b.id);
    const routine = await post(`/api/companies/${b.id}/routines`, { title: unique("R"), assigneeAgentId: agent.id });
    expect(routine.status).toBe(201);
    const trigger = await post(`/api/routines/${routine.body.id}/triggers`, { kind: "webhook", signingMode: "none" });
    expect(trigger.status).toBe(201);
    const path = new URL(trigger.body.webhookUrl).pathname;
    const publicId = path.split("/")[4];
    const known = await env.DB.prepare("SELECT company_id FROM directory_public_ids WHERE public_id = ?").bind(publicId).first<{ company_id: string }>();
    expect(known?.company_id).toBe(b.id);
    const fired = await call("POST", path, { rawBody: "{}", headers: { "content-type": "application/json" } });
    expect(fired.status).toBe(202);
    expect(directoryRoundTrips(fired).auth).toBe(1);
  });

  it("per binding: the directory at most once before the handler, one shard round trip per read and per mutation", async () => {
    const { a, b } = await onBothShards();
    for (const c of [a, b]) {
      const board = await boardUser(c.id);
      const read = await get(`/api/companies/${c.id}/issues`, { token: board.token });
      expect(directoryRoundTrips(read)).toEqual({ auth: 1, handler: 0 });
      expect(roundTrips(read)).toMatchObject({ auth: 1, handler: 1, command: 0 });
      await post(`/api/companies/${c.id}/issues`, { title: unique("warm") }, { token: board.token });
      const made = await post(`/api/companies/${c.id}/issues`, { title: unique("RT") }, { token: board.token });
      expect(made.status).toBe(201);
      expect(roundTrips(made)).toMatchObject({ command: 1, objectCalls: 1 });
      expect(directoryRoundTrips(made).auth).toBeLessThanOrEqual(1);
    }
  });

  it("public skill routes read no company database (the shipped catalog), whatever shard the caller's company is on", async () => {
    for (const path of ["/api/skills/index", "/api/skills/available"]) {
      const res = await call("GET", path, {});
      expect(res.status).toBe(200);
      expect(roundTrips(res)).toMatchObject({ auth: 0, handler: 0, command: 0 });
    }
  });

  it("the test router reads rows on either shard (testD1)", async () => {
    const { a, b } = await onBothShards();
    const n = await testD1.prepare("SELECT COUNT(*) AS n FROM companies WHERE id IN (?, ?)").bind(a.id, b.id).first<{ n: number }>();
    expect(n?.n).toBe(2);
  });
});
