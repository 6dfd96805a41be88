// Issues over HTTP: create (identifiers, defaults, references, goal resolution, assignment
// authorization), detail, update (blockers, status timestamps, reopen, hidden), list filters,
// q ranking, limit, labels, read/archive marks, activity, and the 50-create race.
import { describe, expect, it } from "vitest";
import { call, del, get, patch, post, unique } from "../helpers/api";
import {
  boardUser,
  createCompany,
  insertAgent,
  insertIssue,
  insertProject as projectFixture,
  insertRow,
  schema,
  updateRow,
  agentWithKey,
  createIssue,
} from "../helpers/fixtures";

const issue = createIssue;

const BOGUS = { token: "svc_agent_bogus" };

/** An open execution workspace of the company (issues may point only at their own company's). */
async function executionWorkspace(companyId: string): Promise<string> {
  const res = await post(`/api/companies/${companyId}/execution-workspaces`, {});
  if (res.status !== 201) throw new Error(`open execution workspace failed: ${res.status} ${res.text}`);
  return res.body.id;
}

async function insertGoal(companyId: string, fields: { isDefault?: boolean; title?: string } = {}) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await insertRow(schema.goals, {
    id,
    companyId,
    title: fields.title ?? unique("Goal"),
    level: "company",
    status: "active",
    isCompanyDefault: fields.isDefault ?? false,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

const insertProject = async (companyId: string, fields: { name?: string; goalId?: string | null; pausedAt?: string | null } = {}) =>
  (await projectFixture(companyId, fields.name ?? unique("Project"), { goalId: fields.goalId ?? null, pausedAt: fields.pausedAt ?? null })).id;

describe("POST /api/companies/{companyId}/issues", () => {
  it("creates with identifier, defaults and activity", async () => {
    const company = await createCompany();
    const a = await issue(company.id, { title: "First" });
    const b = await issue(company.id, { title: "Second", status: "todo", priority: "high", description: "d" });
    expect(a.identifier).toBe(`${company.issuePrefix}-1`);
    expect(b.identifier).toBe(`${company.issuePrefix}-2`);
    expect(a).toMatchObject({
      status: "backlog",
      priority: "medium",
      originKind: "manual",
      labelIds: [],
      blockedByIssueIds: [],
      createdByUserId: "local-board",
    });
    expect(b).toMatchObject({ status: "todo", priority: "high", description: "d" });
    const companyRow = await get(`/api/companies/${company.id}`);
    expect(companyRow.body.issueCounter).toBe(2);
    const activity = await get(`/api/issues/${a.identifier}/activity`);
    expect(activity.status).toBe(200);
    expect(activity.body.map((r: any) => r.action)).toEqual(["issue.created"]);
  });

  it("continues after the highest used number", async () => {
    const company = await createCompany();
    await updateRow(schema.companies, company.id, { issueCounter: 41 });
    const a = await issue(company.id);
    expect(a.identifier).toBe(`${company.issuePrefix}-42`);
  });

  it("rejects bad input, strangers and missing companies", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const outsider = await boardUser(other.id);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "" })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x", status: "nope" })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x", priority: "urgent" })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x" }, BOGUS)).status).toBe(401);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x" }, { token: outsider.token })).status).toBe(403);
    expect((await post(`/api/companies/${crypto.randomUUID()}/issues`, { title: "x" })).status).toBe(404);
    const agentElsewhere = await agentWithKey(other.id);
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x" }, { token: agentElsewhere.token })).status).toBe(403);
  });

  it("checks references stay in the company (422)", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const foreign = await issue(other.id);
    const foreignProject = await insertProject(other.id);
    const foreignGoal = await insertGoal(other.id);
    for (const body of [
      { parentId: foreign.id },
      { blockedByIssueIds: [foreign.id] },
      { blockedByIssueIds: [crypto.randomUUID()] },
      { projectId: foreignProject },
      { goalId: foreignGoal },
      { labelIds: [crypto.randomUUID()] },
      { inheritExecutionWorkspaceFromIssueId: foreign.id },
    ]) {
      const res = await post(`/api/companies/${company.id}/issues`, { title: "x", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const list = await get(`/api/companies/${company.id}/issues`);
    expect(list.body).toHaveLength(0);
  });

  it("resolves the goal: own, then project's, then the company default when no project", async () => {
    const company = await createCompany();
    const defaultGoal = await insertGoal(company.id, { isDefault: true });
    const projectGoal = await insertGoal(company.id);
    const ownGoal = await insertGoal(company.id);
    const withGoalProject = await insertProject(company.id, { goalId: projectGoal });
    const bareProject = await insertProject(company.id);
    expect((await issue(company.id, { goalId: ownGoal, projectId: withGoalProject })).goalId).toBe(ownGoal);
    expect((await issue(company.id, { projectId: withGoalProject })).goalId).toBe(projectGoal);
    expect((await issue(company.id)).goalId).toBe(defaultGoal);
    expect((await issue(company.id, { projectId: bareProject })).goalId).toBeNull();
  });

  it("stores parent, blockers (by identifier too), labels, execution fields and inheritance", async () => {
    const company = await createCompany();
    const label = (await post(`/api/companies/${company.id}/labels`, { name: "Bug", color: "#ff0000" })).body;
    const ws1 = await executionWorkspace(company.id);
    const parent = await issue(company.id, { executionWorkspaceId: ws1, executionWorkspacePreference: "isolated", executionWorkspaceSettings: { a: 1 } });
    const blocker = await issue(company.id);
    const child = await issue(company.id, {
      parentId: parent.identifier,
      blockedByIssueIds: [blocker.identifier.toLowerCase(), blocker.id],
      labelIds: [label.id],
      executionPolicy: { mode: "x" },
      inheritExecutionWorkspaceFromIssueId: parent.id,
    });
    expect(child).toMatchObject({
      parentId: parent.id,
      blockedByIssueIds: [blocker.id],
      labelIds: [label.id],
      labels: [{ id: label.id, name: "Bug", color: "#ff0000" }],
      executionPolicy: { mode: "x" },
      executionWorkspaceId: ws1,
      executionWorkspacePreference: "isolated",
      executionWorkspaceSettings: { a: 1 },
    });
  });

  it("assignee fields pass the authorization engine (refusal carries the reason)", async () => {
    const company = await createCompany();
    const worker = await agentWithKey(company.id);
    const peer = await insertAgent(company.id);
    const ok = await issue(company.id, { assigneeAgentId: worker.id });
    expect(ok.assigneeAgentId).toBe(worker.id);
    // A plain agent may not hand work to an unrelated peer.
    const denied = await post(`/api/companies/${company.id}/issues`, { title: "x", assigneeAgentId: peer.id }, { token: worker.token });
    expect(denied.status).toBe(403);
    expect(denied.body.details.reason).toBe("deny_missing_grant");
    // ...but may assign itself.
    const self = await post(`/api/companies/${company.id}/issues`, { title: "x", assigneeAgentId: worker.id }, { token: worker.token });
    expect(self.status).toBe(201);
    expect(self.body.createdByAgentId).toBe(worker.id);
    const terminated = await insertAgent(company.id, { status: "terminated" });
    const res = await post(`/api/companies/${company.id}/issues`, { title: "x", assigneeAgentId: terminated.id });
    expect(res.status).toBe(403);
    expect(res.body.details.reason).toBe("deny_company_boundary");
    const viewer = await boardUser(company.id, "viewer");
    const byViewer = await post(`/api/companies/${company.id}/issues`, { title: "x", assigneeAgentId: worker.id }, { token: viewer.token });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.details.reason).toBeTruthy();
  });

  it("50 concurrent creates get 50 distinct consecutive identifiers", async () => {
    const company = await createCompany();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`/api/companies/${company.id}/issues`, { title: `Race ${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const numbers = results.map((r) => r.body.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.body.identifier)).size).toBe(50);
    expect((await get(`/api/companies/${company.id}`)).body.issueCounter).toBe(50);
  });
});

describe("GET /api/issues/{issueId}", () => {
  it("returns the detail by UUID or identifier with every related field", async () => {
    const company = await createCompany();
    const goal = await insertGoal(company.id);
    const project = await insertProject(company.id, { name: "Apollo Rocket", goalId: goal });
    await insertProject(company.id, { name: "Gemini" });
    const root = await issue(company.id);
    const parent = await issue(company.id, { parentId: root.id });
    const blocker = await issue(company.id);
    const child = await issue(company.id, {
      parentId: parent.id,
      projectId: project,
      blockedByIssueIds: [blocker.id],
      description: "Relates to apollo rocket and not to geminiX.",
    });
    const blocked = await issue(company.id, { blockedByIssueIds: [child.id] });
    for (const ref of [child.id, child.identifier, child.identifier.toLowerCase()]) {
      const res = await get(`/api/issues/${ref}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(child.id);
    }
    const { body } = await get(`/api/issues/${child.id}`);
    expect(body.project).toMatchObject({ id: project, name: "Apollo Rocket" });
    expect(body.goal).toMatchObject({ id: goal });
    expect(body.ancestors.map((a: any) => a.id)).toEqual([parent.id, root.id]);
    expect(body.blockedBy.map((a: any) => a.id)).toEqual([blocker.id]);
    expect(body.blocks.map((a: any) => a.id)).toEqual([blocked.id]);
    expect(body.mentionedProjects.map((p: any) => p.id)).toEqual([project]);
    expect(body).toMatchObject({ planDocument: null, documentSummaries: [], legacyPlanDocument: null, currentExecutionWorkspace: null, workProducts: [] });
  });

  it("401 without identity, 404 when missing or in another company", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const i = await issue(company.id);
    const stranger = await agentWithKey(other.id);
    expect((await get(`/api/issues/${i.id}`, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${i.id}`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/api/issues/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await get(`/api/issues/ZZZ-999999`)).status).toBe(404);
  });
});

describe("PATCH /api/issues/{issueId}", () => {
  it("updates fields and stamps status times", async () => {
    const company = await createCompany();
    const i = await issue(company.id);
    const started = await patch(`/api/issues/${i.identifier}`, { status: "in_progress", title: "Renamed", priority: "critical" });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: "in_progress", title: "Renamed", priority: "critical" });
    expect(started.body.startedAt).toBeTruthy();
    const done = await patch(`/api/issues/${i.id}`, { status: "done" });
    expect(done.body.completedAt).toBeTruthy();
    const cancelled = await patch(`/api/issues/${i.id}`, { status: "cancelled" });
    expect(cancelled.body.cancelledAt).toBeTruthy();
    expect(cancelled.body.completedAt).toBeNull();
    expect(cancelled.body.startedAt).toBe(started.body.startedAt);
    const activity = await get(`/api/issues/${i.id}/activity`);
    expect(activity.body[0].action).toBe("issue.updated");
    expect(activity.body[0].details.changes.status).toEqual({ from: "done", to: "cancelled" });
    expect(activity.body.at(-1).action).toBe("issue.created");
  });

  it("replaces blockers and refuses self-blocks, cycles and other companies", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const a = await issue(company.id);
    const b = await issue(company.id);
    const c = await issue(company.id);
    const foreign = await issue(other.id);
    expect((await patch(`/api/issues/${a.id}`, { blockedByIssueIds: [b.id] })).body.blockedByIssueIds).toEqual([b.id]);
    expect((await patch(`/api/issues/${b.id}`, { blockedByIssueIds: [c.id] })).status).toBe(200);
    const self = await patch(`/api/issues/${a.id}`, { blockedByIssueIds: [a.id] });
    expect(self.status).toBe(422);
    expect(self.body.error).toMatch(/itself/);
    const cycle = await patch(`/api/issues/${c.id}`, { blockedByIssueIds: [a.id] });
    expect(cycle.status).toBe(422);
    expect(cycle.body.error).toMatch(/cycle/);
    expect((await patch(`/api/issues/${a.id}`, { blockedByIssueIds: [foreign.id] })).status).toBe(422);
    const replaced = await patch(`/api/issues/${a.id}`, { blockedByIssueIds: [c.id] });
    expect(replaced.body.blockedByIssueIds).toEqual([c.id]);
    expect((await patch(`/api/issues/${a.id}`, { blockedByIssueIds: [] })).body.blockedByIssueIds).toEqual([]);
  });

  it("refuses parent cycles", async () => {
    const company = await createCompany();
    const a = await issue(company.id);
    const b = await issue(company.id, { parentId: a.id });
    expect((await patch(`/api/issues/${a.id}`, { parentId: b.id })).status).toBe(422);
    expect((await patch(`/api/issues/${a.id}`, { parentId: a.id })).status).toBe(422);
    expect((await patch(`/api/issues/${b.id}`, { parentId: null })).body.parentId).toBeNull();
  });

  it("comment, reopen, interrupt and hiddenAt", async () => {
    const company = await createCompany();
    const i = await issue(company.id, { status: "done" });
    expect((await patch(`/api/issues/${i.id}`, { reopen: true })).status).toBe(400);
    const reopened = await patch(`/api/issues/${i.id}`, { reopen: true, comment: "again" });
    expect(reopened.body.status).toBe("todo");
    expect(reopened.body.completedAt).toBeNull();
    const explicit = await patch(`/api/issues/${i.id}`, { status: "done" });
    expect(explicit.body.status).toBe("done");
    expect((await patch(`/api/issues/${i.id}`, { reopen: true, comment: "x", status: "in_review" })).body.status).toBe("in_review");
    // reopen on an open issue changes nothing
    expect((await patch(`/api/issues/${i.id}`, { reopen: true, comment: "y" })).body.status).toBe("in_review");
    const comments = await get(`/api/issues/${i.id}/comments`);
    expect(comments.body.map((c: any) => c.body)).toEqual(["again", "x", "y"]);
    expect((await patch(`/api/issues/${i.id}`, { interrupt: true })).status).toBe(400);
    const agent = await agentWithKey(company.id);
    expect((await patch(`/api/issues/${i.id}`, { interrupt: true, comment: "stop" }, { token: agent.token })).status).toBe(403);
    const hidden = await patch(`/api/issues/${i.id}`, { hiddenAt: new Date().toISOString() });
    expect(hidden.body.hiddenAt).toBeTruthy();
    expect((await get(`/api/companies/${company.id}/issues`)).body).toHaveLength(0);
    expect((await patch(`/api/issues/${i.id}`, { hiddenAt: null })).body.hiddenAt).toBeNull();
    expect((await get(`/api/companies/${company.id}/issues`)).body).toHaveLength(1);
  });

  it("stores hiddenAt as UTC", async () => {
    const company = await createCompany();
    const i = await issue(company.id);
    const res = await patch(`/api/issues/${i.id}`, { hiddenAt: "2026-03-01T12:00:00+02:00" });
    expect(res.body.hiddenAt).toBe("2026-03-01T10:00:00.000Z");
  });

  it("bad input, unauthenticated, other company, missing", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const i = await issue(company.id);
    const stranger = await boardUser(other.id);
    expect((await patch(`/api/issues/${i.id}`, { status: "bogus" })).status).toBe(400);
    expect((await patch(`/api/issues/${i.id}`, { title: "" })).status).toBe(400);
    expect((await patch(`/api/issues/${i.id}`, { hiddenAt: "yesterday" })).status).toBe(400);
    expect((await patch(`/api/issues/${i.id}`, { title: "x" }, BOGUS)).status).toBe(401);
    expect((await patch(`/api/issues/${i.id}`, { title: "x" }, { token: stranger.token })).status).toBe(404);
    expect((await patch(`/api/issues/${crypto.randomUUID()}`, { title: "x" })).status).toBe(404);
    expect((await get(`/api/issues/${i.id}`)).body.title).toBe(i.title);
  });

  it("assignee changes pass the authorization engine", async () => {
    const company = await createCompany();
    const worker = await agentWithKey(company.id);
    const peer = await insertAgent(company.id);
    const i = await issue(company.id);
    const denied = await patch(`/api/issues/${i.id}`, { assigneeAgentId: peer.id }, { token: worker.token });
    expect(denied.status).toBe(403);
    expect(denied.body.details.reason).toBe("deny_missing_grant");
    expect((await patch(`/api/issues/${i.id}`, { assigneeAgentId: peer.id })).body.assigneeAgentId).toBe(peer.id);
    expect((await patch(`/api/issues/${i.id}`, { assigneeUserId: "local-board" })).body.assigneeUserId).toBe("local-board");
  });
});

describe("GET /api/companies/{companyId}/issues", () => {
  it("orders by priority then latest update", async () => {
    const company = await createCompany();
    const low = await issue(company.id, { priority: "low" });
    const med1 = await issue(company.id, { priority: "medium" });
    const crit = await issue(company.id, { priority: "critical" });
    const med2 = await issue(company.id, { priority: "medium" });
    const high = await issue(company.id, { priority: "high" });
    const res = await get(`/api/companies/${company.id}/issues`);
    expect(res.body.map((i: any) => i.id)).toEqual([crit.id, high.id, med2.id, med1.id, low.id]);
    await patch(`/api/issues/${med1.id}`, { title: "touched" });
    const again = await get(`/api/companies/${company.id}/issues`);
    expect(again.body.map((i: any) => i.id)).toEqual([crit.id, high.id, med1.id, med2.id, low.id]);
  });

  it("filters by status, assignee, participant, project, parent, label, workspace, origin", async () => {
    const company = await createCompany();
    const agent = await agentWithKey(company.id);
    const other = await insertAgent(company.id);
    const project = await insertProject(company.id);
    const label = (await post(`/api/companies/${company.id}/labels`, { name: "ops" })).body;
    const parent = await issue(company.id, { status: "todo" });
    const assigned = await issue(company.id, { status: "in_review", assigneeAgentId: agent.id, projectId: project });
    const created = await issue(company.id, { status: "blocked" }, { token: agent.token });
    const ws9 = await executionWorkspace(company.id);
    const commented = await issue(company.id, { parentId: parent.id, labelIds: [label.id], executionWorkspaceId: ws9, assigneeAgentId: other.id });
    await post(`/api/issues/${commented.id}/comments`, { body: "hello" }, { token: agent.token });
    // routine_execution is reserved on create (routine runs make these issues): inserted directly here.
    const routine = await insertIssue(company.id, { originKind: "routine_execution", originId: "r-1" });
    const ids = async (qs: string) => (await get(`/api/companies/${company.id}/issues?${qs}`)).body.map((i: any) => i.id).sort();
    const sorted = (...xs: any[]) => xs.map((x) => x.id).sort();
    expect(await ids("status=todo")).toEqual(sorted(parent));
    expect(await ids("status=todo,blocked")).toEqual(sorted(parent, created));
    expect(await ids(`assigneeAgentId=${agent.id}`)).toEqual(sorted(assigned));
    expect(await ids(`participantAgentId=${agent.id}`)).toEqual(sorted(assigned, created, commented));
    expect(await ids(`projectId=${project}`)).toEqual(sorted(assigned));
    expect(await ids(`parentId=${parent.id}`)).toEqual(sorted(commented));
    expect(await ids(`labelId=${label.id}`)).toEqual(sorted(commented));
    expect(await ids(`executionWorkspaceId=${ws9}`)).toEqual(sorted(commented));
    expect(await ids("")).toEqual(sorted(parent, assigned, created, commented));
    expect(await ids("includeRoutineExecutions=true")).toEqual(sorted(parent, assigned, created, commented, routine));
    expect(await ids("originKind=routine_execution")).toEqual(sorted(routine));
    expect(await ids("originId=r-1")).toEqual(sorted(routine));
    expect((await get(`/api/companies/${company.id}/issues?status=weird`)).status).toBe(400);
  });

  it("user filters with `me` (board only), read and inbox-archive marks", async () => {
    const company = await createCompany();
    const user = await boardUser(company.id, "member");
    const agent = await agentWithKey(company.id);
    const mine = await issue(company.id, {}, { token: user.token });
    const assignedToMe = await issue(company.id, { assigneeUserId: user.id });
    const untouched = await issue(company.id);
    const asUser = { token: user.token };
    const ids = async (qs: string, o = asUser) => (await get(`/api/companies/${company.id}/issues?${qs}`, o)).body.map((i: any) => i.id).sort();
    const sorted = (...xs: any[]) => xs.map((x) => x.id).sort();
    expect(await ids("assigneeUserId=me")).toEqual(sorted(assignedToMe));
    expect(await ids(`assigneeUserId=${user.id}`, {} as any)).toEqual(sorted(assignedToMe));
    expect(await ids("touchedByUserId=me")).toEqual(sorted(mine, assignedToMe));
    expect(await ids("unreadForUserId=me")).toEqual([]);
    await post(`/api/issues/${mine.id}/comments`, { body: "from agent" }, { token: agent.token });
    expect(await ids("unreadForUserId=me")).toEqual(sorted(mine));
    const read = await post(`/api/issues/${mine.id}/read`, undefined, asUser);
    expect(read.status).toBe(200);
    expect(read.body.lastReadAt).toBeTruthy();
    expect(await ids("unreadForUserId=me")).toEqual([]);
    await post(`/api/issues/${untouched.id}/read`, undefined, asUser);
    expect(await ids("touchedByUserId=me")).toEqual(sorted(mine, assignedToMe, untouched));
    expect((await post(`/api/issues/${mine.id}/inbox-archive`, undefined, asUser)).body.inboxArchivedAt).toBeTruthy();
    expect(await ids("inboxArchivedByUserId=me")).toEqual(sorted(mine));
    expect((await del(`/api/issues/${mine.id}/inbox-archive`, asUser)).body.inboxArchivedAt).toBeNull();
    expect(await ids("inboxArchivedByUserId=me")).toEqual([]);
    // agents cannot use `me` nor the personal marks
    for (const f of ["assigneeUserId", "touchedByUserId", "inboxArchivedByUserId", "unreadForUserId"]) {
      expect((await get(`/api/companies/${company.id}/issues?${f}=me`, { token: agent.token })).status).toBe(400);
    }
    expect((await post(`/api/issues/${mine.id}/read`, undefined, { token: agent.token })).status).toBe(403);
    expect((await post(`/api/issues/${mine.id}/read`, undefined, BOGUS)).status).toBe(401);
    expect((await post(`/api/issues/${crypto.randomUUID()}/inbox-archive`)).status).toBe(404);
  });

  it("q ranks title prefix > title > identifier prefix > identifier > comment > description", async () => {
    const company = await createCompany();
    const desc = await issue(company.id, { title: "Alpha", description: "mentions zebra here", priority: "critical" });
    const comment = await issue(company.id, { title: "Beta", priority: "critical" });
    await post(`/api/issues/${comment.id}/comments`, { body: "a ZEBRA walked by" });
    const contains = await issue(company.id, { title: "The zebra crossing", priority: "low" });
    const starts = await issue(company.id, { title: "Zebra stripes", priority: "low" });
    const startsHigh = await issue(company.id, { title: "zebra high", priority: "high" });
    await issue(company.id, { title: "Unrelated" });
    const res = await get(`/api/companies/${company.id}/issues?q=zebra`);
    expect(res.body.map((i: any) => i.id)).toEqual([startsHigh.id, starts.id, contains.id, comment.id, desc.id]);
    const byIdentifier = await get(`/api/companies/${company.id}/issues?q=${encodeURIComponent(`${company.issuePrefix}-1`)}`);
    expect(byIdentifier.body[0].id).toBe(desc.id);
    expect((await get(`/api/companies/${company.id}/issues?q=${encodeURIComponent("%")}`)).body).toHaveLength(0);
  });

  it("limit: positive integer, capped at 500", async () => {
    const company = await createCompany();
    for (let n = 0; n < 3; n++) await issue(company.id);
    expect((await get(`/api/companies/${company.id}/issues?limit=2`)).body).toHaveLength(2);
    expect((await get(`/api/companies/${company.id}/issues?limit=100000`)).body).toHaveLength(3);
    for (const bad of ["0", "-1", "abc", "1.5"]) {
      const res = await get(`/api/companies/${company.id}/issues?limit=${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it("401, 403 and 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const stranger = await boardUser(other.id);
    expect((await get(`/api/companies/${company.id}/issues`, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${company.id}/issues`, { token: stranger.token })).status).toBe(403);
    expect((await get(`/api/companies/${crypto.randomUUID()}/issues`)).status).toBe(404);
  });
});

describe("labels", () => {
  it("create and list; names unique per company regardless of case", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const a = await post(`/api/companies/${company.id}/labels`, { name: "Frontend" });
    expect(a.status).toBe(201);
    expect((await post(`/api/companies/${company.id}/labels`, { name: "frontend" })).status).toBe(409);
    expect((await post(`/api/companies/${company.id}/labels`, { name: "" })).status).toBe(400);
    expect((await post(`/api/companies/${company.id}/labels`, { name: "x", color: "red" })).status).toBe(400);
    expect((await post(`/api/companies/${other.id}/labels`, { name: "Frontend" })).status).toBe(201);
    const list = await get(`/api/companies/${company.id}/labels`);
    expect(list.body.map((l: any) => l.name)).toEqual(["Frontend"]);
    const stranger = await boardUser(other.id);
    expect((await get(`/api/companies/${company.id}/labels`, { token: stranger.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/labels`, { name: "y" }, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}/labels`)).status).toBe(404);
    // another company's label cannot be attached
    const foreignLabel = (await get(`/api/companies/${other.id}/labels`)).body[0];
    expect((await post(`/api/companies/${company.id}/issues`, { title: "x", labelIds: [foreignLabel.id] })).status).toBe(422);
  });
});

describe("OpenAPI", () => {
  it("documents every issue route", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const expected: Record<string, string[]> = {
      "/api/companies/{companyId}/issues": ["get", "post"],
      "/api/issues/{issueId}": ["get", "patch"],
      "/api/issues/{issueId}/checkout": ["post"],
      "/api/issues/{issueId}/release": ["post"],
      "/api/issues/{issueId}/comments": ["get", "post"],
      "/api/issues/{issueId}/comments/{commentId}": ["get"],
      "/api/issues/{issueId}/activity": ["get"],
      "/api/issues/{issueId}/runs": ["get"],
      "/api/issues/{issueId}/heartbeat-context": ["get"],
      "/api/heartbeat-runs/{runId}/issues": ["get"],
      "/api/agents/me/inbox-lite": ["get"],
      "/api/companies/{companyId}/labels": ["get", "post"],
      "/api/issues/{issueId}/read": ["post"],
      "/api/issues/{issueId}/inbox-archive": ["post", "delete"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const method of methods) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeTruthy();
    }
    expect(Object.keys(doc.paths["/api/issues/{issueId}/checkout"].post.responses).sort()).toEqual(["200", "400", "401", "403", "404", "409"]);
  });
});

describe("empty PATCH bodies", () => {
  it("are refused with 400 and change nothing", async () => {
    const company = await createCompany();
    const created = (await post(`/api/companies/${company.id}/issues`, { title: "Unchanged" })).body;
    const res = await call("PATCH", `/api/issues/${created.id}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/at least one field/);
    expect((await patch(`/api/issues/${created.id}`, {})).status).toBe(400);
    expect((await get(`/api/issues/${created.id}`)).body.updatedAt).toBe(created.updatedAt);
  });
});
