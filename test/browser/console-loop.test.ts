// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property
// People in the agents' loop (issue #37, the console's second part), in a real browser against a real
// `npm run dev` (local_trusted): a question the fake http agent asks during its run, answered on the
// issue page, and the agent woken with the answer; "Waiting on you" with the questions for you and
// what is blocked on you, answered in place, counted and live; an agent's API keys listed and one
// revoked; a run's page (its live transcript over its own `run.event` stream, or polled when streams
// are refused; usage and cost; Cancel; Retry opening the new run); the knowledge wiki (browse, read
// with backlinks and revisions, search, edit, a stale edit's merge prompt, linked while the plugin
// is ready); and the header's search with its shortcuts. Every page gets axe-core and a screenshot,
// a 390 px pass and its ready time.
import { describe, expect, it } from "vitest";
import {
  type apiClient,
  browserSuite,
  checkPage,
  type DevServer,
  expectReadyWithin,
  fakeAgent,
  hireHttpAgent,
  noHorizontalScroll,
  ours,
  ready,
  visit,
  type Wake,
} from "./harness";

let server: DevServer;
let api: ReturnType<typeof apiClient>;
const { newPage, newCompany } = browserSuite((suite) => ({ server, api } = suite));

const READY_BUDGET_MS = 1000;
const WIKI = "/api/plugins/knowledge-wiki/api";

/** Hooli: Ada, an http agent woken at an endpoint of the test's own, with an API key. */
async function hooli() {
  const { company, prefix } = await newCompany("Hooli");
  const agent = ours(await fakeAgent());
  const ada = await hireHttpAgent(api, company.id, agent.url, "Ada");
  const key = await api.post(`/api/agents/${ada.id}/keys`, { name: "ada's own" });
  return { company, prefix, agent, ada, key: key.token as string };
}

/** A request made as the agent, with its key (and the run it works in, when given). */
async function asAgent(token: string, method: string, route: string, body?: unknown, runId?: string) {
  const res = await fetch(`${server.base}${route}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...(runId ? { "x-service-run-id": runId } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** An issue assigned to Ada (which wakes her) and the wake-up her endpoint got for it. */
async function assignedToAda(world: Awaited<ReturnType<typeof hooli>>, title: string): Promise<{ issue: any; wake: Wake }> {
  const issue = await api.post(`/api/companies/${world.company.id}/issues`, { title, assigneeAgentId: world.ada.id, status: "todo" });
  await expect.poll(() => world.agent.wakes.filter((w) => w.context.issueId === issue.id).length, { timeout: 10_000 }).toBe(1);
  return { issue, wake: world.agent.wakes.find((w) => w.context.issueId === issue.id)! };
}

/** The knowledge-wiki plugin ready on this dev server (installed or enabled as the local board, an instance admin). */
async function wikiReady() {
  const plugin = await api.get("/api/plugins").then((list: Array<{ pluginKey: string; status: string }>) => list.find((p) => p.pluginKey === "knowledge-wiki"));
  if (!plugin) await api.post("/api/plugins/install", { packageName: "knowledge-wiki" });
  else if (plugin.status !== "ready") await api.post("/api/plugins/knowledge-wiki/enable");
  await expect.poll(async () => (await api.get("/api/plugins/knowledge-wiki")).status).toBe("ready");
}

const writePage = (companyId: string, path: string, contents: string, extra: object = {}) => api.post(`${WIKI}/pages`, { companyId, path, contents, ...extra });

describe("board console: people in the agents' loop", () => {
  it("a question the http agent asks during its run is answered on the issue page; the agent is woken with question_answered and the answer", async () => {
    const world = await hooli();
    const { company, prefix, agent, ada, key } = world;
    const { issue, wake } = await assignedToAda(world, "Choose the rollout");
    // The agent, in its run (its key and the run's id), asks a blocking question with two options and room for a note.
    const question = await asAgent(
      key,
      "POST",
      `/api/issues/${issue.id}/questions`,
      {
        prompt: "How should we **roll out** the new cache?",
        options: [
          { id: "blue_green", label: "Blue-green" },
          { id: "canary", label: "Canary" },
        ],
        allowFreeText: true,
        blocksIssue: true,
      },
      wake.runId,
    );
    expect(question).toMatchObject({ status: "open", runId: wake.runId, askedOfUserId: null });
    await agent.complete(wake);

    const page = await newPage();
    await visit(page, server.base, `${prefix}/issues/${issue.identifier}`, "issue-question-open", /Choose the rollout/);
    const questions = page.getByRole("region", { name: /^Questions/ });
    await expect.poll(() => questions.getByRole("heading", { level: 2 }).innerText()).toBe("Questions (1 open)");
    const card = questions.getByRole("listitem").filter({ hasText: "roll out" });
    expect(await card.getByRole("heading").innerText()).toBe("Ada asks the board");
    expect(await card.locator(".markdown strong").innerText()).toBe("roll out");
    expect(await card.innerText()).toContain("blocks the issue");
    expect(await page.locator("main article > p.meta").nth(1).innerText()).toContain("Blocked");

    await card.getByLabel("Your answer").fill("Start with 5 % of traffic.");
    await card.getByRole("button", { name: "Canary" }).click();
    await expect.poll(() => card.getByRole("status").innerText()).toContain("Answered");
    await expect.poll(() => card.innerText()).toMatch(/Answer from Local Board \(you\):\s*Canary\s*Start with 5 % of traffic\./);
    expect(await card.getByRole("button", { name: "Canary" }).count()).toBe(0);
    // The answer is also the answerer's comment; the issue is no longer blocked.
    const comments = page.getByRole("region", { name: "Comments" });
    await expect.poll(() => comments.innerText(), { timeout: 10_000 }).toContain("Answer to the question");
    expect(await comments.innerText()).toContain("Canary");
    await expect.poll(() => page.locator("main article > p.meta").nth(1).innerText(), { timeout: 10_000 }).toContain("Todo");
    await expect.poll(() => questions.getByRole("heading", { level: 2 }).innerText()).toBe("Questions");
    await checkPage(page, "issue-question-answered");

    // Through the API: answered once, and Ada woken with question_answered and the answer in the run's context.
    const [answered] = await api.get(`/api/issues/${issue.id}/questions`);
    expect(answered).toMatchObject({ status: "answered", answer: { optionId: "canary", optionLabel: "Canary", text: "Start with 5 % of traffic." } });
    const woken = async () =>
      (await api.get(`/api/companies/${company.id}/heartbeat-runs?agentId=${ada.id}`)).runs.filter((r: any) => r.reason === "question_answered");
    await expect.poll(async () => (await woken()).length, { timeout: 15_000 }).toBe(1);
    const [run] = await woken();
    expect(run.issueId).toBe(issue.id);
    expect(run.context).toMatchObject({
      questionId: question.id,
      question: "How should we **roll out** the new cache?",
      answer: { optionId: "canary", optionLabel: "Canary", text: "Start with 5 % of traffic." },
    });
    // …and the agent's endpoint got that wake-up.
    await expect.poll(() => agent.wakes.filter((w) => w.context.wakeReason === "question_answered").length, { timeout: 15_000 }).toBe(1);
    expect(agent.wakes.find((w) => w.context.wakeReason === "question_answered")!.runId).toBe(run.id);
    await agent.completeAll();
  });

  it("Waiting on you: the questions for you and what is blocked on you, answered in place, counted in the navigation and live", async () => {
    const world = await hooli();
    const { company, prefix, key } = world;
    const { issue: vendor } = await assignedToAda(world, "Pick a vendor");
    const vendorQuestion = await asAgent(key, "POST", `/api/issues/${vendor.id}/questions`, { prompt: "Which vendor should we pick?", blocksIssue: true });
    await api.post(`/api/companies/${company.id}/issues`, { title: "Sign the contract", assigneeUserId: "local-board", status: "blocked" });
    await api.post(`/api/companies/${company.id}/issues`, { title: "Renew the domain", assigneeUserId: "local-board", status: "todo" });

    const page = await newPage();
    await visit(page, server.base, `${prefix}/inbox`, "inbox-questions", "Waiting on you");
    const questions = page.getByRole("region", { name: /^Questions for you/ });
    const blocked = page.getByRole("region", { name: /^Blocked on you/ });
    const nav = page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: /Waiting on you/ });
    await expect.poll(() => questions.getByRole("heading", { level: 2 }).innerText()).toBe("Questions for you (1)");
    await expect.poll(() => blocked.getByRole("heading", { level: 2 }).innerText()).toBe("Blocked on you (2)");
    expect(await blocked.getByRole("listitem").filter({ hasText: "Pick a vendor" }).innerText()).toContain("a question for you");
    expect(await blocked.getByRole("listitem").filter({ hasText: "Sign the contract" }).innerText()).toContain("blocked and assigned to you");
    expect(await questions.innerText()).toContain("Which vendor should we pick?");
    // One question, and three issues (each once: the contract is both assigned to you and blocked on you).
    await expect.poll(() => nav.innerText()).toMatch(/Waiting on you\s*4/);
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));

    // Asked meanwhile, of the signed-in member by name: it appears without a reload.
    const launch = await api.post(`/api/companies/${company.id}/issues`, { title: "Plan the launch party", assigneeAgentId: world.ada.id, status: "todo" });
    await asAgent(key, "POST", `/api/issues/${launch.id}/questions`, {
      prompt: "Is Friday fine for the party?",
      askedOfUserId: "local-board",
      options: [
        { id: "yes", label: "Friday is fine" },
        { id: "no", label: "Another day" },
      ],
    });
    await expect.poll(() => questions.getByRole("heading", { level: 2 }).innerText(), { timeout: 10_000 }).toBe("Questions for you (2)");
    await expect.poll(() => blocked.getByRole("heading", { level: 2 }).innerText()).toBe("Blocked on you (3)");
    await expect.poll(() => nav.innerText()).toMatch(/Waiting on you\s*6/);
    const party = questions.getByRole("listitem").filter({ hasText: "Friday" });
    expect(await party.getByRole("heading").innerText()).toBe(`Ada asks Local Board (you) on ${launch.identifier}`);
    await checkPage(page, "inbox-questions-live");

    // Answered in place: a written answer, then an option.
    const vendorCard = questions.getByRole("listitem").filter({ hasText: "Which vendor" });
    expect(await vendorCard.getByRole("button", { name: "Send answer" }).isDisabled()).toBe(true);
    await vendorCard.getByLabel("Your answer").fill("Acme Corp: the cheapest that meets the SLA.");
    await vendorCard.getByRole("button", { name: "Send answer" }).click();
    await expect.poll(() => questions.getByRole("heading", { level: 2 }).innerText(), { timeout: 10_000 }).toBe("Questions for you (1)");
    await expect.poll(() => blocked.getByRole("heading", { level: 2 }).innerText()).toBe("Blocked on you (2)");
    expect(await blocked.innerText()).not.toContain("Pick a vendor");
    await expect.poll(() => nav.innerText()).toMatch(/Waiting on you\s*4/);
    await party.getByRole("button", { name: "Friday is fine" }).click();
    await expect.poll(() => questions.innerText(), { timeout: 10_000 }).toContain("No agent is waiting for an answer from you.");
    await expect.poll(() => blocked.getByRole("heading", { level: 2 }).innerText()).toBe("Blocked on you (1)");
    await expect.poll(() => nav.innerText()).toMatch(/Waiting on you\s*2/);
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await checkPage(page, "inbox-questions-answered");

    expect((await api.get(`/api/issues/${vendor.id}/questions`))[0]).toMatchObject({
      id: vendorQuestion.id,
      status: "answered",
      answer: { optionId: null, text: "Acme Corp: the cheapest that meets the SLA." },
    });
    expect((await api.get(`/api/issues/${vendor.id}`)).status).toBe("todo");
    expect((await api.get(`/api/issues/${launch.id}/questions`))[0].answer).toMatchObject({ optionId: "yes", optionLabel: "Friday is fine" });
    await world.agent.completeAll();
  });

  it("an agent's API keys: listed with their prefix, created and last used; Revoke asks first, and the revoked key stops working", async () => {
    const { prefix, ada } = await hooli();
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents/${ada.id}`, "agent-keys", "Ada");
    const keys = page.getByRole("region", { name: "API keys", exact: true });
    const list = keys.getByRole("list", { name: "Keys" });
    await expect.poll(() => list.innerText()).toContain("ada's own");
    await keys.getByLabel("Key name").fill("ci runner");
    await keys.getByRole("button", { name: "Create key" }).click();
    const shown = keys.getByRole("textbox", { name: "API key token" });
    await expect.poll(() => shown.count()).toBe(1);
    const token = await shown.inputValue();
    await keys.getByRole("button", { name: "Done" }).click();
    const row = list.getByRole("listitem").filter({ hasText: "ci runner" });
    await expect.poll(() => row.count()).toBe(1);
    const [listed] = (await api.get(`/api/agents/${ada.id}/keys`)).filter((k: any) => k.name === "ci runner");
    expect(listed.tokenPrefix).toBeTruthy();
    expect(token.startsWith(listed.tokenPrefix)).toBe(true);
    expect(await row.innerText()).toContain(`${listed.tokenPrefix}…`);
    expect(await row.innerText()).toContain("never used");
    expect(await page.content()).not.toContain(token);

    // Used once: shown as last used after a reload (a key's use announces no event).
    const me = () => fetch(`${server.base}/api/agents/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    await expect.poll(async () => (await api.get(`/api/agents/${ada.id}/keys`)).find((k: any) => k.id === listed.id).lastUsedAt).not.toBeNull();
    await page.reload();
    await ready(page, "Ada");
    await expect.poll(() => row.innerText()).toContain("last used");

    // Revoke asks first: keeping the key changes nothing.
    await row.getByRole("button", { name: "Revoke ci runner" }).click();
    await expect.poll(() => keys.getByText("Revoke ci runner? Whatever uses it loses access, and it cannot be used again.").count()).toBe(1);
    await checkPage(page, "agent-key-revoke-confirm");
    await keys.getByRole("button", { name: "Keep the key" }).click();
    expect((await api.get(`/api/agents/${ada.id}/keys`)).find((k: any) => k.id === listed.id).revokedAt).toBeNull();
    await row.getByRole("button", { name: "Revoke ci runner" }).click();
    await keys.locator(".confirm").getByRole("button", { name: "Revoke ci runner" }).click();
    await expect.poll(() => keys.getByRole("status").first().innerText()).toContain("Key ci runner revoked");
    await expect.poll(() => row.innerText()).toContain("Revoked");
    expect(await row.getByRole("button", { name: /Revoke/ }).count()).toBe(0);
    expect((await api.get(`/api/agents/${ada.id}/keys`)).find((k: any) => k.id === listed.id).revokedAt).not.toBeNull();
    // Refused everywhere within the credential cache's 5 s.
    await expect.poll(async () => (await me()).status, { timeout: 10_000 }).toBe(401);
    expect(await list.getByRole("listitem").filter({ hasText: "ada's own" }).getByRole("button", { name: "Revoke ada's own" }).count()).toBe(1);
    await checkPage(page, "agent-keys-revoked");
  });

  it("a run's page: its transcript live over the run's own stream (polled when streams are refused), usage and cost, the session; Retry opens the new run, which resumes the session; Cancel stops it", async () => {
    const { company, prefix } = await newCompany("Runtime Loop");
    // A Claude Code agent served by a runner played here over the runner WebSocket (protocol v2).
    const cody = await api.post(`/api/companies/${company.id}/agents`, { name: "Cody", adapterType: "claude_local", adapterConfig: { cwd: "/srv/app" } });
    const socket = ours(new WebSocket(`${server.base.replace(/^http/, "ws")}/api/companies/${company.id}/runners/connect`));
    const received: any[] = [];
    socket.addEventListener("message", (e) => received.push(JSON.parse(String(e.data))));
    await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
    socket.send(JSON.stringify({ type: "hello", version: 2, agents: [cody.id], name: "laptop" }));
    await expect.poll(() => received.some((m) => m.type === "ready")).toBe(true);
    const starts = () => received.filter((m) => m.type === "run.start");
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Fix the flaky test", assigneeAgentId: cody.id, status: "todo" });
    await expect.poll(() => starts().length, { timeout: 15_000 }).toBe(1);
    const first = starts()[0];
    expect(first.session).toBeNull();
    const events = (runId: string, list: Array<{ kind: string; message: string }>) => socket.send(JSON.stringify({ type: "run.events", runId, events: list }));

    // From the agent's latest runs to the run's page.
    const page = await newPage();
    await visit(page, server.base, `${prefix}/agents/${cody.id}`, "agent-runs-link", "Cody");
    await expect.poll(() => page.getByRole("region", { name: "Latest runs" }).getByRole("listitem").count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole("region", { name: "Latest runs" }).getByRole("link", { name: "Open the run" }).click();
    await ready(page, /^Run /);
    expect(new URL(page.url()).pathname).toBe(`${prefix}/runs/${first.runId}`);
    const transcript = page.getByRole("region", { name: "Transcript" });
    await expect.poll(() => transcript.getByRole("status").innerText(), { timeout: 10_000 }).toBe("Live: lines appear as the agent logs them.");
    expect(await page.locator("main article > p.meta").nth(1).innerText()).toContain("Running");
    expect(await page.locator("dl.facts").first().innerText()).toContain("Fix the flaky test");
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));

    // Lines logged by the runtime appear as they come.
    events(first.runId, [
      { kind: "thinking", message: "The test races on the clock." },
      { kind: "tool_call", message: 'Bash {"command":"npm test"}' },
    ]);
    const lines = transcript.getByRole("list", { name: "Transcript" });
    await expect.poll(() => lines.innerText(), { timeout: 10_000 }).toContain("npm test");
    events(first.runId, [
      { kind: "tool_result", message: "12 passed" },
      { kind: "error", message: "One flaky retry logged." },
      { kind: "assistant", message: "Fixed: the test now waits for the clock." },
    ]);
    await expect.poll(() => lines.innerText(), { timeout: 10_000 }).toContain("Fixed: the test now waits for the clock.");
    expect(await lines.locator("li.kind-thinking").innerText()).toContain("The test races on the clock.");
    expect(await lines.locator("li.kind-tool_call").innerText()).toContain("npm test");
    expect(await lines.locator("li.kind-error").innerText()).toContain("One flaky retry logged.");
    expect(await lines.locator("li.kind-assistant").innerText()).toContain("Fixed: the test now waits for the clock.");
    await checkPage(page, "run-live");

    socket.send(
      JSON.stringify({
        type: "run.complete",
        runId: first.runId,
        status: "succeeded",
        summary: "Fixed the flaky test.",
        exitCode: 0,
        sessionId: "0c5d6f7a-1111-4222-8333-444455556666",
        sessionParams: { cwd: "/srv/app", model: "claude-sonnet-4-5" },
        usage: { inputTokens: 900, outputTokens: 120, costUsd: 0.02, model: "claude-sonnet-4-5", provider: "anthropic", billingType: "metered_api" },
      }),
    );
    await expect.poll(() => page.locator("main article > p.meta").nth(1).innerText(), { timeout: 10_000 }).toContain("Succeeded");
    expect(await page.locator("main").innerText()).toContain("Fixed the flaky test.");
    const usage = page.getByRole("region", { name: "Usage and cost" });
    await expect.poll(() => usage.innerText(), { timeout: 10_000 }).toContain("Cost recorded: $0.02");
    expect(await usage.innerText()).toMatch(/Input tokens\s*900/);
    expect(await usage.innerText()).toMatch(/Output tokens\s*120/);
    const session = page.getByRole("region", { name: "Session" });
    await expect.poll(() => session.innerText(), { timeout: 10_000 }).toContain("0c5d6f7a-1111-4222-8333-444455556666");
    expect(await session.innerText()).toContain("by this run");
    expect(await transcript.getByRole("status").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await checkPage(page, "run-finished");

    // Retry: a new run with the same context, whose page opens; it resumes the saved session.
    await page.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).not.toBe(`${prefix}/runs/${first.runId}`);
    await ready(page, /^Run /);
    const retryId = new URL(page.url()).pathname.split("/").pop()!;
    await expect.poll(() => page.locator("dl.facts").first().innerText()).toContain(`A retry of\nrun ${first.runId.slice(0, 8)}`);
    await expect.poll(() => starts().length, { timeout: 15_000 }).toBe(2);
    const second = starts()[1];
    expect(second.runId).toBe(retryId);
    expect(second.session).toMatchObject({ id: "0c5d6f7a-1111-4222-8333-444455556666" });
    await expect.poll(() => page.getByRole("region", { name: "Session" }).innerText()).toContain("by another run");
    const retried = await api.get(`/api/heartbeat-runs/${retryId}`);
    expect(retried).toMatchObject({ issueId: issue.id, agentId: cody.id, context: { retryOfRunId: first.runId } });

    // With the event streams refused, another tab polls the live run's log.
    const polled = await newPage();
    await polled
      .context()
      .route("**/events/stream*", (route) => route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"stream unavailable"}' }));
    await polled.goto(`${server.base}${prefix}/runs/${retryId}`);
    await ready(polled, /^Run /);
    const polledTranscript = polled.getByRole("region", { name: "Transcript" });
    await expect.poll(() => polledTranscript.getByRole("status").innerText(), { timeout: 10_000 }).toBe("Read again every 2 s.");
    events(retryId, [{ kind: "assistant", message: "Looking at the retry." }]);
    await expect.poll(() => polledTranscript.innerText(), { timeout: 10_000 }).toContain("Looking at the retry.");
    await expect.poll(() => page.getByRole("region", { name: "Transcript" }).innerText(), { timeout: 10_000 }).toContain("Looking at the retry.");

    // The dashboard's "Running now" opens it too.
    const board = await newPage();
    await visit(board, server.base, `${prefix}/dashboard`, "dashboard-run-link", "Dashboard");
    await board.getByRole("region", { name: "Running now" }).getByRole("link", { name: "Open the run of Cody" }).click();
    await ready(board, /^Run /);
    expect(new URL(board.url()).pathname).toBe(`${prefix}/runs/${retryId}`);

    // Cancel asks first; the runner is told to stop.
    await page.getByRole("button", { name: "Cancel run" }).click();
    await page.getByRole("button", { name: "Cancel the run" }).click();
    await expect.poll(() => page.locator("main article > p.meta").nth(1).innerText(), { timeout: 10_000 }).toContain("Cancelled");
    await expect.poll(() => received.some((m) => m.type === "run.cancel" && m.runId === retryId), { timeout: 10_000 }).toBe(true);
    expect((await api.get(`/api/heartbeat-runs/${retryId}`)).status).toBe("cancelled");
    expect(await page.getByRole("button", { name: "Retry" }).count()).toBe(1);
    await checkPage(page, "run-cancelled");
  });

  it("the knowledge wiki: linked while the plugin is ready; pages by folder, a page with its links, backlinks and revisions, search, New page; a stale edit's merge prompt", async () => {
    await wikiReady();
    const { company, prefix } = await newCompany("Wiki Co");
    const deploys = await writePage(company.id, "wiki/concepts/deploys.md", "# Deploys\n\nBlue-green on Tuesdays.\n", { summary: "first notes" });
    await writePage(company.id, "wiki/areas/ops.md", "# Ops\n\nSee [[concepts/deploys|how we deploy]] and [the runbook](../concepts/runbook.md).\n");

    const page = await newPage();
    await visit(page, server.base, `${prefix}/dashboard`, "dashboard-with-wiki", "Dashboard");
    const nav = page.getByRole("navigation", { name: "Company" });
    await expect.poll(() => nav.getByRole("link", { name: "Wiki" }).count()).toBe(1);
    await nav.getByRole("link", { name: "Wiki" }).click();
    await ready(page, "Wiki");
    const pages = page.getByRole("region", { name: "Pages" });
    await expect.poll(() => pages.getByRole("region", { name: "Folder wiki/concepts" }).innerText()).toContain("Deploys");
    expect(await pages.getByRole("region", { name: "Folder wiki/areas" }).innerText()).toContain("Ops");
    await checkPage(page, "wiki");

    // Search: the matched words marked; a result opens its page.
    await page.getByLabel("Words to find").fill("tuesdays");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const results = page.getByRole("list", { name: "Results for tuesdays" });
    await expect.poll(() => results.locator("mark").innerText(), { timeout: 10_000 }).toMatch(/tuesdays/i);
    expect(new URL(page.url()).searchParams.get("q")).toBe("tuesdays");
    await checkPage(page, "wiki-search");

    // A page: its wiki link opens the page it names, which lists its backlinks and revisions.
    await pages.getByRole("link", { name: "Ops" }).click();
    await ready(page, "Ops");
    await page.locator(".markdown").getByRole("link", { name: "how we deploy" }).click();
    await ready(page, "Deploys");
    expect(new URL(page.url()).searchParams.get("path")).toBe("wiki/concepts/deploys.md");
    expect(await page.locator(".markdown").innerText()).toContain("Blue-green on Tuesdays.");
    const backlinks = page.getByRole("region", { name: "Linked from" });
    expect(await backlinks.innerText()).toContain("wiki/areas/ops.md");
    const revisions = page.getByRole("region", { name: "Revisions" });
    await expect.poll(() => revisions.innerText()).toContain("first notes");
    await checkPage(page, "wiki-page");

    // Edit, while someone else saves a new version: the save is refused and the merge prompt shows both.
    await page.getByRole("button", { name: "Edit" }).click();
    const editor = page.getByRole("form", { name: "Edit wiki/concepts/deploys.md" });
    await editor.getByLabel("Page contents").fill("# Deploys\n\nBlue-green on Tuesdays.\n\nRollback within 5 minutes.\n");
    await editor.getByLabel("Change summary").fill("rollback rule");
    const theirs = await writePage(company.id, "wiki/concepts/deploys.md", "# Deploys\n\nBlue-green on Tuesdays and Thursdays.\n", {
      expectedHash: deploys.hash,
      summary: "twice a week",
    });
    await editor.getByRole("button", { name: "Save page" }).click();
    const merge = editor.getByRole("region", { name: "This page changed while you edited it" });
    await expect.poll(() => merge.count(), { timeout: 10_000 }).toBe(1);
    expect(await merge.locator("figure").first().innerText()).toContain("Tuesdays and Thursdays");
    expect(await merge.locator("figure").nth(1).innerText()).toContain("Rollback within 5 minutes.");
    expect(await merge.locator(".diff").innerText()).toMatch(/added/);
    await checkPage(page, "wiki-merge");
    // Edit mine beside theirs, then save against the current version.
    await merge.getByRole("button", { name: "Edit mine" }).click();
    expect(await editor.locator("figure").innerText()).toContain("Tuesdays and Thursdays");
    await editor.getByLabel("Page contents").fill("# Deploys\n\nBlue-green on Tuesdays and Thursdays.\n\nRollback within 5 minutes.\n");
    await editor.getByRole("button", { name: "Save page" }).click();
    await expect.poll(() => page.locator(".markdown").innerText(), { timeout: 10_000 }).toContain("Rollback within 5 minutes.");
    expect(await page.locator(".markdown").innerText()).toContain("Tuesdays and Thursdays");
    const saved = await api.get(`${WIKI}/page?companyId=${company.id}&path=wiki/concepts/deploys.md`);
    expect(saved.contents).toBe("# Deploys\n\nBlue-green on Tuesdays and Thursdays.\n\nRollback within 5 minutes.\n");
    const history = await api.get(`${WIKI}/page/revisions?companyId=${company.id}&path=wiki/concepts/deploys.md`);
    expect(history.revisions.map((r: any) => r.summary)).toEqual(["rollback rule", "twice a week", "first notes"]);
    expect(history.revisions[0].previousHash).toBe(theirs.hash);
    await expect.poll(() => revisions.innerText()).toContain("rollback rule");

    // Another stale edit: taking the current version drops mine.
    await page.getByRole("button", { name: "Edit" }).click();
    await editor.getByLabel("Page contents").fill("# Deploys\n\nNever on Fridays.\n");
    await writePage(company.id, "wiki/concepts/deploys.md", `${saved.contents}\nOwner: Ops.\n`, { expectedHash: saved.hash });
    await editor.getByRole("button", { name: "Save page" }).click();
    await expect.poll(() => merge.count(), { timeout: 10_000 }).toBe(1);
    await merge.getByRole("button", { name: "Take the current one" }).click();
    await expect.poll(() => page.locator(".markdown").innerText(), { timeout: 10_000 }).toContain("Owner: Ops.");
    expect((await api.get(`${WIKI}/page?companyId=${company.id}&path=wiki/concepts/deploys.md`)).contents).not.toContain("Never on Fridays");

    // A link to a page not written yet offers to write it; New page creates one at a free path.
    await page.goto(`${server.base}${prefix}/wiki/page?path=wiki/concepts/runbook.md`);
    await ready(page, "No page here yet");
    await checkPage(page, "wiki-page-missing");
    await visit(page, server.base, `${prefix}/wiki`, "wiki-again", "Wiki");
    await page.getByRole("button", { name: "New page" }).click();
    const create = page.getByRole("form", { name: "New page" });
    await create.getByLabel("Path").fill("wiki/concepts/deploys.md");
    await create.getByLabel("Contents").fill("# Not this one\n");
    await create.getByRole("button", { name: "Create page" }).click();
    await expect.poll(() => create.getByRole("alert").innerText()).toContain("A page already exists at wiki/concepts/deploys.md");
    await create.getByLabel("Path").fill("wiki/entities/acme.md");
    await create.getByLabel("Contents").fill("# Acme\n\nOur biggest customer; deploys with [[concepts/deploys]].\n");
    await create.getByRole("button", { name: "Create page" }).click();
    await ready(page, "Acme");
    await page.getByRole("link", { name: "concepts/deploys" }).click();
    await ready(page, "Deploys");
    await expect.poll(() => page.getByRole("region", { name: "Linked from" }).innerText()).toContain("wiki/entities/acme.md");

    // Disabled (instance-wide), the wiki leaves the navigation; enabled, it is back — both without a reload.
    await api.post("/api/plugins/knowledge-wiki/disable");
    try {
      await expect.poll(() => nav.getByRole("link", { name: "Wiki" }).count(), { timeout: 10_000 }).toBe(0);
    } finally {
      await api.post("/api/plugins/knowledge-wiki/enable");
    }
    await expect.poll(() => nav.getByRole("link", { name: "Wiki" }).count(), { timeout: 10_000 }).toBe(1);
  });

  it("search: / and Ctrl+K reach the header's box on every company page; issues, agents, projects, documents and wiki pages found open their pages", async () => {
    await wikiReady();
    const world = await hooli();
    const { company, prefix, ada } = world;
    await api.patch(`/api/agents/${ada.id}`, { title: "Deploy captain" });
    const project = await api.post(`/api/companies/${company.id}/projects`, { name: "Deploy tooling", status: "in_progress" });
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Deploy pipeline is slow", status: "todo" });
    await api.put(`/api/issues/${issue.id}/documents/plan`, { title: "Deploy plan", body: "# Plan\n\nCache the build.\n" });
    await writePage(company.id, "wiki/concepts/deploys.md", "# Deploys\n\nBlue-green on Tuesdays.\n");

    const page = await newPage();
    await visit(page, server.base, `${prefix}/projects`, "projects-search-closed", "Projects");
    const box = page.getByRole("searchbox", { name: "Search the company" });
    const results = page.getByRole("list", { name: /^Results for/ });
    // `/` outside a field focuses the box…
    await page.locator("main h1").click();
    await page.keyboard.press("/");
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("deploy");
    await expect.poll(() => results.getByRole("link").count(), { timeout: 10_000 }).toBe(5);
    const found = await results.getByRole("link").allInnerTexts();
    for (const [kind, title] of [
      ["Issue", "Deploy pipeline is slow"],
      ["Agent", "Ada"],
      ["Project", "Deploy tooling"],
      ["Document", "Deploy plan"],
      ["Wiki page", "Deploys"],
    ])
      expect(
        found.some((text) => text.startsWith(kind) && text.includes(title)),
        `${kind} ${title} in ${found.join(" | ")}`,
      ).toBe(true);
    await checkPage(page, "search-results");
    await results.getByRole("link", { name: /^Issue Deploy pipeline/ }).click();
    await ready(page, /Deploy pipeline is slow/);
    expect(await box.inputValue()).toBe("");

    // …but typing `/` in a field types it.
    const comment = page.getByRole("textbox", { name: "Comment" });
    await comment.click();
    await page.keyboard.type("a/b");
    expect(await comment.inputValue()).toBe("a/b");
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(false);

    // Ctrl+K from anywhere, even a field; ↓ then Enter-free: arrow to a result and follow it.
    await page.keyboard.press("Control+k");
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("deploy plan");
    await expect.poll(() => results.getByRole("link").first().innerText(), { timeout: 10_000 }).toContain("Deploy plan");
    await page.keyboard.press("ArrowDown");
    expect(
      await results
        .getByRole("link")
        .first()
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press("Enter");
    await ready(page, /Deploy pipeline is slow/);
    expect(new URL(page.url()).hash).toBe("#document-plan");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Deploy plan");

    // Enter in the box opens the first result; Escape closes the results.
    await box.fill("deploy tooling");
    await expect.poll(() => results.getByRole("link").first().innerText(), { timeout: 10_000 }).toContain("Deploy tooling");
    await box.press("Escape");
    expect(await results.count()).toBe(0);
    await box.press("Enter");
    await ready(page, "Deploy tooling");
    expect(new URL(page.url()).pathname).toBe(`${prefix}/projects/${project.id}`);

    for (const [query, name, heading] of [
      ["deploy captain", /^Agent Ada/, "Ada"],
      ["tuesdays", /^Wiki page Deploys/, "Deploys"],
    ] as const) {
      await box.fill(query);
      await results.getByRole("link", { name }).click();
      await ready(page, heading);
    }
    expect(new URL(page.url()).searchParams.get("path")).toBe("wiki/concepts/deploys.md");
    await box.fill("nothing like this");
    await expect.poll(() => page.locator(".search-results").innerText(), { timeout: 10_000 }).toBe("Nothing found");
  });

  /** Hooli with an open question on an issue, a finished run with a transcript, and wiki pages: every page of this file has something to show. */
  async function hooliInFull() {
    await wikiReady();
    const world = await hooli();
    const { company, agent, key } = world;
    const { issue, wake } = await assignedToAda(world, "Choose the rollout");
    await asAgent(key, "POST", `/api/issues/${issue.id}/questions`, {
      prompt: "How should we roll out the new cache, given that the old one still serves a long tail of requests?",
      options: [
        { id: "blue_green", label: "Blue-green" },
        { id: "canary", label: "Canary with a long name for a narrow screen" },
      ],
      allowFreeText: true,
      blocksIssue: true,
    });
    await fetch(`${wake.apiUrl}/api/heartbeat-runs/${wake.runId}/events`, {
      method: "POST",
      headers: agent.asRun(wake),
      body: JSON.stringify({
        events: [
          { kind: "assistant", message: "Asked the board how to roll out; waiting for the answer before touching production." },
          { kind: "tool_call", message: 'http {"url":"https://internal.example.com/a/very/long/path/that/should/wrap/on/a/phone/screen"}' },
        ],
      }),
    });
    await fetch(`${wake.apiUrl}/api/heartbeat-runs/${wake.runId}/complete`, {
      method: "POST",
      headers: agent.asRun(wake),
      body: JSON.stringify({
        status: "succeeded",
        summary: "Asked and waiting.",
        usage: { provider: "openai", model: "gpt-5", inputTokens: 1200, outputTokens: 300, costCents: 7 },
      }),
    });
    const deploys = await writePage(company.id, "wiki/concepts/deploys.md", "# Deploys\n\nBlue-green on Tuesdays; see [[areas/ops]].\n");
    await writePage(company.id, "wiki/areas/ops.md", "# Ops\n\nSee [[concepts/deploys]].\n");
    return { ...world, issue, runId: wake.runId, deploys };
  }

  it("at 390 px wide none of these pages scrolls sideways (the header's search results and the wiki's merge prompt included)", async () => {
    const { company, prefix, ada, issue, runId, deploys } = await hooliInFull();
    const small = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const pages: Array<[string, string]> = [
      [`${prefix}/issues/${issue.identifier}`, "issue-question-open"],
      [`${prefix}/inbox`, "inbox-questions"],
      [`${prefix}/agents/${ada.id}`, "agent-keys"],
      [`${prefix}/runs/${runId}`, "run-finished"],
      [`${prefix}/wiki`, "wiki"],
      [`${prefix}/wiki/page?path=wiki/concepts/deploys.md`, "wiki-page"],
    ];
    for (const [url, name] of pages) {
      await small.goto(`${server.base}${url}`);
      await ready(small);
      await noHorizontalScroll(small, name);
      await checkPage(small, `phone-${name}`);
    }
    // The run's transcript and usage are there on a phone too.
    await small.goto(`${server.base}${prefix}/runs/${runId}`);
    await ready(small, /^Run /);
    await expect.poll(() => small.getByRole("region", { name: "Transcript" }).innerText()).toContain("waiting for the answer");
    await expect.poll(() => small.getByRole("region", { name: "Usage and cost" }).innerText()).toContain("$0.07");
    await noHorizontalScroll(small, "run page with its transcript");
    // The search results open on a phone.
    await small.getByRole("searchbox", { name: "Search the company" }).fill("rollout");
    await expect
      .poll(
        () =>
          small
            .getByRole("list", { name: /^Results for/ })
            .getByRole("link")
            .count(),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    await noHorizontalScroll(small, "search results");
    await checkPage(small, "phone-search-results");
    // The merge prompt on a phone.
    await small.goto(`${server.base}${prefix}/wiki/page?path=wiki/concepts/deploys.md&edit=1`);
    await ready(small, "Deploys");
    const editor = small.getByRole("form", { name: "Edit wiki/concepts/deploys.md" });
    await editor.getByLabel("Page contents").fill("# Deploys\n\nBlue-green on Tuesdays, with a rollback plan written down before every deploy.\n");
    await writePage(company.id, "wiki/concepts/deploys.md", "# Deploys\n\nCanary on Thursdays.\n", { expectedHash: deploys.hash });
    await editor.getByRole("button", { name: "Save page" }).click();
    await expect.poll(() => editor.getByRole("region", { name: "This page changed while you edited it" }).count(), { timeout: 10_000 }).toBe(1);
    await noHorizontalScroll(small, "wiki merge prompt");
    await checkPage(small, "phone-wiki-merge");
  });

  it("the run page, the wiki's pages and the pages changed here are ready within 1 s of their navigation (median of 3 loads)", async () => {
    const { prefix, ada, issue, runId } = await hooliInFull();
    const page = await newPage();
    await expectReadyWithin(
      page,
      server.base,
      [
        ["run", `${prefix}/runs/${runId}`],
        ["wiki", `${prefix}/wiki`],
        ["wiki page", `${prefix}/wiki/page?path=wiki/concepts/deploys.md`],
        ["issue with a question", `${prefix}/issues/${issue.identifier}`],
        ["inbox with questions", `${prefix}/inbox`],
        ["agent with its keys", `${prefix}/agents/${ada.id}`],
      ],
      READY_BUDGET_MS,
    );
  });
});
