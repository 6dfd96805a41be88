// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property
// The board console beyond the daily loop, in a real browser against a real `npm run dev`
// (local_trusted): costs and budgets, projects and goals, routines (Run now and its run), activity,
// settings (company, logo upload, hiring approval, members and invites, secrets metadata, webhooks
// with their delivery log), the agent page (org chart, configuration with secret references,
// budget, an API key shown once, hiring) and the issue page's documents (revisions and a diff),
// attachments and the runs that touched it with their events; a cost and a routine run made
// through the API appear without a reload; the instance's plugins (the wiki disabled and enabled). Every page gets axe-core and a screenshot, a 390 px
// pass and its ready time. Each test makes what it needs (its own company — most often Globex,
// below —, agent endpoint, webhook receiver and browser context), so the tests pass alone and in
// any order.
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { describe, expect, it } from "vitest";
import {
  type apiClient,
  browserSuite,
  checkPage,
  type DevServer,
  fakeAgent,
  hireHttpAgent,
  expectReadyWithin,
  noHorizontalScroll,
  ours,
  ready,
  visit,
} from "./harness";

const READY_BUDGET_MS = 1000;
// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const OPENAI_KEY = "sk-live-4f9c2b7e1d8a6035b2c4e9f7a1d3b5c8";

/** A webhook receiver: answers 200 and keeps what it was sent. */
async function webhookReceiver() {
  const received: Array<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => server.close() };
}

let server: DevServer;
let api: ReturnType<typeof apiClient>;
const { newPage, newCompany } = browserSuite((suite) => ({ server, api } = suite));

/**
 * Globex: Ada; Bea (reports to Ada, a $20 budget, an OpenAI key in her environment that the service
 * keeps as a company secret); Runa (reports to Bea), all woken at an agent endpoint of the test's
 * own; the goals Launch › Beta; the project Website (for Launch, led by Ada) with the issue “Write
 * the spec”; $12.34 spent by Ada on Website (anthropic) and $5.00 by Bea (openai).
 */
async function globex() {
  const { company, prefix } = await newCompany("Globex", { budgetMonthlyCents: 100_000 });
  const agent = ours(await fakeAgent());
  const hire = (name: string, extra: object = {}) => hireHttpAgent(api, company.id, agent.url, name, extra);
  const ada = await hire("Ada");
  const bea = await hire("Bea", {
    reportsTo: ada.id,
    budgetMonthlyCents: 2000,
    adapterConfig: { url: agent.url, env: { OPENAI_API_KEY: OPENAI_KEY, REGION: "eu" } },
  });
  const runa = await hire("Runa", { reportsTo: bea.id });
  const launch = await api.post(`/api/companies/${company.id}/goals`, { title: "Launch", level: "company", status: "active" });
  const beta = await api.post(`/api/companies/${company.id}/goals`, { title: "Beta", parentId: launch.id });
  const website = await api.post(`/api/companies/${company.id}/projects`, {
    name: "Website",
    status: "in_progress",
    goalIds: [launch.id],
    leadAgentId: ada.id,
  });
  await api.post(`/api/companies/${company.id}/issues`, { title: "Write the spec", projectId: website.id, status: "todo" });
  const now = new Date().toISOString();
  await api.post(`/api/companies/${company.id}/cost-events`, {
    agentId: ada.id,
    provider: "anthropic",
    model: "claude",
    costCents: 1234,
    projectId: website.id,
    occurredAt: now,
  });
  await api.post(`/api/companies/${company.id}/cost-events`, { agentId: bea.id, provider: "openai", model: "gpt", costCents: 500, occurredAt: now });
  return { company, prefix, agent, ada, bea, runa, launch, beta, website };
}

type Globex = Awaited<ReturnType<typeof globex>>;

/** The routine “Daily triage” (Ada's, on Website), made through the API. */
function dailyTriage({ company, ada, website }: Globex) {
  return api.post(`/api/companies/${company.id}/routines`, {
    title: "Daily triage",
    description: "Sort the **new** issues.",
    assigneeAgentId: ada.id,
    projectId: website.id,
  });
}

/** “Plan the launch”, Runa's: the document “Launch plan” in two revisions, and her run on it (a comment, an event) over. */
async function planTheLaunch({ company, runa, agent }: Globex) {
  const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Plan the launch", assigneeAgentId: runa.id, status: "todo" });
  const first = await api.put(`/api/issues/${issue.id}/documents/plan`, {
    title: "Launch plan",
    body: "# Launch plan\n\n- write the post\n- tell the press\n- ship",
  });
  await api.put(`/api/issues/${issue.id}/documents/plan`, {
    body: "# Launch plan\n\n- write the post\n- record a demo\n- ship\n- celebrate",
    changeSummary: "Demo instead of press",
    baseRevisionId: first.latestRevisionId,
  });
  await agent.complete(await startsWork(agent, issue.id));
  return issue;
}

/** The run the agent was woken for on the issue comments on it (which links the run to it) and logs progress; returns its wake-up. */
async function startsWork(agent: Globex["agent"], issueId: string) {
  await expect.poll(() => agent.wakes.filter((w) => w.context.issueId === issueId).length, { timeout: 10_000 }).toBe(1);
  const wake = agent.wakes.find((w) => w.context.issueId === issueId)!;
  await fetch(`${wake.apiUrl}/api/issues/${issueId}/comments`, { method: "POST", headers: agent.asRun(wake), body: JSON.stringify({ body: "On it." }) });
  await fetch(`${wake.apiUrl}/api/heartbeat-runs/${wake.runId}/events`, {
    method: "POST",
    headers: agent.asRun(wake),
    body: JSON.stringify({ events: [{ kind: "progress", message: "Reading the launch plan" }] }),
  });
  return wake;
}

/** Globex with a routine, a webhook and the issue “Plan the launch”: every page of this file has something to show. */
async function globexInFull() {
  const world = await globex();
  const routine = await dailyTriage(world);
  const receiver = ours(await webhookReceiver());
  const webhook = await api.post(`/api/companies/${world.company.id}/webhooks`, { url: receiver.url, events: ["issue.*"], description: "The team's bot" });
  const planIssue = await planTheLaunch(world);
  return { ...world, routineId: routine.id as string, webhookId: webhook.id as string, planIssue };
}

describe("board console: costs, projects, goals, routines, activity, settings, agents and issues in depth", () => {
  it("costs and budgets: spend by agent, project and provider; a budget set from the page", async () => {
    const { company, prefix, ada } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/costs`, "costs", "Costs and budgets");
    const section = (name: string) => page.getByRole("region", { name, exact: true });
    await expect.poll(() => section("By agent").innerText()).toContain("Ada");
    expect(await section("By agent").innerText()).toContain("$12.34");
    expect(await section("By project").innerText()).toMatch(/Website\s+\$12\.34/);
    expect(await section("By provider").innerText()).toContain("openai");
    expect(await section("Budget policies").innerText()).toContain("Agent Bea");
    const form = page.getByRole("form", { name: "Set a budget" });
    await form.getByLabel("Applies to").selectOption("agent");
    await form.getByLabel("Agent", { exact: true }).selectOption({ label: "Ada" });
    await form.getByLabel("Budget (USD)").fill("50");
    await form.getByRole("button", { name: "Save budget" }).click();
    await expect.poll(() => form.getByRole("status").innerText()).toContain("Agent Ada, $50.00");
    const overview = await api.get(`/api/companies/${company.id}/budgets/overview`);
    expect(overview.policies.find((p: any) => p.scopeType === "agent" && p.scopeId === ada.id)?.amountCents).toBe(5000);
    await expect.poll(() => section("Budget policies").innerText()).toContain("Agent Ada");
    await page.getByLabel("Period").selectOption("all");
    await page.waitForURL(/range=all/);
    await expect.poll(() => page.getByRole("region", { name: "Spend, all time" }).innerText()).toContain("$17.34");
  });

  it("projects: the list, a new project, and a project's page with its issues, spend and status", async () => {
    const { company, prefix, beta, website } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/projects`, "projects", "Projects");
    expect(await page.locator(".project-list").innerText()).toMatch(/Website[\s\S]*led by Ada[\s\S]*Launch/);
    await page.getByRole("button", { name: "New project" }).click();
    const form = page.getByRole("form", { name: "New project" });
    await form.getByLabel("Name").fill("Mobile app");
    await form.getByLabel("Goal").selectOption({ label: "Beta" });
    await checkPage(page, "project-new");
    await form.getByRole("button", { name: "Create project" }).click();
    await expect.poll(() => page.locator(".project-list").innerText()).toContain("Mobile app");
    const projects = await api.get(`/api/companies/${company.id}/projects`);
    expect(projects.find((p: any) => p.name === "Mobile app")?.goalIds).toEqual([beta.id]);

    await page.getByRole("link", { name: "Website" }).click();
    await ready(page, "Website");
    await checkPage(page, "project");
    await expect.poll(() => page.getByRole("region", { name: "Issues", exact: true }).innerText()).toContain("Write the spec");
    await expect.poll(() => page.getByRole("region", { name: "Spend and budget" }).innerText()).toContain("$12.34 spent");
    await page.getByRole("region", { name: "Project settings" }).getByLabel("Status").selectOption("completed");
    await expect.poll(async () => (await api.get(`/api/projects/${website.id}?companyId=${company.id}`)).status).toBe("completed");
    // A deep link survives a reload.
    await page.reload();
    await ready(page, "Website");
  });

  it("goals: the tree, a new goal, and a goal's page with its sub-goals and projects", async () => {
    const { prefix, launch } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/goals`, "goals", "Goals");
    await expect.poll(() => page.getByRole("list", { name: "Sub-goals of Launch" }).innerText()).toContain("Beta");
    await page.getByRole("button", { name: "New goal" }).click();
    const form = page.getByRole("form", { name: "New goal" });
    await form.getByLabel("Title").fill("Ship 1.0");
    await form.getByLabel("Part of").selectOption({ label: "Launch" });
    await form.getByLabel("Owner").selectOption({ label: "Ada" });
    await form.getByRole("button", { name: "Create goal" }).click();
    await expect.poll(() => page.getByRole("list", { name: "Sub-goals of Launch" }).innerText()).toContain("Ship 1.0");
    await page.getByRole("link", { name: "Launch" }).click();
    await ready(page, "Launch");
    await checkPage(page, "goal");
    await expect.poll(() => page.getByRole("region", { name: "Projects", exact: true }).innerText()).toContain("Website");
    expect(await page.getByRole("region", { name: "Sub-goals", exact: true }).innerText()).toMatch(/Beta[\s\S]*Ship 1\.0|Ship 1\.0[\s\S]*Beta/);
    await page.getByRole("region", { name: "Goal settings" }).getByLabel("Status").selectOption("achieved");
    await expect.poll(async () => (await api.get(`/api/goals/${launch.id}`)).status).toBe("achieved");
  });

  it("routines: a new routine, a schedule and a webhook trigger (its secret shown once), Run now and its run", async () => {
    const { prefix, agent } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/routines`, "routines-empty", "Routines");
    expect(await page.locator(".empty").innerText()).toContain("No routines yet");
    await page.getByRole("button", { name: "New routine" }).click();
    const form = page.getByRole("form", { name: "New routine" });
    await form.getByLabel("Title").fill("Daily triage");
    await form.getByLabel("Description").fill("Sort the **new** issues.");
    await form.getByLabel("Assignee").selectOption({ label: "Ada" });
    await form.getByLabel("Project").selectOption({ label: "Website" });
    await form.getByRole("button", { name: "Create routine" }).click();
    await page.waitForURL(/\/routines\/[0-9a-f-]{36}$/);
    const routineId = page.url().split("/").pop()!;
    await ready(page, "Daily triage");

    const triggers = page.getByRole("region", { name: "Triggers", exact: true });
    const add = page.getByRole("form", { name: "Add a trigger" });
    await add.getByLabel("Cron expression").fill("0 9 * * 1-5");
    await add.getByLabel("Time zone").fill("Europe/Berlin");
    await add.getByRole("button", { name: "Add trigger" }).click();
    await expect.poll(() => triggers.innerText()).toContain("schedule 0 9 * * 1-5 (Europe/Berlin)");
    await add.getByLabel("Kind").selectOption("webhook");
    await add.getByRole("button", { name: "Add trigger" }).click();
    const secret = page.getByRole("textbox", { name: "Webhook secret" });
    await expect.poll(() => secret.count()).toBe(1);
    const shown = await secret.inputValue();
    expect(shown.length).toBeGreaterThan(16);
    await checkPage(page, "routine-webhook-secret");
    // The secret works: the webhook fires the routine with it.
    const url = await triggers.locator(".once code").innerText();
    const fired = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${shown}`, "content-type": "application/json" }, body: "{}" });
    expect(fired.status).toBe(202);
    // Shown once: after a reload only the trigger is listed, never its secret.
    await page.reload();
    await ready(page, "Daily triage");
    expect(await page.getByRole("textbox", { name: "Webhook secret" }).count()).toBe(0);
    expect(await page.locator("main").innerText()).not.toContain(shown);
    await expect.poll(() => page.getByRole("region", { name: "Triggers", exact: true }).innerText()).toContain("webhook (Bearer signature)");
    const history = page.getByRole("region", { name: "Run history", exact: true });
    await expect.poll(() => history.locator("li").count()).toBe(1);
    expect(await history.innerText()).toContain("Webhook");

    // The webhook's run is still working on its issue: Run now joins it (coalesce_if_active) until it is done.
    await agent.completeAll();
    const firstRun = (await api.get(`/api/routines/${routineId}/runs`))[0];
    await api.patch(`/api/issues/${firstRun.linkedIssueId}`, { status: "done" });
    await expect.poll(async () => (await api.get(`/api/routines/${routineId}/runs`))[0].status).toBe("completed");
    await page.getByRole("button", { name: "Run now" }).click();
    await expect.poll(() => page.getByRole("region", { name: "Routine controls" }).getByRole("status").first().innerText()).toContain("Run started");
    await expect.poll(() => history.locator("li").count()).toBe(2);
    const runs = await api.get(`/api/routines/${routineId}/runs`);
    expect(runs[0]).toMatchObject({ source: "manual", status: "issue_created" });
    expect(await history.locator("li").first().innerText()).toMatch(/Issue created\s+Manual/);
    await history.locator("li").first().getByRole("link", { name: "its issue" }).click();
    await ready(page, /Daily triage/);
    expect(page.url()).toContain(runs[0].linkedIssueId);
    await expect.poll(() => agent.wakes.filter((w) => w.context.issueId === runs[0].linkedIssueId).length, { timeout: 10_000 }).toBe(1);
    await agent.completeAll();
    await visit(page, server.base, `${prefix}/routines`, "routines", "Routines");
    expect(await page.locator(".routine-list").innerText()).toContain("Daily triage");
    await visit(page, server.base, `${prefix}/routines/${routineId}`, "routine", "Daily triage");
  });

  it("activity: the company's list, filtered by subject and agent in the URL", async () => {
    const world = await globex();
    const { company, prefix } = world;
    await dailyTriage(world);
    const page = await newPage();
    await visit(page, server.base, `${prefix}/activity`, "activity", "Activity");
    await expect.poll(() => page.locator(".activity li").count()).toBeGreaterThan(5);
    await page.getByLabel("Subject").selectOption("routine");
    await page.waitForURL(/entityType=routine/);
    const routineEntries = await api.get(`/api/companies/${company.id}/activity?entityType=routine`);
    await expect.poll(() => page.locator(".activity li").count()).toBe(routineEntries.length);
    await page.reload();
    await ready(page, "Activity");
    expect(await page.getByLabel("Subject").inputValue()).toBe("routine");
  });

  it("settings: name and description saved, a logo uploaded (shown in the header), hiring approval switched on", async () => {
    const { company, prefix } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/settings`, "settings", "Settings");
    await page.getByLabel("Description").fill("We make everything.");
    await page.getByLabel("Brand colour").fill("#0a58ca");
    await page.getByRole("button", { name: "Save company" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}`)).description).toBe("We make everything.");
    expect((await api.get(`/api/companies/${company.id}`)).brandColor).toBe("#0a58ca");

    await page.getByLabel("Logo image").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await expect.poll(() => page.getByText("Logo uploaded.").count()).toBe(1);
    const logoAssetId = (await api.get(`/api/companies/${company.id}`)).logoAssetId;
    expect(logoAssetId).toBeTruthy();
    const preview = page.getByRole("img", { name: `${company.name} logo` });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(Buffer.from(await (await fetch(`${server.base}/api/assets/${logoAssetId}/content`)).arrayBuffer()).equals(PNG)).toBe(true);
    await expect.poll(() => page.locator("header img.logo").getAttribute("src")).toBe(`/api/assets/${logoAssetId}/content`);
    await checkPage(page, "settings-logo");

    await page.getByLabel("New agents need the board's approval").check();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}`)).requireBoardApprovalForNewAgents).toBe(true);
  });

  it("hires an agent with “Hire agent”; with approval required it waits in the inbox until approved", async () => {
    const { company, prefix, ada, agent } = await globex();
    await api.patch(`/api/companies/${company.id}`, { requireBoardApprovalForNewAgents: true });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents`, "agents", "Agents");
    await page.getByRole("link", { name: "Hire agent" }).click();
    await ready(page, "Hire agent");
    await checkPage(page, "agent-hire");
    await page.getByLabel("Name").fill("Finn");
    await page.getByLabel("Role").fill("designer");
    await page.getByLabel("Reports to").selectOption({ label: "Ada" });
    await page.getByLabel("Adapter configuration (JSON)").fill("{ not json");
    await page.getByRole("button", { name: "Hire agent" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("not valid JSON");
    await page.getByLabel("Adapter configuration (JSON)").fill(JSON.stringify({ url: agent.url }));
    await page.getByRole("button", { name: "Hire agent" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Finn is waiting for the board's approval" }).count()).toBe(1);
    const finn = (await api.get(`/api/companies/${company.id}/agents`)).find((a: any) => a.name === "Finn");
    expect(finn).toMatchObject({ status: "pending_approval", reportsTo: ada.id, role: "designer" });
    await page.getByRole("link", { name: "Open the inbox" }).click();
    await ready(page, "Waiting on you");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Hire Finn/ }) });
    await card.getByRole("button", { name: "Approve" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${finn.id}`)).status).not.toBe("pending_approval");
  });

  it("the hire form offers every adapter from GET /api/adapters, with its fields and example: an edge agent (llm_api)", async () => {
    const { company, prefix } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents/new`, "agent-hire-llm", "Hire agent");
    await page.getByLabel("Adapter", { exact: true }).selectOption("llm_api");
    await expect.poll(() => page.getByLabel("Adapter configuration (JSON)").getAttribute("placeholder")).toContain('"provider":"openai_compatible"');
    await page.getByText(/configuration fields/).click();
    const provider = page.getByRole("row", { name: /provider/ }).first();
    expect(await provider.innerText()).toContain("openai_compatible | anthropic | workers_ai");
    expect(await page.getByRole("row", { name: /apiKey/ }).innerText()).toContain("(secret)");
    await checkPage(page, "agent-hire-llm-fields");
    await page.getByLabel("Name").fill("Edgar");
    await page
      .getByLabel("Adapter configuration (JSON)")
      .fill(
        JSON.stringify({ provider: "openai_compatible", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3:8b", apiKey: "sk-local-edge-secret-0123456789" }),
      );
    await page.getByRole("button", { name: "Hire agent" }).click();
    await ready(page, "Edgar");
    const edgar = (await api.get(`/api/companies/${company.id}/agents`)).find((a: any) => a.name === "Edgar");
    expect(edgar).toMatchObject({ adapterType: "llm_api", adapterConfig: { provider: "openai_compatible", apiKey: { type: "secret_ref" } } });
  });

  it("the org chart nests each agent under the one it reports to", async () => {
    const { company, prefix, ada, agent } = await globex();
    await hireHttpAgent(api, company.id, agent.url, "Finn", { role: "designer", reportsTo: ada.id });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents?view=org`, "agents-org", "Agents");
    const underAda = page.getByRole("list", { name: "Reports to Ada" });
    await expect.poll(() => underAda.innerText()).toContain("Bea");
    expect(await underAda.innerText()).toContain("Finn");
    expect(await page.getByRole("list", { name: "Reports to Bea" }).innerText()).toContain("Runa");
    expect(await page.getByRole("list", { name: "Reports to Runa" }).count()).toBe(0);
  });

  it("the agent page: configuration with secrets as references only, a budget, an API key shown once", async () => {
    const { company, prefix, bea } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents/${bea.id}`, "agent-config", "Bea");
    const config = page.getByRole("region", { name: "Configuration", exact: true });
    const secrets = await api.get(`/api/companies/${company.id}/secrets`);
    const secret = secrets.find((s: any) => s.name.includes("OPENAI_API_KEY"));
    expect(secret).toBeTruthy();
    await expect.poll(() => config.getByRole("row", { name: /env\.OPENAI_API_KEY/ }).innerText()).toContain(`Secret ${secret.name}, version latest`);
    expect(await config.getByRole("row", { name: /env\.REGION/ }).innerText()).toContain("eu");
    expect(await page.locator("main").innerText()).not.toContain(OPENAI_KEY);
    expect(await page.content()).not.toContain(OPENAI_KEY);

    const budget = page.getByRole("region", { name: "Budget", exact: true });
    await budget.getByLabel("Monthly budget (USD)").fill("30");
    await budget.getByRole("button", { name: "Save budget" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${bea.id}`)).budgetMonthlyCents).toBe(3000);

    const keys = page.getByRole("region", { name: "API keys", exact: true });
    await keys.getByLabel("Key name").fill("ci runner");
    await keys.getByRole("button", { name: "Create key" }).click();
    const token = keys.getByRole("textbox", { name: "API key token" });
    await expect.poll(() => token.count()).toBe(1);
    const value = await token.inputValue();
    expect(value).toMatch(/^svc_agent_/);
    await checkPage(page, "agent-key-once");
    const me = await fetch(`${server.base}/api/agents/me`, { headers: { authorization: `Bearer ${value}` } });
    expect((await me.json()).id).toBe(bea.id);
    await keys.getByRole("button", { name: "Done" }).click();
    expect(await keys.getByRole("textbox", { name: "API key token" }).count()).toBe(0);
    await page.reload();
    await ready(page, "Bea");
    await expect.poll(() => page.getByRole("region", { name: "API keys", exact: true }).innerText()).toContain("ci runner");
    expect(await page.content()).not.toContain(value);
  });

  it("a local runtime's run: its transcript in the run's log, the session it saved on the agent page, Reset sessions", async () => {
    const { company, prefix } = await newCompany("Runtime Co");
    const page = await newPage();
    // A Claude Code agent served by a runner played here over the runner WebSocket (protocol v2).
    const claude = await api.post(`/api/companies/${company.id}/agents`, { name: "Cody", adapterType: "claude_local", adapterConfig: { cwd: "/srv/app" } });
    const socket = new WebSocket(`${server.base.replace(/^http/, "ws")}/api/companies/${company.id}/runners/connect`);
    const received: any[] = [];
    socket.addEventListener("message", (e) => received.push(JSON.parse(String(e.data))));
    await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
    socket.send(JSON.stringify({ type: "hello", version: 2, agents: [claude.id], name: "laptop" }));
    await expect.poll(() => received.some((m) => m.type === "ready")).toBe(true);
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Fix the flaky test", assigneeAgentId: claude.id, status: "todo" });
    await expect.poll(() => received.find((m) => m.type === "run.start"), { timeout: 15_000 }).toBeTruthy();
    const start = received.find((m) => m.type === "run.start");
    expect(start.prompt).toContain(issue.identifier);
    socket.send(
      JSON.stringify({
        type: "run.events",
        runId: start.runId,
        events: [
          { kind: "thinking", message: "The test races on the clock." },
          { kind: "tool_call", message: 'Bash {"command":"npm test"}' },
          { kind: "tool_result", message: "12 passed" },
          { kind: "assistant", message: "Fixed: the test now waits for the clock." },
        ],
      }),
    );
    socket.send(
      JSON.stringify({
        type: "run.complete",
        runId: start.runId,
        status: "succeeded",
        summary: "Fixed the flaky test.",
        exitCode: 0,
        sessionId: "0c5d6f7a-1111-4222-8333-444455556666",
        sessionParams: { cwd: "/srv/app", model: "claude-sonnet-4-5" },
        usage: { inputTokens: 900, outputTokens: 120, costUsd: 0.02, model: "claude-sonnet-4-5", provider: "anthropic", billingType: "metered_api" },
      }),
    );
    await expect.poll(() => received.some((m) => m.type === "run.completed")).toBe(true);
    socket.close();

    await visit(page, server.base, `${prefix}/agents/${claude.id}`, "agent-sessions", "Cody");
    const sessions = page.getByRole("region", { name: "Sessions", exact: true });
    await expect.poll(() => sessions.innerText()).toContain("0c5d6f7a-1111-4222-8333-444455556666");
    expect(await sessions.innerText()).toContain("in /srv/app with claude-sonnet-4-5");
    const runs = page.getByRole("region", { name: "Latest runs", exact: true });
    await runs.locator("summary").first().click();
    await expect.poll(() => runs.locator(".run-events").innerText()).toContain("Fixed: the test now waits for the clock.");
    const log = await runs.locator(".run-events").innerText();
    for (const text of ["Thinking", "Tool call", "npm test", "Tool result", "12 passed"]) expect(log).toContain(text);
    await checkPage(page, "agent-runtime-sessions");
    await sessions.getByRole("button", { name: "Reset sessions" }).click();
    await expect.poll(() => sessions.innerText()).toContain("Forgot 1 session");
    await expect.poll(() => sessions.innerText()).toContain("No saved session");
    expect((await api.get(`/api/agents/${claude.id}/runtime-state`)).sessions).toEqual([]);
  });

  it("members and invites: an invite's link shown once, then revoked; secrets as metadata only", async () => {
    const { company, prefix } = await globex();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/settings/members`, "settings-members", "Members and invites");
    // In local_trusted mode the implicit local board is the company's member.
    await expect.poll(() => page.getByRole("region", { name: "Members", exact: true }).innerText()).toContain("Local Board");
    const form = page.getByRole("form", { name: "Create invite" });
    await form.getByLabel("Invite", { exact: true }).selectOption("agent");
    await form.getByLabel("Agent name").fill("Gus");
    await form.getByLabel("Note").fill("Join us.");
    await form.getByRole("button", { name: "Create invite" }).click();
    const link = page.getByRole("textbox", { name: "Invite link" });
    await expect.poll(() => link.count()).toBe(1);
    const token = (await link.inputValue()).split("/").pop()!;
    expect((await api.get(`/api/invites/${token}`)).status).toBe("pending");
    const invites = page.getByRole("region", { name: "Invites", exact: true });
    await expect.poll(() => invites.innerText()).toContain("Agent Gus");
    await invites.getByRole("button", { name: "Revoke the invite for agent gus" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}/invites`))[0].status).toBe("revoked");

    await visit(page, server.base, `${prefix}/settings/secrets`, "settings-secrets", "Secrets");
    await expect.poll(() => page.locator("table").innerText()).toContain("OPENAI_API_KEY");
    expect(await page.content()).not.toContain(OPENAI_KEY);
  });

  it("webhooks: created with its secret shown once (it signs the deliveries), a test ping, redelivery, disable and enable", async () => {
    const { company, prefix } = await newCompany("Webhook Co");
    const receiver = ours(await webhookReceiver());
    const page = await newPage();
    await visit(page, server.base, `${prefix}/settings/webhooks`, "settings-webhooks-empty", "Webhooks");
    expect(await page.getByText("No webhooks yet.").count()).toBe(1);
    const form = page.getByRole("form", { name: "New webhook" });
    await form.getByLabel("URL").fill(receiver.url);
    await form.getByLabel("Events").fill("issue.*, routine.run_created");
    await form.getByLabel("Description").fill("The team's bot");
    await form.getByRole("button", { name: "Create webhook" }).click();
    const secretField = page.getByRole("textbox", { name: "Signing secret" });
    await expect.poll(() => secretField.count()).toBe(1);
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await checkPage(page, "settings-webhooks-secret");
    const hooks = await api.get(`/api/companies/${company.id}/webhooks`);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ url: receiver.url, events: ["issue.*", "routine.run_created"], enabled: true });
    expect(JSON.stringify(hooks)).not.toContain(secret);
    const webhookId = hooks[0].id;
    // Never again: a reload lists the webhook without its secret.
    await page.reload();
    await ready(page, "Webhooks");
    expect(await page.getByRole("textbox", { name: "Signing secret" }).count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("link", { name: receiver.url }).click();
    await ready(page, "Webhook");
    await checkPage(page, "settings-webhook");
    await page.getByRole("button", { name: "Send test" }).click();
    const deliveries = page.getByRole("region", { name: "Deliveries", exact: true });
    await expect.poll(() => deliveries.innerText(), { timeout: 15_000 }).toMatch(/Succeeded\s+ping[\s\S]*answered 200/);
    // The receiver got the ping, signed with the secret the page showed.
    const ping = receiver.received.find((r) => r.body.toString("utf8").includes('"ping"'));
    expect(ping).toBeTruthy();
    const timestamp = String(ping!.headers["x-service-timestamp"]);
    const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(ping!.body).digest("hex");
    expect(ping!.headers["x-service-signature"]).toBe(`sha256=${expected}`);
    await expect.poll(() => deliveries.getByRole("button", { name: /^Redeliver ping/ }).count()).toBe(1);
    await deliveries.getByRole("button", { name: /^Redeliver ping/ }).click();
    await expect.poll(() => deliveries.locator("li").count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => receiver.received.filter((r) => r.body.toString("utf8").includes('"ping"')).length, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => deliveries.innerText(), { timeout: 15_000 }).not.toContain("Pending");
    await checkPage(page, "settings-webhook-deliveries");

    await page.getByRole("button", { name: "Disable" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}/webhooks/${webhookId}`)).enabled).toBe(false);
    await page.getByRole("button", { name: "Enable" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}/webhooks/${webhookId}`)).enabled).toBe(true);
  });

  it("plugins (instance-wide, from the header): the knowledge wiki installed if it is not, disabled (shown as disabled, its tools gone) and enabled again", async () => {
    const { prefix } = await newCompany("Plugin Co");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/dashboard`, "dashboard-before-plugins");
    await page.getByRole("banner").getByRole("link", { name: "Plugins" }).click();
    await ready(page, "Plugins");
    const wikiRow = page.locator(".plugin-list li").filter({ hasText: "knowledge-wiki" });
    const install = page.getByRole("button", { name: "Install Knowledge wiki" });
    await expect.poll(async () => (await wikiRow.count()) + (await install.count())).toBe(1);
    if (await install.count()) {
      await install.click();
      await expect.poll(() => wikiRow.count()).toBe(1);
    }
    if ((await api.get("/api/plugins/knowledge-wiki")).status !== "ready") await wikiRow.getByRole("button", { name: "Enable knowledge-wiki" }).click();
    await expect.poll(() => wikiRow.innerText()).toMatch(/Ready[\s\S]*version \S+/);
    await checkPage(page, "plugins");
    await wikiRow.getByRole("button", { name: "Disable knowledge-wiki" }).click();
    try {
      await expect.poll(() => wikiRow.innerText()).toContain("Disabled");
      expect(await page.getByRole("status").innerText()).toContain("knowledge-wiki is disabled.");
      expect((await api.get("/api/plugins/knowledge-wiki")).status).toBe("disabled");
      expect(await api.get("/api/plugins/tools?pluginId=knowledge-wiki")).toEqual([]);
      await checkPage(page, "plugins-disabled");
    } finally {
      await wikiRow.getByRole("button", { name: "Enable knowledge-wiki" }).click();
    }
    await expect.poll(() => wikiRow.innerText()).toContain("Ready");
    expect((await api.get("/api/plugins/knowledge-wiki")).status).toBe("ready");
    expect((await api.get("/api/plugins/tools?pluginId=knowledge-wiki")).map((t: any) => t.name)).toContain("knowledge-wiki:wiki_search");
  });

  it("the issue page: a document edited into a second revision and the diff between them, an attachment uploaded, the runs that touched it with their events", async () => {
    const { company, prefix, runa, agent } = await globex();
    const page = await newPage();
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Plan the launch", assigneeAgentId: runa.id, status: "todo" });
    await visit(page, server.base, `${prefix}/issues/${issue.identifier}`, "issue-detail-empty", /Plan the launch/);
    const documents = page.getByRole("region", { name: "Documents", exact: true });
    expect(await documents.innerText()).toContain("No documents yet.");
    await documents.getByRole("button", { name: "New document" }).click();
    const create = page.getByRole("form", { name: "New document" });
    await create.getByLabel("Key").fill("plan");
    await create.getByLabel("Document title").fill("Launch plan");
    await create.getByLabel("Document body").fill("# Launch plan\n\n- write the post\n- tell the press\n- ship");
    await create.getByRole("button", { name: "Create document" }).click();
    await expect.poll(() => documents.getByRole("heading", { name: "Launch plan", level: 3 }).count()).toBe(1);
    await expect.poll(() => documents.locator(".markdown li").count()).toBe(3);
    await documents.getByRole("button", { name: "Edit Launch plan" }).click();
    const edit = page.getByRole("form", { name: "Edit Launch plan" });
    await edit.getByLabel("Document body").fill("# Launch plan\n\n- write the post\n- record a demo\n- ship\n- celebrate");
    await edit.getByLabel("Change summary").fill("Demo instead of press");
    await edit.getByRole("button", { name: "Save revision" }).click();
    await expect.poll(() => documents.innerText()).toContain("revision 2");
    await documents.getByRole("button", { name: "History of Launch plan" }).click();
    const diff = documents.locator("figure.diff");
    await expect.poll(() => diff.locator("figcaption").innerText()).toBe("Revision 1 → 2: 2 lines added, 1 removed");
    expect(await diff.locator("li.diff-del").allInnerTexts()).toEqual([expect.stringContaining("tell the press")]);
    expect((await diff.locator("li.diff-add").allInnerTexts()).join("\n")).toMatch(/record a demo[\s\S]*celebrate/);
    await checkPage(page, "issue-document-diff");
    // Comparing a revision with itself shows no change.
    await documents.getByLabel("Compare revision").selectOption({ label: "Revision 2: Demo instead of press" });
    await expect.poll(() => documents.getByText("No changes between these revisions.").count()).toBe(1);
    const revisions = await api.get(`/api/issues/${issue.id}/documents/plan/revisions`);
    expect(revisions.map((r: any) => r.revisionNumber)).toEqual([2, 1]);

    const attachments = page.getByRole("region", { name: "Attachments", exact: true });
    await attachments.getByLabel("File").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("launch notes\n") });
    await attachments.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => attachments.getByRole("link", { name: "notes.txt", exact: true }).count()).toBe(1);
    const download = await attachments.getByRole("link", { name: "Download notes.txt" }).getAttribute("href");
    expect(download).toMatch(/\/api\/attachments\/[0-9a-f-]+\/content\?download=1$/);
    expect(await (await fetch(`${server.base}${download}`)).text()).toBe("launch notes\n");

    // Runa was woken for the issue: her run comments on it and logs progress; the page shows the run and its events.
    const wake = await startsWork(agent, issue.id);
    const runs = page.getByRole("region", { name: "Runs", exact: true });
    await expect.poll(() => runs.locator("summary").count(), { timeout: 10_000 }).toBe(1);
    await agent.complete(wake);
    await expect.poll(() => runs.locator("summary").innerText(), { timeout: 10_000 }).toContain("Succeeded");
    await runs.locator("summary").click();
    await expect.poll(() => runs.locator(".run-events").innerText()).toContain("Reading the launch plan");
    await checkPage(page, "issue-runs");
  });

  it("empty and error states: a company with nothing yet, and the API's error for a missing routine", async () => {
    const page = await newPage();
    const quiet = await api.post("/api/companies", { name: "Quiet Corp" });
    const at = (rest: string) => `/${quiet.issuePrefix}/${rest}`;
    await visit(page, server.base, at("projects"), "projects-empty", "Projects");
    expect(await page.locator(".empty").innerText()).toContain("No projects yet");
    await visit(page, server.base, at("goals"), "goals-empty", "Goals");
    expect(await page.locator(".empty").innerText()).toContain("No goals yet");
    await visit(page, server.base, at("costs"), "costs-empty", "Costs and budgets");
    await expect.poll(() => page.getByRole("region", { name: "By agent", exact: true }).innerText()).toContain("No agent spent anything");
    await visit(page, server.base, at("activity?entityType=webhook"), "activity-empty", "Activity");
    expect(await page.locator(".empty").innerText()).toContain("No activity matches");
    await visit(page, server.base, at("settings/secrets"), "settings-secrets-empty", "Secrets");
    expect(await page.locator(".empty").innerText()).toContain("No secrets yet");
    await visit(page, server.base, at("settings/members"), "settings-members-empty", "Members and invites");
    await page.goto(`${server.base}${at("routines/00000000-0000-4000-8000-000000000000")}`);
    await expect.poll(() => page.getByRole("alert").innerText()).toMatch(/not found/i);
    await checkPage(page, "routine-missing");
  });

  it("a cost and a routine run made through the API appear without a reload (event stream)", async () => {
    const world = await globex();
    const { company, prefix, runa, agent } = world;
    const routineId = (await dailyTriage(world)).id;
    const page = await newPage();
    await visit(page, server.base, `${prefix}/costs?range=all`, "costs-live", "Costs and budgets");
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    await api.post(`/api/companies/${company.id}/cost-events`, {
      agentId: runa.id,
      provider: "mistral",
      model: "large",
      costCents: 777,
      occurredAt: new Date().toISOString(),
    });
    await expect.poll(() => page.getByRole("region", { name: "By provider", exact: true }).innerText(), { timeout: 10_000 }).toMatch(/mistral\s+\$7\.77/);

    await page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: "Routines" }).click();
    await ready(page, "Routines");
    await page.getByRole("link", { name: "Daily triage", exact: true }).click();
    await ready(page, "Daily triage");
    const history = page.getByRole("region", { name: "Run history", exact: true });
    await agent.completeAll();
    // The runs so far, from the API (the page's list may still be loading when it is first read).
    const before = (await api.get(`/api/routines/${routineId}/runs`)).length;
    await expect.poll(() => history.locator("li").count(), { timeout: 10_000 }).toBe(before);
    const latest = (await api.get(`/api/routines/${routineId}/runs`))[0];
    if (latest?.linkedIssueId) await api.patch(`/api/issues/${latest.linkedIssueId}`, { status: "done" });
    await api.post(`/api/routines/${routineId}/run`, { source: "api" });
    await expect.poll(() => history.locator("li").count(), { timeout: 10_000 }).toBe(before + 1);
    expect(await history.locator("li").first().innerText()).toContain("Api");
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await agent.completeAll();
  });

  it("at 390 px wide none of these pages scrolls sideways", async () => {
    const world = await globexInFull();
    const { prefix, planIssue } = world;
    const small = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    for (const [url, name] of newPages(world)) {
      await small.goto(`${server.base}${url}`);
      await ready(small);
      await noHorizontalScroll(small, name);
      await checkPage(small, `phone-${name}`);
    }
    // The issue page with a document's history (the diff) and a run's events open.
    await small.goto(`${server.base}${prefix}/issues/${planIssue.identifier}`);
    await ready(small);
    await small.getByRole("button", { name: "History of Launch plan" }).click();
    await small.getByRole("region", { name: "Runs", exact: true }).locator("summary").click();
    await expect.poll(() => small.locator("figure.diff").count()).toBe(1);
    await expect.poll(() => small.locator(".run-events li").count()).toBeGreaterThan(0);
    await noHorizontalScroll(small, "issue with a diff and a run's events");
    await checkPage(small, "phone-issue-documents-runs");
  });

  it("every one of these pages is ready within 1 s of its navigation (median of 3 loads)", async () => {
    const world = await globexInFull();
    const page = await newPage();
    await expectReadyWithin(
      page,
      server.base,
      newPages(world).map(([url, name]) => [name, url]),
      READY_BUDGET_MS,
    );
  });
});

function newPages({ prefix, website, launch, routineId, webhookId, bea }: Awaited<ReturnType<typeof globexInFull>>): Array<[string, string]> {
  return [
    [`${prefix}/costs`, "costs"],
    [`${prefix}/projects`, "projects"],
    [`${prefix}/projects/${website.id}`, "project"],
    [`${prefix}/goals`, "goals"],
    [`${prefix}/goals/${launch.id}`, "goal"],
    [`${prefix}/routines`, "routines"],
    [`${prefix}/routines/${routineId}`, "routine"],
    [`${prefix}/activity`, "activity"],
    [`${prefix}/settings`, "settings"],
    [`${prefix}/settings/members`, "settings-members"],
    [`${prefix}/settings/secrets`, "settings-secrets"],
    [`${prefix}/settings/webhooks`, "settings-webhooks"],
    [`${prefix}/settings/webhooks/${webhookId}`, "settings-webhook"],
    [`${prefix}/agents?view=org`, "agents-org"],
    [`${prefix}/agents/new`, "agent-hire"],
    [`${prefix}/agents/${bea.id}`, "agent-config"],
    ["/plugins", "plugins"],
  ];
}
