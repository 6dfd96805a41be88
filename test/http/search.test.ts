// The company search (GET /api/companies/{companyId}/search): what it finds in each kind (issues,
// agents, projects, issue documents, wiki pages), its order (an exact identifier or name first, then
// names starting with q, containing it, then other fields), its limits, who may call it, bad input,
// the wiki only while its plugin is ready, and one round trip per database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHENTICATED, directoryRoundTrips, get, post, put, roundTrips, type CallOptions } from "../helpers/api";
import { agentWithKey, boardUser, createCompany, createIssue, insertAgent, insertProject, schema, updateRow } from "../helpers/fixtures";
import { ensureWikiReady, WIKI } from "../helpers/wiki";

beforeAll(ensureWikiReady);
afterAll(ensureWikiReady);

const search = (companyId: string, params: Record<string, string | number>, options: CallOptions = {}) =>
  get(`/api/companies/${companyId}/search?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, options);
const found = (res: { body: any }) => res.body.results.map((r: any) => `${r.kind}:${r.title}`);

async function putDocument(issueId: string, key: string, title: string | null, body: string) {
  const res = await put(`/api/issues/${issueId}/documents/${key}`, { title, body });
  expect(res.status).toBe(201);
  return res.body;
}

async function writeWikiPage(companyId: string, path: string, contents: string, spaceSlug?: string) {
  const res = await post(`${WIKI}/pages`, { companyId, path, contents, ...(spaceSlug ? { spaceSlug } : {}) });
  expect(res.status).toBe(200);
  return res.body;
}

describe("company search", () => {
  it("finds each kind of the company only, best first: exact names, then names starting with q, containing it, then other fields", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const launch = await createIssue(company.id, { title: "Falcon launch checklist", description: "Steps before go-live." });
    const demo = await createIssue(company.id, { title: "Prepare the falcon demo" });
    const review = await createIssue(company.id, {
      title: "Quarterly review",
      description: `${"Background. ".repeat(10)}We compare the FALCON numbers with last quarter's, line by line, ${"and more. ".repeat(20)}`,
    });
    const hidden = await createIssue(company.id, { title: "Falcon hidden" });
    await updateRow(schema.issues, hidden.id, { hiddenAt: new Date().toISOString() });
    const falcon = await insertAgent(company.id, { name: "Falcon" });
    const wrangler = await insertAgent(company.id, { name: "Ops" });
    await updateRow(schema.agents, wrangler.id, { title: "Falcon wrangler" });
    await insertAgent(company.id, { name: "Falcon Old", status: "terminated" });
    const rollout = await insertProject(company.id, "Falcon Rollout");
    const infra = await insertProject(company.id, "Infra", { description: "Hosts the falcon services." });
    const plan = await putDocument(review.id, "plan", "Falcon plan", "# Plan\n\nShip it.");
    const notes = await putDocument(launch.id, "notes", null, "Notes: the falcon lands on Tuesday.");
    await putDocument(hidden.id, "plan", "Falcon plan of a hidden issue", "falcon");
    const page = await writeWikiPage(company.id, "wiki/concepts/falcon.md", "# Falcon\n\nThe falcon program, in short.\n");
    // Another company's matches stay there.
    await createIssue(other.id, { title: "Falcon elsewhere" });
    await insertAgent(other.id, { name: "Falcon" });
    await writeWikiPage(other.id, "wiki/falcon.md", "# Falcon\n\nOther company.\n");

    const res = await search(company.id, { q: "falcon" });
    expect(res.status).toBe(200);
    expect(found(res)).toEqual([
      // Exact: the agent named Falcon, the page titled Falcon.
      "agent:Falcon",
      "wiki_page:Falcon",
      // Name or title starting with q.
      "issue:Falcon launch checklist",
      "project:Falcon Rollout",
      "document:Falcon plan",
      // Containing q.
      "issue:Prepare the falcon demo",
      // Another field.
      "issue:Quarterly review",
      "agent:Ops",
      "project:Infra",
      "document:notes",
    ]);
    const byKind = (kind: string, title: string) => res.body.results.find((r: any) => r.kind === kind && r.title === title);
    expect(byKind("issue", "Falcon launch checklist")).toEqual({
      kind: "issue",
      id: launch.id,
      identifier: launch.identifier,
      title: "Falcon launch checklist",
      snippet: "Steps before go-live.",
    });
    expect(byKind("issue", "Prepare the falcon demo")).toMatchObject({ id: demo.id, snippet: "" });
    const reviewSnippet = byKind("issue", "Quarterly review").snippet as string;
    expect(reviewSnippet).toMatch(/^….*FALCON numbers.*…$/);
    expect(reviewSnippet.length).toBeLessThanOrEqual(182);
    expect(byKind("agent", "Falcon")).toEqual({ kind: "agent", id: falcon.id, title: "Falcon", snippet: "engineer" });
    expect(byKind("agent", "Ops")).toMatchObject({ id: wrangler.id, snippet: "Falcon wrangler" });
    expect(byKind("project", "Falcon Rollout")).toMatchObject({ id: rollout.id, snippet: "" });
    expect(byKind("project", "Infra")).toMatchObject({ id: infra.id, snippet: "Hosts the falcon services." });
    expect(byKind("document", "Falcon plan")).toEqual({
      kind: "document",
      id: plan.id,
      title: "Falcon plan",
      snippet: "# Plan Ship it.",
      issueId: review.id,
      issueIdentifier: review.identifier,
      key: "plan",
    });
    expect(byKind("document", "notes")).toMatchObject({ id: notes.id, issueId: launch.id, snippet: "Notes: the falcon lands on Tuesday." });
    expect(byKind("wiki_page", "Falcon")).toEqual({
      kind: "wiki_page",
      id: expect.any(String),
      title: "Falcon",
      snippet: expect.stringContaining("falcon program"),
      wikiId: "default",
      spaceSlug: "default",
      path: page.path,
    });

    // Case and surrounding spaces do not matter; punctuation is literal; no match is an empty list.
    expect(found(await search(company.id, { q: "  FALCON  " }))).toEqual(found(res));
    expect((await search(company.id, { q: "fal%on" })).body.results).toEqual([]);
    expect((await search(company.id, { q: "nothing like this" })).body).toEqual({ results: [] });
    // Words the wiki index cannot use (punctuation only) still search the rest.
    expect((await search(company.id, { q: "-" })).status).toBe(200);
  });

  it("an exact identifier comes first even past the issue list's page; an exact name before names starting with it", async () => {
    const company = await createCompany();
    const issues = [];
    for (let i = 1; i <= 11; i++) issues.push(await createIssue(company.id, { title: `Task ${i}` }));
    const first = issues[0];
    // Its identifier in a title ranks before every identifier match in the issue list.
    const followUp = await createIssue(company.id, { title: `${first.identifier} follow-up` });
    const lower = first.identifier.toLowerCase();
    expect(found(await search(company.id, { q: lower, limit: 1 }))).toEqual([`issue:${first.title}`]);
    const three = await search(company.id, { q: lower, limit: 3 });
    expect(three.body.results.map((r: any) => r.id)).toEqual([first.id, followUp.id, expect.any(String)]);
    expect(three.body.results[0]).toMatchObject({ kind: "issue", identifier: first.identifier });

    await insertAgent(company.id, { name: "Atlas Prime" });
    await insertAgent(company.id, { name: "Atlas" });
    await insertProject(company.id, "atlas");
    expect(found(await search(company.id, { q: "Atlas" }))).toEqual(["agent:Atlas", "project:atlas", "agent:Atlas Prime"]);
  });

  it("limit: default 20, at most 50; results are cut after ordering", async () => {
    const company = await createCompany();
    for (let i = 0; i < 24; i++) await insertAgent(company.id, { name: `Zed ${String(i).padStart(2, "0")}` });
    await insertAgent(company.id, { name: "Zed" });
    const byDefault = await search(company.id, { q: "zed" });
    expect(byDefault.body.results).toHaveLength(20);
    expect(byDefault.body.results[0].title).toBe("Zed");
    expect((await search(company.id, { q: "zed", limit: 50 })).body.results).toHaveLength(25);
    expect(found(await search(company.id, { q: "zed", limit: 2 }))).toEqual(["agent:Zed", "agent:Zed 00"]);
  });

  it("board members and the company's agents search; other companies' callers are refused; unknown company 404; no caller 401", async () => {
    const company = await createCompany();
    const other = await createCompany();
    await createIssue(company.id, { title: "Orchid migration" });
    const member = await boardUser(company.id, "viewer");
    const agent = await agentWithKey(company.id);
    for (const token of [member.token, agent.token]) {
      const res = await search(company.id, { q: "orchid" }, { token });
      expect(res.status).toBe(200);
      expect(found(res)).toEqual(["issue:Orchid migration"]);
    }
    const otherOwner = await boardUser(other.id);
    const otherAgent = await agentWithKey(other.id);
    const outsider = await boardUser();
    for (const token of [otherOwner.token, otherAgent.token, outsider.token]) {
      const res = await search(company.id, { q: "orchid" }, { token });
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual(expect.any(String));
    }
    // Their own company does not show this one's issues.
    expect((await search(other.id, { q: "orchid" }, { token: otherOwner.token })).body.results).toEqual([]);
    expect((await search(crypto.randomUUID(), { q: "orchid" })).status).toBe(404);
    expect((await search(company.id, { q: "orchid" }, { env: AUTHENTICATED })).status).toBe(401);
  });

  it("bad input is 400: q missing, empty, blank or over 200 characters; limit outside 1..50 or not a number", async () => {
    const company = await createCompany();
    for (const params of [
      {},
      { q: "" },
      { q: "   " },
      { q: "x".repeat(201) },
      { q: "x", limit: 0 },
      { q: "x", limit: 51 },
      { q: "x", limit: "many" },
      { q: "x", limit: 1.5 },
    ]) {
      const res = await search(company.id, params as Record<string, string | number>);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
      expect(res.body.details).toBeDefined();
    }
    expect((await search(company.id, { q: "x".repeat(200) })).status).toBe(200);
  });

  it("wiki pages: board-only spaces for board callers only, archived spaces left out, none while the plugin is not ready", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    await writeWikiPage(company.id, "wiki/kestrel.md", "# Kestrel\n\nOpen to the company.\n");
    expect((await post(`${WIKI}/spaces`, { companyId: company.id, slug: "board", accessScope: "board" })).status).toBe(201);
    await writeWikiPage(company.id, "wiki/kestrel-board.md", "# Kestrel board notes\n\nFor the board.\n", "board");
    expect((await post(`${WIKI}/spaces`, { companyId: company.id, slug: "old" })).status).toBe(201);
    await writeWikiPage(company.id, "wiki/kestrel-old.md", "# Kestrel archive\n\nGone.\n", "old");
    expect((await post(`${WIKI}/spaces/old/archive`, { companyId: company.id })).status).toBe(200);

    const asBoard = await search(company.id, { q: "kestrel" });
    expect(asBoard.body.results.map((r: any) => [r.title, r.spaceSlug])).toEqual([
      ["Kestrel", "default"],
      ["Kestrel board notes", "board"],
    ]);
    expect(found(await search(company.id, { q: "kestrel" }, { token: agent.token }))).toEqual(["wiki_page:Kestrel"]);

    try {
      expect((await post("/api/plugins/knowledge-wiki/disable")).status).toBe(200);
      const disabled = await search(company.id, { q: "kestrel" });
      expect(disabled.status).toBe(200);
      expect(disabled.body.results).toEqual([]);
    } finally {
      await ensureWikiReady();
    }
    expect(found(await search(company.id, { q: "kestrel" }))).toHaveLength(2);
  });

  it("one batch: the company's shard once and, beside it, the directory once (the wiki plugin's status)", async () => {
    const company = await createCompany();
    await createIssue(company.id, { title: "Heron" });
    const res = await search(company.id, { q: "heron" });
    expect(res.status).toBe(200);
    // One batch, run on both databases at once: the shard (access, every kind) and the directory (the plugin).
    expect(roundTrips(res)).toMatchObject({ handler: 2, command: 0, objectCalls: 0 });
    expect(directoryRoundTrips(res).handler).toBe(1);
  });
});
