// The knowledge wiki's page routes for board callers (/api/plugins/knowledge-wiki/api/pages, /page,
// /page/revisions, /page/backlinks, /search): a board member browses, reads with backlinks, follows
// revisions, searches and writes with expectedHash (a stale write is 409 with the current hash, as
// for the agent tool); the company's agents read but write only with their tools; other companies'
// callers are refused; bad input is 400.
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { boardUser } from "../helpers/fixtures";
import { ensureWikiReady, toolData, WIKI, wikiCompany } from "../helpers/wiki";
import { sha256Hex } from "../../src/crypto/hash";

beforeAll(ensureWikiReady);

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/** A company with its wiki, an agent in a run, and a board member (owner) with a key. */
async function boardWiki() {
  const w = await wikiCompany();
  const member = await boardUser(w.company.id);
  const as = { token: member.token };
  const writePage = (body: Record<string, unknown>, options = as) => post(`${WIKI}/pages`, { companyId: w.company.id, ...body }, options);
  const read = (route: string, params: Record<string, string | number> = {}, options: { token?: string } = as) =>
    get(`${WIKI}${route}?${q({ companyId: w.company.id, ...params })}`, options);
  return { ...w, member, as, writePage, read };
}

describe("wiki pages for board callers", () => {
  it("a board member writes, lists, reads with backlinks, follows revisions and backlinks, and searches", async () => {
    const w = await boardWiki();
    const created = await w.writePage({ path: "wiki/concepts/deploys.md", contents: "# Deploys\n\nBlue-green on Tuesdays.\n", summary: "first" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      path: "wiki/concepts/deploys.md",
      hash: sha256Hex("# Deploys\n\nBlue-green on Tuesdays.\n"),
      previousHash: null,
      created: true,
      unchanged: false,
      page: { title: "Deploys", pageType: "concept" },
      operationId: expect.any(String),
    });
    // Another page links to it (a [[wiki link]]); the agent writes one with its tool.
    expect((await w.writePage({ path: "wiki/areas/ops.md", contents: "# Ops\n\nSee [[concepts/deploys]] for the rollout.\n" })).status).toBe(200);
    const byAgent = await toolData(w, "wiki_write_page", { path: "wiki/entities/acme.md", contents: "# Acme\n\nDeploys weekly.\n" });

    const pages = await w.read("/pages");
    expect(pages.status).toBe(200);
    expect(pages.body.pages.map((p: any) => p.path)).toEqual(["wiki/areas/ops.md", "wiki/concepts/deploys.md", "wiki/entities/acme.md"]);
    expect(pages.body.pages[1]).toMatchObject({ title: "Deploys", pageType: "concept", hash: created.body.hash, revisionId: created.body.revisionId });
    expect((await w.read("/pages", { prefix: "wiki/concepts/" })).body.pages.map((p: any) => p.path)).toEqual(["wiki/concepts/deploys.md"]);
    expect((await w.read("/pages", { limit: 1 })).body.pages).toHaveLength(1);

    const page = await w.read("/page", { path: "wiki/concepts/deploys.md" });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      path: "wiki/concepts/deploys.md",
      contents: "# Deploys\n\nBlue-green on Tuesdays.\n",
      hash: created.body.hash,
      backlinks: ["wiki/areas/ops.md"],
    });

    const updated = await w.writePage({
      path: "wiki/concepts/deploys.md",
      contents: "# Deploys\n\nBlue-green on Tuesdays and Thursdays.\n",
      expectedHash: page.body.hash,
      summary: "twice a week",
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ created: false, previousHash: created.body.hash, backlinks: ["wiki/areas/ops.md"] });
    // The same contents again: nothing written.
    expect((await w.writePage({ path: "wiki/concepts/deploys.md", contents: "# Deploys\n\nBlue-green on Tuesdays and Thursdays.\n" })).body).toMatchObject({
      unchanged: true,
      revisionId: updated.body.revisionId,
      operationId: null,
    });

    const revisions = await w.read("/page/revisions", { path: "wiki/concepts/deploys.md" });
    expect(revisions.status).toBe(200);
    expect(revisions.body).toEqual({
      path: "wiki/concepts/deploys.md",
      revisions: [
        expect.objectContaining({
          revisionId: updated.body.revisionId,
          change: "write",
          hash: updated.body.hash,
          previousHash: created.body.hash,
          summary: "twice a week",
          createdByUserId: w.member.id,
          createdByAgentId: null,
          runId: null,
        }),
        expect.objectContaining({ revisionId: created.body.revisionId, hash: created.body.hash, previousHash: null, summary: "first" }),
      ],
    });
    expect((await w.read("/page/revisions", { path: "wiki/concepts/deploys.md", limit: 1 })).body.revisions).toHaveLength(1);
    // A page the agent wrote names the agent and its run; a moved page keeps its history under the new path.
    expect((await w.read("/page/revisions", { path: "wiki/entities/acme.md" })).body.revisions).toEqual([
      expect.objectContaining({ revisionId: byAgent.revisionId, createdByAgentId: w.agent.id, createdByUserId: null, runId: w.runId }),
    ]);
    await toolData(w, "wiki_move_page", { path: "wiki/entities/acme.md", newPath: "wiki/entities/acme-corp.md" });
    expect((await w.read("/page/revisions", { path: "wiki/entities/acme-corp.md" })).body.revisions.map((r: any) => [r.change, r.path])).toEqual([
      ["move", "wiki/entities/acme-corp.md"],
      ["write", "wiki/entities/acme.md"],
    ]);

    const backlinks = await w.read("/page/backlinks", { path: "wiki/concepts/deploys.md" });
    expect(backlinks.status).toBe(200);
    expect(backlinks.body).toEqual({ path: "wiki/concepts/deploys.md", backlinks: ["wiki/areas/ops.md"] });
    // A link to a page that does not exist yet is still a link.
    expect((await w.writePage({ path: "wiki/areas/plans.md", contents: "# Plans\n\n[[concepts/rollback]]\n" })).status).toBe(200);
    expect((await w.read("/page/backlinks", { path: "wiki/concepts/rollback.md" })).body.backlinks).toEqual(["wiki/areas/plans.md"]);

    const search = await w.read("/search", { q: "thursdays" });
    expect(search.status).toBe(200);
    expect(search.body.query).toBe("thursdays");
    expect(search.body.results).toEqual([
      expect.objectContaining({
        kind: "page",
        path: "wiki/concepts/deploys.md",
        title: "Deploys",
        hash: updated.body.hash,
        snippet: expect.stringContaining("**Thursdays**"),
      }),
    ]);
    expect((await w.read("/search", { q: "deploys" })).body.results.length).toBeGreaterThan(1);
    expect((await w.read("/search", { q: "deploys", limit: 1 })).body.results).toHaveLength(1);
    expect((await w.read("/search", { q: "nothing-like-this" })).body.results).toEqual([]);

    // Board callers may write the control files agents may not.
    expect((await w.writePage({ path: "AGENTS.md", contents: "# Agents\n\nBe brief.\n" })).status).toBe(200);
    expect((await w.tool("wiki_write_page", { path: "AGENTS.md", contents: "# Agents\n\nBe verbose.\n" })).status).toBe(403);
    // Every write is a wiki.page_written event like the tool's.
    const events = (await get(`/api/companies/${w.company.id}/events?limit=500`)).body.events.filter((e: any) => e.type === "wiki.page_written");
    expect(events.filter((e: any) => e.actor.type === "user" && e.actor.id === w.member.id).length).toBeGreaterThanOrEqual(4);
  });

  it("a stale expectedHash is 409 with details.currentHash; of two board writers holding one hash, one wins", async () => {
    const w = await boardWiki();
    const base = await w.writePage({ path: "wiki/synthesis/plan.md", contents: "# Plan\n\nv1\n" });
    // The agent writes in between: the board's hash is stale.
    const agentWrite = await toolData(w, "wiki_write_page", {
      path: "wiki/synthesis/plan.md",
      contents: "# Plan\n\nv2 by the agent\n",
      expectedHash: base.body.hash,
    });
    const stale = await w.writePage({ path: "wiki/synthesis/plan.md", contents: "# Plan\n\nv2 by the board\n", expectedHash: base.body.hash });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: expect.stringContaining("Stale write"),
      details: { path: "wiki/synthesis/plan.md", expectedHash: base.body.hash, currentHash: agentWrite.hash },
    });
    // A hash for a page that does not exist: 409 with currentHash null.
    const absent = await w.writePage({ path: "wiki/synthesis/none.md", contents: "x", expectedHash: sha256Hex("anything") });
    expect(absent.status).toBe(409);
    expect(absent.body.details).toMatchObject({ currentHash: null });

    // Two board members with the same hash at once.
    const second = await boardUser(w.company.id, "member");
    const [a, b] = await Promise.all([
      w.writePage({ path: "wiki/synthesis/plan.md", contents: "# Plan\n\nv3 by A\n", expectedHash: agentWrite.hash }),
      w.writePage({ path: "wiki/synthesis/plan.md", contents: "# Plan\n\nv3 by B\n", expectedHash: agentWrite.hash }, { token: second.token }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [winner, loser] = a.status === 200 ? [a, b] : [b, a];
    expect(loser.body.details).toMatchObject({ currentHash: winner.body.hash });
    // The loser reads again and writes with the current hash.
    const current = await w.read("/page", { path: "wiki/synthesis/plan.md" });
    expect(current.body.hash).toBe(winner.body.hash);
    expect((await w.writePage({ path: "wiki/synthesis/plan.md", contents: "# Plan\n\nmerged\n", expectedHash: current.body.hash })).status).toBe(200);
    // One revision per successful write: v1, the agent's, the winner's, the merge.
    expect((await w.read("/page/revisions", { path: "wiki/synthesis/plan.md" })).body.revisions).toHaveLength(4);
  });

  it("the company's agents read (not board-only spaces) but may not write; other companies' callers are refused; unknown company 404", async () => {
    const w = await boardWiki();
    const other = await wikiCompany();
    const otherOwner = await boardUser(other.company.id);
    expect((await w.writePage({ path: "wiki/a.md", contents: "# A\n\nalpha\n" })).status).toBe(200);
    const agent = { token: w.agent.token };
    const reads: Array<[string, Record<string, string>]> = [
      ["/pages", {}],
      ["/page", { path: "wiki/a.md" }],
      ["/page/revisions", { path: "wiki/a.md" }],
      ["/page/backlinks", { path: "wiki/a.md" }],
      ["/search", { q: "alpha" }],
    ];
    for (const [route, params] of reads) expect((await w.read(route, params, agent)).status, route).toBe(200);
    // Agents write with their tools (their run recorded, control files refused), not this route.
    expect((await w.writePage({ path: "wiki/b.md", contents: "x" }, agent)).status).toBe(403);

    // A board-only space: its pages are the board's.
    expect((await post(`${WIKI}/spaces`, { companyId: w.company.id, slug: "board", accessScope: "board" })).status).toBe(201);
    expect((await w.writePage({ spaceSlug: "board", path: "wiki/secret.md", contents: "# Secret\n" })).status).toBe(200);
    expect((await w.read("/pages", { spaceSlug: "board" })).body.pages.map((p: any) => p.path)).toEqual(["wiki/secret.md"]);
    for (const [route, params] of reads) expect((await w.read(route, { ...params, spaceSlug: "board" }, agent)).status, route).toBe(403);
    // An unknown space is 404 (the default space reads as empty until written).
    expect((await w.read("/pages", { spaceSlug: "nope" })).status).toBe(404);
    expect((await w.writePage({ spaceSlug: "nope", path: "wiki/x.md", contents: "x" })).status).toBe(404);

    // Another company's board member and agent, naming this company.
    for (const token of [otherOwner.token, other.agent.token]) {
      for (const [route, params] of reads) expect((await w.read(route, params, { token })).status, route).toBe(403);
      expect((await w.writePage({ path: "wiki/a.md", contents: "pwned" }, { token })).status).toBe(403);
    }
    // A board user of no company at all.
    const outsider = await boardUser();
    expect((await w.read("/page", { path: "wiki/a.md" }, { token: outsider.token })).status).toBe(403);
    expect((await w.writePage({ path: "wiki/a.md", contents: "pwned" }, { token: outsider.token })).status).toBe(403);
    expect((await w.read("/page", { path: "wiki/a.md" })).body.contents).toBe("# A\n\nalpha\n");
    // The other company's own wiki is its own: this company's page is not there.
    expect((await get(`${WIKI}/page?${q({ companyId: other.company.id, path: "wiki/a.md" })}`, { token: otherOwner.token })).status).toBe(404);
    expect((await get(`${WIKI}/pages?${q({ companyId: crypto.randomUUID() })}`)).status).toBe(404);
    expect((await post(`${WIKI}/pages`, { companyId: crypto.randomUUID(), path: "wiki/a.md", contents: "x" })).status).toBe(404);
  });

  it("bad input is 400 (paths, limits, queries, hashes, bodies); a missing page is 404; bodies must be JSON (415)", async () => {
    const w = await boardWiki();
    await w.writePage({ path: "wiki/a.md", contents: "# A\n" });
    const bad: Array<[string, Record<string, string | number>]> = [
      ["/pages", { limit: 0 }],
      ["/pages", { limit: 1001 }],
      ["/pages", { wikiId: "Not A Slug" }],
      ["/page", {}],
      ["/page", { path: "wiki/../secrets.md" }],
      ["/page", { path: "wiki\\a.md" }],
      ["/page", { path: "wiki//a.md" }],
      ["/page", { path: "notes/a.txt" }],
      ["/page/revisions", { path: "wiki/a.md", limit: "x" }],
      ["/page/backlinks", { path: "" }],
      ["/search", {}],
      ["/search", { q: "" }],
      ["/search", { q: "!!!" }],
      ["/search", { q: "a".repeat(501) }],
      ["/search", { q: "a", limit: 51 }],
    ];
    for (const [route, params] of bad) {
      const res = await w.read(route, params);
      expect(res.status, `${route} ${JSON.stringify(params)}`).toBe(400);
      expect(res.body.error, route).toEqual(expect.any(String));
    }
    expect((await get(`${WIKI}/pages`)).status).toBe(400);
    expect((await get(`${WIKI}/pages?companyId=not-a-uuid`)).status).toBe(400);

    for (const body of [
      { path: "wiki/b.md" },
      { contents: "x" },
      { path: "wiki/../b.md", contents: "x" },
      { path: "wiki/b.txt", contents: "x" },
      { path: "wiki/b.md", contents: "x", expectedHash: "not-a-hash" },
      { path: "wiki/b.md", contents: 42 },
      { path: "wiki/b.md", contents: "x", surprise: true },
      { path: "wiki/b.md", contents: "x".repeat(512 * 1024 + 1) },
    ]) {
      const res = await w.writePage(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await post(`${WIKI}/pages`, { path: "wiki/b.md", contents: "x" })).status).toBe(400);
    const text = await call("POST", `${WIKI}/pages`, {
      rawBody: JSON.stringify({ companyId: w.company.id, path: "wiki/b.md", contents: "x" }),
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);

    expect((await w.read("/page", { path: "wiki/missing.md" })).status).toBe(404);
    expect((await w.read("/page/revisions", { path: "wiki/missing.md" })).status).toBe(404);
    // Nothing of the refused writes was stored.
    expect((await w.read("/pages")).body.pages.map((p: any) => p.path)).toEqual(["wiki/a.md"]);
  });
});
