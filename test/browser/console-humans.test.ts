// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property
// The console changes what the API changes, and people get work (issue #37, the console's part), in a
// real browser against a real `npm run dev` (local_trusted): an agent's settings edited on its page
// (the adapter's fields from GET /api/adapters, a credential picked among the company's secrets, the
// heartbeat and run limits; a refused value's error next to its field; the values kept after a
// reload), a manager chosen on the org chart, the assignee picker listing people beside agents,
// "Assigned to you" in Waiting on you (counted in the navigation, live), and the skills page (the
// library with its sources, the catalog's Install, an import from a URL, an audit's findings) with
// an agent's desired skills. Every page gets axe-core and a screenshot, a 390 px pass and its ready time.
import { createServer, type Server } from "node:http";
import { describe, expect, it } from "vitest";
import {
  type apiClient,
  browserSuite,
  checkPage,
  type DevServer,
  fakeAgent,
  expectReadyWithin,
  hireHttpAgent,
  noHorizontalScroll,
  ours,
  ready,
  visit,
} from "./harness";

let server: DevServer;
let api: ReturnType<typeof apiClient>;
const { newPage, newCompany } = browserSuite((suite) => ({ server, api } = suite));

const READY_BUDGET_MS = 1000;
const MODEL_KEY = "sk-live-edge-0123456789abcdef0123456789";

/** Initech: Ada (the lead) and Bea (reports to Ada), http agents woken at an endpoint of the test's own. */
async function initech() {
  const { company, prefix } = await newCompany("Initech");
  const agent = ours(await fakeAgent());
  const ada = await hireHttpAgent(api, company.id, agent.url, "Ada");
  const bea = await hireHttpAgent(api, company.id, agent.url, "Bea", { reportsTo: ada.id });
  return { company, prefix, agent, ada, bea };
}

/** A server of the test's own that serves one SKILL.md (an import source on loopback, allowed in private exposure). */
async function skillSource(markdown: string) {
  const server: Server = createServer((req, res) => {
    if (req.url === "/skills/triage/SKILL.md") res.writeHead(200, { "content-type": "text/markdown" }).end(markdown);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/skills/triage/SKILL.md`, close: () => server.close() };
}

describe("board console: people in the loop, and the settings the API can change", () => {
  it("agent settings: who it is, its adapter's fields, heartbeat and limits saved and kept after a reload; a refused URL shows the API's error by its field", async () => {
    const { prefix, agent, ada, bea } = await initech();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents/${bea.id}`, "agent-settings", "Bea");
    const settings = page.getByRole("region", { name: "Settings", exact: true });
    await expect.poll(() => settings.getByLabel("url", { exact: true }).inputValue()).toBe(agent.url);

    await settings.getByLabel("Title").fill("Head of design");
    await settings.getByLabel("Role").fill("designer");
    await settings.getByLabel("Capabilities").fill("Figma, typography");
    await settings.getByLabel("url", { exact: true }).fill("not-a-url");
    await settings.getByRole("button", { name: "Save settings" }).click();
    // The API's 400 names adapterConfig.url: its message sits under that field, which is marked invalid.
    const url = settings.getByLabel("url", { exact: true });
    await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true");
    const described = (await url.getAttribute("aria-describedby")) ?? "";
    const errorId = described.split(" ").find((id) => id.endsWith("-error"))!;
    expect(await page.locator(`[id="${errorId}"]`).innerText()).toMatch(/http\(s\) URL/);
    expect(await settings.getByRole("alert").innerText()).toMatch(/Invalid adapterConfig for http/);
    await checkPage(page, "agent-settings-refused");
    expect((await api.get(`/api/agents/${bea.id}`)).title).toBe("Bea the engineer");

    await url.fill(agent.url);
    await settings.getByLabel("timeoutSec", { exact: true }).fill("45");
    await settings.getByLabel("headers").fill('{ "x-team": "design" }');
    await settings.getByLabel("Wake it on a timer (heartbeat)").check();
    await settings.getByLabel("Heartbeat interval (seconds)").fill("3600");
    await settings.getByLabel("Max concurrent runs").fill("2");
    await settings.getByLabel("Max runs per hour").fill("12");
    await settings.getByLabel("Reports to").selectOption({ label: "The board" });
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => settings.getByRole("status").innerText()).toBe("Settings saved.");
    expect(await url.getAttribute("aria-invalid")).toBeNull();
    const saved = await api.get(`/api/agents/${bea.id}`);
    expect(saved).toMatchObject({
      title: "Head of design",
      role: "designer",
      capabilities: "Figma, typography",
      reportsTo: null,
      adapterConfig: { url: agent.url, timeoutSec: 45, headers: { "x-team": "design" } },
      runtimeConfig: { heartbeat: { enabled: true, intervalSec: 3600, maxConcurrentRuns: 2, maxRunsPerHour: 12 } },
    });

    await page.reload();
    await ready(page, "Bea");
    const again = page.getByRole("region", { name: "Settings", exact: true });
    await expect.poll(() => again.getByLabel("Title").inputValue()).toBe("Head of design");
    expect(await again.getByLabel("Role").inputValue()).toBe("designer");
    expect(await again.getByLabel("timeoutSec", { exact: true }).inputValue()).toBe("45");
    expect(await again.getByLabel("Max runs per hour").inputValue()).toBe("12");
    expect(await again.getByLabel("Wake it on a timer (heartbeat)").isChecked()).toBe(true);
    expect(await again.getByLabel("Reports to").inputValue()).toBe("");
    await again.getByLabel("Reports to").selectOption({ label: "Ada" });
    await again.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${bea.id}`)).reportsTo).toBe(ada.id);
  });

  it("agent settings: a new adapter (the edge agent) with its model, instructions and its key picked among the company's secrets, never shown", async () => {
    const { company, prefix, bea } = await initech();
    const secret = await api.post(`/api/companies/${company.id}/secrets`, { name: "MODEL_KEY", value: MODEL_KEY });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents/${bea.id}`, "agent-settings-adapter", "Bea");
    const settings = page.getByRole("region", { name: "Settings", exact: true });
    await settings.getByLabel("Adapter").selectOption("llm_api");
    // The fields come from GET /api/adapters: a choice for an enum, a text box for instructions, a secret picker for the key.
    await settings.getByLabel("provider").selectOption("openai_compatible");
    await settings.getByLabel("baseUrl").fill("http://127.0.0.1:11434/v1");
    await settings.getByLabel("model", { exact: true }).fill("qwen3:8b");
    await settings.getByLabel("instructions").fill("You are Bea. Keep answers short.");
    await settings.getByLabel("apiKey").selectOption({ label: "MODEL_KEY" });
    await settings.getByLabel("maxTurns").fill("8");
    await settings.getByLabel("stream").uncheck();
    await checkPage(page, "agent-settings-llm");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => settings.getByRole("status").innerText()).toBe("Settings saved.");
    const saved = await api.get(`/api/agents/${bea.id}`);
    expect(saved.adapterType).toBe("llm_api");
    expect(saved.adapterConfig).toMatchObject({
      provider: "openai_compatible",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "qwen3:8b",
      instructions: "You are Bea. Keep answers short.",
      apiKey: { type: "secret_ref", secretId: secret.id, version: "latest" },
      maxTurns: 8,
      stream: false,
    });
    expect(saved.adapterConfig.url).toBeUndefined();

    await page.reload();
    await ready(page, "Bea");
    const again = page.getByRole("region", { name: "Settings", exact: true });
    await expect.poll(() => again.getByLabel("model", { exact: true }).inputValue()).toBe("qwen3:8b");
    expect(await again.getByLabel("Adapter").inputValue()).toBe("llm_api");
    expect(await again.getByLabel("apiKey").inputValue()).toBe(secret.id);
    expect(await again.getByLabel("instructions").inputValue()).toBe("You are Bea. Keep answers short.");
    expect(await page.content()).not.toContain(MODEL_KEY);
    // A change of one field sends that field only: the key's reference stays as it is.
    await again.getByLabel("instructions").fill("You are Bea.");
    await again.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${bea.id}`)).adapterConfig.instructions).toBe("You are Bea.");
    expect((await api.get(`/api/agents/${bea.id}`)).adapterConfig.apiKey).toEqual({ type: "secret_ref", secretId: secret.id, version: "latest" });
    await checkPage(page, "agent-settings-llm-saved");
  });

  it("the org chart: a new manager chosen on an agent's card, and the chart redraws", async () => {
    const { company, prefix, agent, bea } = await initech();
    const cy = await hireHttpAgent(api, company.id, agent.url, "Cy");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents?view=org`, "agents-org-managers", "Agents");
    const underAda = page.getByRole("list", { name: "Reports to Ada" });
    await expect.poll(() => underAda.innerText()).toContain("Bea");
    // Ada cannot report to Bea (Bea reports to her): the choice is not offered.
    const adaManager = page.getByLabel("Manager of Ada");
    expect(await adaManager.locator("option").allInnerTexts()).toEqual(["The board", "Cy"]);
    await page.getByLabel("Manager of Cy").selectOption({ label: "Bea" });
    const underBea = page.getByRole("list", { name: "Reports to Bea" });
    await expect.poll(() => underBea.count()).toBe(1);
    expect(await underBea.innerText()).toContain("Cy");
    await expect.poll(async () => (await api.get(`/api/agents/${cy.id}`)).reportsTo).toBe(bea.id);
    await page.getByLabel("Manager of Bea").selectOption({ label: "The board" });
    await expect.poll(() => page.getByRole("list", { name: "Reports to Ada" }).count()).toBe(0);
    expect((await api.get(`/api/agents/${bea.id}`)).reportsTo).toBeNull();
    await checkPage(page, "agents-org-changed");
  });

  it("the assignee picker lists people beside agents: an issue given to a person (the agent cleared) and back; New issue for a person", async () => {
    const { company, prefix, ada } = await initech();
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Review the contract", assigneeAgentId: ada.id, status: "todo" });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/issues/${issue.identifier}`, "issue-assignee-people", /Review the contract/);
    const assignee = page.getByRole("region", { name: "Issue settings" }).getByLabel("Assignee");
    await expect.poll(() => assignee.locator("optgroup[label=People] option").allInnerTexts()).toEqual(["Local Board (you)"]);
    expect(await assignee.locator("optgroup[label=Agents] option").allInnerTexts()).toEqual(["Ada", "Bea"]);
    await assignee.selectOption({ label: "Local Board (you)" });
    await expect.poll(async () => (await api.get(`/api/issues/${issue.id}`)).assigneeUserId).toBe("local-board");
    expect((await api.get(`/api/issues/${issue.id}`)).assigneeAgentId).toBeNull();
    await expect.poll(() => page.locator("main article > p.meta").nth(1).innerText()).toContain("Local Board (you)");
    await checkPage(page, "issue-assigned-person");
    await assignee.selectOption({ label: "Ada" });
    await expect.poll(async () => (await api.get(`/api/issues/${issue.id}`)).assigneeAgentId).toBe(ada.id);
    expect((await api.get(`/api/issues/${issue.id}`)).assigneeUserId).toBeNull();

    await visit(page, server.base, `${prefix}/issues/new`, "issue-new-people", "New issue");
    await page.getByLabel("Title").fill("Sign the lease");
    await expect.poll(() => page.getByLabel("Assignee").locator("optgroup[label=People] option").count()).toBe(1);
    await page.getByLabel("Assignee").selectOption({ label: "Local Board (you)" });
    await page.getByRole("button", { name: "Create issue" }).click();
    await ready(page, /Sign the lease/);
    const created = (await api.get(`/api/companies/${company.id}/issues?q=lease`))[0];
    expect(created).toMatchObject({ assigneeUserId: "local-board", assigneeAgentId: null });
  });

  it("Waiting on you: “Assigned to you” lists the open issues assigned to the signed-in member, counted in the navigation and live", async () => {
    const { company, prefix, ada } = await initech();
    const mine = await api.post(`/api/companies/${company.id}/issues`, { title: "Approve the budget plan", assigneeUserId: "local-board", status: "todo" });
    await api.post(`/api/companies/${company.id}/issues`, { title: "Old chore", assigneeUserId: "local-board", status: "done" });
    await api.post(`/api/companies/${company.id}/issues`, { title: "Ada's work", assigneeAgentId: ada.id, status: "todo" });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/inbox`, "inbox-assigned", "Waiting on you");
    const section = page.getByRole("region", { name: /Assigned to you/ });
    const nav = page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: /Waiting on you/ });
    await expect.poll(() => section.getByRole("heading").innerText()).toBe("Assigned to you (1)");
    expect(await section.innerText()).toContain("Approve the budget plan");
    expect(await section.innerText()).not.toContain("Old chore");
    expect(await section.innerText()).not.toContain("Ada's work");
    await expect.poll(() => nav.innerText()).toContain("1");
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");

    // Made and finished elsewhere: the list and the count follow without a reload.
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    await api.post(`/api/companies/${company.id}/issues`, { title: "Call the landlord", assigneeUserId: "local-board", status: "in_progress" });
    await expect.poll(() => section.getByRole("heading").innerText(), { timeout: 10_000 }).toBe("Assigned to you (2)");
    await expect.poll(() => nav.innerText()).toContain("2");
    await api.patch(`/api/issues/${mine.id}`, { status: "done" });
    await expect.poll(() => section.getByRole("heading").innerText(), { timeout: 10_000 }).toBe("Assigned to you (1)");
    expect(await section.innerText()).toContain("Call the landlord");
    await expect.poll(() => nav.innerText()).toContain("1");
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await checkPage(page, "inbox-assigned-live");
    await section.getByRole("link", { name: /Call the landlord/ }).click();
    await ready(page, /Call the landlord/);
  });

  it("skills: the library with each skill's source, Install from the catalog, an import from a URL, an audit's findings; an agent's desired skills", async () => {
    const { company, prefix, bea } = await initech();
    const blob = "QUJD".repeat(120);
    const source = ours(
      await skillSource(`---\nname: triage\ndescription: Sort new issues by urgency.\n---\n\n# Triage\n\nSort the new issues.\n\nReference data: ${blob}\n`),
    );
    const page = await newPage();
    await page.goto(`${server.base}${prefix}/dashboard`);
    await ready(page, "Dashboard");
    await page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: "Skills" }).click();
    await ready(page, "Skills");
    await checkPage(page, "skills");
    const library = page.getByRole("region", { name: /Library/ });
    const skill = (name: string) => library.getByRole("listitem").filter({ has: page.getByRole("heading", { name: new RegExp(`^${name}`) }) });
    await expect.poll(() => skill("Issues").innerText()).toContain("Bundled with the service");

    // The catalog: an optional skill installed; it joins the library, from the catalog.
    const catalog = page.getByRole("region", { name: "Catalog" });
    await catalog.getByRole("button", { name: "Install Run events logger" }).click();
    await expect.poll(() => catalog.getByRole("status").filter({ hasText: "Run events logger installed." }).count()).toBe(1);
    await expect.poll(() => skill("Run events logger").count()).toBe(1);
    expect(await skill("Run events logger").innerText()).toContain("From the catalog");
    expect(await catalog.getByRole("button", { name: "Install Run events logger" }).count()).toBe(0);
    // Its audit: a warning for the script it ships.
    await skill("Run events logger").getByRole("button", { name: "Audit Run events logger" }).click();
    const scriptFindings = page.getByRole("list", { name: "Findings for Run events logger" });
    await expect.poll(() => scriptFindings.innerText()).toContain("executable_script");

    // An import from a URL (a SKILL.md on a server of the test's own), then its audit with a finding.
    const importForm = page.getByRole("region", { name: "Import from a URL" });
    await importForm.getByLabel("Source").fill(source.url);
    await importForm.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => importForm.getByRole("status").innerText()).toBe("Imported 1 skill.");
    expect(await importForm.getByRole("list", { name: "What the import did" }).innerText()).toContain("created");
    await expect.poll(() => skill("triage").count()).toBe(1);
    expect(await skill("triage").innerText()).toContain(`Imported from a URL: ${source.url}`);
    await skill("triage").getByRole("button", { name: "Audit triage" }).click();
    const findings = page.getByRole("list", { name: "Findings for triage" });
    await expect.poll(() => findings.innerText()).toContain("long_encoded_blob");
    expect(await skill("triage").innerText()).toContain("Warning");
    await checkPage(page, "skills-imported-audited");
    const stored = (await api.get(`/api/companies/${company.id}/skills`)).find((s: { slug: string }) => s.slug === "triage");
    expect(stored).toMatchObject({ sourceType: "url", sourceRef: source.url, audit: { verdict: "warning" } });

    // The agent's desired skills, edited on its page.
    await visit(page, server.base, `${prefix}/agents/${bea.id}`, "agent-skills", "Bea");
    const skills = page.getByRole("region", { name: "Skills", exact: true });
    await skills.getByLabel(stored.key).check();
    await skills.getByLabel("service/issues").check();
    await skills.getByRole("button", { name: "Save skills" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${bea.id}/skills`)).desiredSkills.sort()).toEqual([stored.key, "service/issues"].sort());
    await page.reload();
    await ready(page, "Bea");
    await expect.poll(() => page.getByRole("region", { name: "Skills", exact: true }).getByLabel(stored.key).isChecked()).toBe(true);
    await page.getByRole("region", { name: "Skills", exact: true }).getByLabel("service/issues").uncheck();
    await page.getByRole("region", { name: "Skills", exact: true }).getByRole("button", { name: "Save skills" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${bea.id}/skills`)).desiredSkills).toEqual([stored.key]);
  });

  it("approvals history: every approval with its status, who decided and the note, filtered in the URL, reached from Waiting on you and live", async () => {
    const { company, prefix } = await initech();
    const ask = (title: string) =>
      api.post(`/api/companies/${company.id}/approvals`, {
        type: "request_board_approval",
        payload: { title, summary: `${title}?`, recommendedAction: "go", risks: [] },
      });
    const lease = await ask("Sign the office lease");
    await api.post(`/api/approvals/${lease.id}/approve`, { decisionNote: "Within budget" });
    const ads = await ask("Buy ads");
    await api.post(`/api/approvals/${ads.id}/reject`, { decisionNote: "Not this quarter" });
    await ask("Hire a designer");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/inbox`, "inbox-approvals-link", "Waiting on you");
    await page.getByRole("link", { name: "Every approval, decided ones included" }).click();
    await ready(page, "Approvals");
    const list = page.locator("ul.approvals > li");
    await expect.poll(() => list.count()).toBe(3);
    const text = await page.locator("main").innerText();
    expect(text).toContain("Sign the office lease");
    expect(text).toContain("“Within budget”");
    expect(text).toContain("“Not this quarter”");
    expect(text).toContain("Decide in Waiting on you");
    await checkPage(page, "approvals");

    // Filtered in the URL (kept on reload), then a new one made elsewhere appears without a reload.
    await page.getByLabel("Status").selectOption("approved");
    await expect.poll(() => page.url()).toContain("status=approved");
    await expect.poll(() => list.count()).toBe(1);
    await page.reload();
    await ready(page, "Approvals");
    await expect.poll(() => list.count()).toBe(1);
    expect(await list.first().innerText()).toContain("Sign the office lease");
    await page.getByLabel("Status").selectOption("");
    await expect.poll(() => list.count()).toBe(3);
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");
    await ask("Renew the domain");
    await expect.poll(() => list.count(), { timeout: 10_000 }).toBe(4);
    await checkPage(page, "approvals-live");
  });

  it("at 390 px wide none of these pages scrolls sideways", async () => {
    const { company, prefix, ada, bea } = await initech();
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Approve the budget plan", assigneeUserId: "local-board", status: "todo" });
    await api.post(`/api/companies/${company.id}/skills/install-catalog`, { catalogSkillId: "service/run-events" });
    const small = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const pages: Array<[string, string]> = [
      [`${prefix}/agents/${bea.id}`, "agent-settings"],
      [`${prefix}/agents?view=org`, "agents-org-managers"],
      [`${prefix}/issues/${issue.identifier}`, "issue-assignee-people"],
      [`${prefix}/issues/new`, "issue-new-people"],
      [`${prefix}/inbox`, "inbox-assigned"],
      [`${prefix}/skills`, "skills"],
      [`${prefix}/approvals`, "approvals"],
    ];
    for (const [url, name] of pages) {
      await small.goto(`${server.base}${url}`);
      await ready(small);
      await noHorizontalScroll(small, name);
      await checkPage(small, `phone-${name}`);
    }
    // A refused value's error and a long adapter field on a phone.
    await small.goto(`${server.base}${prefix}/agents/${ada.id}`);
    await ready(small, "Ada");
    const settings = small.getByRole("region", { name: "Settings", exact: true });
    await settings.getByLabel("url", { exact: true }).fill("not-a-url");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => settings.getByLabel("url", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await noHorizontalScroll(small, "agent settings with a refused value");
    await checkPage(small, "phone-agent-settings-refused");
  });

  it("the skills page and the pages changed here are ready within 1 s of their navigation (median of 3 loads)", async () => {
    const { company, prefix, bea } = await initech();
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Approve the budget plan", assigneeUserId: "local-board", status: "todo" });
    const page = await newPage();
    await expectReadyWithin(
      page,
      server.base,
      [
        ["skills", `${prefix}/skills`],
        ["agent with settings", `${prefix}/agents/${bea.id}`],
        ["inbox with assigned issues", `${prefix}/inbox`],
        ["issue assigned to a person", `${prefix}/issues/${issue.identifier}`],
        ["approvals", `${prefix}/approvals`],
      ],
      READY_BUDGET_MS,
    );
  });
});
