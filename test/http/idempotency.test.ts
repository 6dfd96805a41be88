// Idempotency-Key on the agent-facing mutations: a replay of the same request answers with the
// first response and changes nothing; the same key with another request is 422; keys are the
// caller's own; a bad key is 400; concurrent requests with one key apply once; receipts age out.
import { describe, expect, it } from "vitest";
import { call, type ApiResponse } from "../helpers/api";
import { agentWithKey, boardUser, createCompany, createIssue, testD1 } from "../helpers/fixtures";
import { runScheduledTick } from "../../src/scheduler/tick";
import { env } from "cloudflare:workers";

interface Caller {
  token: string;
  runId?: string;
}

const send = (method: string, path: string, body: unknown, who: Caller, key?: string) =>
  call(method, path, { body, token: who.token, runId: who.runId, headers: key ? { "idempotency-key": key } : {} });

const count = async (sql: string, ...binds: unknown[]) =>
  (await testD1
    .prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/** The company's activity entries: every applied mutation writes one. */
const activityCount = (companyId: string) => count("SELECT count(*) AS n FROM activity_log WHERE company_id = ?", companyId);

async function setup() {
  const company = await createCompany();
  const board = await boardUser(company.id);
  const agent = await agentWithKey(company.id);
  return { company, board: { token: board.token } as Caller, agent: { ...agent, runId: crypto.randomUUID() } };
}

/** First call, replay, the same key with another body: the replay equals the first and changes nothing. */
async function expectReplay(
  companyId: string,
  first: () => Promise<ApiResponse>,
  replay: () => Promise<ApiResponse>,
  other: () => Promise<ApiResponse>,
  effects: () => Promise<number>,
) {
  const a = await first();
  expect(a.status, a.text).toBeLessThan(300);
  const effectsAfter = await effects();
  const activityAfter = await activityCount(companyId);
  const b = await replay();
  expect(b.status).toBe(a.status);
  expect(b.body).toEqual(a.body);
  expect(await effects()).toBe(effectsAfter);
  expect(await activityCount(companyId)).toBe(activityAfter);
  const c = await other();
  expect(c.status, c.text).toBe(422);
  expect(c.body.error).toMatch(/Idempotency-Key was used for another request/);
  expect(await effects()).toBe(effectsAfter);
  expect(await activityCount(companyId)).toBe(activityAfter);
  return a;
}

describe("Idempotency-Key", () => {
  it("POST /api/issues/{id}/comments: a replay returns the first comment, one comment exists", async () => {
    const { company, agent } = await setup();
    const issue = await createIssue(company.id, { status: "todo", assigneeAgentId: agent.id });
    const key = crypto.randomUUID();
    const path = `/api/issues/${issue.id}/comments`;
    await expectReplay(
      company.id,
      () => send("POST", path, { body: "Working on it" }, agent, key),
      () => send("POST", path, { body: "Working on it" }, agent, key),
      () => send("POST", path, { body: "Something else" }, agent, key),
      () => count("SELECT count(*) AS n FROM issue_comments WHERE issue_id = ?", issue.id),
    );
    expect(await count("SELECT count(*) AS n FROM issue_comments WHERE issue_id = ?", issue.id)).toBe(1);
  });

  it("POST /api/companies/{id}/issues: a replay returns the first issue (same identifier), no second issue", async () => {
    const { company, board } = await setup();
    const key = crypto.randomUUID();
    const path = `/api/companies/${company.id}/issues`;
    const first = await expectReplay(
      company.id,
      () => send("POST", path, { title: "Ship it" }, board, key),
      () => send("POST", path, { title: "Ship it" }, board, key),
      () => send("POST", path, { title: "Ship it twice" }, board, key),
      () => count("SELECT count(*) AS n FROM issues WHERE company_id = ?", company.id),
    );
    expect(first.status).toBe(201);
    expect(await count("SELECT count(*) AS n FROM issues WHERE company_id = ?", company.id)).toBe(1);
  });

  it("PATCH /api/issues/{id}: a replay after a later change returns the first response and does not undo the change", async () => {
    const { company, board } = await setup();
    const issue = await createIssue(company.id, { status: "todo" });
    const key = crypto.randomUUID();
    const path = `/api/issues/${issue.id}`;
    await expectReplay(
      company.id,
      () => send("PATCH", path, { priority: "high", comment: "Bumped" }, board, key),
      () => send("PATCH", path, { priority: "high", comment: "Bumped" }, board, key),
      () => send("PATCH", path, { priority: "low" }, board, key),
      () => count("SELECT count(*) AS n FROM issue_comments WHERE issue_id = ?", issue.id),
    );
    expect((await send("PATCH", path, { priority: "critical" }, board)).status).toBe(200);
    const replay = await send("PATCH", path, { priority: "high", comment: "Bumped" }, board, key);
    expect(replay.body.priority).toBe("high");
    const stored = await call("GET", path, { token: board.token });
    expect(stored.body.priority).toBe("critical");
  });

  it("POST /api/issues/{id}/checkout: a replay answers the first checkout without a second activity entry", async () => {
    const { company, agent } = await setup();
    const issue = await createIssue(company.id, { status: "todo", assigneeAgentId: agent.id });
    const key = crypto.randomUUID();
    const path = `/api/issues/${issue.id}/checkout`;
    await expectReplay(
      company.id,
      () => send("POST", path, { agentId: agent.id, expectedStatuses: ["todo"] }, agent, key),
      () => send("POST", path, { agentId: agent.id, expectedStatuses: ["todo"] }, agent, key),
      () => send("POST", path, { agentId: agent.id, expectedStatuses: ["todo", "backlog"] }, agent, key),
      () => count("SELECT count(*) AS n FROM activity_log WHERE entity_id = ? AND action = 'issue.checked_out'", issue.id),
    );
  });

  it("PUT /api/issues/{id}/documents/{key}: a replay of a create is 201 again, not a 409 for the missing baseRevisionId", async () => {
    const { company, agent } = await setup();
    const issue = await createIssue(company.id, { status: "todo", assigneeAgentId: agent.id });
    const key = crypto.randomUUID();
    const path = `/api/issues/${issue.id}/documents/plan`;
    const first = await expectReplay(
      company.id,
      () => send("PUT", path, { format: "markdown", body: "# Plan" }, agent, key),
      () => send("PUT", path, { format: "markdown", body: "# Plan" }, agent, key),
      () => send("PUT", path, { format: "markdown", body: "# Another plan" }, agent, key),
      () => count("SELECT count(*) AS n FROM issue_document_revisions WHERE company_id = ?", company.id),
    );
    expect(first.status).toBe(201);
    // Without a key the same request is a conflict: the receipt is what made the retry safe.
    expect((await send("PUT", path, { format: "markdown", body: "# Plan" }, agent)).status).toBe(409);
  });

  it("POST /api/companies/{id}/approvals: a replay returns the first approval, one approval exists", async () => {
    const { company, agent } = await setup();
    const key = crypto.randomUUID();
    const path = `/api/companies/${company.id}/approvals`;
    const body = { type: "request_board_approval", payload: { title: "Buy a domain" } };
    await expectReplay(
      company.id,
      () => send("POST", path, body, agent, key),
      () => send("POST", path, body, agent, key),
      () => send("POST", path, { ...body, payload: { title: "Buy two" } }, agent, key),
      () => count("SELECT count(*) AS n FROM approvals WHERE company_id = ?", company.id),
    );
    expect(await count("SELECT count(*) AS n FROM approvals WHERE company_id = ?", company.id)).toBe(1);
  });

  it("keys are the caller's own and the route's own", async () => {
    const { company, board, agent } = await setup();
    const issue = await createIssue(company.id, { status: "todo", assigneeAgentId: agent.id });
    const key = crypto.randomUUID();
    const path = `/api/issues/${issue.id}/comments`;
    expect((await send("POST", path, { body: "From the agent" }, agent, key)).status).toBe(201);
    // Another caller with the same key: a request of its own.
    expect((await send("POST", path, { body: "From the agent" }, board, key)).status).toBe(201);
    expect(await count("SELECT count(*) AS n FROM issue_comments WHERE issue_id = ?", issue.id)).toBe(2);
    // The same caller and key on another route: another request.
    const other = await send("POST", `/api/companies/${company.id}/approvals`, { type: "request_board_approval", payload: {} }, agent, key);
    expect(other.status).toBe(422);
  });

  it("a malformed key is a 400 that changes nothing", async () => {
    const { company, board } = await setup();
    const path = `/api/companies/${company.id}/issues`;
    for (const key of ["has space", "x".repeat(201)]) {
      const res = await send("POST", path, { title: "Nope" }, board, key);
      expect(res.status, key).toBe(400);
      expect(res.body.error).toBeTruthy();
    }
    expect(await count("SELECT count(*) AS n FROM issues WHERE company_id = ?", company.id)).toBe(0);
  });

  it("concurrent requests with one key apply once and all answer the same issue", async () => {
    const { company, board } = await setup();
    const key = crypto.randomUUID();
    const path = `/api/companies/${company.id}/issues`;
    const responses = await Promise.all(Array.from({ length: 5 }, () => send("POST", path, { title: "Once" }, board, key)));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await count("SELECT count(*) AS n FROM issues WHERE company_id = ?", company.id)).toBe(1);
  });

  it("a failed request leaves no receipt: the retry runs", async () => {
    const { company, board } = await setup();
    const key = crypto.randomUUID();
    const path = `/api/companies/${company.id}/issues`;
    const bad = await send("POST", path, { title: "Child", parentId: crypto.randomUUID() }, board, key);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(await count("SELECT count(*) AS n FROM command_receipts WHERE company_id = ?", company.id)).toBe(0);
  });

  it("receipts older than 24 hours are pruned by the cron tick", async () => {
    const { company, board } = await setup();
    const key = crypto.randomUUID();
    const path = `/api/companies/${company.id}/issues`;
    expect((await send("POST", path, { title: "Old" }, board, key)).status).toBe(201);
    await testD1
      .prepare("UPDATE command_receipts SET created_at = ? WHERE company_id = ?")
      .bind(new Date(Date.now() - 25 * 3600_000).toISOString(), company.id)
      .run();
    await runScheduledTick(env, new Date());
    expect(await count("SELECT count(*) AS n FROM command_receipts WHERE company_id = ?", company.id)).toBe(0);
    // The key is free again: a new request.
    expect((await send("POST", path, { title: "Old" }, board, key)).status).toBe(201);
    expect(await count("SELECT count(*) AS n FROM issues WHERE company_id = ?", company.id)).toBe(2);
  });
});
