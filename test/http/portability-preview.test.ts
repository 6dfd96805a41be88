// Import previews through HTTP: per entity, what the import would do (create, skip, rename with
// the new name), for an existing company and for a new one (made from company.md's settings).
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { createCompany, insertAgent, insertAgentKey } from "../helpers/fixtures";

async function seedSource() {
  const company = await createCompany({
    description: "The original",
    budgetMonthlyCents: 12_345,
    brandColor: "#112233",
    requireBoardApprovalForNewAgents: true,
  });
  const chief = (
    await post(`/api/companies/${company.id}/agents`, { name: "Chief", role: "ceo", adapterType: "http", adapterConfig: { url: "http://127.0.0.1:9/ceo" } })
  ).body;
  const dev = (
    await post(`/api/companies/${company.id}/agents`, {
      name: "Dev",
      role: "engineer",
      reportsTo: chief.id,
      adapterType: "http",
      adapterConfig: { url: "http://127.0.0.1:9/dev" },
    })
  ).body;
  const goal = (await post(`/api/companies/${company.id}/goals`, { title: "Grow" })).body;
  const project = (await post(`/api/companies/${company.id}/projects`, { name: "Website", goalIds: [goal.id] })).body;
  const label = (await post(`/api/companies/${company.id}/labels`, { name: "frontend" })).body;
  const issue = (await post(`/api/companies/${company.id}/issues`, { title: "Launch", projectId: project.id, labelIds: [label.id] })).body;
  const routine = (await post(`/api/companies/${company.id}/routines`, { title: "Weekly review", assigneeAgentId: dev.id })).body;
  const skill = (await post(`/api/companies/${company.id}/skills`, { name: "Release notes" })).body;
  const pkg = (await post(`/api/companies/${company.id}/export`, {})).body as { files: Record<string, string> };
  return { company, chief, dev, goal, project, label, issue, routine, skill, files: pkg.files };
}

const inline = (files: Record<string, string>) => ({ type: "inline" as const, files });
const byKey = (list: Array<{ key: string }>) => Object.fromEntries(list.map((e) => [e.key, e]));

describe("import previews, per entity", () => {
  it("into an empty company: every entity with its key, name and path is created; company.md is not applied", async () => {
    const a = await seedSource();
    const b = await createCompany();
    const res = await post(`/api/companies/${b.id}/imports/preview`, { source: inline(a.files) });
    expect(res.status).toBe(200);
    const { entities } = res.body;
    expect(entities.agents).toEqual([
      { key: "chief", path: "agents/chief.md", name: "Chief", action: "create" },
      { key: "dev", path: "agents/dev.md", name: "Dev", action: "create" },
    ]);
    expect(entities.goals).toEqual([{ key: a.goal.id, path: `goals/${a.goal.id}.md`, name: "Grow", action: "create" }]);
    expect(entities.projects).toEqual([{ key: a.project.urlKey, path: `projects/${a.project.urlKey}.md`, name: "Website", action: "create" }]);
    expect(entities.labels).toEqual([{ key: a.label.id, path: "labels.json", name: "frontend", action: "create" }]);
    expect(entities.issues).toEqual([{ key: a.issue.identifier, path: `issues/${a.issue.identifier}.md`, name: "Launch", action: "create" }]);
    expect(entities.routines).toEqual([{ key: a.routine.id, path: `routines/${a.routine.id}.md`, name: "Weekly review", action: "create" }]);
    expect(entities.skills).toEqual([{ key: a.skill.key, path: `skills/${a.skill.key}/SKILL.md`, name: "Release notes", action: "create" }]);
    // The counts and the rest stay as they were.
    expect(res.body).toMatchObject({
      target: { mode: "existing_company", companyId: b.id },
      company: null,
      create: { agents: 2, goals: 1, projects: 1, labels: 1, issues: 1, routines: 1, skills: 1 },
      collisions: [],
    });
    expect(res.body.warnings).toContain("company.md: a company-scoped import does not change the company's own settings");
    // The apply's result (stored with the import) carries the counts, not the entity list.
    const applied = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(a.files) });
    expect(applied.status).toBe(200);
    expect(applied.body.create).toEqual(res.body.create);
    expect(applied.body.entities).toBeUndefined();
  });

  it("skip (the default): entities named like the target's map to them (existingId); the others are created", async () => {
    const a = await seedSource();
    const b = await createCompany();
    const dev = await insertAgent(b.id, { name: "dev" });
    const goal = (await post(`/api/companies/${b.id}/goals`, { title: "GROW" })).body;
    const label = (await post(`/api/companies/${b.id}/labels`, { name: "frontend" })).body;
    const routine = (await post(`/api/companies/${b.id}/routines`, { title: "Weekly review", assigneeAgentId: dev.id })).body;
    const skill = (await post(`/api/companies/${b.id}/skills`, { name: "Release notes" })).body;
    const res = await post(`/api/companies/${b.id}/imports/preview`, { source: inline(a.files), collisionStrategy: "skip" });
    expect(res.status).toBe(200);
    const { entities } = res.body;
    expect(byKey(entities.agents)).toEqual({
      chief: { key: "chief", path: "agents/chief.md", name: "Chief", action: "create" },
      dev: { key: "dev", path: "agents/dev.md", name: "Dev", action: "skip", existingId: dev.id },
    });
    expect(entities.goals).toEqual([expect.objectContaining({ name: "Grow", action: "skip", existingId: goal.id })]);
    expect(entities.projects).toEqual([expect.objectContaining({ name: "Website", action: "create" })]);
    expect(entities.labels).toEqual([expect.objectContaining({ name: "frontend", action: "skip", existingId: label.id })]);
    expect(entities.routines).toEqual([expect.objectContaining({ name: "Weekly review", action: "skip", existingId: routine.id })]);
    expect(entities.skills).toEqual([expect.objectContaining({ key: skill.key, action: "skip", existingId: skill.id })]);
    expect(entities.issues).toEqual([expect.objectContaining({ name: "Launch", action: "create" })]);
    expect(res.body.skip).toEqual({ agent: 1, goal: 1, label: 1, routine: 1, skill: 1 });
    expect(res.body.collisions).toHaveLength(5);
    expect(res.body.collisions).toContainEqual({ kind: "agent", name: "Dev", existingId: dev.id, resolution: "skipped" });
    expect(res.body.collisions).toContainEqual({ kind: "skill", name: skill.key, existingId: skill.id, resolution: "skipped" });
  });

  it("rename: clashing entities are created under a new name; skills (keyed) are still skipped", async () => {
    const a = await seedSource();
    const b = await createCompany();
    const dev = await insertAgent(b.id, { name: "Dev" });
    await insertAgent(b.id, { name: "Dev (2)" });
    const goal = (await post(`/api/companies/${b.id}/goals`, { title: "Grow" })).body;
    const skill = (await post(`/api/companies/${b.id}/skills`, { name: "Release notes" })).body;
    const res = await post(`/api/companies/${b.id}/imports/preview`, { source: inline(a.files), collisionStrategy: "rename" });
    expect(res.status).toBe(200);
    const { entities } = res.body;
    expect(byKey(entities.agents)).toEqual({
      chief: { key: "chief", path: "agents/chief.md", name: "Chief", action: "create" },
      dev: { key: "dev", path: "agents/dev.md", name: "Dev", action: "rename", newName: "Dev (3)", existingId: dev.id },
    });
    expect(entities.goals).toEqual([
      { key: a.goal.id, path: `goals/${a.goal.id}.md`, name: "Grow", action: "rename", newName: "Grow (2)", existingId: goal.id },
    ]);
    expect(entities.skills).toEqual([expect.objectContaining({ action: "skip", existingId: skill.id })]);
    expect(res.body.collisions).toContainEqual({ kind: "agent", name: "Dev", existingId: dev.id, resolution: "renamed", newName: "Dev (3)" });
    // The apply does what the preview said.
    const applied = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(a.files), collisionStrategy: "rename" });
    expect(applied.status).toBe(200);
    expect((await get(`/api/companies/${b.id}/agents`)).body.map((x: any) => x.name).sort()).toEqual(["Chief", "Dev", "Dev (2)", "Dev (3)"]);
    expect((await get(`/api/companies/${b.id}/goals`)).body.map((g: any) => g.title).sort()).toEqual(["Grow", "Grow (2)"]);
  });

  it("two entities of one name in the package: the second is renamed even without a clash in the target", async () => {
    const a = await seedSource();
    const b = await createCompany();
    const copy = a.files["agents/dev.md"].replace(/^id: .*$/m, `id: ${crypto.randomUUID()}`).replace(/^reportsTo: .*$/m, "reportsTo: null");
    const res = await post(`/api/companies/${b.id}/imports/preview`, { source: inline({ ...a.files, "agents/dev-2.md": copy }) });
    expect(res.status).toBe(200);
    // Files are read in path order: agents/dev-2.md comes before agents/dev.md.
    const agents = byKey(res.body.entities.agents);
    expect(agents["dev-2"]).toEqual({ key: "dev-2", path: "agents/dev-2.md", name: "Dev", action: "create" });
    expect(agents.dev).toEqual({ key: "dev", path: "agents/dev.md", name: "Dev", action: "rename", newName: "Dev (2)" });
    expect(res.body.collisions).toEqual([]);
  });

  it("into a new company: shows the company it would make from company.md (newCompanyName first), creates everything, no warning that company.md is ignored", async () => {
    const a = await seedSource();
    const name = `Preview ${crypto.randomUUID().slice(0, 8)}`;
    const res = await post("/api/companies/import/preview", { source: inline(a.files), target: { mode: "new_company", newCompanyName: name } });
    expect(res.status).toBe(200);
    expect(res.body.target).toEqual({ mode: "new_company", companyId: null, name });
    expect(res.body.company).toEqual({
      name,
      description: "The original",
      brandColor: "#112233",
      budgetMonthlyCents: 12_345,
      requireBoardApprovalForNewAgents: true,
      issuePrefix: expect.stringMatching(/^[A-Z][A-Z0-9]{0,9}$/),
    });
    expect(res.body.warnings.join("\n")).not.toMatch(/company\.md/);
    for (const kind of ["agents", "goals", "projects", "labels", "issues", "routines", "skills"]) {
      expect(res.body.entities[kind].length, kind).toBeGreaterThan(0);
      expect(
        res.body.entities[kind].every((e: any) => e.action === "create"),
        kind,
      ).toBe(true);
    }
    expect(res.body.collisions).toEqual([]);
    // The previewed prefix is the one a company of that name gets.
    expect((await post("/api/companies", { name })).body.issuePrefix).toBe(res.body.company.issuePrefix);

    // Without a target: a new company named by company.md.
    const bare = await post("/api/companies/import/preview", { source: inline(a.files) });
    expect(bare.body.target).toEqual({ mode: "new_company", companyId: null, name: a.company.name });
    expect(bare.body.company).toMatchObject({ name: a.company.name, budgetMonthlyCents: 12_345 });
    // company.md left out by `include`: the caller's name and the defaults.
    const lean = await post("/api/companies/import/preview", {
      source: inline(a.files),
      include: { company: false },
      target: { mode: "new_company", newCompanyName: name },
    });
    expect(lean.body.company).toMatchObject({ name, description: null, brandColor: null, budgetMonthlyCents: 0, requireBoardApprovalForNewAgents: false });
    const unnamed = await post("/api/companies/import/preview", { source: inline(a.files), include: { company: false } });
    expect(unnamed.body.company).toMatchObject({ name: null, issuePrefix: null });
    expect(unnamed.body.warnings).toContain("The new company needs a name: give target.newCompanyName or include company.md");
  });

  it("an existing company through /api/companies/import/preview: the same per-entity actions as the company-scoped route", async () => {
    const a = await seedSource();
    const b = await createCompany();
    await insertAgent(b.id, { name: "Chief" });
    const body = { source: inline(a.files), collisionStrategy: "rename" };
    const global = await post("/api/companies/import/preview", { ...body, target: { mode: "existing_company", companyId: b.id } });
    const scoped = await post(`/api/companies/${b.id}/imports/preview`, body);
    expect(global.status).toBe(200);
    expect(global.body.entities).toEqual(scoped.body.entities);
    expect(global.body.company).toBeNull();
    expect(byKey(global.body.entities.agents).chief).toMatchObject({ action: "rename", newName: "Chief (2)" });
    // The CEO agent of the company may preview into it as well.
    const ceo = await insertAgent(b.id, { role: "ceo" });
    const key = await insertAgentKey(ceo.id, b.id);
    expect((await post(`/api/companies/${b.id}/imports/preview`, body, { token: key.token })).body.entities).toEqual(scoped.body.entities);
  });
});
