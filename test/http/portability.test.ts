// Company portability through HTTP: a full export → import round trip into a new company with
// every relation intact, preview matching apply, retried applies, malformed packages, access rules.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, post, put, roundTrips } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertIssue } from "../helpers/fixtures";

async function seedCompanyA() {
  const company = await createCompany({ description: "The original" });
  const secret = await post(`/api/companies/${company.id}/secrets`, { name: "OPENAI_KEY", value: "sk-very-secret" });
  const ceo = (
    await post(`/api/companies/${company.id}/agents`, {
      name: "Chief",
      role: "ceo",
      adapterType: "http",
      adapterConfig: { url: "http://127.0.0.1:9/ceo", env: { OPENAI_KEY: { type: "secret_ref", secretId: secret.body.id } } },
    })
  ).body;
  const dev = (
    await post(`/api/companies/${company.id}/agents`, {
      name: "Dev",
      role: "engineer",
      reportsTo: ceo.id,
      adapterType: "http",
      adapterConfig: { url: "http://127.0.0.1:9/dev", headers: { "x-api-token": "plain-literal-123" } },
    })
  ).body;
  const goal = (await post(`/api/companies/${company.id}/goals`, { title: "Grow" })).body;
  const subgoal = (await post(`/api/companies/${company.id}/goals`, { title: "Ship v2", parentId: goal.id })).body;
  const project = (
    await post(`/api/companies/${company.id}/projects`, {
      name: "Website",
      goalIds: [subgoal.id],
      workspace: { name: "main", sourceType: "git_repo", repoUrl: "https://github.com/acme/site" },
    })
  ).body;
  const label = (await post(`/api/companies/${company.id}/labels`, { name: "frontend" })).body;
  const parent = (await post(`/api/companies/${company.id}/issues`, { title: "Launch", projectId: project.id, status: "todo" })).body;
  const blocker = (await post(`/api/companies/${company.id}/issues`, { title: "Design", parentId: parent.id, assigneeAgentId: dev.id, labelIds: [label.id] }))
    .body;
  const child = (await post(`/api/companies/${company.id}/issues`, { title: "Build", parentId: parent.id, blockedByIssueIds: [blocker.id] })).body;
  await post(`/api/issues/${child.id}/comments`, { body: "Waiting on design" });
  await put(`/api/issues/${parent.id}/documents/plan`, { body: "# Plan\n\nShip it." });
  const routine = (
    await post(`/api/companies/${company.id}/routines`, {
      title: "Weekly {{what}}",
      assigneeAgentId: dev.id,
      projectId: project.id,
      variables: [{ name: "what", defaultValue: "review" }],
    })
  ).body;
  await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression: "0 9 * * 1", timezone: "Europe/Berlin" });
  const hook = (await post(`/api/routines/${routine.id}/triggers`, { kind: "webhook" })).body;
  const skill = (await post(`/api/companies/${company.id}/skills`, { name: "Release notes" })).body;
  return { company, secret: secret.body, ceo, dev, goal, subgoal, project, label, parent, blocker, child, routine, hook, skill };
}

const exportOf = async (companyId: string, include: Record<string, boolean> = { comments: true, documents: true }) => {
  const res = await post(`/api/companies/${companyId}/export`, { include });
  expect(res.status).toBe(200);
  return res.body as { rootPath: string; files: Record<string, string>; manifest: any; warnings: string[] };
};

const inline = (files: Record<string, string>) => ({ type: "inline" as const, files });

describe("export", () => {
  it("is a readable package with a manifest; no secret value, webhook secret or public id leaves", async () => {
    const a = await seedCompanyA();
    const pkg = await exportOf(a.company.id);
    expect(pkg.manifest).toMatchObject({
      format: "acp-company-package",
      version: 1,
      counts: { agents: 2, goals: 2, projects: 1, labels: 1, issues: 3, comments: 1, documents: 1, routines: 1, skills: 1 },
    });
    expect(Object.keys(pkg.files)).toEqual(
      expect.arrayContaining([
        "manifest.json",
        "company.md",
        "agents/chief.md",
        "agents/dev.md",
        `issues/${a.parent.identifier}.md`,
        `issues/${a.child.identifier}/comments.json`,
        `issues/${a.parent.identifier}/documents/plan.md`,
        "labels.json",
        "skills/company/release-notes/SKILL.md",
      ]),
    );
    expect(pkg.files["agents/dev.md"]).toMatch(/^---\n[\s\S]*reportsTo: [0-9a-f-]{36}\n/);
    expect(pkg.manifest.secretPlaceholders).toEqual([{ name: "OPENAI_KEY", usedBy: ["agents/chief.md"] }]);
    const all = JSON.stringify(pkg);
    expect(all).not.toContain("sk-very-secret");
    expect(all).not.toContain("plain-literal-123");
    expect(all).not.toContain(a.secret.id);
    expect(all).not.toContain(a.hook.webhookSecret);
    expect(all).not.toContain(new URL(a.hook.webhookUrl).pathname.split("/")[4]);
    // Comments and documents only when asked.
    const lean = await exportOf(a.company.id, {});
    expect(Object.keys(lean.files).some((p) => p.includes("/comments.json") || p.includes("/documents/"))).toBe(false);
  });

  it("pages through more issues than one query may bind (every issue is exported)", async () => {
    const company = await createCompany();
    for (let i = 0; i < 520; i++) await insertIssue(company.id, { title: `Issue ${i}` });
    const pkg = await exportOf(company.id);
    expect(pkg.manifest.counts.issues).toBe(520);
    expect(Object.keys(pkg.files).filter((p) => /^issues\/[^/]+\.md$/.test(p)).length).toBe(520);
  });

  it("exports/preview and stored exports (board or CEO); the download is for this company's callers only", async () => {
    const a = await seedCompanyA();
    const preview = await post(`/api/companies/${a.company.id}/exports/preview`, {});
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ counts: { issues: 3 }, secretPlaceholders: [{ name: "OPENAI_KEY" }] });
    expect(preview.body.paths).toContain("manifest.json");
    const stored = await post(`/api/companies/${a.company.id}/exports`, {});
    expect(stored.status).toBe(201);
    const download = await get(stored.body.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.body.manifest.counts.issues).toBe(3);
    const devKey = await insertAgentKey(a.dev.id, a.company.id);
    const ceoKey = await insertAgentKey(a.ceo.id, a.company.id);
    expect((await post(`/api/companies/${a.company.id}/exports/preview`, {}, { token: devKey.token })).status).toBe(403);
    expect((await post(`/api/companies/${a.company.id}/exports`, {}, { token: ceoKey.token })).status).toBe(201);
    expect((await post(`/api/companies/${a.company.id}/export`, {}, { token: devKey.token })).status).toBe(200);
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    for (const route of [`/api/companies/${a.company.id}/export`, `/api/companies/${a.company.id}/exports/preview`, `/api/companies/${a.company.id}/exports`]) {
      expect((await post(route, {}, { token: outsider.token, env: AUTHENTICATED })).status).toBe(403);
    }
    expect((await get(stored.body.downloadUrl, { token: outsider.token, env: AUTHENTICATED })).status).toBe(403);
    expect((await get(`/api/companies/${a.company.id}/exports/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe("import", () => {
  it("round trip: every relation is intact in the new company, preview matches apply, a retry does not duplicate, and nothing of A changed", async () => {
    const a = await seedCompanyA();
    const pkg = await exportOf(a.company.id);
    const stable = async () => {
      const { files, manifest } = await exportOf(a.company.id);
      const { "manifest.json": _m, ...rest } = files;
      const { exportedAt: _at, ...meta } = manifest;
      return JSON.stringify({ rest, meta });
    };
    const before = await stable();
    const b = await createCompany();
    const secretB = await post(`/api/companies/${b.id}/secrets`, { name: "OPENAI_KEY", value: "sk-b" });

    const preview = await post(`/api/companies/${b.id}/imports/preview`, { source: inline(pkg.files) });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ unboundSecrets: [], create: { agents: 2, goals: 2, projects: 1, labels: 1, issues: 3, routines: 1, skills: 1 } });
    const applied = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files) });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ duplicate: false, create: preview.body.create, skip: preview.body.skip });
    const again = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files) });
    expect(again.body).toMatchObject({ duplicate: true, importId: applied.body.importId });

    const map = applied.body.idMap;
    const agents = (await get(`/api/companies/${b.id}/agents`)).body;
    const dev = agents.find((x: any) => x.name === "Dev");
    const chief = agents.find((x: any) => x.name === "Chief");
    expect(dev.reportsTo).toBe(chief.id);
    expect(dev.id).toBe(map.agents[a.dev.id]);
    const chiefFull = (await get(`/api/agents/${chief.id}`)).body;
    expect(JSON.stringify(chiefFull.adapterConfig)).toContain(secretB.body.id);
    const goals = (await get(`/api/companies/${b.id}/goals`)).body;
    expect(goals.find((g: any) => g.title === "Ship v2").parentId).toBe(map.goals[a.goal.id]);
    const project = (await get(`/api/projects/${map.projects[a.project.id]}`)).body;
    expect(project.goalIds ?? [project.goalId]).toContain(map.goals[a.subgoal.id]);
    const workspaces = (await get(`/api/projects/${project.id}/workspaces`)).body;
    expect(workspaces.map((w: any) => w.repoUrl)).toEqual(["https://github.com/acme/site"]);
    const child = (await get(`/api/issues/${map.issues[a.child.id]}`)).body;
    expect(child.identifier.startsWith(b.issuePrefix)).toBe(true);
    expect(child.parentId).toBe(map.issues[a.parent.id]);
    expect(child.blockedByIssueIds).toEqual([map.issues[a.blocker.id]]);
    const blocker = (await get(`/api/issues/${map.issues[a.blocker.id]}`)).body;
    expect(blocker).toMatchObject({ assigneeAgentId: dev.id, labelIds: [map.labels[a.label.id]] });
    expect((await get(`/api/issues/${child.id}/comments`)).body.map((c: any) => c.body)).toEqual(["Waiting on design"]);
    expect((await get(`/api/issues/${map.issues[a.parent.id]}/documents/plan`)).body.body).toBe("# Plan\n\nShip it.");
    const routine = (await get(`/api/routines/${map.routines[a.routine.id]}`)).body;
    expect(routine).toMatchObject({ assigneeAgentId: dev.id, projectId: project.id, title: "Weekly {{what}}" });
    expect(routine.triggers.map((t: any) => t.kind).sort()).toEqual(["schedule", "webhook"]);
    expect((await get(`/api/companies/${b.id}/skills`)).body.map((s: any) => s.key)).toContain("company/release-notes");
    const activity = JSON.stringify((await get(`/api/companies/${b.id}/activity`)).body);
    expect(activity).toContain("company.imported");
    // Nothing of A changed.
    expect(await stable()).toBe(before);
  });

  it("a large package is written in bounded batches, parents before children, and lands whole", async () => {
    const a = await createCompany();
    const b = await createCompany();
    // 650 issues in a parent chain listed children first, each blocked by the next: well over one batch of writes.
    const n = 650;
    const ids = Array.from({ length: n }, () => crypto.randomUUID());
    const files: Record<string, string> = {
      "manifest.json": JSON.stringify({
        format: "acp-company-package",
        version: 1,
        exportedAt: new Date().toISOString(),
        company: { id: a.id, name: "A" },
        include: {},
        counts: {},
        secretPlaceholders: [],
      }),
    };
    for (let i = n - 1; i >= 0; i--) {
      const fm = [
        `id: ${ids[i]}`,
        `title: Step ${i}`,
        "status: todo",
        "priority: medium",
        `parentId: ${i > 0 ? ids[i - 1] : "null"}`,
        `blockedByIssueIds: [${i + 1 < n ? ids[i + 1] : ""}]`,
      ];
      files[`issues/X-${i}.md`] = `---\n${fm.join("\n")}\n---\n`;
    }
    const applied = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(files) });
    expect(applied.status).toBe(200);
    expect(applied.body.create.issues).toBe(n);
    // 1,299 writes (650 issues, 649 blockers) in batches of at most 500, plus the closing batch and the reads.
    expect(roundTrips(applied).command).toBeGreaterThanOrEqual(4 + 3);
    const last = (await get(`/api/issues/${applied.body.idMap.issues[ids[n - 1]]}`)).body;
    expect(last.parentId).toBe(applied.body.idMap.issues[ids[n - 2]]);
    const first = (await get(`/api/issues/${applied.body.idMap.issues[ids[0]]}`)).body;
    expect(first.blockedByIssueIds).toEqual([applied.body.idMap.issues[ids[1]]]);
    expect((await get(`/api/companies/${b.id}/issues?limit=500`)).body.length).toBe(500);
    // Packages may be larger than ordinary JSON bodies (1 MiB): 1.5 MiB of documents is accepted;
    // each text keeps its own limit (an issue description of 100,000 characters at most).
    const docs = Object.fromEntries([0, 1, 2].map((k) => [`issues/X-0/documents/d${k}.md`, `---\nkey: d${k}\n---\n${"x".repeat(500_000)}\n`]));
    const bigPreview = await post(`/api/companies/${b.id}/imports/preview`, { source: inline({ ...files, ...docs }) });
    expect(bigPreview.status).toBe(200);
    const tooLong = await post(`/api/companies/${b.id}/imports/preview`, {
      source: inline({ ...files, "issues/X-0.md": files["issues/X-0.md"] + "y".repeat(100_001) }),
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.details.path).toBe("issues/X-0.md");
    // Duplicate document keys on one issue are refused before anything is written.
    const dup = { ...files, "issues/X-0/documents/a.md": "---\nkey: plan\n---\nA\n", "issues/X-0/documents/b.md": "---\nkey: plan\n---\nB\n" };
    const c = await createCompany();
    const refused = await post(`/api/companies/${c.id}/imports/apply`, { source: inline(dup) });
    expect(refused.status).toBe(422);
    expect(refused.body.details.path).toBe("issues/X-0/documents");
    expect((await get(`/api/companies/${c.id}/issues`)).body).toEqual([]);
  });

  it("collisions: skip maps to the existing entity, rename creates with a new name; replace and other targets are refused", async () => {
    const a = await seedCompanyA();
    const pkg = await exportOf(a.company.id, { issues: false, routines: false, skills: false });
    const b = await createCompany();
    await post(`/api/companies/${b.id}/secrets`, { name: "OPENAI_KEY", value: "x" });
    await insertAgent(b.id, { name: "Dev" });
    const skip = await post(`/api/companies/${b.id}/imports/preview`, { source: inline(pkg.files) });
    expect(skip.body).toMatchObject({ create: { agents: 1 }, skip: { agent: 1 } });
    expect(skip.body.collisions).toEqual([expect.objectContaining({ kind: "agent", name: "Dev", resolution: "skipped" })]);
    const rename = await post(`/api/companies/${b.id}/imports/preview`, { source: inline(pkg.files), collisionStrategy: "rename" });
    expect(rename.body.collisions).toEqual([expect.objectContaining({ kind: "agent", resolution: "renamed", newName: "Dev (2)" })]);
    expect((await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files), collisionStrategy: "replace" })).status).toBe(422);
    expect(
      (await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files), target: { mode: "existing_company", companyId: a.company.id } })).status,
    ).toBe(422);
    const applied = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files), collisionStrategy: "rename" });
    expect(applied.status).toBe(200);
    expect((await get(`/api/companies/${b.id}/agents`)).body.map((x: any) => x.name).sort()).toEqual(["Chief", "Dev", "Dev (2)"]);
  });

  it("unbound secret placeholders are reported by preview and refused by apply; board-only preview of a new company", async () => {
    const a = await seedCompanyA();
    const pkg = await exportOf(a.company.id, { issues: false });
    const b = await createCompany();
    const preview = await post("/api/companies/import/preview", { source: inline(pkg.files), target: { mode: "new_company", newCompanyName: "Copy" } });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ target: { mode: "new_company", name: "Copy" }, unboundSecrets: ["OPENAI_KEY"] });
    const refused = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files) });
    expect(refused.status).toBe(422);
    expect(refused.body.details.unboundSecrets).toEqual(["OPENAI_KEY"]);
    expect((await get(`/api/companies/${b.id}/agents`)).body).toEqual([]);
    const other = await post(`/api/companies/${b.id}/secrets`, { name: "SOMETHING_ELSE", value: "y" });
    const bound = await post(`/api/companies/${b.id}/imports/apply`, { source: inline(pkg.files), secretBindings: { OPENAI_KEY: other.body.id } });
    expect(bound.status).toBe(200);
    const agent = await insertAgent(b.id);
    const agentKey = await insertAgentKey(agent.id, b.id);
    expect((await post("/api/companies/import/preview", { source: inline(pkg.files) }, { token: agentKey.token })).status).toBe(403);
  });

  it("malformed packages are 422 with the path of the problem, and nothing is created", async () => {
    const a = await seedCompanyA();
    const pkg = await exportOf(a.company.id);
    const b = await createCompany();
    await post(`/api/companies/${b.id}/secrets`, { name: "OPENAI_KEY", value: "x" });
    const issuePath = `issues/${a.child.identifier}.md`;
    const broken: Array<[string, Record<string, string>, RegExp]> = [
      ["manifest.json", { ...pkg.files, "manifest.json": JSON.stringify({ ...pkg.manifest, version: 99 }) }, /version 99 is not supported/],
      ["manifest.json", Object.fromEntries(Object.entries(pkg.files).filter(([p]) => p !== "manifest.json")), /manifest.json is missing/],
      [
        issuePath,
        { ...pkg.files, [issuePath]: pkg.files[issuePath].replace(/parentId: .*/, `parentId: ${crypto.randomUUID()}`) },
        /parentId names issue .* not in the package/,
      ],
      [issuePath, { ...pkg.files, [issuePath]: pkg.files[issuePath].replace(/status: .*/, "status: sideways") }, /status/],
      ["agents/dev.md", { ...pkg.files, "agents/dev.md": "---\nname: [broken\n---\n" }, /malformed YAML frontmatter/],
      ["skills/stray.md", { ...pkg.files, "skills/stray.md": "hello" }, /not inside a skill folder/],
      [
        "agents/dev.md",
        { ...pkg.files, "agents/dev.md": pkg.files["agents/dev.md"].replace("adapterType: http", "adapterType: teleport") },
        /agents\/dev.md: .*teleport/i,
      ],
      [
        "agents/dev.md",
        { ...pkg.files, "agents/dev.md": pkg.files["agents/dev.md"].replace(/url: .*/, "url: 42") },
        /agents\/dev.md: Invalid adapterConfig for http/,
      ],
    ];
    for (const [path, files, message] of broken) {
      for (const route of ["imports/preview", "imports/apply"]) {
        const res = await post(`/api/companies/${b.id}/${route}`, { source: inline(files) });
        expect(res.status, `${route} ${path}`).toBe(422);
        expect(res.body.error).toMatch(message);
        expect(res.body.details.path).toBe(path);
      }
    }
    expect((await post(`/api/companies/${b.id}/imports/apply`, { source: { type: "zip", files: {} } })).status).toBe(400);
    expect((await get(`/api/companies/${b.id}/agents`)).body).toEqual([]);
    expect((await get(`/api/companies/${b.id}/issues`)).body).toEqual([]);
  });

  it("access: board or the CEO agent; other companies' callers refused", async () => {
    const a = await seedCompanyA();
    const pkg = await exportOf(a.company.id, { issues: false, agents: false, routines: false, projects: false, goals: false });
    const b = await createCompany();
    const worker = await insertAgent(b.id);
    const workerKey = await insertAgentKey(worker.id, b.id);
    const ceo = await insertAgent(b.id, { role: "ceo" });
    const ceoKey = await insertAgentKey(ceo.id, b.id);
    const body = { source: inline(pkg.files) };
    expect((await post(`/api/companies/${b.id}/imports/preview`, body, { token: workerKey.token })).status).toBe(403);
    expect((await post(`/api/companies/${b.id}/imports/apply`, body, { token: workerKey.token })).status).toBe(403);
    expect((await post(`/api/companies/${b.id}/imports/preview`, body, { token: ceoKey.token })).status).toBe(200);
    const outsider = await boardUser(a.company.id, "owner");
    expect((await post(`/api/companies/${b.id}/imports/apply`, body, { token: outsider.token, env: AUTHENTICATED })).status).toBe(403);
    expect(
      (
        await post(
          "/api/companies/import/preview",
          { ...body, target: { mode: "existing_company", companyId: b.id } },
          { token: outsider.token, env: AUTHENTICATED },
        )
      ).status,
    ).toBe(403);
  });
});
