// The knowledge wiki through HTTP: its scoped routes and its agent tools — callers and company
// scoping, control files, path rules, concurrent writers with one expectedHash, capture caps at
// and past each limit, backlinks through renames and deletes, search by body text, spaces,
// operations, every wiki.* event, and query sessions (a paused or missing maintainer; an http
// maintainer answered by the fake agent, the answer filed as a page).
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, get, patch, post, unique } from "../helpers/api";
import { agentWithKey, boardUser, dispatch, insertRun, schema, updateRow, testD1 } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";
import { ensureWikiReady, toolData, WIKI, wikiCompany, type WikiCompany } from "../helpers/wiki";
import { sha256Hex } from "../../src/crypto/hash";

const FAKE = env.FAKE_AGENT_URL;

beforeAll(ensureWikiReady);

type Event = { type: string; subject: { type: string; id: string }; actor: { type: string; id: string }; data: any };
async function eventsOf(companyId: string): Promise<Event[]> {
  const res = await get(`/api/companies/${companyId}/events?limit=500`);
  expect(res.status).toBe(200);
  return res.body.events;
}

const write = (w: WikiCompany, path: string, contents: string, extra: Record<string, unknown> = {}) =>
  toolData(w, "wiki_write_page", { path, contents, ...extra });
const backlinksOf = async (w: WikiCompany, path: string) => (await toolData(w, "wiki_list_backlinks", { path })).backlinks;

describe("wiki tools: write, read, search", () => {
  it("an agent searches, reads, then writes with expectedHash; the page has revisions, an operation and an event", async () => {
    const w = await wikiCompany();
    const created = await write(w, "wiki/concepts/deploys.md", "# Deploys\n\nWe deploy with blue-green switching on Tuesdays.\n", { summary: "first" });
    expect(created).toMatchObject({
      path: "wiki/concepts/deploys.md",
      previousHash: null,
      created: true,
      hash: sha256Hex("# Deploys\n\nWe deploy with blue-green switching on Tuesdays.\n"),
    });

    const search = await w.tool("wiki_search", { query: "switching tuesdays" });
    expect(search.status).toBe(200);
    expect(search.body).toMatchObject({ pluginId: expect.any(String), toolName: "wiki_search" });
    expect(search.body.result.data.results[0]).toMatchObject({ kind: "page", path: "wiki/concepts/deploys.md", title: "Deploys" });
    expect(search.body.result.content).toContain("wiki/concepts/deploys.md");

    const read = await w.tool("wiki_read_page", { path: "wiki/concepts/deploys.md" });
    expect(read.status).toBe(200);
    expect(read.body.result.content).toContain("blue-green");
    expect(read.body.result.data).toMatchObject({ hash: created.hash, pageType: "concept", title: "Deploys" });

    const updated = await write(w, "wiki/concepts/deploys.md", "# Deploys\n\nBlue-green, Tuesdays and Thursdays.\n", {
      expectedHash: read.body.result.data.hash,
    });
    expect(updated).toMatchObject({ previousHash: created.hash, created: false });
    expect(updated.revisionId).not.toBe(created.revisionId);
    // The same contents again: nothing written.
    expect(await write(w, "wiki/concepts/deploys.md", "# Deploys\n\nBlue-green, Tuesdays and Thursdays.\n")).toMatchObject({
      unchanged: true,
      revisionId: updated.revisionId,
    });

    const events = await eventsOf(w.company.id);
    const written = events.filter((e) => e.type === "wiki.page_written");
    expect(written).toHaveLength(2);
    expect(written[1]).toMatchObject({
      actor: { type: "agent", id: w.agent.id },
      subject: { type: "wiki_page" },
      data: { path: "wiki/concepts/deploys.md", hash: updated.hash, previousHash: created.hash, operationType: "write_page" },
    });
    const ops = await get(`${WIKI}/operations?companyId=${w.company.id}&operationType=write_page`);
    expect(ops.status).toBe(200);
    expect(ops.body.operations).toHaveLength(2);
    expect(ops.body.operations[0]).toMatchObject({
      status: "succeeded",
      runId: w.runId,
      spaceSlug: "default",
      actor: { type: "agent", id: w.agent.id },
      details: { hash: updated.hash },
    });
    const revisions = await testD1
      .prepare("SELECT change, hash, previous_hash AS previousHash, run_id AS runId FROM wiki_page_revisions WHERE company_id = ? ORDER BY created_at, rowid")
      .bind(w.company.id)
      .all();
    expect(revisions.results).toEqual([
      { change: "write", hash: created.hash, previousHash: null, runId: w.runId },
      { change: "write", hash: updated.hash, previousHash: created.hash, runId: w.runId },
    ]);
    // Bodies are content-addressed R2 objects under the company's prefix.
    expect(await (await env.FILES.get(`companies/${w.company.id}/wiki/objects/${updated.hash}`))!.text()).toContain("Thursdays");
  });

  it("search finds body text (stemmed), ranks title matches first, covers sources, and stays in the company", async () => {
    const w = await wikiCompany();
    const other = await wikiCompany();
    await write(w, "wiki/areas/ops.md", "# Operations\n\nThe on-call rotation hands over every Monday; escalations page the platform lead.\n");
    await write(w, "wiki/concepts/rotation.md", "# Rotation\n\nWhy the rotation exists.\n");
    await write(other, "wiki/areas/ops.md", "# Operations\n\nThe on-call rotation of another company.\n");
    expect(
      (
        await post(`${WIKI}/sources`, {
          companyId: w.company.id,
          title: "Incident review",
          contents: "Escalations were slow because the rotation calendar was stale.",
        })
      ).status,
    ).toBe(201);

    const byBody = await toolData(w, "wiki_search", { query: "escalation" });
    expect(byBody.results.map((r: any) => [r.kind, r.path])).toEqual(
      expect.arrayContaining([
        ["page", "wiki/areas/ops.md"],
        ["source", expect.stringMatching(/^raw\/\d{4}-\d{2}-\d{2}-incident-review-[0-9a-f]{8}\.md$/)],
      ]),
    );
    expect(byBody.results).toHaveLength(2);
    expect(byBody.results.find((r: any) => r.kind === "page").snippet).toContain("**escalations**");

    const rotation = await toolData(w, "wiki_search", { query: "rotation" });
    expect(rotation.results[0]).toMatchObject({ path: "wiki/concepts/rotation.md", title: "Rotation" });
    expect(rotation.results.map((r: any) => r.path)).toContain("wiki/areas/ops.md");
    expect(rotation.results.every((r: any) => !r.snippet.includes("another company"))).toBe(true);

    expect((await toolData(w, "wiki_search", { query: "rotation", limit: 1 })).results).toHaveLength(1);
    expect((await toolData(w, "wiki_search", { query: "nothing-like-this-anywhere" })).results).toEqual([]);
    expect((await w.tool("wiki_search", { query: "!!!" })).status).toBe(400);
    expect((await w.tool("wiki_search", { query: "x", limit: 51 })).status).toBe(400);
    // Punctuation and FTS operators are plain text, not syntax.
    expect((await w.tool("wiki_search", { query: 'rotation" OR NEAR(' })).status).toBe(200);
  });

  it("lists pages and sources, reads a source, proposes a patch without writing, updates the index and appends to the log", async () => {
    const w = await wikiCompany();
    const page = await write(w, "wiki/entities/acme.md", "# Acme\n\nA customer.\n");
    const proposal = await toolData(w, "wiki_propose_patch", {
      path: "wiki/entities/acme.md",
      contents: "# Acme\n\nA customer since 2024. See [[concepts/billing]].\n",
    });
    expect(proposal).toMatchObject({
      exists: true,
      currentHash: page.hash,
      proposedHash: sha256Hex("# Acme\n\nA customer since 2024. See [[concepts/billing]].\n"),
      unchanged: false,
      links: ["wiki/concepts/billing.md"],
    });
    expect((await toolData(w, "wiki_read_page", { path: "wiki/entities/acme.md" })).hash).toBe(page.hash);

    const captured = await post(`${WIKI}/sources`, {
      companyId: w.company.id,
      title: "Call notes",
      sourceType: "manual",
      contents: "Acme asked for SSO.",
      rawPath: "raw/calls/acme.md",
      metadata: { by: "sales" },
    });
    expect(captured.status).toBe(201);
    expect(captured.body).toMatchObject({ rawPath: "raw/calls/acme.md", hash: sha256Hex("Acme asked for SSO."), title: "Call notes", created: true });
    const sources = await toolData(w, "wiki_list_sources");
    expect(sources.sources).toEqual([
      expect.objectContaining({ rawPath: "raw/calls/acme.md", sourceType: "manual", sizeChars: 19, metadata: { by: "sales" } }),
    ]);
    const source = await w.tool("wiki_read_source", { rawPath: "raw/calls/acme.md" });
    expect(source.body.result.content).toBe("Acme asked for SSO.");
    expect((await w.tool("wiki_read_source", { rawPath: "raw/none.md" })).status).toBe(404);

    const index = await toolData(w, "wiki_update_index", { contents: "# Index\n\n- [[entities/acme]]\n" });
    expect(index).toMatchObject({ path: "wiki/index.md", previousHash: null, links: ["wiki/entities/acme.md"] });
    expect((await w.tool("wiki_update_index", { contents: "# Index\n", expectedHash: sha256Hex("stale") })).status).toBe(409);
    await toolData(w, "wiki_append_log", { entry: "Added Acme" });
    const log = await toolData(w, "wiki_append_log", { entry: "Indexed Acme\nwith a second line" });
    const logText = (await toolData(w, "wiki_read_page", { path: "wiki/log.md" })).contents as string;
    expect(logText).toMatch(/^# Wiki log/);
    expect(logText).toMatch(/- \S+ Added Acme\n- \S+ Indexed Acme\n {2}with a second line\n$/);
    expect(log.hash).toBe(sha256Hex(logText));

    const pages = await toolData(w, "wiki_list_pages");
    expect(pages.pages.map((p: any) => [p.path, p.pageType])).toEqual([
      ["wiki/entities/acme.md", "entity"],
      ["wiki/index.md", "index"],
      ["wiki/log.md", "log"],
    ]);
    expect((await toolData(w, "wiki_list_pages", { prefix: "wiki/entities/" })).pages).toHaveLength(1);
    const ops = (await get(`${WIKI}/operations?companyId=${w.company.id}`)).body.operations.map((o: any) => o.operationType);
    expect(ops).toEqual(["append_log", "append_log", "update_index", "capture_source", "write_page"]);
  });
});

describe("wiki: concurrency", () => {
  it("two writers with the same expectedHash: one wins, the other gets 409 with the current hash", async () => {
    const w = await wikiCompany();
    const second = await agentWithKey(w.company.id);
    const base = await write(w, "wiki/synthesis/plan.md", "# Plan\n\nv1\n");
    const secondRun = crypto.randomUUID();
    const asSecond = (contents: string) =>
      post(
        "/api/plugins/tools/execute",
        {
          tool: "knowledge-wiki:wiki_write_page",
          parameters: { companyId: w.company.id, wikiId: "default", path: "wiki/synthesis/plan.md", contents, expectedHash: base.hash },
          runContext: { agentId: second.id, runId: secondRun, companyId: w.company.id },
        },
        { token: second.token, runId: secondRun },
      );
    const [a, b] = await Promise.all([
      w.tool("wiki_write_page", { path: "wiki/synthesis/plan.md", contents: "# Plan\n\nv2 by A\n", expectedHash: base.hash }),
      asSecond("# Plan\n\nv2 by B\n"),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [winner, loser] = a.status === 200 ? [a, b] : [b, a];
    expect(loser.body.details).toMatchObject({ path: "wiki/synthesis/plan.md", expectedHash: base.hash, currentHash: winner.body.result.data.hash });
    const current = await toolData(w, "wiki_read_page", { path: "wiki/synthesis/plan.md" });
    expect(current.hash).toBe(winner.body.result.data.hash);
    // The loser re-reads and writes with the current hash.
    expect((await w.tool("wiki_write_page", { path: "wiki/synthesis/plan.md", contents: "# Plan\n\nmerged\n", expectedHash: current.hash })).status).toBe(200);
    // One revision per successful write: v1, the winner, the merge.
    const count = await testD1.prepare("SELECT count(*) AS n FROM wiki_page_revisions WHERE company_id = ?").bind(w.company.id).first<{ n: number }>();
    expect(count!.n).toBe(3);
  });

  it("a stale or absent expectedHash is 409 naming the current hash; concurrent log appends are all kept", async () => {
    const w = await wikiCompany();
    const missing = await w.tool("wiki_write_page", { path: "wiki/new.md", contents: "x", expectedHash: sha256Hex("anything") });
    expect(missing.status).toBe(409);
    expect(missing.body.details).toMatchObject({ currentHash: null });
    const page = await write(w, "wiki/new.md", "x");
    const stale = await w.tool("wiki_write_page", { path: "wiki/new.md", contents: "y", expectedHash: sha256Hex("old") });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: expect.stringContaining("Stale write"), details: { currentHash: page.hash } });
    expect((await w.tool("wiki_write_page", { path: "wiki/new.md", contents: "y", expectedHash: "not-a-hash" })).status).toBe(400);

    const entries = Array.from({ length: 6 }, (_, i) => `entry ${i}`);
    const results = await Promise.all(entries.map((entry) => w.tool("wiki_append_log", { entry })));
    expect(results.map((r) => r.status)).toEqual(entries.map(() => 200));
    const log = (await toolData(w, "wiki_read_page", { path: "wiki/log.md" })).contents as string;
    for (const entry of entries) expect(log).toContain(` ${entry}\n`);
  });
});

describe("wiki: control files and path rules", () => {
  it("agents may not write AGENTS.md or IDEA.md (board callers may); paths reject .., backslashes, empty segments and non-pages", async () => {
    const w = await wikiCompany();
    for (const path of ["AGENTS.md", "IDEA.md"]) {
      const res = await w.tool("wiki_write_page", { path, contents: "# Overwritten" });
      expect(res.status).toBe(403);
      expect(res.body.error).toContain(path);
    }
    const filed = await post(`${WIKI}/file-as-page`, { companyId: w.company.id, path: "AGENTS.md", contents: "# Instructions\n" });
    expect(filed.status).toBe(201);
    expect(filed.body.page).toMatchObject({ path: "AGENTS.md", pageType: "control" });
    expect((await w.tool("wiki_move_page", { path: "AGENTS.md", newPath: "wiki/agents.md" })).status).toBe(403);
    expect((await w.tool("wiki_delete_page", { path: "AGENTS.md" })).status).toBe(403);
    // wiki/index.md and wiki/log.md are the agents' to maintain.
    expect((await w.tool("wiki_write_page", { path: "wiki/index.md", contents: "# Index" })).status).toBe(200);

    for (const path of [
      "../secrets.md",
      "wiki/../AGENTS.md",
      "wiki/./a.md",
      "wiki\\a.md",
      "wiki//a.md",
      "/wiki/a.md",
      "wiki/a.txt",
      "notes/a.md",
      "wiki/.md",
      "wiki/",
      "raw/a.md",
      "wiki/ a.md",
    ]) {
      const res = await w.tool("wiki_write_page", { path, contents: "x" });
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatch(/Invalid page path/);
    }
    for (const rawPath of ["../raw/a.md", "raw/../a.md", "notes/a.md", "raw\\a.md", "raw//a.md"]) {
      expect((await w.tool("wiki_read_source", { rawPath })).status, rawPath).toBe(400);
      expect((await post(`${WIKI}/sources`, { companyId: w.company.id, contents: "x", rawPath })).status, rawPath).toBe(400);
    }
  });
});

describe("wiki: capture caps", () => {
  const caps = [
    ["issue", 12_000],
    ["comment", 12_000],
    ["document", 12_000],
    ["cursor_window", 60_000],
    ["routine_run", 120_000],
    ["manual", 250_000],
  ] as const;

  it("each source type is accepted at its cap and refused one character past it with 413 naming the cap", async () => {
    const w = await wikiCompany();
    for (const [sourceType, cap] of caps) {
      const at = await post(`${WIKI}/sources`, { companyId: w.company.id, sourceType, title: `${sourceType} at cap`, contents: "a".repeat(cap) });
      expect(at.status, sourceType).toBe(201);
      const past = await post(`${WIKI}/sources`, { companyId: w.company.id, sourceType, title: `${sourceType} past cap`, contents: "a".repeat(cap + 1) });
      expect(past.status, sourceType).toBe(413);
      expect(past.body.error).toContain(cap.toLocaleString("en-US"));
      expect(past.body.details).toEqual({ sourceType, characters: cap + 1, capChars: cap });
    }
    // Characters, not bytes or UTF-16 units: 12,000 emoji fit an issue source.
    expect((await post(`${WIKI}/sources`, { companyId: w.company.id, sourceType: "issue", contents: "🙂".repeat(12_000) })).status).toBe(201);
    expect((await post(`${WIKI}/sources`, { companyId: w.company.id, sourceType: "issue", contents: "🙂".repeat(12_001) })).status).toBe(413);
    // An agent captures too; the same text at the same rawPath is the same source, other text there is a 409.
    const byAgent = await post(
      `${WIKI}/sources`,
      { companyId: w.company.id, sourceType: "comment", contents: "From a comment", rawPath: "raw/comments/1.md" },
      { token: w.agent.token },
    );
    expect(byAgent.status).toBe(201);
    const again = await post(
      `${WIKI}/sources`,
      { companyId: w.company.id, sourceType: "comment", contents: "From a comment", rawPath: "raw/comments/1.md" },
      { token: w.agent.token },
    );
    expect(again.body).toMatchObject({ sourceId: byAgent.body.sourceId, created: false });
    const clash = await post(`${WIKI}/sources`, { companyId: w.company.id, contents: "Different", rawPath: "raw/comments/1.md" });
    expect(clash.status).toBe(409);
    expect(clash.body.details).toMatchObject({ currentHash: sha256Hex("From a comment") });
    const captured = (await eventsOf(w.company.id)).filter((e) => e.type === "wiki.source_captured");
    expect(captured).toHaveLength(caps.length + 2);
    expect(captured.at(-1)).toMatchObject({
      actor: { type: "agent", id: w.agent.id },
      data: { rawPath: "raw/comments/1.md", sourceType: "comment", sizeChars: 14 },
    });
  });

  it('sourceType "text" (the incumbent\'s default its clients send) is the plain-text kind: stored as manual, with its cap; other unknown types are 400', async () => {
    const w = await wikiCompany();
    const text = await post(`${WIKI}/sources`, { companyId: w.company.id, sourceType: "text", title: "Pasted notes", contents: "Plain text from a client." });
    expect(text.status).toBe(201);
    expect(text.body).toMatchObject({ created: true, title: "Pasted notes" });
    const listed = await toolData(w, "wiki_list_sources");
    expect(listed.sources).toEqual([expect.objectContaining({ sourceId: text.body.sourceId, sourceType: "manual", sizeChars: 25 })]);
    const past = await post(`${WIKI}/sources`, { companyId: w.company.id, sourceType: "text", contents: "a".repeat(250_001) });
    expect(past.status).toBe(413);
    expect(past.body.details).toMatchObject({ sourceType: "manual", capChars: 250_000 });
    const unknown = await post(`${WIKI}/sources`, { companyId: w.company.id, sourceType: "pdf", contents: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toBeDefined();
  });
});

describe("wiki: backlinks", () => {
  it("counts [[wiki links]], relative links and wiki/… mentions, and follows renames and deletes", async () => {
    const w = await wikiCompany();
    await write(w, "wiki/b.md", "# B\n");
    await write(w, "wiki/a.md", "# A\n\nSee [[B]] and [[B|the b page]].\n");
    await write(w, "wiki/notes/c.md", "# C\n\n[up](../b.md)\n");
    await write(w, "wiki/d.md", "# D\n\nAs written in wiki/b.md, …\n");
    await write(w, "wiki/e.md", "# E\n\n[external](https://example.com/wiki/b.md) and `code`\n");
    expect(await backlinksOf(w, "wiki/b.md")).toEqual(["wiki/a.md", "wiki/d.md", "wiki/notes/c.md"]);
    expect((await toolData(w, "wiki_read_page", { path: "wiki/b.md" })).backlinks).toEqual(["wiki/a.md", "wiki/d.md", "wiki/notes/c.md"]);

    // c moves two levels down: its ../b.md now means wiki/deep/b.md.
    const moved = await toolData(w, "wiki_move_page", { path: "wiki/notes/c.md", newPath: "wiki/deep/er/c.md" });
    expect(moved).toMatchObject({ path: "wiki/deep/er/c.md", previousPath: "wiki/notes/c.md", links: ["wiki/deep/b.md"] });
    expect(await backlinksOf(w, "wiki/b.md")).toEqual(["wiki/a.md", "wiki/d.md"]);
    expect(await backlinksOf(w, "wiki/deep/b.md")).toEqual(["wiki/deep/er/c.md"]);
    // a moves: its [[B]] still names wiki/b.md, now from its new path.
    await toolData(w, "wiki_move_page", { path: "wiki/a.md", newPath: "wiki/z.md" });
    expect(await backlinksOf(w, "wiki/b.md")).toEqual(["wiki/d.md", "wiki/z.md"]);
    expect((await w.tool("wiki_read_page", { path: "wiki/a.md" })).status).toBe(404);
    expect((await w.tool("wiki_move_page", { path: "wiki/z.md", newPath: "wiki/d.md" })).status).toBe(409);
    // d is deleted: its link goes with it.
    const d = await toolData(w, "wiki_read_page", { path: "wiki/d.md" });
    expect((await w.tool("wiki_delete_page", { path: "wiki/d.md", expectedHash: sha256Hex("stale") })).status).toBe(409);
    expect(await toolData(w, "wiki_delete_page", { path: "wiki/d.md", expectedHash: d.hash })).toMatchObject({ deleted: true, previousHash: d.hash });
    expect(await backlinksOf(w, "wiki/b.md")).toEqual(["wiki/z.md"]);
    expect((await toolData(w, "wiki_search", { query: "written" })).results).toEqual([]);
    // A write answers the page's backlinks; rewriting z without the link drops it.
    expect((await write(w, "wiki/b.md", "# B\n\nUpdated.\n")).backlinks).toEqual(["wiki/z.md"]);
    await write(w, "wiki/z.md", "# Z\n\nNo links now.\n");
    expect(await backlinksOf(w, "wiki/b.md")).toEqual([]);
    const types = (await eventsOf(w.company.id)).map((e) => e.type);
    expect(types.filter((t) => t === "wiki.page_moved")).toHaveLength(2);
    expect(types.filter((t) => t === "wiki.page_deleted")).toHaveLength(1);
  });
});

describe("wiki: callers and company scoping", () => {
  it("another company's board and agent are refused; runContext must be the caller's own run", async () => {
    const w = await wikiCompany();
    const other = await wikiCompany();
    const otherOwner = await boardUser(other.company.id);
    await write(w, "wiki/private.md", "# Private\n");

    // B's agent naming A's company in the parameters, or in runContext.
    const crossParams = await post(
      "/api/plugins/tools/execute",
      {
        tool: "knowledge-wiki:wiki_read_page",
        parameters: { companyId: w.company.id, path: "wiki/private.md" },
        runContext: { agentId: other.agent.id, runId: other.runId, companyId: other.company.id },
      },
      { token: other.agent.token, runId: other.runId },
    );
    expect(crossParams.status).toBe(403);
    const crossContext = await post(
      "/api/plugins/tools/execute",
      {
        tool: "knowledge-wiki:wiki_read_page",
        parameters: { companyId: w.company.id, path: "wiki/private.md" },
        runContext: { agentId: other.agent.id, runId: other.runId, companyId: w.company.id },
      },
      { token: other.agent.token, runId: other.runId },
    );
    expect(crossContext.status).toBe(403);
    // runContext naming another agent, another run, or no run; a board caller.
    const ctx = { agentId: w.agent.id, runId: w.runId, companyId: w.company.id };
    const params = { companyId: w.company.id, path: "wiki/private.md" };
    const exec = (body: Record<string, unknown>, options: Record<string, unknown>) =>
      post("/api/plugins/tools/execute", { tool: "knowledge-wiki:wiki_read_page", parameters: params, ...body }, options);
    expect((await exec({ runContext: { ...ctx, agentId: other.agent.id } }, { token: w.agent.token, runId: w.runId })).status).toBe(403);
    expect((await exec({ runContext: { ...ctx, runId: crypto.randomUUID() } }, { token: w.agent.token, runId: w.runId })).status).toBe(403);
    expect((await exec({ runContext: ctx }, { token: w.agent.token })).status).toBe(403);
    expect((await exec({ runContext: ctx }, {})).status).toBe(403);
    expect((await exec({ runContext: ctx }, { token: otherOwner.token })).status).toBe(403);
    expect((await exec({ runContext: ctx }, { token: w.agent.token, runId: w.runId })).status).toBe(200);
    // Unknown tools, bad parameters.
    expect(
      (await post("/api/plugins/tools/execute", { tool: "knowledge-wiki:nope", parameters: params, runContext: ctx }, { token: w.agent.token, runId: w.runId }))
        .status,
    ).toBe(404);
    expect(
      (
        await post(
          "/api/plugins/tools/execute",
          { tool: "other:wiki_read_page", parameters: params, runContext: ctx },
          { token: w.agent.token, runId: w.runId },
        )
      ).status,
    ).toBe(404);
    const badParams = await post(
      "/api/plugins/tools/execute",
      { tool: "knowledge-wiki:wiki_read_page", parameters: { companyId: w.company.id }, runContext: ctx },
      { token: w.agent.token, runId: w.runId },
    );
    expect(badParams.status).toBe(400);
    expect(badParams.body.error).toContain("path");

    // Scoped routes: B's board user and B's agent, naming A's company.
    for (const token of [otherOwner.token, other.agent.token]) {
      expect((await get(`${WIKI}/overview?companyId=${w.company.id}`, { token })).status).toBe(403);
      expect((await get(`${WIKI}/operations?companyId=${w.company.id}`, { token })).status).toBe(403);
      expect((await get(`${WIKI}/spaces?companyId=${w.company.id}`, { token })).status).toBe(403);
      expect((await post(`${WIKI}/sources`, { companyId: w.company.id, contents: "pwned" }, { token })).status).toBe(403);
    }
    expect((await get(`${WIKI}/overview?companyId=${crypto.randomUUID()}`)).status).toBe(404);
    // Board-only routes refuse agents, even of the company.
    for (const [path, body] of [
      ["/bootstrap", {}],
      ["/spaces", { slug: "eng" }],
      ["/spaces/default/bootstrap", {}],
      ["/spaces/default/archive", {}],
      ["/query-sessions", { question: "Why?" }],
      ["/file-as-page", { path: "wiki/x.md", contents: "x" }],
    ] as const) {
      const res = await post(`${WIKI}${path}`, { companyId: w.company.id, ...body }, { token: w.agent.token });
      expect(res.status, path).toBe(403);
    }
    expect((await patch(`${WIKI}/spaces/default`, { companyId: w.company.id, displayName: "x" }, { token: w.agent.token })).status).toBe(403);
    // Their own company works for both.
    expect((await get(`${WIKI}/overview?companyId=${w.company.id}`, { token: w.agent.token })).status).toBe(200);
    expect((await get(`${WIKI}/overview?companyId=${other.company.id}`, { token: otherOwner.token })).status).toBe(200);
    const unchanged = await testD1.prepare("SELECT count(*) AS n FROM wiki_sources WHERE company_id = ?").bind(w.company.id).first<{ n: number }>();
    expect(unchanged!.n).toBe(0);
  });

  it("scoped routes: by plugin key or id, JSON only (415), 1 MB body limit (413), unknown plugin or route 404", async () => {
    const w = await wikiCompany();
    const plugin = (await get("/api/plugins/knowledge-wiki")).body;
    const byId = await get(`/api/plugins/${plugin.id}/api/overview?companyId=${w.company.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ status: "not_bootstrapped", wikiId: "default", operationCount: 0 });
    expect((await post(`/api/plugins/${plugin.id}/api/sources`, { companyId: w.company.id, contents: "by id" })).status).toBe(201);
    expect((await get(`/api/plugins/no-such-plugin/api/overview?companyId=${w.company.id}`)).status).toBe(404);
    expect((await get(`${WIKI}/no-such-route?companyId=${w.company.id}`)).status).toBe(404);
    const text = await call("POST", `${WIKI}/sources`, {
      rawBody: JSON.stringify({ companyId: w.company.id, contents: "x" }),
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(text.body.error).toMatch(/JSON/);
    const huge = await post(`${WIKI}/sources`, { companyId: w.company.id, contents: "a".repeat(1024 * 1024 + 10) });
    expect(huge.status).toBe(413);
    expect((await get(`${WIKI}/operations?companyId=${w.company.id}&limit=0`)).status).toBe(400);
    expect((await get(`${WIKI}/operations?companyId=${w.company.id}&limit=501`)).status).toBe(400);
    expect((await get(`${WIKI}/operations?companyId=not-a-uuid`)).status).toBe(400);
  });
});

describe("wiki: bootstrap and spaces", () => {
  it("bootstrap writes only missing control files, creates the paused maintainer, project, skills and paused routines; idempotent", async () => {
    const w = await wikiCompany();
    // An existing index is preserved.
    const index = await write(w, "wiki/index.md", "# My index\n");
    const first = await post(`${WIKI}/bootstrap`, { companyId: w.company.id });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: "ready",
      wikiId: "default",
      space: { slug: "default", status: "active" },
      writtenFiles: ["AGENTS.md", "IDEA.md", "wiki/log.md"],
      preservedFiles: ["wiki/index.md"],
    });
    expect(first.body.managedAgent).toMatchObject({ name: "Wiki Maintainer", status: "paused" });
    expect(first.body.managedSkills.map((s: any) => s.key)).toEqual(["company/knowledge-wiki-maintainer", "company/knowledge-wiki-reader"]);
    expect(first.body.managedRoutineIds).toHaveLength(2);
    expect((await toolData(w, "wiki_read_page", { path: "wiki/index.md" })).hash).toBe(index.hash);
    expect((await toolData(w, "wiki_read_page", { path: "AGENTS.md" })).contents).toContain("expectedHash");

    const agent = (await get(`/api/agents/${first.body.managedAgent.id}`)).body;
    expect(agent).toMatchObject({ name: "Wiki Maintainer", status: "paused" });
    const project = (await get(`/api/projects/${first.body.managedProject.id}`)).body;
    expect(project).toMatchObject({ name: "Knowledge Wiki", status: "in_progress" });
    const routines = (await get(`/api/companies/${w.company.id}/routines`)).body as any[];
    const managed = routines.filter((r) => first.body.managedRoutineIds.includes(r.id));
    expect(managed.map((r) => [r.status, r.assigneeAgentId, r.projectId])).toEqual([
      ["paused", agent.id, project.id],
      ["paused", agent.id, project.id],
    ]);
    const skill = (await get(`/api/companies/${w.company.id}/skills/${first.body.managedSkills[0].id}`)).body;
    expect(skill.name).toBe("Knowledge wiki maintainer");

    const second = await post(`${WIKI}/bootstrap`, { companyId: w.company.id });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      writtenFiles: [],
      preservedFiles: ["AGENTS.md", "IDEA.md", "wiki/index.md", "wiki/log.md"],
      managedAgent: { id: agent.id },
      managedProject: { id: project.id },
    });
    expect(second.body.managedRoutineIds).toEqual(first.body.managedRoutineIds);
    expect((await get(`/api/companies/${w.company.id}/agents`)).body.filter((a: any) => a.name.startsWith("Wiki Maintainer"))).toHaveLength(1);

    const overview = await get(`${WIKI}/overview?companyId=${w.company.id}`, { token: w.agent.token });
    expect(overview.body).toMatchObject({
      status: "ready",
      defaultSpace: { slug: "default" },
      managedAgent: { id: agent.id, status: "paused" },
      managedProject: { id: project.id },
      capabilities: expect.arrayContaining(["search", "backlinks"]),
    });
    expect(overview.body.managedSkills).toHaveLength(2);
    expect(overview.body.operationCount).toBeGreaterThanOrEqual(5);
    expect((await eventsOf(w.company.id)).filter((e) => e.type === "wiki.bootstrapped")).toHaveLength(2);
  });

  it("spaces: create (duplicate 409), list default first, write into a space, rename, archive (hidden, read-only; default refused), board-only spaces", async () => {
    const w = await wikiCompany();
    const C = w.company.id;
    const unknown = await w.tool("wiki_write_page", { spaceSlug: "eng", path: "wiki/x.md", contents: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain("eng");
    const created = await post(`${WIKI}/spaces`, { companyId: C, displayName: "Engineering Team" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "created",
      space: { slug: "engineering-team", displayName: "Engineering Team", accessScope: "company", status: "active" },
    });
    expect((await post(`${WIKI}/spaces`, { companyId: C, slug: "engineering-team" })).status).toBe(409);
    expect((await post(`${WIKI}/spaces`, { companyId: C })).status).toBe(400);
    const boot = await post(`${WIKI}/spaces/engineering-team/bootstrap`, { companyId: C });
    expect(boot.status).toBe(201);
    expect(boot.body.writtenFiles).toEqual(["AGENTS.md", "IDEA.md", "wiki/index.md", "wiki/log.md"]);
    await write(w, "wiki/ci.md", "# CI\n\nThe pipeline runs on merge.\n", { spaceSlug: "engineering-team" });
    await write(w, "wiki/ci.md", "# CI elsewhere\n");
    expect((await toolData(w, "wiki_search", { query: "pipeline" })).results).toEqual([]);
    expect((await toolData(w, "wiki_search", { query: "pipeline", spaceSlug: "engineering-team" })).results).toHaveLength(1);

    expect((await post(`${WIKI}/spaces`, { companyId: C, slug: "board-notes", accessScope: "board" })).status).toBe(201);
    const listed = await get(`${WIKI}/spaces?companyId=${C}`);
    expect(listed.body.spaces.map((s: any) => s.slug)).toEqual(["default", "board-notes", "engineering-team"]);
    expect((await get(`${WIKI}/spaces?companyId=${C}`, { token: w.agent.token })).body.spaces.map((s: any) => s.slug)).toEqual(["default", "engineering-team"]);
    expect((await w.tool("wiki_list_pages", { spaceSlug: "board-notes" })).status).toBe(403);
    expect((await post(`${WIKI}/file-as-page`, { companyId: C, spaceSlug: "board-notes", path: "wiki/minutes.md", contents: "# Minutes\n" })).status).toBe(201);

    const renamed = await patch(`${WIKI}/spaces/engineering-team`, { companyId: C, displayName: "Eng", settings: { owner: "cto" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.space).toMatchObject({ displayName: "Eng", settings: { owner: "cto" } });
    expect((await patch(`${WIKI}/spaces/engineering-team`, { companyId: C })).status).toBe(400);
    expect((await patch(`${WIKI}/spaces/nope`, { companyId: C, displayName: "x" })).status).toBe(404);
    const archived = await post(`${WIKI}/spaces/engineering-team/archive`, { companyId: C });
    expect(archived.status).toBe(200);
    expect(archived.body.space.status).toBe("archived");
    expect((await get(`${WIKI}/spaces?companyId=${C}`)).body.spaces.map((s: any) => s.slug)).toEqual(["default", "board-notes"]);
    expect((await w.tool("wiki_write_page", { spaceSlug: "engineering-team", path: "wiki/ci.md", contents: "x" })).status).toBe(409);
    expect((await toolData(w, "wiki_read_page", { spaceSlug: "engineering-team", path: "wiki/ci.md" })).title).toBe("CI");
    const archiveDefault = await post(`${WIKI}/spaces/default/archive`, { companyId: C });
    expect(archiveDefault.status).toBe(409);
    expect((await patch(`${WIKI}/spaces/default`, { companyId: C, status: "archived" })).status).toBe(409);
    expect((await patch(`${WIKI}/spaces/engineering-team`, { companyId: C, status: "active" })).body.space.status).toBe("active");
    const changes = (await eventsOf(C)).filter((e) => e.type === "wiki.space_changed").map((e) => [e.data.spaceSlug, e.data.change]);
    expect(changes).toEqual([
      ["engineering-team", "created"],
      ["board-notes", "created"],
      ["engineering-team", "updated"],
      ["engineering-team", "archived"],
      ["engineering-team", "updated"],
    ]);
  });
});

describe("wiki: query sessions", () => {
  it("a missing or paused maintainer: 409 saying so and a blocked operation", async () => {
    const w = await wikiCompany();
    const missing = await post(`${WIKI}/query-sessions`, { companyId: w.company.id, question: "What do we deploy on?" });
    expect(missing.status).toBe(409);
    expect(missing.body).toMatchObject({ error: expect.stringMatching(/no maintainer/), details: { status: "blocked", reason: "missing" } });
    await post(`${WIKI}/bootstrap`, { companyId: w.company.id });
    const paused = await post(`${WIKI}/query-sessions`, { companyId: w.company.id, question: "What do we deploy on?" });
    expect(paused.status).toBe(409);
    expect(paused.body.error).toMatch(/Wiki Maintainer is paused/);
    const blocked = (await get(`${WIKI}/operations?companyId=${w.company.id}&operationType=query`)).body.operations;
    expect(blocked.map((o: any) => o.status)).toEqual(["blocked", "blocked"]);
    expect(blocked[0]).toMatchObject({
      id: paused.body.details.operationId,
      details: { blockedReason: "paused", querySessionId: paused.body.details.querySessionId },
    });
    const events = (await eventsOf(w.company.id)).filter((e) => e.type === "wiki.query.blocked");
    expect(events.map((e) => e.data.reason)).toEqual(["missing", "paused"]);
    // No issue was created for either.
    expect((await get(`/api/companies/${w.company.id}/issues`)).body).toEqual([]);
  });

  it("an http maintainer answered by the fake agent: the session ends answered and the answer is filed as a page", async () => {
    const w = await wikiCompany();
    const C = w.company.id;
    const boot = (await post(`${WIKI}/bootstrap`, { companyId: C })).body;
    const endpoint = unique("maintainer");
    const answer = "We deploy on Tuesdays and Thursdays, blue-green (see wiki/concepts/deploys.md).";
    const body = JSON.stringify({ summary: "Answered", answer });
    const maintainer = boot.managedAgent.id;
    expect(
      (await patch(`/api/agents/${maintainer}`, { adapterType: "http", adapterConfig: { url: `${FAKE}/agent/${endpoint}?body=${encodeURIComponent(body)}` } }))
        .status,
    ).toBe(200);
    expect((await post(`/api/agents/${maintainer}/resume`)).status).toBe(200);

    const started = await post(`${WIKI}/query-sessions`, { companyId: C, question: "When do we deploy?", title: "Deploy days" });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      status: "running",
      runId: null,
      issue: {
        assigneeAgentId: maintainer,
        status: "todo",
        originKind: "plugin:knowledge-wiki:query",
        originId: started.body.querySessionId,
        projectId: boot.managedProject.id,
      },
    });
    const sessionId = started.body.querySessionId;

    await dispatch(C);
    const answered = await eventually(async () => (await eventsOf(C)).find((e) => e.type === "wiki.query.answered"), { what: "wiki.query.answered" });
    expect(answered).toMatchObject({
      subject: { type: "wiki_query", id: sessionId },
      actor: { type: "system" },
      data: { querySessionId: sessionId, operationId: started.body.operationId, issueId: started.body.issue.id, answer, runStatus: "succeeded" },
    });
    const types = (await eventsOf(C)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["wiki.query.started", "wiki.query.progress", "wiki.query.answered"]));
    const operation = (await get(`${WIKI}/operations?companyId=${C}&operationType=query`)).body.operations[0];
    expect(operation).toMatchObject({ id: started.body.operationId, status: "succeeded", issueId: started.body.issue.id, runId: answered.data.runId });

    // The maintainer was invoked with the issue and the plugin's tools in its context.
    const received = (await (await fetch(`${FAKE}/__received/${endpoint}`)).json()) as any[];
    expect(received[0].body.context).toMatchObject({
      issueId: started.body.issue.id,
      pluginTools: expect.arrayContaining(["knowledge-wiki:wiki_search", "knowledge-wiki:wiki_write_page"]),
    });

    const filed = await post(`${WIKI}/file-as-page`, { companyId: C, path: "wiki/synthesis/deploy-days.md", querySessionId: sessionId });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ path: "wiki/synthesis/deploy-days.md", previousHash: null, page: { title: "Deploy days", pageType: "synthesis" } });
    const page = await toolData(w, "wiki_read_page", { path: "wiki/synthesis/deploy-days.md" });
    expect(page.contents).toBe(`# Deploy days\n\n> When do we deploy?\n\n${answer}\n`);
    expect(page.hash).toBe(filed.body.hash);
    const session = await testD1.prepare("SELECT status, filed_path AS filedPath, answer FROM wiki_query_sessions WHERE id = ?").bind(sessionId).first();
    expect(session).toEqual({ status: "filed", filedPath: "wiki/synthesis/deploy-days.md", answer });
    const filedEvent = (await eventsOf(C)).filter((e) => e.type === "wiki.page_written").at(-1)!;
    expect(filedEvent.data).toMatchObject({ path: "wiki/synthesis/deploy-days.md", operationType: "file_as_page", querySessionId: sessionId });
    // Filing again over it needs the current hash.
    expect(
      (await post(`${WIKI}/file-as-page`, { companyId: C, path: "wiki/synthesis/deploy-days.md", contents: "# v2\n", expectedHash: sha256Hex("old") })).status,
    ).toBe(409);
    expect(
      (await post(`${WIKI}/file-as-page`, { companyId: C, path: "wiki/synthesis/deploy-days.md", contents: "# v2\n", expectedHash: filed.body.hash })).status,
    ).toBe(201);
  });

  it("a maintainer run that fails ends the session failed; file-as-page refuses an unanswered session", async () => {
    const w = await wikiCompany();
    const C = w.company.id;
    const boot = (await post(`${WIKI}/bootstrap`, { companyId: C })).body;
    const maintainer = boot.managedAgent.id;
    expect(
      (await patch(`/api/agents/${maintainer}`, { adapterType: "http", adapterConfig: { url: `${FAKE}/agent/${unique("failing")}?statuses=400` } })).status,
    ).toBe(200);
    expect((await post(`/api/agents/${maintainer}/resume`)).status).toBe(200);
    const started = (await post(`${WIKI}/query-sessions`, { companyId: C, question: "Anything?" })).body;
    // A run of another agent about the same issue (mentioned on it, say) does not answer the session.
    const bystander = await agentWithKey(C);
    const otherRun = await insertRun(C, bystander.id, { issueId: started.issue.id, status: "running" });
    await updateRow(schema.heartbeatRuns, otherRun, { status: "succeeded", summary: "Not the maintainer's answer", updatedAt: new Date().toISOString() });
    const session = () =>
      testD1
        .prepare("SELECT status, run_id AS runId FROM wiki_query_sessions WHERE id = ?")
        .bind(started.querySessionId)
        .first<{ status: string; runId: string | null }>();
    expect(await session()).toEqual({ status: "running", runId: null });
    const early = await post(`${WIKI}/file-as-page`, { companyId: C, path: "wiki/answer.md", querySessionId: started.querySessionId });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/no answer yet/);
    await dispatch(C);
    const failed = await eventually(async () => (await eventsOf(C)).find((e) => e.type === "wiki.query.failed"), { what: "wiki.query.failed" });
    expect(failed.data).toMatchObject({ querySessionId: started.querySessionId, runStatus: "failed", answer: null });
    expect(await session()).toEqual({ status: "failed", runId: failed.data.runId });
    expect(failed.data.runId).not.toBe(otherRun);
    expect((await get(`${WIKI}/operations?companyId=${C}&operationType=query`)).body.operations[0].status).toBe("failed");
    // An explicit answer can still be filed, and an unknown session is 404.
    expect(
      (await post(`${WIKI}/file-as-page`, { companyId: C, path: "wiki/answer.md", querySessionId: started.querySessionId, answer: "Filed by hand." })).status,
    ).toBe(201);
    expect((await post(`${WIKI}/file-as-page`, { companyId: C, path: "wiki/other.md", querySessionId: crypto.randomUUID() })).status).toBe(404);
    expect((await post(`${WIKI}/file-as-page`, { companyId: C, path: "wiki/other.md" })).status).toBe(400);
  });
});

describe("wiki: events", () => {
  it("every wiki.* type of the catalogue is produced by the tests above (listed in the OpenAPI document)", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const described: string = doc.components.schemas.Event.properties.type.description;
    const wikiTypes = [...described.matchAll(/^- `(wiki\.[a-z_.]+)`/gm)].map((m) => m[1]);
    expect(wikiTypes.length).toBeGreaterThanOrEqual(11);
    const produced = await testD1.prepare("SELECT DISTINCT type FROM company_events WHERE type LIKE 'wiki.%'").all<{ type: string }>();
    expect(produced.results.map((r) => r.type).sort()).toEqual([...wikiTypes].sort());
  });
});
