// The pure parts behind the console's newer pages, run in Node with the browser suite (they need no
// browser): the document revision diff, the org chart from reportsTo (and whom an agent may report
// to), goals as a tree, how an agent's configuration shows secrets only as references, what the
// agent settings form sends (only what changed) and where it shows the API's refusals, what waits on
// you (questions, blocked issues, the navigation's count), and how a wiki page's links are read (the
// same pages as the wiki's own reading).
import { describe, expect, it } from "vitest";
import { type AdapterField, type Agent, REDACTED, settingsDraft, settingsPatch } from "../../src/console/lib/agent-settings";
import { fieldErrors, placeErrors } from "../../src/console/lib/field-errors";
import { configRows } from "../../src/console/lib/config-view";
import { goalTree } from "../../src/console/lib/goal-tree";
import { diffLines, diffStats, foldUnchanged } from "../../src/console/lib/line-diff";
import { managerChoices, orgChart } from "../../src/console/lib/org-chart";
import { askedOf, blockedOnYou, type CompanyQuestion, waitingCount } from "../../src/console/lib/inbox-items";
import { linkWikiLinks, relativePagePath, snippetParts, wikiLinkPath } from "../../src/console/lib/wiki-links";
import { linkedPaths } from "../../src/domain/wiki/links";

describe("line diff", () => {
  it("marks added, removed and unchanged lines in order", () => {
    const lines = diffLines("title\none\ntwo\nthree\nend", "title\none\n2\nthree\nfour\nend");
    expect(lines).toEqual([
      { op: "same", text: "title" },
      { op: "same", text: "one" },
      { op: "del", text: "two" },
      { op: "add", text: "2" },
      { op: "same", text: "three" },
      { op: "add", text: "four" },
      { op: "same", text: "end" },
    ]);
    expect(diffStats(lines)).toEqual({ added: 2, removed: 1 });
  });

  it("finds the longest common run when lines move, and handles empty texts and CRLF", () => {
    const lines = diffLines("a\nb\nc\nd", "b\nc\nd\na");
    expect(diffStats(lines)).toEqual({ added: 1, removed: 1 });
    expect(lines.filter((l) => l.op === "same").map((l) => l.text)).toEqual(["b", "c", "d"]);
    expect(diffLines("", "x\ny")).toEqual([
      { op: "add", text: "x" },
      { op: "add", text: "y" },
    ]);
    expect(diffLines("x\r\ny", "x\ny")).toEqual([
      { op: "same", text: "x" },
      { op: "same", text: "y" },
    ]);
  });

  it("a change too large to compare line by line shows as removed and added whole", () => {
    const before = Array.from({ length: 2500 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 2500 }, (_, i) => `new ${i}`).join("\n");
    expect(diffStats(diffLines(before, after))).toEqual({ added: 2500, removed: 2500 });
  });

  it("folds long unchanged stretches to three lines of context around each change", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const after = [...before];
    after[10] = "changed";
    const blocks = foldUnchanged(diffLines(before.join("\n"), after.join("\n")));
    expect(blocks.map((b) => (b.kind === "skipped" ? `skip ${b.count}` : `lines ${b.lines.length}`))).toEqual(["skip 7", "lines 8", "skip 6"]);
  });
});

describe("org chart", () => {
  const agent = (id: string, name: string, reportsTo: string | null = null) => ({ id, name, reportsTo });

  it("nests each agent under the agent it reports to, names in order; roots report to the board", () => {
    const forest = orgChart([agent("c", "Cy", "a"), agent("a", "Ada"), agent("b", "Bea", "a"), agent("d", "Dex", "b"), agent("e", "Eve")]);
    const shape = (nodes: ReturnType<typeof orgChart<ReturnType<typeof agent>>>): unknown[] =>
      nodes.map((n) => (n.reports.length ? { [n.agent.name]: shape(n.reports) } : n.agent.name));
    expect(shape(forest)).toEqual([{ Ada: [{ Bea: ["Dex"] }, "Cy"] }, "Eve"]);
  });

  it("an agent whose manager is not listed (terminated) is a root; a cycle still shows every agent once", () => {
    expect(orgChart([agent("b", "Bea", "gone")]).map((n) => n.agent.name)).toEqual(["Bea"]);
    const cycle = orgChart([agent("x", "X", "y"), agent("y", "Y", "x")]);
    const names: string[] = [];
    const walk = (nodes: typeof cycle) => nodes.forEach((n) => (names.push(n.agent.name), walk(n.reports)));
    walk(cycle);
    expect(names.sort()).toEqual(["X", "Y"]);
  });

  it("an agent may report to anyone but itself and those under it, by name", () => {
    const list = [agent("a", "Ada"), agent("b", "Bea", "a"), agent("d", "Dex", "b"), agent("c", "Cy"), agent("e", "Eve", "c")];
    expect(managerChoices(list, "a").map((a) => a.name)).toEqual(["Cy", "Eve"]);
    expect(managerChoices(list, "b").map((a) => a.name)).toEqual(["Ada", "Cy", "Eve"]);
    expect(managerChoices(list, "d").map((a) => a.name)).toEqual(["Ada", "Bea", "Cy", "Eve"]);
  });
});

describe("goal tree", () => {
  it("puts sub-goals under their parent and goals with an unknown parent at the top", () => {
    const tree = goalTree([
      { id: "1", parentId: null },
      { id: "2", parentId: "1" },
      { id: "3", parentId: "2" },
      { id: "4", parentId: "missing" },
    ]);
    expect(tree.map((n) => n.goal.id)).toEqual(["1", "4"]);
    expect(tree[0].children[0].goal.id).toBe("2");
    expect(tree[0].children[0].children[0].goal.id).toBe("3");
  });
});

describe("agent configuration", () => {
  it("shows secret references by id and version, hides strings under secret-like keys, flattens the rest", () => {
    const rows = configRows({
      url: "https://agents.example.com/wake",
      env: {
        OPENAI_API_KEY: { type: "secret_ref", secretId: "s-1", version: "latest" },
        REGION: { type: "plain", value: "eu" },
        DB_PASSWORD: { type: "plain", value: "hunter2" },
      },
      headers: { "x-team": "core", Authorization: "***REDACTED***" },
      timeoutSec: 30,
      args: ["--fast", "--quiet"],
      payloadTemplate: {},
    });
    expect(rows).toEqual([
      { path: "url", value: { kind: "text", text: "https://agents.example.com/wake" } },
      { path: "env.OPENAI_API_KEY", value: { kind: "secret", secretId: "s-1", version: "latest" } },
      { path: "env.REGION", value: { kind: "text", text: "eu" } },
      { path: "env.DB_PASSWORD", value: { kind: "hidden" } },
      { path: "headers.x-team", value: { kind: "text", text: "core" } },
      { path: "headers.Authorization", value: { kind: "hidden" } },
      { path: "timeoutSec", value: { kind: "text", text: "30" } },
      { path: "args", value: { kind: "text", text: "--fast, --quiet" } },
      { path: "payloadTemplate", value: { kind: "empty" } },
    ]);
    expect(JSON.stringify(rows)).not.toContain("hunter2");
  });
});

describe("agent settings", () => {
  const field = (name: string, type: AdapterField["type"], extra: Partial<AdapterField> = {}): AdapterField => ({
    name,
    type,
    required: false,
    secret: false,
    description: "",
    ...extra,
  });
  const fields = [
    field("url", "string", { required: true }),
    field("timeoutSec", "integer", { default: 30 }),
    field("headers", "object", { default: {} }),
    field("apiKey", "string", { secret: true }),
    field("stream", "boolean", { default: true }),
  ];
  const agent = {
    name: "Bea",
    title: null,
    role: "engineer",
    reportsTo: "a",
    capabilities: null,
    adapterType: "http",
    adapterConfig: {
      url: "https://bea.example.com",
      headers: { "x-team": "core", Authorization: REDACTED },
      apiKey: { type: "secret_ref", secretId: "s-1", version: 3 },
    },
    runtimeConfig: { heartbeat: { enabled: false, intervalSec: 600, jitterSec: 5 }, other: 1 },
  } as unknown as Agent;
  const adapter = { type: "http", fields } as never;

  it("shows a secret as the id of the company secret it refers to, never a value; objects as JSON; a box at its default", () => {
    const draft = settingsDraft(agent, adapter);
    expect(draft.adapter).toEqual({
      url: "https://bea.example.com",
      timeoutSec: "",
      headers: JSON.stringify(agent.adapterConfig?.headers, null, 2),
      apiKey: "s-1",
      stream: true,
    });
    expect(draft.heartbeat).toEqual({ intervalSec: "600", maxConcurrentRuns: "", maxRunsPerHour: "" });
  });

  it("sends only what changed: a cleared field as null, the secret as a reference, the heartbeat with its other keys", () => {
    const initial = settingsDraft(agent, adapter);
    const draft = {
      ...initial,
      title: " Lead ",
      reportsTo: "",
      adapter: { ...initial.adapter, timeoutSec: "45", url: "https://bea.example.com", apiKey: "s-2", stream: false },
      heartbeat: { ...initial.heartbeat, intervalSec: "", maxRunsPerHour: "12" },
    };
    expect(settingsPatch(agent, initial, initial, fields)).toEqual({ body: undefined, errors: {} });
    expect(settingsPatch(agent, initial, draft, fields)).toEqual({
      body: {
        title: "Lead",
        reportsTo: null,
        adapterConfig: { timeoutSec: 45, apiKey: { type: "secret_ref", secretId: "s-2", version: "latest" }, stream: false },
        runtimeConfig: { heartbeat: { enabled: false, jitterSec: 5, maxRunsPerHour: 12 }, other: 1 },
      },
      errors: {},
    });
  });

  it("refuses text it cannot send: bad JSON, a hidden value sent back, a number that is not one", () => {
    const initial = settingsDraft(agent, adapter);
    const bad = (adapterValues: Record<string, string>) =>
      settingsPatch(agent, initial, { ...initial, adapter: { ...initial.adapter, ...adapterValues } }, fields).errors;
    expect(bad({ headers: "{ nope" })["adapterConfig.headers"]).toMatch(/Not valid JSON/);
    expect(bad({ headers: "[]" })["adapterConfig.headers"]).toBe("Must be a JSON object.");
    expect(bad({ headers: JSON.stringify({ "x-team": "ops", Authorization: REDACTED }) })["adapterConfig.headers"]).toMatch(/Hidden values/);
    expect(bad({ timeoutSec: "1.5" })["adapterConfig.timeoutSec"]).toBe("Enter a whole number.");
  });

  it("a new adapter type replaces the configuration with what is set (a box only when it differs from its default)", () => {
    const initial = settingsDraft(agent, adapter);
    const draft = { ...initial, adapterType: "llm_api", adapter: { url: "", timeoutSec: "10", headers: "", apiKey: "", stream: true } };
    expect(settingsPatch(agent, initial, draft, fields).body).toEqual({
      adapterType: "llm_api",
      replaceAdapterConfig: true,
      adapterConfig: { timeoutSec: 10 },
    });
  });

  it("places the API's refusals on the form's fields: zod paths, named fields, bare adapter fields and aliases", () => {
    const known = [
      "name",
      "reportsTo",
      "adapterType",
      "adapterConfig.url",
      "adapterConfig.headers",
      "adapterConfig.apiKey",
      "runtimeConfig.heartbeat.intervalSec",
    ];
    const place = (message: string, details: unknown) =>
      placeErrors(fieldErrors(message, details), known, { under: ["adapterConfig"], aliases: { urlKey: "name", adapterConfig: "adapterType" } });
    expect(place("Invalid adapterConfig for http", [{ path: ["adapterConfig", "url"], message: "url must be an http(s) URL" }])).toEqual({
      "adapterConfig.url": "url must be an http(s) URL",
    });
    expect(place("Invalid", [{ path: ["adapterConfig", "headers", "x-team"], message: "expected string" }])).toEqual({
      "adapterConfig.headers": "expected string",
    });
    expect(place("An agent cannot report to itself", { reportsTo: "a" })).toEqual({ reportsTo: "An agent cannot report to itself" });
    expect(place("adapterConfig.apiKey must be a secret value", { field: "apiKey" })).toEqual({
      "adapterConfig.apiKey": "adapterConfig.apiKey must be a secret value",
    });
    expect(place('Another agent already uses the shortname "ada"', { urlKey: "ada" })).toEqual({ name: 'Another agent already uses the shortname "ada"' });
    expect(place("Something else", { unrelated: 1 })).toEqual({});
    expect(place("No details", undefined)).toEqual({});
  });
});

describe("waiting on you", () => {
  const issue = (id: string, status: string) => ({ id, identifier: `ACME-${id}`, title: `Issue ${id}`, status }) as never;
  const question = (id: string, issueId: string, status = "open", askedOfUserId: string | null = null) =>
    ({ id, status, askedOfUserId, issue: { id: issueId, identifier: `ACME-${issueId}`, title: `Issue ${issueId}`, status: "blocked" } }) as CompanyQuestion;

  it("asks you what is asked of you or of the board", () => {
    expect(askedOf({ askedOfUserId: null }, "u1")).toBe(true);
    expect(askedOf({ askedOfUserId: "u1" }, "u1")).toBe(true);
    expect(askedOf({ askedOfUserId: "u2" }, "u1")).toBe(false);
  });

  it("blocked on you: blocked issues assigned to you, then issues with open questions, each once with why", () => {
    const assigned = [issue("1", "blocked"), issue("2", "todo")];
    const questions = [question("q1", "1"), question("q2", "3"), question("q3", "3"), question("q4", "4", "answered")];
    expect(blockedOnYou(assigned, questions).map((b) => [b.id, b.assignedBlocked, b.questions])).toEqual([
      ["1", true, 1],
      ["3", false, 2],
    ]);
  });

  it("counts each thing once", () => {
    expect(waitingCount({ decisions: 2, questions: 3, issueIds: ["1", "2", "1", "3"] })).toBe(8);
  });
});

describe("wiki links", () => {
  it("reads [[links]] as the wiki does", () => {
    for (const target of [
      "Deploy Guide",
      "concepts/cache",
      "concepts/cache|the cache",
      "concepts/cache#rollback",
      "wiki/areas/ops",
      "entities/acme.md",
      "AGENTS.md",
    ])
      expect(wikiLinkPath(target), target).toBe(linkedPaths("wiki/other.md", `[[${target}]]`)[0]);
  });

  it("makes [[links]] markdown links to the console, and reads relative .md links from the page", () => {
    expect(linkWikiLinks("See [[concepts/cache|the cache]] and [[Ops]].", (p) => `/W?path=${p}`)).toBe(
      "See [the cache](/W?path=wiki/concepts/cache.md) and [Ops](/W?path=wiki/ops.md).",
    );
    expect(relativePagePath("wiki/areas/ops.md", "../concepts/runbook.md")).toBe("wiki/concepts/runbook.md");
    expect(relativePagePath("wiki/areas/ops.md", "/wiki/b.md#top")).toBe("wiki/b.md");
    expect(relativePagePath("wiki/areas/ops.md", "wiki/c.md")).toBe("wiki/c.md");
    expect(relativePagePath("wiki/areas/ops.md", "https://example.com/a.md")).toBeNull();
    expect(relativePagePath("wiki/areas/ops.md", "/ACME/issues")).toBeNull();
  });

  it("marks a search snippet's matched words", () => {
    expect(snippetParts("Blue-green on **Tuesdays**.")).toEqual([
      { text: "Blue-green on ", match: false },
      { text: "Tuesdays", match: true },
      { text: ".", match: false },
    ]);
  });
});
