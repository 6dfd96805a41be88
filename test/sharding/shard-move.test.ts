// Moving a company between shards (src/domain/shards/move.ts) through POST
// /api/instance/companies/{companyId}/move: every row lands on the target and only there, with
// every id and identifier; the directory still resolves agent keys, public webhook ids and
// memberships; requests during the fence get 503 + Retry-After and writes are never lost; a failure
// half-way leaves the company on its old shard, untouched, with nothing on the target.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, patch, post, put, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgentKey, insertRun } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";
import { ensureWikiReady, toolData, WIKI, wikiCompany } from "../helpers/wiki";
import { DIRECTORY_TABLES } from "../../src/db/shards";
import { companyTables, copyPlan, TRIGGER_WRITES } from "../../src/domain/shards/tables";

const FAKE = env.FAKE_AGENT_URL;
const SHARDS = ["DB_SHARD_0", "DB_SHARD_1"];
const database = (name: string) => (env as unknown as Record<string, D1Database>)[name];
const otherShard = (shard: string) => SHARDS.find((s) => s !== shard)!;

beforeAll(ensureWikiReady);

const directoryEntry = (companyId: string) =>
  env.DB.prepare("SELECT shard, fenced_at AS fencedAt FROM directory_companies WHERE id = ?1")
    .bind(companyId)
    .first<{ shard: string; fencedAt: string | null }>();

/** The shard's tables with a company_id column (every real table; not the directory's, not FTS). */
async function companyTableNames(db: D1Database): Promise<string[]> {
  const tables = await db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'd1\\_%' ESCAPE '\\'",
    )
    .all<{ name: string; sql: string }>();
  const names: string[] = [];
  for (const { name, sql } of tables.results) {
    if (/^CREATE VIRTUAL/i.test(sql) || DIRECTORY_TABLES.has(name) || name.startsWith("directory_")) continue;
    const columns = await db.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>();
    if (columns.results.some((c) => c.name === "company_id")) names.push(name);
  }
  return names.sort();
}

/** Every row of the company on one database, by table, as comparable JSON (renumbered event seqs left out). */
async function rowsOn(shard: string, companyId: string): Promise<Record<string, string[]>> {
  const db = database(shard);
  const out: Record<string, string[]> = {};
  for (const name of [...(await companyTableNames(db)), "companies"]) {
    const column = name === "companies" ? "id" : "company_id";
    const rows = await db.prepare(`SELECT * FROM "${name}" WHERE ${column} = ?1 ORDER BY rowid`).bind(companyId).all<Record<string, unknown>>();
    if (!rows.results.length) continue;
    out[name] = rows.results
      .map((row) => {
        const copy = { ...row };
        if (name === "company_events") delete copy.seq;
        if (name === "webhook_deliveries") delete copy.event_seq;
        return JSON.stringify(copy);
      })
      .sort();
  }
  return out;
}

/** What the directory knows of the company (placement aside). */
async function directoryRows(companyId: string) {
  const of = async (table: string) => (await env.DB.prepare(`SELECT * FROM ${table} WHERE company_id = ?1 ORDER BY 1, 2`).bind(companyId).all()).results;
  return { memberships: await of("directory_memberships"), agentKeys: await of("directory_agent_keys"), publicIds: await of("directory_public_ids") };
}

const outboxRows = async (shard: string, companyId: string) =>
  (await database(shard).prepare("SELECT kind FROM directory_outbox WHERE company_id = ?1").bind(companyId).all()).results;

const move = (companyId: string, shard: string, headers: Record<string, string> = {}) =>
  post(`/api/instance/companies/${companyId}/move`, { shard }, { headers });

const fire = (path: string, body: unknown, secret: string) =>
  call("POST", path, { rawBody: JSON.stringify(body), headers: { "content-type": "application/json", authorization: `Bearer ${secret}` } });

/** A company with something in most tables, created through the API (a few rows straight into D1). */
async function seedCompany() {
  const wiki = await wikiCompany();
  const company = wiki.company;
  const C = company.id;
  const created = async (path: string, body: unknown) => {
    const res = await post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  // An agent that reports to one created after it: the copy must write the manager first.
  const dev = await created(`/api/companies/${C}/agents`, { name: unique("Dev"), adapterType: "process", adapterConfig: { command: "echo" } });
  const ceo = await created(`/api/companies/${C}/agents`, { name: unique("Chief"), role: "ceo", adapterType: "process", adapterConfig: { command: "echo" } });
  expect((await patch(`/api/agents/${dev.id}`, { reportsTo: ceo.id })).status).toBe(200);
  const key = await created(`/api/agents/${dev.id}/keys`, { name: "laptop" });
  const goal = await created(`/api/companies/${C}/goals`, { title: "Grow" });
  await created(`/api/companies/${C}/goals`, { title: "Ship v2", parentId: goal.id });
  const project = await created(`/api/companies/${C}/projects`, { name: unique("Website"), goalIds: [goal.id] });
  const label = await created(`/api/companies/${C}/labels`, { name: "frontend" });
  const subscription = await created(`/api/companies/${C}/webhooks`, { url: `${FAKE}/agent/${unique("hook")}`, events: ["issue.*"] });
  const parent = await created(`/api/companies/${C}/issues`, { title: "Launch the zeppelin", projectId: project.id, status: "todo" });
  const child = await created(`/api/companies/${C}/issues`, { title: "Paint it", parentId: parent.id, assigneeAgentId: dev.id, labelIds: [label.id] });
  await created(`/api/issues/${child.id}/comments`, { body: "Waiting for the blue paint" });
  expect((await put(`/api/issues/${parent.id}/documents/plan`, { body: "# Plan\n\nFly north." })).status).toBeLessThan(300);
  const routine = await created(`/api/companies/${C}/routines`, { title: "Weekly check", assigneeAgentId: dev.id });
  const hook = await created(`/api/routines/${routine.id}/triggers`, { kind: "webhook" });
  // A run row: its insert trigger writes a run event (the copy clears that before copying the events).
  await insertRun(C, dev.id, { status: "running" });
  // The wiki's search indexes are written by commands, not triggers: copied with their pages and sources.
  await toolData(wiki, "wiki_write_page", { path: "wiki/concepts/airships.md", contents: "# Airships\n\nZeppelins float on heliotrope gas.\n" });
  const source = await post(`${WIKI}/sources`, {
    companyId: C,
    title: "Call notes",
    sourceType: "manual",
    contents: "Acme asked for heliotrope SSO.",
    rawPath: "raw/acme.md",
  });
  expect(source.status).toBe(201);
  // Every delivery settled, so the events hub writes nothing while the company moves.
  await eventually(async () => {
    const list = (await get(`/api/companies/${C}/webhooks/${subscription.id}/deliveries`)).body.deliveries as Array<{ status: string }>;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((d) => d.status === "succeeded")).toBe(true);
    return true;
  });
  return { wiki, company, dev, ceo, key, parent, child, routine, hook: { ...hook, path: new URL(hook.webhookUrl).pathname }, subscription };
}

describe("moving a company to another shard", () => {
  it("moves every row (and only a copy on the target remains), keeping ids, identifiers, keys, public ids and the directory", async () => {
    const s = await seedCompany();
    const C = s.company.id;
    const from = (await directoryEntry(C))!.shard;
    const to = otherShard(from);
    const before = await rowsOn(from, C);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(["agents", "agent_api_keys", "issues", "issue_comments", "issue_documents", "routine_triggers"]),
    );
    expect(Object.keys(before)).toEqual(expect.arrayContaining(["company_events", "webhook_deliveries", "heartbeat_runs", "wiki_sources", "goals"]));
    const directoryBefore = await directoryRows(C);
    const detailBefore = (await get(`/api/issues/${s.child.id}`)).body;
    const eventsBefore = (await get(`/api/companies/${C}/events?limit=500`)).body.events.map((e: { id: string }) => e.id);
    const loadBefore = (await get("/api/instance/shards")).body as Array<{ shard: string; companies: number }>;

    const res = await move(C, to);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ companyId: C, from, to, oldCopyDeleted: true });
    const tables = new Map((res.body.tables as Array<{ table: string; rows: number; hash: string }>).map((t) => [t.table, t]));
    expect(tables.get("issues")?.rows).toBe(before.issues.length);
    expect(tables.get("companies")?.rows).toBe(1);
    expect(tables.get("wiki_source_search")?.rows).toBe(1);
    expect(tables.get("wiki_page_search")?.rows).toBe(before.wiki_pages.length);
    expect(tables.get("issues")?.hash).toMatch(/^[0-9a-f]{64}$/);

    // The rows: all on the target, as they were; none left on the old shard.
    expect(await rowsOn(to, C)).toEqual(before);
    expect(await rowsOn(from, C)).toEqual({});
    expect(await directoryEntry(C)).toEqual({ shard: to, fencedAt: null });
    expect(await directoryRows(C)).toEqual(directoryBefore);
    expect(await outboxRows(from, C)).toEqual([]);
    expect(await outboxRows(to, C)).toEqual([]);
    const loadAfter = (await get("/api/instance/shards")).body as Array<{ shard: string; companies: number }>;
    const count = (load: typeof loadBefore, shard: string) => load.find((l) => l.shard === shard)!.companies;
    expect(count(loadAfter, to) - count(loadBefore, to)).toBe(1);
    expect(count(loadBefore, from) - count(loadAfter, from)).toBe(1);

    // The API answers the same; keys, public ids, search, events and webhooks work from the new shard.
    expect((await get(`/api/issues/${s.child.id}`)).body).toEqual(detailBefore);
    const eventsAfter = (await get(`/api/companies/${C}/events?limit=500`)).body.events.map((e: { id: string }) => e.id);
    expect(eventsAfter).toEqual(eventsBefore);
    const me = await get("/api/agents/me", { token: s.key.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(s.dev.id);
    const found = await get(`/api/companies/${C}/issues?q=zeppelin`);
    expect(found.body.map((i: { id: string }) => i.id)).toEqual([s.parent.id]);
    const fired = await fire(s.hook.path, { event: "push" }, s.hook.webhookSecret);
    expect(fired.status).toBe(202);
    expect(fired.body).toMatchObject({ triggerId: s.hook.id, status: "issue_created" });
    const counter = JSON.parse(before.companies[0]).issue_counter as number;
    const next = await post(`/api/companies/${C}/issues`, { title: "After the move" });
    expect(next.status).toBe(201);
    expect(next.body.identifier).toBe(`${s.company.issuePrefix}-${counter + 2}`);
    expect(await database(to).prepare("SELECT count(*) AS n FROM issues WHERE id = ?1").bind(next.body.id).first("n")).toBe(1);
    expect(await database(from).prepare("SELECT count(*) AS n FROM issues WHERE company_id = ?1").bind(C).first("n")).toBe(0);
    await eventually(async () => {
      const list = (await get(`/api/companies/${C}/webhooks/${s.subscription.id}/deliveries`)).body.deliveries as Array<{ status: string }>;
      expect(list.length).toBeGreaterThanOrEqual(before.webhook_deliveries.length + 2);
      expect(list.every((d) => d.status === "succeeded")).toBe(true);
      return true;
    });
    const wikiHits = await toolData(s.wiki, "wiki_search", { query: "heliotrope" });
    expect(wikiHits.results.map((r: { kind: string }) => r.kind).sort()).toEqual(["page", "source"]);
  });

  it("keeps the company's event order and puts its events above the target's", async () => {
    const s = await seedCompany();
    const C = s.company.id;
    const from = (await directoryEntry(C))!.shard;
    const to = otherShard(from);
    const order = async (shard: string) =>
      (await database(shard).prepare("SELECT id, seq FROM company_events WHERE company_id = ?1 ORDER BY seq").bind(C).all<{ id: string; seq: number }>())
        .results;
    const before = await order(from);
    const targetMax = (await database(to).prepare("SELECT max(seq) AS seq FROM company_events").first<number>("seq")) ?? 0;
    expect((await move(C, to)).status).toBe(200);
    const after = await order(to);
    expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
    // One offset for all (the order and the gaps kept), above every event the target held.
    const offsets = new Set(after.map((e, i) => e.seq - before[i].seq));
    expect(offsets.size).toBe(1);
    expect([...offsets][0]).toBeGreaterThanOrEqual(0);
    expect(after[0].seq).toBeGreaterThan(targetMax);
    const deliveries = await database(to)
      .prepare(
        "SELECT d.event_seq AS deliverySeq, e.seq AS eventSeq FROM webhook_deliveries d JOIN company_events e ON e.id = d.event_id WHERE d.company_id = ?1",
      )
      .bind(C)
      .all<{ deliverySeq: number; eventSeq: number }>();
    expect(deliveries.results.length).toBeGreaterThan(0);
    for (const d of deliveries.results) expect(d.deliverySeq).toBe(d.eventSeq);
    // And back again: the new events continue above both.
    expect((await move(C, from)).status).toBe(200);
    expect((await order(from)).map((e) => e.id)).toEqual(before.map((e) => e.id));
  });

  it("refuses non-admins (403), bad bodies and unknown shards (400), unknown companies (404), the shard it is on (409)", async () => {
    const company = await createCompany();
    const from = (await directoryEntry(company.id))!.shard;
    const member = await boardUser(company.id, "owner");
    const agentKey = await insertAgentKey(
      (await post(`/api/companies/${company.id}/agents`, { name: unique("A"), adapterType: "process", adapterConfig: { command: "echo" } })).body.id,
      company.id,
    );
    for (const token of [member.token, agentKey.token]) {
      const res = await post(`/api/instance/companies/${company.id}/move`, { shard: otherShard(from) }, { token });
      expect(res.status).toBe(403);
      expect(typeof res.body.error).toBe("string");
    }
    expect((await get("/api/instance/shards", { token: agentKey.token })).status).toBe(403);
    expect((await post(`/api/instance/companies/${company.id}/move`, {})).status).toBe(400);
    expect((await post(`/api/instance/companies/${company.id}/move`, { shard: "DB_SHARD_1", extra: 1 })).status).toBe(400);
    const unknown = await move(company.id, "DB_SHARD_9");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain("DB_SHARD_9");
    expect((await move(crypto.randomUUID(), otherShard(from))).status).toBe(404);
    expect((await move("not-a-company", otherShard(from))).status).toBe(404);
    const same = await move(company.id, from);
    expect(same.status).toBe(409);
    expect(same.body.error).toContain(from);
    expect(await directoryEntry(company.id)).toEqual({ shard: from, fencedAt: null });
  });
});

describe("the fence", () => {
  it("commands answer 503 with Retry-After while the company is fenced, and work again once the fence lifts", async () => {
    const company = await createCompany();
    const object = env.COMPANY.getByName(company.id);
    const token = new Date().toISOString();
    expect(await object.fence(company.id, token)).toEqual({ ok: true });
    const refused = await post(`/api/companies/${company.id}/issues`, { title: "During the fence" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.body.error).toMatch(/being moved/);
    // Reads keep working (the old shard is intact until the flip).
    expect((await get(`/api/companies/${company.id}/issues`)).status).toBe(200);
    // Another move's token does not lift it.
    expect(await object.unfence("someone-else")).toEqual({ ok: false });
    expect((await post(`/api/companies/${company.id}/issues`, { title: "Still fenced" })).status).toBe(503);
    expect(await object.unfence(token)).toEqual({ ok: true });
    const created = await post(`/api/companies/${company.id}/issues`, { title: "After the fence" });
    expect(created.status).toBe(201);
    expect(created.body.identifier).toBe(`${company.issuePrefix}-1`);
  });

  it("no run is dispatched while fenced: the alarm comes back later; after the fence the queued run starts", async () => {
    const company = await createCompany();
    const endpoint = unique("ep");
    const agent = (
      await post(`/api/companies/${company.id}/agents`, { name: unique("Http"), adapterType: "http", adapterConfig: { url: `${FAKE}/agent/${endpoint}` } })
    ).body;
    const woke = await post(`/api/agents/${agent.id}/wakeup`, {});
    expect(woke.status).toBe(202);
    const object = env.COMPANY.getByName(company.id);
    const token = new Date().toISOString();
    expect(await object.fence(company.id, token)).toEqual({ ok: true });
    const start = Date.now();
    await object.dispatchNow();
    expect((await get(`/api/heartbeat-runs/${woke.body.id}`)).body.status).toBe("queued");
    // Re-armed for the fence's retry time (5 s) after the dispatch delay (an hour in test/vitest.config.ts).
    const alarm = await runInDurableObject(object, (_instance, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThanOrEqual(start + 5000 + 3_600_000);
    expect(await object.unfence(token)).toEqual({ ok: true });
    await object.dispatchNow();
    await eventually(async () => (await get(`/api/heartbeat-runs/${woke.body.id}`)).body.status === "succeeded");
  });

  it("issues created while a move runs are either created (and moved) or refused with 503: none is lost", async () => {
    const company = await createCompany();
    await post(`/api/companies/${company.id}/issues`, { title: "Before" });
    const from = (await directoryEntry(company.id))!.shard;
    const to = otherShard(from);
    const creating = Array.from({ length: 6 }, (_, i) =>
      new Promise((resolve) => setTimeout(resolve, i * 15)).then(() => post(`/api/companies/${company.id}/issues`, { title: `Racing ${i}` })),
    );
    const [moved, ...created] = await Promise.all([move(company.id, to), ...creating]);
    expect(moved.status).toBe(200);
    for (const res of created) {
      expect([201, 503]).toContain(res.status);
      if (res.status === 503) expect(res.headers.get("retry-after")).toBe("5");
    }
    const ids = created.filter((r) => r.status === 201).map((r) => r.body.id as string);
    const onTarget = await database(to).prepare("SELECT id FROM issues WHERE company_id = ?1").bind(company.id).all<{ id: string }>();
    expect(onTarget.results.map((r) => r.id)).toEqual(expect.arrayContaining(ids));
    expect(onTarget.results).toHaveLength(ids.length + 1);
    expect(await database(from).prepare("SELECT count(*) AS n FROM issues WHERE company_id = ?1").bind(company.id).first("n")).toBe(0);
    for (const id of ids) expect((await get(`/api/issues/${id}`)).status).toBe(200);
  });
});

describe("a move that fails half-way", () => {
  for (const [where, fault, stage] of [
    ["while copying comments", 'd1-write/insert into "issue_comments":1', "copy"],
    ["when the directory entry flips", 'd1-write/set "shard":1', "flip"],
  ] as const) {
    it(`${where}: the company stays on its shard with all its rows, the target holds none, writes work again`, async () => {
      const s = await seedCompany();
      const C = s.company.id;
      const from = (await directoryEntry(C))!.shard;
      const to = otherShard(from);
      const before = await rowsOn(from, C);
      const directoryBefore = await directoryRows(C);

      const res = await move(C, to, { "x-test-fault": fault });
      expect(res.status).toBe(503);
      expect(res.body.error).toContain(`stays on ${from}`);
      expect(res.body.details).toMatchObject({ stage, cause: expect.stringContaining("Injected fault") });
      expect(res.body.details.undoProblems).toBeUndefined();

      expect(await directoryEntry(C)).toEqual({ shard: from, fencedAt: null });
      expect(await rowsOn(from, C)).toEqual(before);
      expect(await rowsOn(to, C)).toEqual({});
      expect(await directoryRows(C)).toEqual(directoryBefore);
      expect(await outboxRows(to, C)).toEqual([]);
      expect((await get("/api/agents/me", { token: s.key.token })).status).toBe(200);
      const created = await post(`/api/companies/${C}/issues`, { title: "Still here" });
      expect(created.status).toBe(201);
      expect(await database(from).prepare("SELECT count(*) AS n FROM issues WHERE id = ?1").bind(created.body.id).first("n")).toBe(1);
      // And the next move goes through.
      expect((await move(C, to)).status).toBe(200);
      expect((await get(`/api/issues/${created.body.id}`)).status).toBe(200);
    });
  }
});

describe("the copy plan", () => {
  it("covers every company table on a shard; parents, and tables whose triggers write others, come first", async () => {
    const plan = companyTables().map((t) => t.name);
    const onShard = await companyTableNames(database("DB_SHARD_0"));
    expect([...plan].filter((n) => n !== "companies").sort()).toEqual(onShard);
    expect(plan[0]).toBe("companies");
    for (const table of companyTables()) for (const parent of table.parents) expect(plan.indexOf(parent)).toBeLessThan(plan.indexOf(table.name));
    // Every insert trigger that writes another company table is known (its writer goes first, its rows are cleared).
    const triggers = await database("DB_SHARD_0")
      .prepare("SELECT tbl_name AS source, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%AFTER INSERT%'")
      .all<{ source: string; sql: string }>();
    for (const { source, sql } of triggers.results) {
      if (!plan.includes(source)) continue;
      const body = sql.slice(sql.search(/\bBEGIN\b/i));
      const written = [...body.matchAll(/\b(?:INSERT\s+INTO|UPDATE)\s+[`"]?(\w+)/gi)].map((m) => m[1]).filter((t) => t !== source && plan.includes(t));
      for (const table of written) {
        expect(TRIGGER_WRITES[source] ?? []).toContain(table);
        expect(plan.indexOf(source)).toBeLessThan(plan.indexOf(table));
      }
    }
    expect(
      copyPlan()
        .filter((s) => s.kind === "search")
        .map((s) => s.name),
    ).toEqual(["wiki_page_search", "wiki_source_search"]);
  });
});
