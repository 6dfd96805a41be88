// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property
// The board console's daily loop in a real browser against a real `npm run dev` (local_trusted: the
// implicit local board): pick the company, read the dashboard, create an issue, comment, change its
// status (from its page and on the board, by keyboard and by dragging), decide an approval and two
// budget incidents from the inbox, pause, resume and wake an agent, approve a CLI login on its page,
// and see changes made through the API appear without a reload (over the event stream, and by
// polling when the stream is blocked). Every page gets axe-core and a screenshot, and a 390 px pass.
// Each test makes what it needs (its own company, agents, agent endpoint and browser context), so
// the tests pass alone and in any order.
import { describe, expect, it } from "vitest";
import {
  type apiClient,
  browserSuite,
  checkPage,
  type DevServer,
  fakeAgent,
  hireHttpAgent,
  loadedWeight,
  expectReadyWithin,
  noHorizontalScroll,
  ours,
  ready,
  sleep,
  visit,
} from "./harness";

const FIRST_PAGE_BUDGET = 60 * 1024;
const READY_BUDGET_MS = 1000;

let server: DevServer;
let api: ReturnType<typeof apiClient>;
const { newPage, newCompany } = browserSuite((suite) => ({ server, api } = suite));

/** An agent endpoint of the test's own: the wake-ups it counts are the test's. */
const agentEndpoint = async () => ours(await fakeAgent());

/** A company with one http agent (woken at an endpoint of the test's own). */
async function companyWith(name: string, agentName: string, extra: object = {}) {
  const { company, prefix } = await newCompany(name);
  const endpoint = await agentEndpoint();
  const agent = await hireHttpAgent(api, company.id, endpoint.url, agentName, extra);
  return { company, prefix, agent, endpoint };
}

/**
 * The daily loop's company: Ada, Bea (reports to Ada) and Cy, Bea and Cy over their budgets (two
 * budget stops), $43.21 spent this month, two issues (one assigned to Ada, her run already over)
 * and an approval waiting.
 */
async function acme() {
  const { company, prefix } = await newCompany("Acme Robotics", { budgetMonthlyCents: 50_000 });
  const endpoint = await agentEndpoint();
  const hire = (name: string, extra: object = {}) => hireHttpAgent(api, company.id, endpoint.url, name, extra);
  const ada = await hire("Ada");
  const bea = await hire("Bea", { budgetMonthlyCents: 1000, reportsTo: ada.id });
  const cy = await hire("Cy", { budgetMonthlyCents: 2000 });
  const now = new Date().toISOString();
  for (const [agent, cents] of [
    [bea, 1500],
    [cy, 2500],
    [ada, 321],
  ] as const) {
    await api.post(`/api/companies/${company.id}/cost-events`, {
      agentId: agent.id,
      provider: "anthropic",
      model: "claude",
      costCents: cents,
      occurredAt: now,
    });
  }
  await api.post(`/api/companies/${company.id}/issues`, { title: "Write the launch plan", assigneeAgentId: ada.id, priority: "high", status: "todo" });
  await api.post(`/api/companies/${company.id}/issues`, { title: "Fix the login bug", status: "in_progress" });
  const approval = await api.post(`/api/companies/${company.id}/approvals`, {
    type: "request_board_approval",
    payload: { title: "Sign the cloud contract", summary: "Three years of compute at a discount.", recommendedAction: "Approve", risks: [] },
  });
  // Assigning Ada woke her: her run ends, so the runs a test sees later are its own.
  for (const deadline = Date.now() + 15_000; endpoint.woken() === 0 && Date.now() < deadline; ) await sleep(100);
  if (endpoint.woken() !== 1) throw new Error(`expected Ada's assignment wake-up, got ${endpoint.woken()}`);
  await endpoint.completeAll();
  return { company, prefix, ada, bea, cy, approval, endpoint };
}

/** The issue “New issue” would make: markdown, assigned to Ada, high priority. */
function shipTheConsole(companyId: string, adaId: string) {
  return api.post(`/api/companies/${companyId}/issues`, {
    title: "Ship the board console",
    description: "Make it **fast** and accessible.\n\n- pages\n- tests",
    assigneeAgentId: adaId,
    priority: "high",
    status: "todo",
  });
}

describe("board console (local_trusted)", () => {
  it("opens at once as the local board: the company picker, then the dashboard of the company picked (remembered)", async () => {
    const { company, prefix } = await newCompany("Acme Robotics");
    const page = await newPage();
    await visit(page, server.base, "/", "companies", "Companies");
    await page.getByRole("link", { name: company.name, exact: true }).click();
    await page.waitForURL(`**${prefix}/dashboard`);
    await ready(page, "Dashboard");
    // Remembered: the start page opens the company again.
    await page.goto(`${server.base}/`);
    await page.waitForURL(`**${prefix}/dashboard`);
  });

  it("first page (HTML + JS + CSS) within 60 KiB gzipped, ready within 1 s; the dashboard shows the snapshot", async () => {
    const { company, prefix } = await acme();
    const cold = await newPage();
    const readyMs = await visit(cold, server.base, `${prefix}/dashboard`, "dashboard", "Dashboard");
    const { gzipBytes, files } = await loadedWeight(cold, server.base);
    console.log(`first page: ${(gzipBytes / 1024).toFixed(1)} KiB gzipped in ${files.length} files; ready ${Math.round(readyMs)} ms after navigation`);
    expect(gzipBytes).toBeLessThanOrEqual(FIRST_PAGE_BUDGET);
    expect(readyMs).toBeLessThan(READY_BUDGET_MS);
    const snapshot = await api.get(`/api/companies/${company.id}/dashboard`);
    const tile = (title: string) => cold.getByRole("region", { name: title });
    await expect.poll(() => tile("Agents").innerText()).toContain(`Active\n${snapshot.agents.active}`);
    await expect.poll(() => tile("Tasks").innerText()).toContain(`Open\n${snapshot.tasks.open}`);
    await expect.poll(() => tile("Spend this month").innerText()).toContain("$43.21");
    await expect.poll(() => tile("Waiting on you").innerText()).toContain(`Budget incidents\n${snapshot.budgets.activeIncidents}`);
    // The 14-day chart carries today's spend.
    await expect.poll(() => cold.locator("figure.chart figcaption").innerText()).toContain("$43.21 over 14 days");
    await expect.poll(() => tile("Waiting on you").innerText()).toContain("Pending approvals");
  });

  it("creates an issue with “New issue” and opens it (deep link survives a reload)", async () => {
    const { company, prefix, agent: ada } = await companyWith("New Issue Co", "Ada");
    const page = await newPage();
    await page.goto(`${server.base}${prefix}/dashboard`);
    await ready(page, "Dashboard");
    await page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: "Issues" }).click();
    await ready(page, "Issues");
    await checkPage(page, "issues");
    await page.getByRole("link", { name: "New issue" }).click();
    await ready(page, "New issue");
    await checkPage(page, "issue-new");
    await page.getByLabel("Title").fill("Ship the board console");
    await page.getByLabel("Description").fill("Make it **fast** and accessible.\n\n- pages\n- tests");
    await page.getByLabel("Assignee").selectOption({ label: "Ada" });
    await page.getByLabel("Priority").selectOption("high");
    await page.getByRole("button", { name: "Create issue" }).click();
    await page.waitForURL(new RegExp(`${prefix}/issues/${company.issuePrefix}-\\d+$`));
    const created = page.url().split("/").pop()!;
    await ready(page, /Ship the board console/);
    await expect.poll(() => page.locator(".markdown strong").first().innerText()).toBe("fast");
    const issue = await api.get(`/api/issues/${created}`);
    expect(issue).toMatchObject({ title: "Ship the board console", assigneeAgentId: ada.id, priority: "high" });
    await page.reload();
    await ready(page, /Ship the board console/);
  });

  it("comments as safe markdown: formatting renders, raw HTML and javascript: links do not run", async () => {
    const { company, prefix, agent: ada } = await companyWith("Comment Co", "Ada");
    const issue = await shipTheConsole(company.id, ada.id);
    const page = await newPage();
    await visit(page, server.base, `${prefix}/issues/${issue.identifier}`, "issue-before-comment", /Ship the board console/);
    await page
      .getByRole("textbox", { name: "Comment", exact: true })
      .fill('Looks **good**. <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> [click](javascript:window.__pwned=3)');
    await page.getByRole("button", { name: "Post comment" }).click();
    const comment = page.locator("li.comment").last();
    await expect.poll(() => comment.locator(".markdown strong").count()).toBe(1);
    expect(await comment.locator("script, img").count()).toBe(0);
    expect(await comment.innerText()).toContain("<script>");
    expect(await comment.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    const comments = await api.get(`/api/issues/${issue.identifier}/comments`);
    expect(comments.at(-1).body).toContain("Looks **good**.");
    await checkPage(page, "issue");
  });

  it("changes the status from the issue page", async () => {
    const { company, prefix } = await newCompany("Status Co");
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Ship the board console", status: "todo" });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/issues/${issue.identifier}`, "issue-status", /Ship the board console/);
    await page.getByRole("region", { name: "Issue settings" }).getByLabel("Status").selectOption("in_progress");
    await expect.poll(async () => (await api.get(`/api/issues/${issue.id}`)).status).toBe("in_progress");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Status saved." }).count()).toBe(1);
  });

  it("moves a card on the board from the keyboard and by dragging", async () => {
    const { company, prefix } = await newCompany("Board Co");
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Ship the board console", status: "in_progress" });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/issues?view=board`, "issues-board", "Issues");
    const move = page.getByLabel(`Move ${issue.identifier} to`);
    await move.focus();
    await move.selectOption("in_review");
    await expect.poll(async () => (await api.get(`/api/issues/${issue.id}`)).status).toBe("in_review");
    await expect.poll(() => page.getByRole("region", { name: /In review/ }).innerText()).toContain("Ship the board console");
    await expect
      .poll(() =>
        page
          .getByRole("status")
          .filter({ hasText: `${issue.identifier} moved to In review.` })
          .count(),
      )
      .toBe(1);
    const card = page.locator("li.card", { hasText: "Ship the board console" });
    await card.dragTo(page.getByRole("region", { name: /^Done/ }));
    await expect.poll(async () => (await api.get(`/api/issues/${issue.id}`)).status).toBe("done");
  });

  it("lists issues with filters and q in the URL", async () => {
    const { company, prefix, agent: ada } = await companyWith("Filter Co", "Ada");
    await api.post(`/api/companies/${company.id}/issues`, { title: "Write the launch plan", assigneeAgentId: ada.id, status: "todo" });
    await api.post(`/api/companies/${company.id}/issues`, { title: "Fix the login bug", status: "in_progress" });
    await shipTheConsole(company.id, ada.id);
    const page = await newPage();
    await visit(page, server.base, `${prefix}/issues?q=login`, "issues-search", "Issues");
    await expect.poll(() => page.locator(".issue-list li").count()).toBe(1);
    expect(await page.locator(".issue-list").innerText()).toContain("Fix the login bug");
    await page.getByLabel("Search", { exact: true }).fill("");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("combobox", { name: "Assignee" }).selectOption({ label: "Ada" });
    await page.waitForURL(/assigneeAgentId=/);
    await expect.poll(() => page.locator(".issue-list li").count()).toBe(2);
    expect(await page.locator(".issue-list").innerText()).not.toContain("Fix the login bug");
  });

  it("decides what waits in the inbox: approves an approval with a comment, keeps one budget stop, raises another", async () => {
    const { company, prefix, approval, bea, cy } = await acme();
    const page = await newPage();
    await page.goto(`${server.base}${prefix}/dashboard`);
    await ready(page, "Dashboard");
    const nav = page.getByRole("navigation", { name: "Company" });
    // One approval and two budget stops (each with the warning it crossed on the way, decided with it).
    await expect.poll(() => nav.getByRole("link", { name: /Waiting on you/ }).innerText()).toContain("3");
    await nav.getByRole("link", { name: /Waiting on you/ }).click();
    await ready(page, "Waiting on you");
    await checkPage(page, "inbox");

    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Sign the cloud contract" }) });
    await card.getByLabel("Comment").fill("Go ahead.");
    await card.getByRole("button", { name: "Approve" }).click();
    await expect.poll(async () => (await api.get(`/api/approvals/${approval.id}`)).status).toBe("approved");
    expect((await api.get(`/api/approvals/${approval.id}`)).decisionNote).toBe("Go ahead.");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Approved: Sign the cloud contract." }).count()).toBe(1);

    const beaCard = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Agent Bea/ }) });
    await beaCard.getByRole("button", { name: "Keep paused" }).click();
    const cyCard = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Agent Cy/ }) });
    await cyCard.getByLabel("New budget (USD)").fill("50");
    await cyCard.getByRole("button", { name: "Raise budget and resume" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}/budgets/overview`)).activeIncidents.length).toBe(0);
    expect((await api.get(`/api/agents/${bea.id}`)).status).toBe("paused");
    expect((await api.get(`/api/agents/${cy.id}`)).status).not.toBe("paused");
    expect((await api.get(`/api/agents/${cy.id}`)).budgetMonthlyCents).toBe(5000);
    await expect.poll(() => page.getByText("No budget incident is open.").count()).toBe(1);
    await expect.poll(() => nav.getByRole("link", { name: /Waiting on you/ }).innerText()).toBe("Waiting on you");
  });

  it("a new approval made elsewhere appears in the inbox and its count without a reload", async () => {
    const { company, prefix } = await newCompany("Quiet Inbox Co");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/inbox`, "inbox-before-approval", "Waiting on you");
    expect(await page.getByText("No approvals are waiting.").count()).toBe(1);
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    await api.post(`/api/companies/${company.id}/approvals`, {
      type: "request_board_approval",
      payload: { title: "Hire a designer", summary: "For the console." },
    });
    await expect.poll(() => page.getByRole("heading", { name: "Hire a designer" }).count(), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() =>
        page
          .getByRole("navigation", { name: "Company" })
          .getByRole("link", { name: /Waiting on you/ })
          .innerText(),
      )
      .toContain("1");
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it("rejects an approval, and approves an agent's join request", async () => {
    const { company, prefix } = await newCompany("Join Co");
    await api.post(`/api/companies/${company.id}/approvals`, {
      type: "request_board_approval",
      payload: { title: "Hire a designer", summary: "For the console." },
    });
    const invite = await api.post(`/api/companies/${company.id}/invites`, { inviteType: "agent", agentName: "Dex" });
    const accepted = await api.post(`/api/invites/${invite.token}/accept`, { agentName: "Dex", message: "I can write the tests." });
    const requestId = accepted.joinRequest?.id ?? accepted.id;
    const page = await newPage();
    await visit(page, server.base, `${prefix}/inbox`, "inbox-join-request", "Waiting on you");
    const designer = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Hire a designer" }) });
    await designer.getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => page.getByText("No approvals are waiting.").count()).toBe(1);
    const join = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Agent Dex.*asks to join/ }) });
    expect(await join.innerText()).toContain("I can write the tests.");
    await join.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.getByText("No one is asking to join.").count()).toBe(1);
    const joins = await api.get(`/api/companies/${company.id}/join-requests`);
    expect(joins.find((j: { id: string }) => j.id === requestId)?.status ?? joins[0].status).toBe("approved");
    const approvals = await api.get(`/api/companies/${company.id}/approvals?status=rejected`);
    expect(approvals.map((a: { payload: { title?: string } }) => a.payload.title)).toContain("Hire a designer");
    expect((await api.get(`/api/companies/${company.id}/agents`)).map((a: { name: string }) => a.name)).toContain("Dex");
  });

  it("pauses, resumes and wakes an agent; the dashboard shows the run live", async () => {
    const { company, prefix, agent: ada, endpoint } = await companyWith("Wake Co", "Ada");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents`, "agents", "Agents");
    await page.getByRole("link", { name: "Ada" }).click();
    await ready(page, "Ada");
    await checkPage(page, "agent");
    await page.getByRole("button", { name: "Pause" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${ada.id}`)).status).toBe("paused");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Ada paused." }).count()).toBe(1);
    await page.getByRole("button", { name: "Resume" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${ada.id}`)).status).not.toBe("paused");
    const live = async () => {
      const runs = (await api.get(`/api/companies/${company.id}/heartbeat-runs?agentId=${ada.id}`)).runs;
      return runs.filter((r: { status: string }) => ["queued", "running", "scheduled_retry"].includes(r.status)).length;
    };
    await expect.poll(async () => (await endpoint.completeAll(), await live()), { timeout: 10_000 }).toBe(0);
    expect(endpoint.woken()).toBe(0);
    await page.getByRole("button", { name: "Wake now" }).click();
    await expect.poll(() => endpoint.woken(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByRole("region", { name: "Latest runs" }).innerText(), { timeout: 10_000 }).toMatch(/Running|Queued/);
    await page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: "Dashboard" }).click();
    await ready(page, "Dashboard");
    const running = page.getByRole("region", { name: "Running now" });
    await expect.poll(() => running.innerText(), { timeout: 10_000 }).toContain("Ada");
    await endpoint.completeAll();
    await expect.poll(() => running.innerText(), { timeout: 10_000 }).toContain("No agent is running or queued.");
  });

  it("terminates an agent after asking again", async () => {
    const { prefix, agent: cy } = await companyWith("Terminate Co", "Cy", { budgetMonthlyCents: 2000 });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents/${cy.id}`, "agent-cy", "Cy");
    await page.getByRole("button", { name: "Terminate", exact: true }).click();
    await page.getByRole("button", { name: "Keep the agent" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Terminate Cy" }).count()).toBe(0);
    expect((await api.get(`/api/agents/${cy.id}`)).status).not.toBe("terminated");
    await page.getByRole("button", { name: "Terminate", exact: true }).click();
    await expect.poll(() => page.getByText("Terminate Cy? Its keys are revoked and it can never run again.").count()).toBe(1);
    await checkPage(page, "agent-terminate-confirm");
    await page.getByRole("button", { name: "Terminate Cy" }).click();
    await expect.poll(async () => (await api.get(`/api/agents/${cy.id}`)).status).toBe("terminated");
    await expect.poll(() => page.locator("main").innerText()).toContain("Terminated");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Cy terminated." }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Pause" }).count()).toBe(0);
  });

  it("approves a CLI login on its page (the challenge's approvalUrl)", async () => {
    const challenge = await api.post("/api/cli-auth/challenges", { clientName: "laptop cli" });
    expect(challenge.approvalUrl).toBe(`${server.base}/cli-auth/${challenge.id}`);
    const page = await newPage();
    await page.goto(challenge.approvalUrl);
    await ready(page, "Approve CLI sign-in");
    expect(await page.locator(".user-code").innerText()).toBe(challenge.userCode);
    await checkPage(page, "cli-auth");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.locator(".status-line").innerText()).toContain("Approved");
    const polled = await fetch(`${server.base}/api/cli-auth/challenges/${challenge.id}`, { headers: { "x-challenge-secret": challenge.pollSecret } }).then(
      (r) => r.json(),
    );
    expect(polled.boardApiKey.token).toMatch(/^svc_board_/);
  });

  it("an issue created through the API appears in the list without a reload (event stream)", async () => {
    const { company, prefix } = await newCompany("Live Co");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/issues`, "issues-live", "Issues");
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    await api.post(`/api/companies/${company.id}/issues`, { title: "Made by the CLI", status: "todo" });
    await expect.poll(() => page.locator(".issue-list").innerText(), { timeout: 10_000 }).toContain("Made by the CLI");
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it("falls back to polling when the stream is unavailable, and still shows changes", async () => {
    const { company, prefix } = await newCompany("Polling Co");
    const other = await newPage();
    await other
      .context()
      .route("**/events/stream*", (route) => route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"stream unavailable"}' }));
    await other.goto(`${server.base}${prefix}/issues`);
    await ready(other, "Issues");
    await expect.poll(() => other.locator(".live").innerText(), { timeout: 10_000 }).toBe("Polling");
    await api.post(`/api/companies/${company.id}/issues`, { title: "Seen by polling", status: "todo" });
    await expect.poll(() => other.locator(".issue-list").innerText(), { timeout: 15_000 }).toContain("Seen by polling");
  });

  it("shows the API's error for a missing issue, and empty states", async () => {
    const { company: empty, prefix } = await newCompany("Quiet Corp");
    const page = await newPage();
    await page.goto(`${server.base}${prefix}/issues/${empty.issuePrefix}-999`);
    const alert = page.getByRole("alert");
    await expect.poll(() => alert.innerText()).toMatch(/not found/i);
    await checkPage(page, "issue-missing");
    await visit(page, server.base, `${prefix}/issues`, "issues-empty", "Issues");
    expect(await page.locator(".empty").innerText()).toContain("No issues yet");
    await visit(page, server.base, `${prefix}/agents`, "agents-empty", "Agents");
    expect(await page.locator(".empty").innerText()).toContain("No agents yet");
    await visit(page, server.base, `${prefix}/inbox`, "inbox-empty", "Waiting on you");
    expect(await page.getByText("No approvals are waiting.").count()).toBe(1);
    await visit(page, server.base, "/NOPE/dashboard", "company-missing", "Company not found");
  });

  it("at 390 px wide no page scrolls sideways", async () => {
    const { company, prefix, ada } = await acme();
    const issue = await shipTheConsole(company.id, ada.id);
    const small = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    for (const [url, name] of [
      ["/companies", "companies"],
      [`${prefix}/dashboard`, "dashboard"],
      [`${prefix}/inbox`, "inbox"],
      [`${prefix}/issues`, "issues"],
      [`${prefix}/issues?view=board`, "issues-board"],
      [`${prefix}/issues/new`, "issue-new"],
      [`${prefix}/issues/${issue.identifier}`, "issue"],
      [`${prefix}/agents`, "agents"],
      [`${prefix}/agents/${ada.id}`, "agent"],
      [`/cli-auth/${(await api.post("/api/cli-auth/challenges", { clientName: "phone" })).id}`, "cli-auth"],
    ]) {
      await small.goto(`${server.base}${url}`);
      await ready(small);
      await noHorizontalScroll(small, name);
      await checkPage(small, `phone-${name}`);
    }
  });

  it("every page is ready within 1 s of its navigation (median of 3 loads)", async () => {
    const { company, prefix, ada } = await acme();
    const issue = await shipTheConsole(company.id, ada.id);
    const challenge = await api.post("/api/cli-auth/challenges", { clientName: "timing" });
    const pages: Array<[string, string]> = [
      ["companies", "/companies"],
      ["dashboard", `${prefix}/dashboard`],
      ["inbox", `${prefix}/inbox`],
      ["issues", `${prefix}/issues`],
      ["issues board", `${prefix}/issues?view=board`],
      ["new issue", `${prefix}/issues/new`],
      ["issue", `${prefix}/issues/${issue.identifier}`],
      ["agents", `${prefix}/agents`],
      ["agent", `${prefix}/agents/${ada.id}`],
      ["CLI approval", `/cli-auth/${challenge.id}`],
    ];
    const page = await newPage();
    await expectReadyWithin(page, server.base, pages, READY_BUDGET_MS);
  });
});
