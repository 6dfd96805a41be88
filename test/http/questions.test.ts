// Questions agents ask people: who may ask, answer and cancel; blocking and unblocking the issue;
// the answer posted as a comment and the asking agent woken exactly once; two answers racing; the
// lists; other companies refused; bad input 400; the events.
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { agentWithKey, boardUser, createCompany, createIssue, testD1 } from "../helpers/fixtures";

async function setup(issueFields: Record<string, unknown> = {}) {
  const company = await createCompany();
  const agent = await agentWithKey(company.id);
  const board = await boardUser(company.id);
  const issue = await createIssue(company.id, { status: "in_progress", assigneeAgentId: agent.id, ...issueFields });
  return { company, agent, board, issue };
}

const ask = (issueId: string, token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post(`/api/issues/${issueId}/questions`, body, { token, headers });

const wakeups = async (agentId: string) =>
  (
    await testD1
      .prepare("SELECT reason, source, context FROM agent_wakeup_requests WHERE agent_id = ? ORDER BY created_at")
      .bind(agentId)
      .all<{ reason: string; source: string; context: string }>()
  ).results.map((w) => ({ ...w, context: JSON.parse(w.context ?? "null") }));

const events = async (companyId: string) =>
  ((await get(`/api/companies/${companyId}/events?limit=200`)).body.events ?? []) as Array<{ type: string; data: any }>;

describe("questions", () => {
  it("the assignee agent asks; a blocking question blocks the issue; the answer is a comment, unblocks it and wakes the agent once", async () => {
    const { company, agent, board, issue } = await setup();
    const asked = await ask(issue.id, agent.token, {
      prompt: "Which database should the cache use?",
      options: [
        { id: "redis", label: "Redis" },
        { id: "d1", label: "D1" },
      ],
      allowFreeText: true,
      blocksIssue: true,
    });
    expect(asked.status, asked.text).toBe(201);
    expect(asked.body).toMatchObject({ status: "open", askedByAgentId: agent.id, blocksIssue: true, answer: null, allowFreeText: true });
    expect((await get(`/api/issues/${issue.id}`)).body.status).toBe("blocked");
    const before = (await wakeups(agent.id)).length;

    const answered = await post(
      `/api/issues/${issue.id}/questions/${asked.body.id}/answer`,
      { optionId: "d1", text: "It is already there." },
      { token: board.token },
    );
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({
      status: "answered",
      answer: { optionId: "d1", optionLabel: "D1", text: "It is already there.", answeredByUserId: board.id },
    });
    expect((await get(`/api/issues/${issue.id}`)).body.status).toBe("in_progress");
    const comments = (await get(`/api/issues/${issue.id}/comments`)).body;
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ id: answered.body.answer.commentId, authorUserId: board.id });
    expect(comments[0].body).toContain("Which database should the cache use?");
    expect(comments[0].body).toContain("D1");
    // Woken exactly once, with the answer; the answer's comment woke no one else.
    const woken = (await wakeups(agent.id)).slice(before);
    expect(woken).toHaveLength(1);
    expect(woken[0]).toMatchObject({
      reason: "question_answered",
      source: "issue_question",
      context: {
        questionId: asked.body.id,
        question: "Which database should the cache use?",
        answer: { optionId: "d1", optionLabel: "D1", text: "It is already there." },
      },
    });
    const types = (await events(company.id)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["question.asked", "question.answered", "issue.commented"]));
  });

  it("two answers at once: one wins, the other gets 409; the agent is woken once", async () => {
    const { agent, board, issue } = await setup();
    const asked = await ask(issue.id, agent.token, {
      prompt: "Ship on Friday?",
      options: [
        { id: "yes", label: "Yes" },
        { id: "no", label: "No" },
      ],
    });
    const other = await boardUser((await get(`/api/issues/${issue.id}`)).body.companyId);
    const before = (await wakeups(agent.id)).length;
    const results = await Promise.all([
      post(`/api/issues/${issue.id}/questions/${asked.body.id}/answer`, { optionId: "yes" }, { token: board.token }),
      post(`/api/issues/${issue.id}/questions/${asked.body.id}/answer`, { optionId: "no" }, { token: other.token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await get(`/api/issues/${issue.id}/comments`)).body).toHaveLength(1);
    expect((await wakeups(agent.id)).slice(before)).toHaveLength(1);
  });

  it("who may ask, answer and cancel", async () => {
    const { company, agent, board, issue } = await setup();
    const peer = await agentWithKey(company.id);
    const stranger = await agentWithKey((await createCompany()).id);
    expect((await ask(issue.id, board.token, { prompt: "?" })).status).toBe(403);
    expect((await ask(issue.id, peer.token, { prompt: "?" })).status).toBe(403);
    expect([403, 404]).toContain((await ask(issue.id, stranger.token, { prompt: "?" })).status);
    const asked = await ask(issue.id, agent.token, { prompt: "Budget for the launch?" });
    expect(asked.body.allowFreeText).toBe(true);
    expect((await post(`/api/issues/${issue.id}/questions/${asked.body.id}/answer`, { text: "100" }, { token: agent.token })).status).toBe(403);
    expect((await post(`/api/issues/${issue.id}/questions/${asked.body.id}/cancel`, {}, { token: peer.token })).status).toBe(403);
    const strangerBoard = await boardUser((await createCompany()).id);
    expect([403, 404]).toContain(
      (await post(`/api/issues/${issue.id}/questions/${asked.body.id}/answer`, { text: "x" }, { token: strangerBoard.token })).status,
    );
    expect([403, 404]).toContain((await get(`/api/companies/${company.id}/questions`, { token: strangerBoard.token })).status);
    expect((await post(`/api/issues/${issue.id}/questions/${asked.body.id}/cancel`, {}, { token: agent.token })).status).toBe(200);
    expect((await post(`/api/issues/${issue.id}/questions/${asked.body.id}/cancel`, {}, { token: agent.token })).status).toBe(409);
    expect((await post(`/api/issues/${issue.id}/questions/${asked.body.id}/answer`, { text: "late" }, { token: board.token })).status).toBe(409);
  });

  it("refuses bad input with 400 or 422 and changes nothing", async () => {
    const { company, agent, board, issue } = await setup();
    const count = async () => (await get(`/api/issues/${issue.id}/questions`)).body.length;
    expect((await ask(issue.id, agent.token, { prompt: "" })).status).toBe(400);
    expect(
      (
        await ask(issue.id, agent.token, {
          prompt: "?",
          options: [
            { id: "a", label: "A" },
            { id: "a", label: "B" },
          ],
        })
      ).status,
    ).toBe(400);
    expect((await ask(issue.id, agent.token, { prompt: "?", surprise: true })).status).toBe(400);
    expect((await ask(issue.id, agent.token, { prompt: "?", allowFreeText: false })).status).toBe(422);
    expect((await ask(issue.id, agent.token, { prompt: "?", askedOfUserId: "someone-else" })).status).toBe(422);
    expect(await count()).toBe(0);
    const asked = await ask(issue.id, agent.token, { prompt: "Pick one", options: [{ id: "a", label: "A" }], askedOfUserId: board.id });
    expect(asked.status).toBe(201);
    const answer = (body: unknown) => post(`/api/issues/${issue.id}/questions/${asked.body.id}/answer`, body, { token: board.token });
    expect((await answer({})).status).toBe(400);
    expect((await answer({ optionId: "zzz" })).status).toBe(422);
    expect((await answer({ text: "free text" })).status).toBe(422);
    expect((await get(`/api/issues/${issue.id}/questions/${asked.body.id}`)).status).toBe(404);
    expect((await get(`/api/companies/${company.id}/questions?status=open`)).body.map((q: { id: string }) => q.id)).toEqual([asked.body.id]);
    expect((await get(`/api/companies/${company.id}/questions?askedOfUserId=${board.id}`)).body[0].issue).toMatchObject({ id: issue.id });
    expect((await get(`/api/companies/${company.id}/questions?status=nope`)).status).toBe(400);
  });

  it("a cancelled blocking question unblocks the issue; two blocking questions unblock it only when both are settled", async () => {
    const { company, agent, board, issue } = await setup({ status: "todo" });
    const first = await ask(issue.id, agent.token, { prompt: "First?", blocksIssue: true });
    const second = await ask(issue.id, agent.token, { prompt: "Second?", blocksIssue: true });
    expect((await get(`/api/issues/${issue.id}`)).body.status).toBe("blocked");
    expect((await post(`/api/issues/${issue.id}/questions/${first.body.id}/cancel`, {}, { token: agent.token })).status).toBe(200);
    expect((await get(`/api/issues/${issue.id}`)).body.status).toBe("blocked");
    expect((await post(`/api/issues/${issue.id}/questions/${second.body.id}/answer`, { text: "Yes" }, { token: board.token })).status).toBe(200);
    expect((await get(`/api/issues/${issue.id}`)).body.status).toBe("todo");
    expect((await events(company.id)).map((e) => e.type)).toContain("question.cancelled");
    // A done issue cannot be blocked by a question.
    const done = await createIssue(company.id, { status: "done", assigneeAgentId: agent.id });
    expect((await ask(done.id, agent.token, { prompt: "Reopen?", blocksIssue: true })).status).toBe(422);
  });

  it("asking accepts an Idempotency-Key: a retry returns the first question", async () => {
    const { agent, issue } = await setup();
    const key = crypto.randomUUID();
    const first = await ask(issue.id, agent.token, { prompt: "Once?" }, { "idempotency-key": key });
    const again = await ask(issue.id, agent.token, { prompt: "Once?" }, { "idempotency-key": key });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect((await get(`/api/issues/${issue.id}/questions`)).body).toHaveLength(1);
  });
});
