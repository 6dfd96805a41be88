// The plugin host through HTTP: the installed plugins, install (only what this build ships),
// enable/disable (scoped routes 503 and tools gone — from the listing, execution, /mcp and runs'
// context — then back with the data), upgrade, error, uninstall with and without purge, every
// transition in the activity log and the event stream of every company, the tools listing.
// The plugin is instance-wide and this project's storage is shared: every test leaves it ready.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env, exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { call, del, get, post, unique } from "../helpers/api";
import { agentJwt, boardUser, createCompany, dispatch, insertAgentKey, testD1 } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";
import { ensureWikiReady, toolData, WIKI, wikiCompany } from "../helpers/wiki";

const FAKE = env.FAKE_AGENT_URL;

beforeAll(ensureWikiReady);
afterAll(ensureWikiReady);

async function eventsOf(companyId: string) {
  const res = await get(`/api/companies/${companyId}/events?limit=500`);
  expect(res.status).toBe(200);
  return res.body.events as Array<{ type: string; subject: { type: string; id: string }; actor: { type: string; id: string }; data: any }>;
}

async function mcpTools(token: string) {
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

const wikiToolNames = async () =>
  ((await get("/api/plugins/tools")).body as Array<{ name: string }>).map((t) => t.name).filter((n) => n.startsWith("knowledge-wiki:"));

describe("plugin host: listing and install", () => {
  it("lists installed plugins for board callers, by id or key; agents refused; unknown plugins 404", async () => {
    const list = await get("/api/plugins");
    expect(list.status).toBe(200);
    const wiki = list.body.find((p: any) => p.pluginKey === "knowledge-wiki");
    expect(wiki).toMatchObject({
      id: expect.any(String),
      packageName: "@agent-control-plane/plugin-knowledge-wiki",
      version: "1.0.0",
      status: "ready",
      lastError: null,
    });
    expect(wiki.manifest.tools.map((t: any) => t.name)).toEqual(
      expect.arrayContaining([
        "wiki_search",
        "wiki_list_pages",
        "wiki_read_page",
        "wiki_write_page",
        "wiki_propose_patch",
        "wiki_list_sources",
        "wiki_read_source",
        "wiki_list_backlinks",
        "wiki_update_index",
        "wiki_append_log",
      ]),
    );
    expect(wiki.manifest.apiRoutes).toContainEqual({ method: "POST", path: "/api/plugins/knowledge-wiki/api/query-sessions", auth: "board" });
    expect((await get("/api/plugins?status=ready")).body.map((p: any) => p.pluginKey)).toContain("knowledge-wiki");
    expect((await get("/api/plugins?status=disabled")).body.map((p: any) => p.pluginKey)).not.toContain("knowledge-wiki");
    expect((await get("/api/plugins?status=bogus")).status).toBe(400);
    expect((await get(`/api/plugins/${wiki.id}`)).body).toEqual(wiki);
    expect((await get("/api/plugins/knowledge-wiki")).body).toEqual(wiki);
    expect((await get("/api/plugins/no-such-plugin")).status).toBe(404);

    const company = await createCompany();
    const agent = await insertAgentKey(
      (await post(`/api/companies/${company.id}/agents`, { name: unique("A"), adapterType: "process", adapterConfig: { command: "echo" } })).body.id,
      company.id,
    );
    expect((await get("/api/plugins", { token: agent.token })).status).toBe(403);
    expect((await get("/api/plugins")).status).toBe(200);
    expect((await call("GET", "/api/plugins", { token: "svc_agent_bogus" })).status).toBe(401);
  });

  it("installs only what this build ships (400 naming it), once (409), and only for instance admins", async () => {
    const unknown = await post("/api/plugins/install", { packageName: "left-pad" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain("knowledge-wiki");
    expect(unknown.body.details.shipped).toEqual([
      { pluginKey: "knowledge-wiki", packageName: "@agent-control-plane/plugin-knowledge-wiki", version: "1.0.0" },
    ]);
    expect((await post("/api/plugins/install", { packageName: "knowledge-wiki" })).status).toBe(409);
    expect((await post("/api/plugins/install", {})).status).toBe(400);

    const company = await createCompany();
    const member = await boardUser(company.id);
    const agent = await insertAgentKey(
      (await post(`/api/companies/${company.id}/agents`, { name: unique("A"), adapterType: "process", adapterConfig: { command: "echo" } })).body.id,
      company.id,
    );
    for (const token of [member.token, agent.token]) {
      expect((await post("/api/plugins/install", { packageName: "knowledge-wiki" }, { token })).status).toBe(403);
      for (const action of ["enable", "disable", "upgrade"])
        expect((await post(`/api/plugins/knowledge-wiki/${action}`, undefined, { token })).status).toBe(403);
      expect((await del("/api/plugins/knowledge-wiki", { token })).status).toBe(403);
    }
    // A member reads; the plugin is unchanged.
    expect((await get("/api/plugins/knowledge-wiki", { token: member.token })).body.status).toBe("ready");
  });
});

describe("plugin host: lifecycle", () => {
  it("disable: scoped routes 503 and tools gone (listing, execution, /mcp, run context); enable: back with the data; each change an activity entry and an event", async () => {
    const w = await wikiCompany();
    const page = await toolData(w, "wiki_write_page", { path: "wiki/kept.md", contents: "# Kept\n\nSurvives a disable.\n" });
    const jwt = await agentJwt(w.agent.id, w.company.id, { runId: w.runId });
    const before = await mcpTools(jwt);
    const listed = (await before.listTools()).tools.map((t) => t.name);
    expect(listed).toEqual(
      expect.arrayContaining(["knowledge-wiki__wiki_search", "knowledge-wiki__wiki_read_page", "knowledge-wiki__wiki_write_page", "whoami"]),
    );
    const viaMcp = await before.callTool({ name: "knowledge-wiki__wiki_read_page", arguments: { path: "wiki/kept.md" } });
    expect(viaMcp.isError).toBeFalsy();
    expect((viaMcp.content as any)[0].text).toContain("Survives a disable.");
    expect(viaMcp.structuredContent).toMatchObject({ data: { hash: page.hash } });
    const boardMcp = await mcpTools((await boardUser(w.company.id)).token);
    expect((await boardMcp.listTools()).tools.map((t) => t.name).some((n) => n.startsWith("knowledge-wiki__"))).toBe(false);

    const disabled = await post("/api/plugins/knowledge-wiki/disable");
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ pluginKey: "knowledge-wiki", status: "disabled" });
    expect((await post("/api/plugins/knowledge-wiki/disable")).body.status).toBe("disabled");
    try {
      const overview = await get(`${WIKI}/overview?companyId=${w.company.id}`);
      expect(overview.status).toBe(503);
      expect(overview.body.error).toMatch(/knowledge-wiki is disabled/);
      expect((await post(`${WIKI}/sources`, { companyId: w.company.id, contents: "x" })).status).toBe(503);
      expect(await wikiToolNames()).toEqual([]);
      const exec = await w.tool("wiki_read_page", { path: "wiki/kept.md" });
      expect(exec.status).toBe(503);
      const after = await mcpTools(jwt);
      expect((await after.listTools()).tools.map((t) => t.name).some((n) => n.startsWith("knowledge-wiki__"))).toBe(false);
      expect((await post("/api/plugins/knowledge-wiki/upgrade")).status).toBe(409);
    } finally {
      const enabled = await post("/api/plugins/knowledge-wiki/enable");
      expect(enabled.status).toBe(200);
      expect(enabled.body.status).toBe("ready");
    }
    expect((await post("/api/plugins/knowledge-wiki/enable")).body.status).toBe("ready");
    expect((await toolData(w, "wiki_read_page", { path: "wiki/kept.md" })).hash).toBe(page.hash);
    expect(await wikiToolNames()).toHaveLength(12);
    expect((await (await mcpTools(jwt)).listTools()).tools.map((t) => t.name)).toContain("knowledge-wiki__wiki_search");

    const changes = (await eventsOf(w.company.id)).filter((e) => e.type === "plugin.status_changed");
    expect(changes.map((e) => [e.data.from, e.data.to])).toEqual([
      ["ready", "disabled"],
      ["disabled", "ready"],
    ]);
    expect(changes[0]).toMatchObject({ subject: { type: "plugin", id: disabled.body.id }, actor: { type: "user" }, data: { pluginKey: "knowledge-wiki" } });
    const activity = (await get(`/api/companies/${w.company.id}/activity?entityId=${disabled.body.id}`)).body as any[];
    expect(activity.map((a) => a.action)).toEqual(["plugin.status_changed", "plugin.status_changed"]);
  });

  it("upgrade: at the shipped version 409; from an older version ready → upgrade_pending → ready at the shipped one", async () => {
    const company = await createCompany();
    const upToDate = await post("/api/plugins/knowledge-wiki/upgrade");
    expect(upToDate.status).toBe(409);
    expect(upToDate.body.error).toMatch(/already at 1\.0\.0/);
    await testD1.prepare("UPDATE plugins SET version = '0.9.0', updated_at = ? WHERE plugin_key = 'knowledge-wiki'").bind(new Date().toISOString()).run();
    const upgraded = await post("/api/plugins/knowledge-wiki/upgrade");
    expect(upgraded.status).toBe(200);
    expect(upgraded.body).toMatchObject({ status: "ready", version: "1.0.0", manifest: { version: "1.0.0" } });
    const changes = (await eventsOf(company.id)).filter((e) => e.type === "plugin.status_changed");
    expect(changes.map((e) => [e.data.from, e.data.to, e.data.version])).toEqual([
      ["ready", "upgrade_pending", "0.9.0"],
      ["upgrade_pending", "ready", "1.0.0"],
    ]);
  });

  it("error: a plugin in error answers 503 with its lastError; enable brings it back", async () => {
    const w = await wikiCompany();
    await testD1
      .prepare("UPDATE plugins SET status = 'error', last_error = 'activation failed: test', updated_at = ? WHERE plugin_key = 'knowledge-wiki'")
      .bind(new Date().toISOString())
      .run();
    try {
      const res = await get(`${WIKI}/overview?companyId=${w.company.id}`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        error: "Plugin knowledge-wiki is error: activation failed: test",
        details: { status: "error", lastError: "activation failed: test" },
      });
      expect((await get("/api/plugins/knowledge-wiki")).body).toMatchObject({ status: "error", lastError: "activation failed: test" });
      expect((await post("/api/plugins/knowledge-wiki/disable")).status).toBe(409);
    } finally {
      expect((await post("/api/plugins/knowledge-wiki/enable")).body).toMatchObject({ status: "ready", lastError: null });
    }
    expect((await get(`${WIKI}/overview?companyId=${w.company.id}`)).status).toBe(200);
  });

  it("uninstall keeps the data (reinstalling brings it back); uninstall with purge deletes it everywhere", async () => {
    const w = await wikiCompany();
    const page = await toolData(w, "wiki_write_page", { path: "wiki/durable.md", contents: "# Durable\n" });
    expect((await post(`${WIKI}/sources`, { companyId: w.company.id, contents: "raw text", rawPath: "raw/a.md" })).status).toBe(201);
    try {
      const removed = await del("/api/plugins/knowledge-wiki");
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ pluginKey: "knowledge-wiki", uninstalled: true, purged: false, dataKept: true });
      expect((await get("/api/plugins/knowledge-wiki")).status).toBe(404);
      expect((await get(`${WIKI}/overview?companyId=${w.company.id}`)).status).toBe(404);
      expect(await wikiToolNames()).toEqual([]);
      expect((await w.tool("wiki_read_page", { path: "wiki/durable.md" })).status).toBe(404);
      expect((await del("/api/plugins/knowledge-wiki")).status).toBe(404);

      const reinstalled = await post("/api/plugins/install", { packageName: "@agent-control-plane/plugin-knowledge-wiki" });
      expect(reinstalled.status).toBe(201);
      expect(reinstalled.body).toMatchObject({ status: "ready", lastError: null });
      expect(reinstalled.body.id).not.toBe(removed.body.id);
      expect((await toolData(w, "wiki_read_page", { path: "wiki/durable.md" })).hash).toBe(page.hash);

      const purged = await del("/api/plugins/knowledge-wiki?purge=true");
      expect(purged.body).toMatchObject({ purged: true, dataKept: false });
      const rows = await testD1
        .prepare(
          "SELECT (SELECT count(*) FROM wiki_pages WHERE company_id = ?1) + (SELECT count(*) FROM wiki_sources WHERE company_id = ?1) + (SELECT count(*) FROM wiki_operations WHERE company_id = ?1) AS n",
        )
        .bind(w.company.id)
        .first<{ n: number }>();
      expect(rows!.n).toBe(0);
      expect((await env.FILES.list({ prefix: `companies/${w.company.id}/wiki/` })).objects).toEqual([]);
      expect((await testD1.prepare("SELECT count(*) AS n FROM wiki_page_search").first<{ n: number }>())!.n).toBe(
        (await testD1.prepare("SELECT count(*) AS n FROM wiki_pages").first<{ n: number }>())!.n,
      );
    } finally {
      await ensureWikiReady();
    }
    expect((await w.tool("wiki_read_page", { path: "wiki/durable.md" })).status).toBe(404);
    const types = (await eventsOf(w.company.id)).map((e) => [e.type, e.data.to ?? e.data.purged ?? e.data.status]);
    expect(types.filter(([t]) => t.startsWith("plugin."))).toEqual([
      ["plugin.uninstalled", false],
      ["plugin.installed", "installed"],
      ["plugin.status_changed", "ready"],
      ["plugin.uninstalled", true],
      ["plugin.installed", "installed"],
      ["plugin.status_changed", "ready"],
    ]);
  });
});

describe("plugin tools", () => {
  it("lists the ready plugins' tools with their parameters' JSON Schema, for any caller", async () => {
    const tools = (await get("/api/plugins/tools")).body as any[];
    const search = tools.find((t) => t.name === "knowledge-wiki:wiki_search");
    expect(search).toMatchObject({ displayName: "Search Wiki", pluginId: (await get("/api/plugins/knowledge-wiki")).body.id });
    expect(search.parametersSchema).toMatchObject({
      type: "object",
      properties: { companyId: { type: "string" }, query: { type: "string" }, limit: { type: "integer", maximum: 50 } },
    });
    expect(search.parametersSchema.required).toEqual(expect.arrayContaining(["companyId", "query"]));
    expect((await get("/api/plugins/tools?pluginId=knowledge-wiki")).body).toHaveLength(12);
    expect((await get("/api/plugins/tools?pluginId=other")).body).toEqual([]);
    const w = await wikiCompany();
    expect((await get("/api/plugins/tools", { token: w.agent.token })).body).toHaveLength(tools.length);
    expect((await call("GET", "/api/plugins/tools", { token: "svc_agent_bogus" })).status).toBe(401);
  });

  it("every run's context lists the enabled plugins' tools (none while disabled)", async () => {
    const company = await createCompany();
    const endpoint = unique("ctx");
    const agent = (
      await post(`/api/companies/${company.id}/agents`, { name: unique("Http"), adapterType: "http", adapterConfig: { url: `${FAKE}/agent/${endpoint}` } })
    ).body;
    const received = async () => (await (await fetch(`${FAKE}/__received/${endpoint}`)).json()) as any[];
    expect((await post(`/api/agents/${agent.id}/wakeup`, { reason: "plugins" })).status).toBe(202);
    await dispatch(company.id);
    const first = await eventually(async () => (await received())[0], { what: "the first invocation" });
    expect(first.body.context.pluginTools).toEqual(
      expect.arrayContaining(["knowledge-wiki:wiki_search", "knowledge-wiki:wiki_write_page", "knowledge-wiki:wiki_append_log"]),
    );
    expect(first.body.context.pluginTools).toHaveLength(12);
    expect((await post("/api/plugins/knowledge-wiki/disable")).status).toBe(200);
    try {
      await eventually(
        async () => {
          const live = await testD1
            .prepare("SELECT count(*) AS n FROM heartbeat_runs WHERE company_id = ? AND status IN ('queued', 'running', 'scheduled_retry')")
            .bind(company.id)
            .first<{ n: number }>();
          return live!.n === 0;
        },
        { what: "the first run to end" },
      );
      expect((await post(`/api/agents/${agent.id}/wakeup`, { reason: "plugins again" })).status).toBe(202);
      await dispatch(company.id);
      const second = await eventually(async () => (await received())[1], { what: "the second invocation" });
      expect(second.body.context.pluginTools).toEqual([]);
    } finally {
      await ensureWikiReady();
    }
  });
});

describe("plugin events", () => {
  it("every plugin.* type of the catalogue is produced by the tests above", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const described: string = doc.components.schemas.Event.properties.type.description;
    const pluginTypes = [...described.matchAll(/^- `(plugin\.[a-z_.]+)`/gm)].map((m) => m[1]);
    expect(pluginTypes).toEqual(["plugin.installed", "plugin.status_changed", "plugin.uninstalled"]);
    const produced = await testD1.prepare("SELECT DISTINCT type FROM company_events WHERE type LIKE 'plugin.%'").all<{ type: string }>();
    expect(produced.results.map((r) => r.type).sort()).toEqual(pluginTypes);
  });
});
