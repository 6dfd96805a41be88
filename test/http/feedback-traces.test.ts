// Feedback traces through HTTP: recording on each target type, consent-gated sharing, board-only
// reads with filters, bad input and other companies' callers.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, patch, post } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertApproval, insertProject } from "../helpers/fixtures";

async function setup() {
  const company = await createCompany();
  const project = await insertProject(company.id);
  const issue = (await post(`/api/companies/${company.id}/issues`, { title: "Write the plan", projectId: project.id })).body;
  const comment = (await post(`/api/issues/${issue.id}/comments`, { body: "draft ready" })).body;
  const agent = await insertAgent(company.id);
  const key = await insertAgentKey(agent.id, company.id);
  return { company, project, issue, comment, agent: { ...agent, token: key.token } };
}

describe("feedback traces", () => {
  it("records on issues and comments (issue and project derived), shares only with consent, lists newest first with filters", async () => {
    const { company, project, issue, comment, agent } = await setup();
    const first = await post(`/api/companies/${company.id}/feedback-traces`, {
      targetType: "issue",
      targetId: issue.id,
      vote: "up",
      comment: "great",
      payload: { excerpt: "plan" },
      share: true,
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      targetType: "issue",
      issueId: issue.id,
      projectId: project.id,
      vote: "up",
      status: "open",
      shared: false,
      warning: expect.stringMatching(/consent/i),
    });
    expect((await patch(`/api/companies/${company.id}`, { feedbackSharingConsent: { enabled: true } })).status).toBe(200);
    const second = await post(
      `/api/companies/${company.id}/feedback-traces`,
      { targetType: "comment", targetId: comment.id, vote: "down", share: true },
      { token: agent.token },
    );
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ targetType: "comment", issueId: issue.id, shared: true, createdByAgentId: agent.id });

    const all = await get(`/api/companies/${company.id}/feedback-traces`);
    expect(all.status).toBe(200);
    expect(all.body.map((t: any) => t.id)).toEqual([second.body.id, first.body.id]);
    expect(all.body[1].payload).toBeUndefined();
    const withPayload = await get(`/api/companies/${company.id}/feedback-traces?includePayload=true&targetType=issue`);
    expect(withPayload.body).toEqual([expect.objectContaining({ id: first.body.id, payload: { excerpt: "plan" } })]);
    expect((await get(`/api/companies/${company.id}/feedback-traces?sharedOnly=true`)).body.map((t: any) => t.id)).toEqual([second.body.id]);
    expect((await get(`/api/companies/${company.id}/feedback-traces?vote=up&projectId=${project.id}`)).body.map((t: any) => t.id)).toEqual([first.body.id]);
    expect((await get(`/api/companies/${company.id}/feedback-traces?issueId=${issue.id}&from=2020-01-01&to=2999-01-01T00:00:00Z`)).body.length).toBe(2);
    expect((await get(`/api/companies/${company.id}/feedback-traces?to=2020-01-01`)).body).toEqual([]);
  });

  it("refuses bad input with 400/422, changing nothing; approvals are a target too", async () => {
    const { company, issue } = await setup();
    const other = await setup();
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ targetType: "issue", targetId: "not-a-uuid", vote: "up" }, 400],
      [{ targetType: "tweet", targetId: issue.id, vote: "up" }, 400],
      [{ targetType: "issue", targetId: issue.id, vote: "meh" }, 400],
      [{ targetType: "issue", targetId: other.issue.id, vote: "up" }, 422],
      [{ targetType: "run", targetId: crypto.randomUUID(), vote: "up" }, 422],
      [{ targetType: "issue", targetId: issue.id, vote: "up", payload: { big: "x".repeat(70_000) } }, 422],
    ];
    for (const [body, status] of cases)
      expect((await post(`/api/companies/${company.id}/feedback-traces`, body)).status, JSON.stringify(body).slice(0, 80)).toBe(status);
    for (const q of ["issueId=nope", "from=yesterday", "to=2020-13-45", "limit=0", "sharedOnly=yes", "vote=meh"]) {
      expect((await get(`/api/companies/${company.id}/feedback-traces?${q}`)).status, q).toBe(400);
    }
    expect((await get(`/api/companies/${company.id}/feedback-traces`)).body).toEqual([]);
    const approval = await insertApproval(company.id);
    const onApproval = await post(`/api/companies/${company.id}/feedback-traces`, { targetType: "approval", targetId: approval, vote: "neutral" });
    expect(onApproval.body).toMatchObject({ targetType: "approval", issueId: null, projectId: null });
  });

  it("reading is board-only; other companies' callers are refused", async () => {
    const { company, issue, agent } = await setup();
    expect((await get(`/api/companies/${company.id}/feedback-traces`, { token: agent.token })).status).toBe(403);
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    const strangerAgent = await insertAgent(other.id);
    const strangerKey = await insertAgentKey(strangerAgent.id, other.id);
    for (const auth of [{ token: strangerKey.token }, { token: outsider.token, env: AUTHENTICATED }]) {
      expect((await get(`/api/companies/${company.id}/feedback-traces`, auth)).status).toBe(403);
      expect((await post(`/api/companies/${company.id}/feedback-traces`, { targetType: "issue", targetId: issue.id, vote: "up" }, auth)).status).toBe(403);
    }
    expect((await get(`/api/companies/${company.id}/feedback-traces`, { env: AUTHENTICATED })).status).toBe(401);
  });
});
