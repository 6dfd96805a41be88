// Comments, mentions and wake-ups over HTTP, plus the agent views (inbox-lite, heartbeat
// context). The wake-up queue is read straight from D1: nothing exposes it yet.
import { describe, expect, it } from "vitest";
import { call, get, patch, post, put } from "../helpers/api";
import { boardUser, createCompany, insertAgent, schema, updateRow, agentWithKey, createIssue, testD1 } from "../helpers/fixtures";
import { nextMillisecond } from "../helpers/eventually";

/** Issues here start in `todo` (checked out, commented on). */
const issue = (companyId: string, body: Record<string, unknown> = {}) => createIssue(companyId, { status: "todo", ...body });

const BOGUS = { token: "svc_agent_bogus" };

async function wakeups(companyId: string) {
  const { results } = await testD1
    .prepare(
      // Assignment wake-ups (issue creation with an assignee) are not these tests' subject.
      "SELECT agent_id, reason, source, issue_id, status, context, requested_by_actor_type, requested_by_actor_id FROM agent_wakeup_requests WHERE company_id = ? AND reason != 'assignment' ORDER BY created_at, rowid",
    )
    .bind(companyId)
    .all<any>();
  return results.map((r) => ({ ...r, context: r.context ? JSON.parse(r.context) : null }));
}

describe("POST /api/issues/{issueId}/comments", () => {
  it("adds a comment, bumps the issue and records activity", async () => {
    const company = await createCompany();
    const i = await issue(company.id);
    const res = await post(`/api/issues/${i.identifier}/comments`, { body: "**hello**" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ issueId: i.id, body: "**hello**", authorUserId: "local-board", authorAgentId: null, runId: null });
    const after = await get(`/api/issues/${i.id}`);
    expect(after.body.updatedAt >= i.updatedAt).toBe(true);
    const activity = await get(`/api/issues/${i.id}/activity`);
    expect(activity.body[0]).toMatchObject({ action: "issue.comment_added", details: { commentId: res.body.id } });
  });

  it("reopen only on done/cancelled; closed issues accept comments", async () => {
    const company = await createCompany();
    const done = await issue(company.id, { status: "done" });
    const plain = await post(`/api/issues/${done.id}/comments`, { body: "late note" });
    expect(plain.status).toBe(201);
    expect((await get(`/api/issues/${done.id}`)).body.status).toBe("done");
    await post(`/api/issues/${done.id}/comments`, { body: "reopen please", reopen: true });
    expect((await get(`/api/issues/${done.id}`)).body).toMatchObject({ status: "todo", completedAt: null });
    const cancelled = await issue(company.id, { status: "cancelled" });
    await post(`/api/issues/${cancelled.id}/comments`, { body: "back", reopen: true });
    expect((await get(`/api/issues/${cancelled.id}`)).body).toMatchObject({ status: "todo", cancelledAt: null });
    const review = await issue(company.id, { status: "in_review" });
    await post(`/api/issues/${review.id}/comments`, { body: "no effect", reopen: true });
    expect((await get(`/api/issues/${review.id}`)).body.status).toBe("in_review");
  });

  it("interrupt is board only and cancels the issue's live runs", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const i = await issue(company.id);
    const run = crypto.randomUUID();
    await post(`/api/issues/${i.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, { token: agent.token, runId: run });
    const byAgent = await post(`/api/issues/${i.id}/comments`, { body: "stop", interrupt: true }, { token: agent.token, runId: run });
    expect(byAgent.status).toBe(403);
    const res = await post(`/api/issues/${i.id}/comments`, { body: "stop", interrupt: true });
    expect(res.status).toBe(201);
    const row = await testD1.prepare("SELECT status, finished_at FROM heartbeat_runs WHERE id = ?").bind(run).first<any>();
    expect(row.status).toBe("cancelled");
    expect(row.finished_at).toBeTruthy();
    // the cancelled run's lock is stale: the agent adopts it from a new run
    const adopt = await post(
      `/api/issues/${i.id}/checkout`,
      { agentId: agent.id, expectedStatuses: ["in_progress"] },
      { token: agent.token, runId: crypto.randomUUID() },
    );
    expect(adopt.status).toBe(200);
    // PATCH interrupt with a comment works too
    const patched = await patch(`/api/issues/${i.id}`, { interrupt: true, comment: "halt" });
    expect(patched.status).toBe(200);
    const runs = await get(`/api/issues/${i.id}/runs`);
    expect(runs.body.every((r: any) => r.status === "cancelled")).toBe(true);
  });

  it("bad input, unauthenticated, other company, missing", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const stranger = await boardUser(other.id);
    const i = await issue(company.id);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "" })).status).toBe(400);
    expect((await post(`/api/issues/${i.id}/comments`, {})).status).toBe(400);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "x", reopen: "yes" })).status).toBe(400);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "x" }, BOGUS)).status).toBe(401);
    expect((await post(`/api/issues/${i.id}/comments`, { body: "x" }, { token: stranger.token })).status).toBe(404);
    expect((await post(`/api/issues/${crypto.randomUUID()}/comments`, { body: "x" })).status).toBe(404);
    expect((await get(`/api/issues/${i.id}/comments`)).body).toEqual([]);
  });
});

describe("GET comments", () => {
  it("lists with order, limit, after and afterCommentId; reads one", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const stranger = await boardUser(other.id);
    const i = await issue(company.id);
    const made = [];
    for (let n = 0; n < 5; n++) {
      made.push((await post(`/api/issues/${i.id}/comments`, { body: `c${n}` })).body);
      await nextMillisecond();
    }
    const bodies = async (qs: string) => (await get(`/api/issues/${i.id}/comments?${qs}`)).body.map((c: any) => c.body);
    expect(await bodies("")).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(await bodies("order=desc")).toEqual(["c4", "c3", "c2", "c1", "c0"]);
    expect(await bodies("limit=2")).toEqual(["c0", "c1"]);
    expect(await bodies(`afterCommentId=${made[2].id}`)).toEqual(["c3", "c4"]);
    expect(await bodies(`afterCommentId=${made[2].id}&order=desc&limit=1`)).toEqual(["c4"]);
    expect(await bodies(`after=${encodeURIComponent(made[3].createdAt)}`)).toEqual(["c4"]);
    for (const bad of ["limit=0", "limit=501", "limit=-3", "order=up", "after=yesterday"]) {
      expect((await get(`/api/issues/${i.id}/comments?${bad}`)).status, bad).toBe(400);
    }
    expect((await get(`/api/issues/${i.id}/comments?limit=500`)).status).toBe(200);
    expect((await get(`/api/issues/${i.id}/comments?afterCommentId=${crypto.randomUUID()}`)).status).toBe(404);
    expect((await get(`/api/issues/${i.id}/comments`, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${i.id}/comments`, { token: stranger.token })).status).toBe(404);
    const one = await get(`/api/issues/${i.identifier}/comments/${made[1].id}`);
    expect(one.status).toBe(200);
    expect(one.body.body).toBe("c1");
    expect((await get(`/api/issues/${i.id}/comments/${crypto.randomUUID()}`)).status).toBe(404);
    const elsewhere = await issue(company.id);
    expect((await get(`/api/issues/${elsewhere.id}/comments/${made[1].id}`)).status).toBe(404);
    expect((await get(`/api/issues/${i.id}/comments/${made[1].id}`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/api/issues/${i.id}/comments/${made[1].id}`, BOGUS)).status).toBe(401);
  });
});

describe("wake-ups", () => {
  it("a comment wakes the assignee; mentions wake mentioned agents (multi-word, any case); never the author", async () => {
    const company = await createCompany();
    const assignee = await agentWithKey(company.id, { name: "Builder" });
    const ada = await insertAgent(company.id, { name: "Ada Lovelace" });
    const ad = await insertAgent(company.id, { name: "Ada" });
    const paused = await insertAgent(company.id, { name: "Sleepy", status: "paused" });
    const gone = await insertAgent(company.id, { name: "Gone", status: "terminated" });
    await insertAgent(company.id, { name: "Bystander" });
    const i = await issue(company.id, { assigneeAgentId: assignee.id });
    const c = await post(`/api/issues/${i.id}/comments`, {
      body: "Hey @ada lovelace and @ADA, also @Sleepy @Gone and mail bob@Bystander.com",
    });
    expect(c.status).toBe(201);
    const all = await wakeups(company.id);
    // The paused agent's mention is recorded skipped (with its reason), not queued.
    expect(all.filter((w) => w.status === "skipped").map((w) => w.agent_id)).toEqual([paused.id]);
    const queue = all.filter((w) => w.status !== "skipped");
    expect(queue.map((w) => [w.agent_id, w.reason]).sort()).toEqual(
      [
        [ada.id, "mention"],
        [ad.id, "mention"],
        [assignee.id, "comment"],
      ].sort(),
    );
    for (const w of queue) {
      expect(w).toMatchObject({ status: "queued", issue_id: i.id, source: "issue_comment", requested_by_actor_type: "user" });
      expect(w.context).toMatchObject({ issueId: i.id, commentId: c.body.id });
    }
    expect(queue.some((w) => w.agent_id === paused.id || w.agent_id === gone.id)).toBe(false);
    expect(all.some((w) => w.agent_id === gone.id)).toBe(false);
  });

  it("an agent's own comment never wakes itself; a mentioned assignee is woken once", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id, { name: "Solo" });
    const other = await insertAgent(company.id, { name: "Helper Bot" });
    const i = await issue(company.id, { assigneeAgentId: agent.id });
    await post(`/api/issues/${i.id}/comments`, { body: "note to @Solo and @helper bot" }, { token: agent.token });
    expect((await wakeups(company.id)).map((w) => [w.agent_id, w.reason])).toEqual([[other.id, "mention"]]);
    await post(`/api/issues/${i.id}/comments`, { body: "@Solo please look" });
    const queue = await wakeups(company.id);
    expect(queue.filter((w) => w.agent_id === agent.id).map((w) => w.reason)).toEqual(["mention"]);
  });

  it("PATCH comments mention too; closed issues do not wake the assignee", async () => {
    const company = await createCompany();
    const assignee = await insertAgent(company.id, { name: "Closer" });
    const reviewer = await insertAgent(company.id, { name: "Reviewer" });
    const i = await issue(company.id, { assigneeAgentId: assignee.id });
    await patch(`/api/issues/${i.id}`, { status: "done", comment: "done, @reviewer please check" });
    expect((await wakeups(company.id)).map((w) => [w.agent_id, w.reason])).toEqual([[reviewer.id, "mention"]]);
  });

  it("wakes about an issue a live run holds coalesce into it (own run) or wait (other agents)", async () => {
    const company = await createCompany();
    const holder = await agentWithKey(company.id, { name: "Holder" });
    const helper = await insertAgent(company.id, { name: "Helper" });
    const i = await issue(company.id);
    const run = crypto.randomUUID();
    await post(`/api/issues/${i.id}/checkout`, { agentId: holder.id, expectedStatuses: ["todo"] }, { token: holder.token, runId: run });
    await post(`/api/issues/${i.id}/comments`, { body: "status? cc @helper" });
    const queue = await wakeups(company.id);
    expect(queue.map((w) => [w.agent_id, w.reason, w.status]).sort()).toEqual(
      [
        [holder.id, "comment", "coalesced"],
        [helper.id, "mention", "deferred_issue_execution"],
      ].sort(),
    );
    const coalesced = await testD1.prepare("SELECT coalesced_into_run_id FROM agent_wakeup_requests WHERE agent_id = ?").bind(holder.id).first<any>();
    expect(coalesced.coalesced_into_run_id).toBe(run);
  });

  it("hard-stopped (paused) agents are not woken: the wake-up is recorded skipped with the reason", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id, { name: "Budgeted" });
    const i = await issue(company.id, { assigneeAgentId: agent.id });
    await updateRow(schema.agents, agent.id, { status: "paused", pauseReason: "budget" });
    await post(`/api/issues/${i.id}/comments`, { body: "ping @Budgeted" });
    expect((await wakeups(company.id)).map((w) => w.status)).toEqual(["skipped"]);
    const row = await testD1.prepare("SELECT skip_reason FROM agent_wakeup_requests WHERE agent_id = ? AND reason = 'mention'").bind(agent.id).first<any>();
    expect(row.skip_reason).toBe("budget.blocked");

    // A paused (not budget) agent: agent.not_invokable.
    const paused = await insertAgent(company.id, { name: "Resting", status: "paused" });
    await post(`/api/issues/${i.id}/comments`, { body: "ping @Resting" });
    const other = await testD1.prepare("SELECT status, skip_reason FROM agent_wakeup_requests WHERE agent_id = ?").bind(paused.id).first<any>();
    expect(other).toMatchObject({ status: "skipped", skip_reason: "agent.not_invokable" });
  });

  it("done wakes assignees of issues whose blockers are now all resolved", async () => {
    const company = await createCompany();
    const waiter = await insertAgent(company.id);
    const waiter2 = await insertAgent(company.id);
    const unassignedWaiter = await issue(company.id);
    const a = await issue(company.id);
    const b = await issue(company.id);
    const onlyA = await issue(company.id, { assigneeAgentId: waiter.id, blockedByIssueIds: [a.id] });
    const both = await issue(company.id, { assigneeAgentId: waiter2.id, blockedByIssueIds: [a.id, b.id] });
    await patch(`/api/issues/${unassignedWaiter.id}`, { blockedByIssueIds: [a.id] });
    await patch(`/api/issues/${a.id}`, { status: "done" });
    let queue = await wakeups(company.id);
    expect(queue.map((w) => [w.agent_id, w.reason, w.issue_id])).toEqual([[waiter.id, "blocker_resolved", onlyA.id]]);
    expect(queue[0].context).toMatchObject({ resolvedBlockerIssueId: a.id });
    await patch(`/api/issues/${b.id}`, { status: "cancelled" });
    expect(await wakeups(company.id)).toHaveLength(1);
    await patch(`/api/issues/${b.id}`, { status: "done" });
    queue = await wakeups(company.id);
    expect(queue.map((w) => [w.agent_id, w.reason, w.issue_id])).toEqual([
      [waiter.id, "blocker_resolved", onlyA.id],
      [waiter2.id, "blocker_resolved", both.id],
    ]);
    // a second done → done patch does not wake again
    await patch(`/api/issues/${b.id}`, { title: "renamed" });
    expect(await wakeups(company.id)).toHaveLength(2);
  });
});

describe("GET /api/agents/me/inbox-lite", () => {
  it("lists the agent's open assigned issues with blocker readiness and the active run", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const other = await insertAgent(company.id);
    const blocker = await issue(company.id);
    const ready = await issue(company.id, { assigneeAgentId: agent.id, priority: "low" });
    const waiting = await issue(company.id, { assigneeAgentId: agent.id, priority: "high", blockedByIssueIds: [blocker.id] });
    await issue(company.id, { assigneeAgentId: agent.id, status: "done" });
    await issue(company.id, { assigneeAgentId: other.id });
    const run = crypto.randomUUID();
    await post(`/api/issues/${ready.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, { token: agent.token, runId: run });
    const res = await get("/api/agents/me/inbox-lite", { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.map((x: any) => x.id)).toEqual([waiting.id, ready.id]);
    expect(res.body[0]).toMatchObject({
      identifier: waiting.identifier,
      status: "todo",
      priority: "high",
      activeRun: null,
      dependencyReady: false,
      unresolvedBlockerCount: 1,
      unresolvedBlockerIssueIds: [blocker.id],
    });
    expect(res.body[1]).toMatchObject({ status: "in_progress", dependencyReady: true, unresolvedBlockerCount: 0, unresolvedBlockerIssueIds: [] });
    expect(res.body[1].activeRun).toMatchObject({ id: run, status: "running", agentId: agent.id });
    await patch(`/api/issues/${blocker.id}`, { status: "done" });
    const after = await get("/api/agents/me/inbox-lite", { token: agent.token });
    expect(after.body[0]).toMatchObject({ dependencyReady: true, unresolvedBlockerCount: 0 });
  });

  it("agents only", async () => {
    expect((await get("/api/agents/me/inbox-lite")).status).toBe(403);
    expect((await get("/api/agents/me/inbox-lite", BOGUS)).status).toBe(401);
  });
});

describe("GET /api/issues/{issueId}/heartbeat-context", () => {
  it("returns the reduced issue, ancestors, summaries, comment cursor and wake comment", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const stranger = await agentWithKey(other.id);
    const parent = await issue(company.id);
    const i = await issue(company.id, { parentId: parent.id, description: "desc" });
    const empty = await get(`/api/issues/${i.identifier}/heartbeat-context`);
    expect(empty.status).toBe(200);
    expect(empty.body.commentCursor).toEqual({ totalComments: 0, latestCommentId: null, latestCommentAt: null });
    const first = (await post(`/api/issues/${i.id}/comments`, { body: "one" })).body;
    const second = (await post(`/api/issues/${i.id}/comments`, { body: "two" })).body;
    const res = await get(`/api/issues/${i.id}/heartbeat-context?wakeCommentId=${first.id}`);
    expect(res.body.issue).toMatchObject({ id: i.id, identifier: i.identifier, description: "desc", parentId: parent.id });
    expect(res.body.ancestors.map((a: any) => a.id)).toEqual([parent.id]);
    expect(res.body).toMatchObject({ project: null, goal: null, attachments: [], planReviewContext: null });
    expect(res.body.commentCursor).toEqual({ totalComments: 2, latestCommentId: second.id, latestCommentAt: second.createdAt });
    expect(res.body.wakeComment).toMatchObject({ id: first.id, body: "one" });
    expect((await get(`/api/issues/${i.id}/heartbeat-context?wakeCommentId=${crypto.randomUUID()}`)).status).toBe(404);
    expect((await get(`/api/issues/${i.id}/heartbeat-context`, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${i.id}/heartbeat-context`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/api/issues/${crypto.randomUUID()}/heartbeat-context`)).status).toBe(404);
  });

  it("carries attachment summaries and the plan review context", async () => {
    const company = await createCompany();
    const i = await issue(company.id);
    const form = new FormData();
    form.append("file", new File(["notes"], "notes.txt", { type: "text/plain" }));
    const uploaded = await call("POST", `/api/companies/${company.id}/issues/${i.id}/attachments`, { rawBody: form });
    expect(uploaded.status).toBe(201);
    const plan = await put(`/api/issues/${i.id}/documents/plan`, { format: "markdown", body: "Step one. Step two." });
    expect(plan.status).toBe(201);
    const thread = await post(`/api/issues/${i.id}/documents/plan/annotations`, {
      revisionId: plan.body.latestRevisionId,
      start: 0,
      end: 9,
      quote: "Step one.",
      body: "Why first?",
    });
    expect(thread.status).toBe(201);
    const res = await get(`/api/issues/${i.id}/heartbeat-context`);
    expect(res.body.attachments).toHaveLength(1);
    expect(res.body.attachments[0]).toMatchObject({ id: uploaded.body.id, originalFilename: "notes.txt" });
    expect(res.body.planReviewContext.document).toMatchObject({ key: "plan" });
    expect(res.body.planReviewContext.openAnnotationThreads.map((t: any) => t.id)).toEqual([thread.body.id]);
  });
});

describe("GET /api/issues/{issueId}/activity", () => {
  it("newest first; 401/404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const stranger = await boardUser(other.id);
    const i = await issue(company.id);
    await patch(`/api/issues/${i.id}`, { title: "t2" });
    await post(`/api/issues/${i.id}/comments`, { body: "c" });
    const res = await get(`/api/issues/${i.identifier}/activity`);
    expect(res.body.map((a: any) => a.action)).toEqual(["issue.comment_added", "issue.updated", "issue.created"]);
    expect((await get(`/api/issues/${i.id}/activity`, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${i.id}/activity`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/api/issues/${crypto.randomUUID()}/activity`)).status).toBe(404);
  });
});
