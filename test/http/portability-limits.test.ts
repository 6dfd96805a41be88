// An export always imports: companies at the limits of the API (longest names, titles, texts and
// workspace fields; document keys the API allows), with long legacy or numbered issue prefixes,
// with references to terminated agents or to kinds left out of the package, export packages their
// own import reads, and a renaming import keeps names within the limits of the next export.
import { describe, expect, it } from "vitest";
import { get, post, put } from "../helpers/api";
import { createCompany, schema, updateRow } from "../helpers/fixtures";

const inline = (files: Record<string, string>) => ({ type: "inline" as const, files });

async function exportOf(companyId: string, include: Record<string, boolean> = { comments: true, documents: true }) {
  const res = await post(`/api/companies/${companyId}/export`, { include });
  expect(res.status).toBe(200);
  return res.body as { files: Record<string, string>; warnings: string[]; manifest: any };
}

/** Imports `files` into a fresh company and returns it with the apply's answer (which must be 200). */
async function importFresh(files: Record<string, string>, extra: Record<string, unknown> = {}) {
  const company = await createCompany();
  const preview = await post(`/api/companies/${company.id}/imports/preview`, { source: inline(files), ...extra });
  expect(preview.status, preview.text.slice(0, 500)).toBe(200);
  const applied = await post(`/api/companies/${company.id}/imports/apply`, { source: inline(files), ...extra });
  expect(applied.status, applied.text.slice(0, 500)).toBe(200);
  return { company, applied: applied.body };
}

const long = (n: number, c = "x") => c.repeat(n);

describe("an export always imports", () => {
  it("a company whose legacy issue prefix is 1,700 characters: its package imports as a new company", async () => {
    const legacy = await createCompany();
    const prefix = `LEG${crypto
      .randomUUID()
      .replace(/[^a-f]/g, "")
      .toUpperCase()}${long(1700, "A")}`;
    await updateRow(schema.companies, legacy.id, { issuePrefix: prefix });
    const parent = (await post(`/api/companies/${legacy.id}/issues`, { title: "Parent" })).body;
    const child = (await post(`/api/companies/${legacy.id}/issues`, { title: "Child", parentId: parent.id, blockedByIssueIds: [parent.id] })).body;
    expect(child.identifier).toBe(`${prefix}-2`);
    await post(`/api/issues/${child.id}/comments`, { body: "A comment" });
    await put(`/api/issues/${child.id}/documents/plan`, { body: "# Plan" });
    const pkg = await exportOf(legacy.id);
    expect(Object.keys(pkg.files)).toContain(`issues/${prefix}-2.md`);

    const { company, applied } = await importFresh(pkg.files);
    expect(company.issuePrefix.length).toBeLessThanOrEqual(10);
    const imported = (await get(`/api/issues/${applied.idMap.issues[child.id]}`)).body;
    expect(imported).toMatchObject({
      identifier: `${company.issuePrefix}-2`,
      parentId: applied.idMap.issues[parent.id],
      blockedByIssueIds: [applied.idMap.issues[parent.id]],
    });
    expect((await get(`/api/issues/${imported.identifier}/documents/plan`)).body.body).toBe("# Plan");
  });

  it("like-named companies get short, distinct prefixes; a numbered one exports, imports, and its issues resolve by identifier", async () => {
    const name = `Qz${crypto
      .randomUUID()
      .replace(/[^a-f]/g, "")
      .slice(0, 6)} Bbox`;
    const created: Array<{ id: string; issuePrefix: string }> = [];
    for (let i = 0; i < 30; i++) created.push(await createCompany({ name }));
    const prefixes = created.map((c) => c.issuePrefix);
    expect(new Set(prefixes).size).toBe(30);
    for (const p of prefixes) expect(p).toMatch(/^[A-Z][A-Z0-9]{0,9}$/);
    const numbered = created.find((c) => /\d/.test(c.issuePrefix))!;
    const issue = (await post(`/api/companies/${numbered.id}/issues`, { title: "Numbered" })).body;
    expect((await get(`/api/issues/${issue.identifier}`)).body.id).toBe(issue.id);
    const { applied } = await importFresh((await exportOf(numbered.id)).files);
    expect(applied.create.issues).toBe(1);
  });

  it("fields at the API's limits, a document key the API allows, references to terminated agents and to left-out kinds", async () => {
    const a = await createCompany({ name: long(200, "N"), description: long(10_000), budgetMonthlyCents: 1_000_000_000_00 });
    const boss = (
      await post(`/api/companies/${a.id}/agents`, { name: "Boss", role: "ceo", adapterType: "http", adapterConfig: { url: "http://127.0.0.1:9/boss" } })
    ).body;
    const agent = (
      await post(`/api/companies/${a.id}/agents`, {
        name: long(120, "A"),
        role: long(64, "r"),
        title: long(200, "t"),
        capabilities: long(20_000, "c"),
        reportsTo: boss.id,
        adapterType: "http",
        adapterConfig: { url: "http://127.0.0.1:9/a" },
      })
    ).body;
    expect(agent.id).toBeTypeOf("string");
    const goal = (await post(`/api/companies/${a.id}/goals`, { title: long(500, "G"), description: long(20_000), ownerAgentId: boss.id })).body;
    const project = (
      await post(`/api/companies/${a.id}/projects`, {
        name: long(200, "P"),
        description: long(20_000),
        goalIds: [goal.id],
        leadAgentId: boss.id,
        targetDate: "2030-01-01",
        workspace: {
          name: long(200, "w"),
          sourceType: "git_repo",
          cwd: `/${long(3999, "d")}`,
          repoUrl: `https://github.com/acme/${long(2000 - "https://github.com/acme/".length, "r")}`,
          repoRef: long(500, "b"),
          defaultRef: long(500, "m"),
          setupCommand: long(4000, "s"),
          cleanupCommand: long(4000, "k"),
        },
      })
    ).body;
    expect(project.id, JSON.stringify(project).slice(0, 300)).toBeTypeOf("string");
    const label = (await post(`/api/companies/${a.id}/labels`, { name: long(100, "L") })).body;
    const issue = (
      await post(`/api/companies/${a.id}/issues`, {
        title: long(500, "I"),
        description: long(100_000),
        projectId: project.id,
        goalId: goal.id,
        labelIds: [label.id],
        assigneeAgentId: boss.id,
      })
    ).body;
    expect(issue.id, JSON.stringify(issue).slice(0, 300)).toBeTypeOf("string");
    expect((await post(`/api/issues/${issue.id}/comments`, { body: long(100_000, "m") })).status).toBe(201);
    expect((await put(`/api/issues/${issue.id}/documents/_notes`, { title: long(200, "T"), body: long(400_000, "b") })).status).toBeLessThan(300);
    const routine = (
      await post(`/api/companies/${a.id}/routines`, {
        title: long(500, "R"),
        description: long(50_000),
        assigneeAgentId: agent.id,
        projectId: project.id,
        goalId: goal.id,
        parentIssueId: issue.id,
      })
    ).body;
    expect(routine.id, JSON.stringify(routine).slice(0, 300)).toBeTypeOf("string");
    // The boss leaves: the issue assigned to it, the report, the goal and the project still name it.
    expect((await post(`/api/agents/${boss.id}/terminate`, {})).status).toBe(200);

    const pkg = await exportOf(a.id);
    expect(pkg.warnings.join("\n")).toMatch(/4 references to terminated agents or to things the package leaves out were written as empty/);
    const { company: b, applied } = await importFresh(pkg.files);
    expect(applied.create).toMatchObject({ agents: 1, goals: 1, projects: 1, labels: 1, issues: 1, routines: 1 });
    const imported = (await get(`/api/issues/${applied.idMap.issues[issue.id]}`)).body;
    expect(imported).toMatchObject({ title: long(500, "I"), assigneeAgentId: null, projectId: applied.idMap.projects[project.id] });
    expect((await get(`/api/issues/${imported.id}/documents/_notes`)).body.body).toHaveLength(400_000);
    const workspaces = (await get(`/api/projects/${applied.idMap.projects[project.id]}/workspaces`)).body;
    expect(workspaces[0]).toMatchObject({ cwd: `/${long(3999, "d")}`, setupCommand: long(4000, "s"), repoRef: long(500, "b") });

    // Importing the same package again with rename: every name gets a suffix and stays within its limit ...
    const again = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files), collisionStrategy: "rename" });
    expect(again.status, again.text.slice(0, 300)).toBe(200);
    const goals = (await get(`/api/companies/${b.id}/goals`)).body.map((g: any) => g.title);
    expect(goals).toContain(`${long(496, "G")} (2)`);
    expect(goals.every((t: string) => t.length <= 500)).toBe(true);
    // ... and that company's export imports in turn.
    const second = await exportOf(b.id);
    const { applied: third } = await importFresh(second.files);
    expect(third.create).toMatchObject({ agents: 2, goals: 2, projects: 2, labels: 2, issues: 2, routines: 2 });

    // Parts of a company: issues without their agents, projects, goals or labels; routines without issues.
    for (const include of [{ agents: false }, { projects: false, goals: false, labels: false }, { issues: false }] as Array<Record<string, boolean>>) {
      const part = await exportOf(a.id, { comments: true, documents: true, ...include });
      await importFresh(part.files);
    }
    // ... and the importer's own `include` may leave kinds out of a whole package the same way.
    const { applied: lean } = await importFresh(second.files, { include: { agents: false, projects: false, issues: false } });
    expect(lean.create).toMatchObject({ agents: 0, projects: 0, issues: 0, goals: 2, routines: 2 });
    const leanRoutine = (await get(`/api/routines/${Object.values(lean.idMap.routines)[0]}`)).body;
    expect(leanRoutine).toMatchObject({ assigneeAgentId: null, projectId: null, parentIssueId: null, status: "paused" });
  });
});
