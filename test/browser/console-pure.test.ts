// The pure parts behind the console's newer pages, run in Node with the browser suite (they need no
// browser): the document revision diff, the org chart from reportsTo, goals as a tree, and how an
// agent's configuration shows secrets only as references.
import { describe, expect, it } from "vitest";
import { configRows } from "../../src/console/lib/config-view";
import { goalTree } from "../../src/console/lib/goal-tree";
import { diffLines, diffStats, foldUnchanged } from "../../src/console/lib/line-diff";
import { orgChart } from "../../src/console/lib/org-chart";

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
