// Routines through the HTTP surface: CRUD with templates and variables, agent access, triggers
// (schedule, webhook, api), manual/API runs with the concurrency policies, public webhook fires in
// every signing mode, run history, and runs following their execution issue.
import { describe, expect, it } from "vitest";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { AUTHENTICATED, call, del, get, patch, post, roundTrips, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertProject, schema, testDb, updateRow } from "../helpers/fixtures";
import { eq } from "drizzle-orm";

async function setup(routine: Record<string, unknown> = {}) {
  const company = await createCompany();
  const agent = await insertAgent(company.id, { name: unique("Worker") });
  const key = await insertAgentKey(agent.id, company.id);
  const res = await post(`/api/companies/${company.id}/routines`, { title: "Daily report", assigneeAgentId: agent.id, ...routine });
  if (res.status !== 201) throw new Error(`routine create failed: ${res.status} ${res.text}`);
  return { company, agent: { ...agent, token: key.token }, routine: res.body as { id: string; [k: string]: any } };
}

const sign = (secret: string, message: string) => bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(message)));

async function webhook(routineId: string, trigger: Record<string, unknown> = {}) {
  const res = await post(`/api/routines/${routineId}/triggers`, { kind: "webhook", ...trigger });
  expect(res.status).toBe(201);
  const path = new URL(res.body.webhookUrl).pathname;
  return { ...res.body, path } as { id: string; path: string; webhookSecret: string; webhookUrl: string; [k: string]: any };
}

const fire = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call("POST", path, { rawBody: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });

const runsOf = async (routineId: string) => (await get(`/api/routines/${routineId}/runs?limit=200`)).body as any[];

describe("routine CRUD", () => {
  it("creates with defaults, lists newest updates first with triggers, latest run and active issue, and shows the detail", async () => {
    const { company, agent, routine } = await setup({ description: "For {{team}}", variables: [{ name: "team", required: false, defaultValue: "core" }] });
    expect(routine).toMatchObject({
      companyId: company.id,
      assigneeAgentId: agent.id,
      status: "active",
      priority: "medium",
      concurrencyPolicy: "coalesce_if_active",
      catchUpPolicy: "skip_missed",
      variables: [{ name: "team", type: "text", required: false, defaultValue: "core", label: null }],
    });
    const second = await post(`/api/companies/${company.id}/routines`, { title: "Second", assigneeAgentId: agent.id });
    await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression: "0 9 * * *", timezone: "Europe/Berlin" });
    const run = await post(`/api/routines/${routine.id}/run`, {});
    expect(run.status).toBe(202);

    const list = await get(`/api/companies/${company.id}/routines`);
    expect(list.status).toBe(200);
    expect(list.body.map((r: any) => r.id)).toEqual([routine.id, second.body.id]);
    expect(list.body[0].triggers).toEqual([
      expect.objectContaining({ kind: "schedule", cronExpression: "0 9 * * *", timezone: "Europe/Berlin", enabled: true }),
    ]);
    expect(list.body[0].latestRun).toMatchObject({ id: run.body.id, status: "issue_created" });
    expect(list.body[0].activeExecutionIssue).toMatchObject({ id: run.body.linkedIssueId, title: "Daily report", status: "todo" });
    expect(list.body[1]).toMatchObject({ triggers: [], latestRun: null, activeExecutionIssue: null });

    const detail = await get(`/api/routines/${routine.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: routine.id,
      assignee: { id: agent.id, name: agent.name, status: "idle" },
      project: null,
      parentIssue: null,
      triggers: [expect.objectContaining({ kind: "schedule" })],
      recentRuns: [expect.objectContaining({ id: run.body.id })],
      activeExecutionIssue: expect.objectContaining({ id: run.body.linkedIssueId }),
    });
    const issue = await get(`/api/issues/${run.body.linkedIssueId}`);
    expect(issue.body).toMatchObject({ description: "For core", originKind: "routine_execution", originId: routine.id, assigneeAgentId: agent.id });
  });

  it("refuses bad input with 400/422 and changes nothing", async () => {
    const { company, agent } = await setup();
    const other = await createCompany();
    const otherAgent = await insertAgent(other.id);
    const project = await insertProject(other.id);
    const before = (await get(`/api/companies/${company.id}/routines`)).body.length;
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ title: "No assignee" }, 400, /assigneeAgentId/],
      [{ title: "", assigneeAgentId: agent.id }, 400, /title/],
      [{ title: "Hi {{who}}", assigneeAgentId: agent.id }, 400, /undeclared variables: who/],
      [{ title: "x", assigneeAgentId: agent.id, variables: [{ name: "a" }, { name: "a" }] }, 400, /declared twice/],
      [{ title: "x", assigneeAgentId: agent.id, variables: [{ name: "n", type: "number", defaultValue: "abc" }] }, 400, /must be a number/],
      [{ title: "x", assigneeAgentId: agent.id, variables: [{ name: "bad name" }] }, 400, /variable name/],
      [{ title: "x", assigneeAgentId: agent.id, concurrencyPolicy: "sometimes" }, 400, /concurrencyPolicy/],
      [{ title: "x", assigneeAgentId: otherAgent.id }, 422, /agent of this company/],
      [{ title: "x", assigneeAgentId: agent.id, projectId: project.id }, 422, /project of this company/],
      [{ title: "x", assigneeAgentId: agent.id, goalId: crypto.randomUUID() }, 422, /goal of this company/],
      [{ title: "x", assigneeAgentId: agent.id, parentIssueId: crypto.randomUUID() }, 422, /issue of this company/],
      [{ title: "x", assigneeAgentId: agent.id, surprise: true }, 400, /surprise|Unrecognized/i],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(`/api/companies/${company.id}/routines`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error + JSON.stringify(res.body.details ?? "")).toMatch(message);
    }
    const terminated = await insertAgent(company.id, { status: "terminated" });
    const refused = await post(`/api/companies/${company.id}/routines`, { title: "x", assigneeAgentId: terminated.id });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/invokable/);
    expect((await get(`/api/companies/${company.id}/routines`)).body.length).toBe(before);
  });

  it("PATCH updates fields; clearing the assignee pauses an active routine; activating without one is refused", async () => {
    const { routine } = await setup();
    const renamed = await patch(`/api/routines/${routine.id}`, {
      title: "Weekly {{day}}",
      variables: [{ name: "day", defaultValue: "Monday" }],
      priority: "high",
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: "Weekly {{day}}", priority: "high", status: "active" });
    expect(renamed.body.updatedAt >= routine.updatedAt).toBe(true);
    const undeclared = await patch(`/api/routines/${routine.id}`, { variables: [] });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error).toMatch(/undeclared variables: day/);
    const cleared = await patch(`/api/routines/${routine.id}`, { assigneeAgentId: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ assigneeAgentId: null, status: "paused" });
    const activate = await patch(`/api/routines/${routine.id}`, { status: "active" });
    expect(activate.status).toBe(422);
    expect(activate.body.error).toMatch(/needs an assignee/);
    expect((await patch(`/api/routines/${routine.id}`, {})).status).toBe(400);
    expect((await patch(`/api/routines/${crypto.randomUUID()}`, { title: "x" })).status).toBe(404);
  });

  it("a routine whose assignee was terminated is paused at its next fire and the run fails", async () => {
    const { agent, routine } = await setup();
    await updateRow(schema.agents, agent.id, { status: "terminated" });
    const run = await post(`/api/routines/${routine.id}/run`, {});
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ status: "failed", failureReason: "agent.not_invokable", linkedIssueId: null });
    expect((await get(`/api/routines/${routine.id}`)).body.status).toBe("paused");
  });
});

describe("assignee lifecycle", () => {
  it("terminating the assignee pauses its active routines and stops their schedules; deleting it also clears the assignee", async () => {
    const { company, agent, routine } = await setup();
    await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression: "0 * * * *" });
    const terminated = await post(`/api/agents/${agent.id}/terminate`, {});
    expect(terminated.status).toBe(200);
    const detail = (await get(`/api/routines/${routine.id}`)).body;
    expect(detail).toMatchObject({ status: "paused", assigneeAgentId: agent.id });
    expect(detail.triggers[0].nextRunAt).toBeNull();

    const other = await insertAgent(company.id);
    const second = await post(`/api/companies/${company.id}/routines`, { title: "Second", assigneeAgentId: other.id });
    expect((await del(`/api/agents/${other.id}`)).status).toBe(200);
    expect((await get(`/api/routines/${second.body.id}`)).body).toMatchObject({ status: "paused", assigneeAgentId: null });
  });
});

describe("agent access and other companies", () => {
  it("agents read routines of their company and change only their own; they cannot reassign to another agent", async () => {
    const { company, agent, routine } = await setup();
    const peer = await insertAgent(company.id);
    const peerKey = await insertAgentKey(peer.id, company.id);
    const token = agent.token;

    expect((await get(`/api/companies/${company.id}/routines`, { token: peerKey.token })).status).toBe(200);
    expect((await get(`/api/routines/${routine.id}`, { token: peerKey.token })).status).toBe(200);

    // Creating: only for itself.
    expect((await post(`/api/companies/${company.id}/routines`, { title: "Mine", assigneeAgentId: agent.id }, { token })).status).toBe(201);
    const forPeer = await post(`/api/companies/${company.id}/routines`, { title: "Theirs", assigneeAgentId: peer.id }, { token });
    expect(forPeer.status).toBe(403);

    // Updating, triggers and runs of someone else's routine: 403.
    expect((await patch(`/api/routines/${routine.id}`, { title: "Hijack" }, { token: peerKey.token })).status).toBe(403);
    expect((await post(`/api/routines/${routine.id}/triggers`, { kind: "api" }, { token: peerKey.token })).status).toBe(403);
    expect((await post(`/api/routines/${routine.id}/run`, {}, { token: peerKey.token })).status).toBe(403);

    // Own routine: allowed, but never reassigned to another agent.
    expect((await patch(`/api/routines/${routine.id}`, { title: "Mine now" }, { token })).status).toBe(200);
    const reassign = await patch(`/api/routines/${routine.id}`, { assigneeAgentId: peer.id }, { token });
    expect(reassign.status).toBe(403);
    const trigger = await post(`/api/routines/${routine.id}/triggers`, { kind: "webhook" }, { token });
    expect(trigger.status).toBe(201);
    expect((await patch(`/api/routine-triggers/${trigger.body.id}`, { label: "peer" }, { token: peerKey.token })).status).toBe(403);
    expect((await post(`/api/routine-triggers/${trigger.body.id}/rotate-secret`, {}, { token: peerKey.token })).status).toBe(403);
    expect((await del(`/api/routine-triggers/${trigger.body.id}`, { token: peerKey.token })).status).toBe(403);
    expect((await post(`/api/routine-triggers/${trigger.body.id}/rotate-secret`, {}, { token })).status).toBe(200);
    const own = await post(`/api/routines/${routine.id}/run`, { assigneeAgentId: peer.id }, { token });
    expect(own.status).toBe(403);
    expect((await post(`/api/routines/${routine.id}/run`, {}, { token })).status).toBe(202);
    expect((await get(`/api/routines/${routine.id}`)).body.title).toBe("Mine now");
  });

  it("board members need tasks:assign to assign routines; viewers are refused", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const viewer = await boardUser(company.id, "viewer");
    const owner = await boardUser(company.id, "owner");
    const body = { title: "Board routine", assigneeAgentId: agent.id };
    const refused = await post(`/api/companies/${company.id}/routines`, body, { token: viewer.token, env: AUTHENTICATED });
    expect(refused.status).toBe(403);
    expect(refused.body.details?.reason).toMatch(/deny_/);
    const created = await post(`/api/companies/${company.id}/routines`, body, { token: owner.token, env: AUTHENTICATED });
    expect(created.status).toBe(201);
    // Running it for another assignee is an assignment too.
    const other = await insertAgent(company.id);
    const overridden = await post(`/api/routines/${created.body.id}/run`, { assigneeAgentId: other.id }, { token: viewer.token, env: AUTHENTICATED });
    expect(overridden.status).toBe(403);
    expect((await post(`/api/routines/${created.body.id}/run`, { assigneeAgentId: other.id }, { token: owner.token, env: AUTHENTICATED })).status).toBe(202);
  });

  it("another company's callers are refused on every routine route", async () => {
    const { company, routine } = await setup();
    const trigger = await post(`/api/routines/${routine.id}/triggers`, { kind: "api" });
    const other = await createCompany();
    const stranger = await insertAgent(other.id);
    const strangerKey = await insertAgentKey(stranger.id, other.id);
    const outsider = await boardUser(other.id, "owner");
    const agentAuth = { token: strangerKey.token };
    const boardAuth = { token: outsider.token, env: AUTHENTICATED };
    for (const auth of [agentAuth, boardAuth]) {
      expect((await get(`/api/companies/${company.id}/routines`, auth)).status).toBe(403);
      expect((await post(`/api/companies/${company.id}/routines`, { title: "x", assigneeAgentId: stranger.id }, auth)).status).toBe(403);
      expect((await get(`/api/routines/${routine.id}`, auth)).status).toBe(404);
      expect((await patch(`/api/routines/${routine.id}`, { title: "x" }, auth)).status).toBe(404);
      // Ids in the body are not checked before access: nothing about company A leaks.
      expect((await patch(`/api/routines/${routine.id}`, { projectId: crypto.randomUUID() }, auth)).status).toBe(404);
      expect((await post(`/api/routines/${routine.id}/run`, { projectId: crypto.randomUUID() }, auth)).status).toBe(404);
      expect((await post(`/api/routines/${routine.id}/triggers`, { kind: "api" }, auth)).status).toBe(404);
      expect((await patch(`/api/routine-triggers/${trigger.body.id}`, { label: "x" }, auth)).status).toBe(404);
      expect((await post(`/api/routine-triggers/${trigger.body.id}/rotate-secret`, {}, auth)).status).toBe(404);
      expect((await del(`/api/routine-triggers/${trigger.body.id}`, auth)).status).toBe(404);
      expect((await post(`/api/routines/${routine.id}/run`, {}, auth)).status).toBe(404);
      expect((await get(`/api/routines/${routine.id}/runs`, auth)).status).toBe(404);
    }
    expect((await get(`/api/companies/${company.id}/routines`, { env: AUTHENTICATED })).status).toBe(401);
    expect((await post(`/api/routines/${routine.id}/run`, {}, { env: AUTHENTICATED })).status).toBe(401);
    expect((await get(`/api/routines/${routine.id}`)).body.title).toBe("Daily report");
    expect(await runsOf(routine.id)).toEqual([]);
  });
});

describe("routine-made issues", () => {
  it("variables that make the text longer than an issue allows are cut to the issue limits (so the issue exports and imports)", async () => {
    const { routine } = await setup({
      title: "Report {{topic}}",
      description: "{{body}}{{body}}{{body}}{{body}}{{body}}{{body}}{{body}}{{body}}{{body}}{{body}}{{body}}",
      variables: [{ name: "topic" }, { name: "body" }],
    });
    const run = await post(`/api/routines/${routine.id}/run`, { variables: { topic: "t".repeat(2000), body: "b".repeat(10_000) } });
    expect(run.status).toBe(202);
    const issue = (await get(`/api/issues/${run.body.linkedIssueId}`)).body;
    expect(issue.title).toBe(`Report ${"t".repeat(493)}`);
    expect(issue.description).toHaveLength(100_000);
  });
});

describe("triggers", () => {
  it("schedule: validates cron and time zone, computes nextRunAt in the zone, recomputes on PATCH, and stops while the routine is paused", async () => {
    const { routine } = await setup();
    const bad = await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression: "61 * * * *" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Invalid cron expression "61 \* \* \* \*"/);
    const badZone = await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression: "0 9 * * *", timezone: "Mars/Olympus" });
    expect(badZone.status).toBe(400);
    expect(badZone.body.error).toMatch(/Unknown time zone "Mars\/Olympus"/);
    expect((await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule" })).status).toBe(400);
    expect((await post(`/api/routines/${routine.id}/triggers`, { kind: "cron", cronExpression: "* * * * *" })).status).toBe(400);

    const created = await post(`/api/routines/${routine.id}/triggers`, {
      kind: "schedule",
      cronExpression: "30 9 * * *",
      timezone: "Asia/Kolkata",
      label: "morning",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: "schedule", enabled: true, timezone: "Asia/Kolkata", label: "morning" });
    expect(created.body.webhookSecret).toBeUndefined();
    // 09:30 in Kolkata is 04:00 UTC.
    expect(created.body.nextRunAt).toMatch(/T04:00:00\.000Z$/);
    expect(Date.parse(created.body.nextRunAt)).toBeGreaterThan(Date.now());

    const moved = await patch(`/api/routine-triggers/${created.body.id}`, { timezone: "America/New_York", cronExpression: "0 12 * * *" });
    expect(moved.status).toBe(200);
    expect(moved.body.nextRunAt).toMatch(/T1[67]:00:00\.000Z$/);
    expect((await patch(`/api/routine-triggers/${created.body.id}`, { cronExpression: "nope" })).status).toBe(400);
    // Five fields only: a seconds or years field is refused on create and on PATCH, nothing stored.
    for (const cronExpression of ["0 0 9 * * *", "0 0 9 1 1 * 2030"]) {
      const created6 = await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression });
      expect(created6.status).toBe(400);
      expect(JSON.stringify(created6.body)).toContain("cronExpression");
      const patched6 = await patch(`/api/routine-triggers/${created.body.id}`, { cronExpression });
      expect(patched6.status).toBe(400);
      expect(JSON.stringify(patched6.body)).toContain("cronExpression");
    }
    expect((await get(`/api/routines/${routine.id}`)).body.triggers.map((t: any) => t.cronExpression)).toEqual(["0 12 * * *"]);
    expect((await patch(`/api/routine-triggers/${created.body.id}`, { cronExpression: "*/15 9-17 * JAN-MAR mon,wed" })).status).toBe(200);
    expect((await patch(`/api/routine-triggers/${created.body.id}`, { cronExpression: "0 12 * * *" })).status).toBe(200);
    expect((await patch(`/api/routine-triggers/${created.body.id}`, { signingMode: "none" })).status).toBe(422);
    expect((await patch(`/api/routine-triggers/${created.body.id}`, {})).status).toBe(400);

    const disabled = await patch(`/api/routine-triggers/${created.body.id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, nextRunAt: null });
    const enabled = await patch(`/api/routine-triggers/${created.body.id}`, { enabled: true });
    expect(enabled.body.nextRunAt).not.toBeNull();
    await patch(`/api/routines/${routine.id}`, { status: "paused" });
    expect((await get(`/api/routines/${routine.id}`)).body.triggers[0].nextRunAt).toBeNull();
    await patch(`/api/routines/${routine.id}`, { status: "active" });
    expect((await get(`/api/routines/${routine.id}`)).body.triggers[0].nextRunAt).not.toBeNull();
  });

  it("a schedule cannot be enabled while required variables lack defaults", async () => {
    const { routine } = await setup({ title: "Report for {{client}}", variables: [{ name: "client", required: true }] });
    const refused = await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression: "0 * * * *" });
    expect(refused.status).toBe(422);
    expect(refused.body.details.variablesWithoutDefault).toEqual(["client"]);
    const off = await post(`/api/routines/${routine.id}/triggers`, { kind: "schedule", cronExpression: "0 * * * *", enabled: false });
    expect(off.status).toBe(201);
    expect((await patch(`/api/routine-triggers/${off.body.id}`, { enabled: true })).status).toBe(422);
    await patch(`/api/routines/${routine.id}`, { variables: [{ name: "client", required: true, defaultValue: "ACME" }] });
    expect((await patch(`/api/routine-triggers/${off.body.id}`, { enabled: true })).status).toBe(200);
    // Taking the default away again while the schedule is enabled is refused.
    const removeDefault = await patch(`/api/routines/${routine.id}`, { variables: [{ name: "client", required: true }] });
    expect(removeDefault.status).toBe(422);
  });

  it("webhook: defaults, replay window bounds, secret returned once, rotate keeps the URL, delete is permanent", async () => {
    const { routine } = await setup();
    for (const replayWindowSec of [29, 86_401, 1.5]) {
      expect((await post(`/api/routines/${routine.id}/triggers`, { kind: "webhook", replayWindowSec })).status).toBe(400);
    }
    expect((await post(`/api/routines/${routine.id}/triggers`, { kind: "webhook", signingMode: "md5" })).status).toBe(400);
    const hook = await webhook(routine.id);
    expect(hook).toMatchObject({ kind: "webhook", signingMode: "bearer", replayWindowSec: 300, enabled: true });
    expect(hook.webhookSecret).toMatch(/^whsec_/);
    expect(hook.webhookUrl).toMatch(/\/api\/routine-triggers\/public\/[A-Za-z0-9_-]{32}\/fire$/);

    const detail = JSON.stringify((await get(`/api/routines/${routine.id}`)).body);
    expect(detail).not.toContain(hook.webhookSecret);
    expect(detail).not.toContain(hook.path.split("/")[4]);
    const activity = JSON.stringify((await get(`/api/companies/${routine.companyId}/activity`)).body);
    expect(activity).not.toContain(hook.webhookSecret);
    expect(activity).toContain("routine.trigger_created");

    const rotated = await post(`/api/routine-triggers/${hook.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookUrl).toBe(hook.webhookUrl);
    expect(rotated.body.webhookSecret).not.toBe(hook.webhookSecret);
    const api = await post(`/api/routines/${routine.id}/triggers`, { kind: "api" });
    expect((await post(`/api/routine-triggers/${api.body.id}/rotate-secret`, {})).status).toBe(422);

    expect((await del(`/api/routine-triggers/${hook.id}`)).status).toBe(200);
    expect((await del(`/api/routine-triggers/${hook.id}`)).status).toBe(404);
    expect((await fire(hook.path, {}, { authorization: `Bearer ${rotated.body.webhookSecret}` })).status).toBe(404);
    expect((await get(`/api/routines/${routine.id}`)).body.triggers.map((t: any) => t.id)).toEqual([api.body.id]);
  });
});

describe("manual and API runs", () => {
  it("renders variables, validates overrides and trigger, and the same idempotency key returns the first run", async () => {
    const { company, agent, routine } = await setup({
      title: "Review {{repo}} ({{count}})",
      description: "urgent={{urgent}}",
      variables: [
        { name: "repo", required: true },
        { name: "count", type: "number", defaultValue: 3 },
        { name: "urgent", type: "boolean" },
      ],
      concurrencyPolicy: "always_enqueue",
    });
    const missing = await post(`/api/routines/${routine.id}/run`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/Missing required variables: repo/);
    expect((await post(`/api/routines/${routine.id}/run`, { variables: { repo: "x", nope: 1 } })).status).toBe(400);
    expect((await post(`/api/routines/${routine.id}/run`, { variables: { repo: "x", count: "many" } })).status).toBe(400);
    expect((await post(`/api/routines/${routine.id}/run`, { source: "cron" })).status).toBe(400);

    const run = await post(`/api/routines/${routine.id}/run`, { variables: { repo: "api", urgent: true }, payload: { from: "test" }, idempotencyKey: "k1" });
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ status: "issue_created", source: "manual", triggerPayload: { from: "test" }, idempotencyKey: "k1" });
    const issue = (await get(`/api/issues/${run.body.linkedIssueId}`)).body;
    expect(issue).toMatchObject({ title: "Review api (3)", description: "urgent=true", assigneeAgentId: agent.id, status: "todo" });
    const again = await post(`/api/routines/${routine.id}/run`, { variables: { repo: "other" }, idempotencyKey: "k1" });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(run.body.id);

    // The agent was woken about the execution issue.
    const wakeups = await testDb().select().from(schema.agentWakeupRequests).where(eq(schema.agentWakeupRequests.agentId, agent.id));
    expect(wakeups).toEqual([expect.objectContaining({ reason: "routine", source: "routine", issueId: run.body.linkedIssueId, status: "queued" })]);

    const other = await createCompany();
    const foreignProject = await insertProject(other.id);
    expect((await post(`/api/routines/${routine.id}/run`, { variables: { repo: "x" }, projectId: foreignProject.id })).status).toBe(422);
    const foreignAgent = await insertAgent(other.id);
    const foreignAssignee = await post(`/api/routines/${routine.id}/run`, { variables: { repo: "x" }, assigneeAgentId: foreignAgent.id });
    expect(foreignAssignee.status).toBe(403);
    expect(foreignAssignee.body.details.reason).toBe("deny_company_boundary");

    const apiTrigger = await post(`/api/routines/${routine.id}/triggers`, { kind: "api" });
    const viaApi = await post(`/api/routines/${routine.id}/run`, { source: "api", triggerId: apiTrigger.body.id, variables: { repo: "y" } });
    expect(viaApi.body).toMatchObject({ source: "api", triggerId: apiTrigger.body.id, status: "issue_created" });
    await patch(`/api/routine-triggers/${apiTrigger.body.id}`, { enabled: false });
    expect((await post(`/api/routines/${routine.id}/run`, { source: "api", triggerId: apiTrigger.body.id, variables: { repo: "y" } })).status).toBe(409);
    const otherRoutine = await post(`/api/companies/${company.id}/routines`, { title: "Other", assigneeAgentId: agent.id });
    const foreignTrigger = await post(`/api/routines/${otherRoutine.body.id}/triggers`, { kind: "api" });
    expect((await post(`/api/routines/${routine.id}/run`, { triggerId: foreignTrigger.body.id, variables: { repo: "y" } })).status).toBe(422);
    expect((await runsOf(routine.id)).length).toBe(2);
  });

  it("coalesce_if_active links to the live execution issue; skip_if_active skips; a paused project skips with `paused`", async () => {
    const { company, agent, routine } = await setup();
    const first = await post(`/api/routines/${routine.id}/run`, {});
    const second = await post(`/api/routines/${routine.id}/run`, {});
    expect(second.body).toMatchObject({ status: "coalesced", linkedIssueId: first.body.linkedIssueId, coalescedIntoRunId: first.body.id });

    const skipper = await post(`/api/companies/${company.id}/routines`, { title: "Skip", assigneeAgentId: agent.id, concurrencyPolicy: "skip_if_active" });
    const a = await post(`/api/routines/${skipper.body.id}/run`, {});
    const b = await post(`/api/routines/${skipper.body.id}/run`, {});
    expect(a.body.status).toBe("issue_created");
    expect(b.body).toMatchObject({ status: "skipped", linkedIssueId: a.body.linkedIssueId });

    const project = await insertProject(company.id, unique("P"), { pausedAt: new Date().toISOString(), pauseReason: "manual" });
    const paused = await post(`/api/companies/${company.id}/routines`, { title: "Paused project", assigneeAgentId: agent.id, projectId: project.id });
    const skipped = await post(`/api/routines/${paused.body.id}/run`, {});
    expect(skipped.body).toMatchObject({ status: "skipped", failureReason: "paused", linkedIssueId: null });
  });

  it("run status follows the execution issue: done → completed (also the coalesced run), cancelled → failed", async () => {
    const { routine } = await setup();
    const first = await post(`/api/routines/${routine.id}/run`, {});
    const coalesced = await post(`/api/routines/${routine.id}/run`, {});
    expect((await patch(`/api/issues/${first.body.linkedIssueId}`, { status: "done" })).status).toBe(200);
    const runs = await runsOf(routine.id);
    expect(runs.map((r) => [r.id, r.status])).toEqual([
      [coalesced.body.id, "completed"],
      [first.body.id, "completed"],
    ]);
    expect(runs[0].completedAt).not.toBeNull();
    const next = await post(`/api/routines/${routine.id}/run`, {});
    expect(next.body.status).toBe("issue_created");
    await patch(`/api/issues/${next.body.linkedIssueId}`, { status: "cancelled" });
    expect((await runsOf(routine.id))[0]).toMatchObject({ id: next.body.id, status: "failed", failureReason: "issue_cancelled" });
  });

  it("GET runs: newest first, limit default 50 and at most 200", async () => {
    const { routine } = await setup({ concurrencyPolicy: "skip_if_active" });
    for (let i = 0; i < 3; i++) await post(`/api/routines/${routine.id}/run`, {});
    const list = await get(`/api/routines/${routine.id}/runs?limit=2`);
    expect(list.status).toBe(200);
    expect(list.body.map((r: any) => r.status)).toEqual(["skipped", "skipped"]);
    expect((await get(`/api/routines/${routine.id}/runs`)).body.length).toBe(3);
    for (const limit of ["0", "201", "-1", "abc"]) expect((await get(`/api/routines/${routine.id}/runs?limit=${limit}`)).status).toBe(400);
    expect((await get(`/api/routines/${crypto.randomUUID()}/runs`)).status).toBe(404);
  });
});

describe("public webhook fire", () => {
  it("bearer: valid fires (202, payload kept, Idempotency-Key dedupes); wrong or missing secret 401; old secret fails after rotation", async () => {
    const { routine } = await setup({ concurrencyPolicy: "always_enqueue" });
    const hook = await webhook(routine.id);
    const auth = { authorization: `Bearer ${hook.webhookSecret}` };
    const ok = await fire(hook.path, { event: "push" }, { ...auth, "idempotency-key": "delivery-1" });
    expect(ok.status).toBe(202);
    expect(ok.body).toMatchObject({ source: "webhook", triggerId: hook.id, status: "issue_created", triggerPayload: { event: "push" } });
    expect((await fire(hook.path, { event: "push" }, { ...auth, "idempotency-key": "delivery-1" })).body.id).toBe(ok.body.id);
    expect((await fire(hook.path, {}, { authorization: "Bearer whsec_wrong" })).status).toBe(401);
    expect((await fire(hook.path, {}, {})).status).toBe(401);
    expect((await fire(hook.path.replace(/public\/[^/]+/, "public/unknown-id"), {}, auth)).status).toBe(404);

    const rotated = await post(`/api/routine-triggers/${hook.id}/rotate-secret`, {});
    const old = await fire(hook.path, {}, auth);
    expect(old.status).toBe(401);
    expect((await fire(hook.path, { n: 2 }, { authorization: `Bearer ${rotated.body.webhookSecret}` })).status).toBe(202);
    expect((await runsOf(routine.id)).length).toBe(2);
  });

  it("an API key in Authorization is not mistaken for a caller: the route checks only the trigger's secret", async () => {
    const { agent, routine } = await setup();
    const hook = await webhook(routine.id);
    const res = await fire(hook.path, {}, { authorization: `Bearer ${agent.token}` });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Invalid webhook secret");
    // Authenticated deployments answer the same (no 401 from actor resolution first).
    const secured = await call("POST", hook.path, {
      rawBody: "{}",
      headers: { authorization: `Bearer ${hook.webhookSecret}`, "content-type": "application/json" },
      env: AUTHENTICATED,
    });
    expect(secured.status).toBe(202);
  });

  it("hmac_sha256: X-Service-Signature or X-Hub-Signature-256 (sha256= prefix) over the raw body", async () => {
    const { routine } = await setup({ concurrencyPolicy: "always_enqueue" });
    const hook = await webhook(routine.id, { signingMode: "hmac_sha256" });
    const body = JSON.stringify({ ref: "main" });
    expect((await fire(hook.path, body, { "x-service-signature": sign(hook.webhookSecret, body) })).status).toBe(202);
    expect((await fire(hook.path, body, { "x-hub-signature-256": `sha256=${sign(hook.webhookSecret, body)}` })).status).toBe(202);
    // Over the exact bytes: a leading byte-order mark is part of what was signed.
    const withBom = "\uFEFF" + body;
    expect((await fire(hook.path, withBom, { "x-service-signature": sign(hook.webhookSecret, withBom) })).status).toBe(202);
    expect((await fire(hook.path, body, { "x-service-signature": sign(hook.webhookSecret, body + " ") })).status).toBe(401);
    expect((await fire(hook.path, body, { "x-service-signature": sign("whsec_other", body) })).status).toBe(401);
    expect((await fire(hook.path, body, {})).status).toBe(401);
    const rotated = await post(`/api/routine-triggers/${hook.id}/rotate-secret`, {});
    expect((await fire(hook.path, body, { "x-service-signature": sign(hook.webhookSecret, body) })).status).toBe(401);
    expect((await fire(hook.path, body, { "x-service-signature": sign(rotated.body.webhookSecret, body) })).status).toBe(202);
    expect((await runsOf(routine.id)).length).toBe(4);
  });

  it("vendor_hmac: timestamped signature within the replay window, accepted once; stale, missing and replayed ones refused", async () => {
    const { routine } = await setup({ concurrencyPolicy: "always_enqueue" });
    const hook = await webhook(routine.id, { signingMode: "vendor_hmac", replayWindowSec: 60 });
    const body = JSON.stringify({ id: 1 });
    const now = Math.floor(Date.now() / 1000);
    const headers = (ts: string | number, secret = hook.webhookSecret, raw = body) => ({
      "x-service-timestamp": String(ts),
      "x-hub-signature-256": `sha256=${sign(secret, `${ts}.${raw}`)}`,
    });
    expect((await fire(hook.path, body, headers(now))).status).toBe(202);
    const replay = await fire(hook.path, body, headers(now));
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatch(/replay/);
    // Milliseconds work too; a different timestamp is a different signature.
    expect((await fire(hook.path, body, headers(Date.now()))).status).toBe(202);
    const stale = await fire(hook.path, body, headers(now - 120));
    expect(stale.status).toBe(401);
    expect(stale.body.error).toMatch(/replay window/);
    expect((await fire(hook.path, body, headers(now + 120))).status).toBe(401);
    expect((await fire(hook.path, body, { "x-hub-signature-256": sign(hook.webhookSecret, `${now}.${body}`) })).status).toBe(401);
    expect((await fire(hook.path, body, { "x-service-timestamp": String(now) })).status).toBe(401);
    expect((await fire(hook.path, body, headers(now, "whsec_wrong"))).status).toBe(401);
    const rotated = await post(`/api/routine-triggers/${hook.id}/rotate-secret`, {});
    expect((await fire(hook.path, body, headers(now + 1))).status).toBe(401);
    expect((await fire(hook.path, body, headers(now + 1, rotated.body.webhookSecret))).status).toBe(202);
    expect((await runsOf(routine.id)).length).toBe(3);
  });

  it("state is revealed only to signed calls; a signing-mode change refuses calls checked under the old mode; schedule: keys are reserved", async () => {
    const { routine } = await setup();
    const hook = await webhook(routine.id);
    await patch(`/api/routine-triggers/${hook.id}`, { enabled: false });
    expect((await fire(hook.path, {}, {})).status).toBe(401);
    expect((await fire(hook.path, {}, { authorization: `Bearer ${hook.webhookSecret}` })).status).toBe(409);
    await patch(`/api/routine-triggers/${hook.id}`, { enabled: true });
    const reserved = await fire(hook.path, {}, { authorization: `Bearer ${hook.webhookSecret}`, "idempotency-key": "schedule:x:2020-01-01T00:00:00.000Z" });
    expect(reserved.status).toBe(400);
    expect((await post(`/api/routines/${routine.id}/run`, { idempotencyKey: "schedule:abc" })).status).toBe(400);
    expect(await runsOf(routine.id)).toEqual([]);
  });

  it("another company cannot steer a routine with a look-alike execution issue", async () => {
    const { routine } = await setup();
    const other = await createCompany();
    const spoof = await post(`/api/companies/${other.id}/issues`, { title: "spoof", originKind: "routine_execution", originId: routine.id });
    expect(spoof.status).toBe(400);
    expect((await post(`/api/routines/${routine.id}/run`, {})).body.status).toBe("issue_created");
  });

  it("none: no signature needed; disabled trigger and paused or archived routine are refused; the body is capped", async () => {
    const { routine } = await setup({ concurrencyPolicy: "always_enqueue", title: "Hook {{kind}}", variables: [{ name: "kind", defaultValue: "generic" }] });
    const hook = await webhook(routine.id, { signingMode: "none" });
    const ok = await fire(hook.path, { variables: { kind: "deploy" } });
    expect(ok.status).toBe(202);
    expect((await get(`/api/issues/${ok.body.linkedIssueId}`)).body.title).toBe("Hook deploy");
    const text = await fire(hook.path, "plain text", { "content-type": "text/plain" });
    expect(text.body.triggerPayload).toBe("plain text");
    expect((await fire(hook.path, "x".repeat(300 * 1024), { "content-type": "text/plain" })).status).toBe(413);
    await patch(`/api/routine-triggers/${hook.id}`, { enabled: false });
    expect((await fire(hook.path, {})).status).toBe(409);
    await patch(`/api/routine-triggers/${hook.id}`, { enabled: true });
    await patch(`/api/routines/${routine.id}`, { status: "paused" });
    expect((await fire(hook.path, {})).status).toBe(409);
    await patch(`/api/routines/${routine.id}`, { status: "archived" });
    expect((await fire(hook.path, {})).status).toBe(409);
    expect((await post(`/api/routines/${routine.id}/run`, {})).status).toBe(409);
    expect((await runsOf(routine.id)).length).toBe(2);
  });
});

describe("round trips", () => {
  it("a fire costs one D1 round trip inside the company object; the webhook resolves no caller", async () => {
    const { routine, agent } = await setup({ concurrencyPolicy: "always_enqueue" });
    await post(`/api/routines/${routine.id}/run`, {}); // the object learns the issue numbering once
    const manual = await post(`/api/routines/${routine.id}/run`, {}, { token: agent.token });
    expect(manual.status).toBe(202);
    // The handler: the routine (access check), then the fire's facts.
    expect(roundTrips(manual)).toMatchObject({ handler: 2, command: 1, objectCalls: 1 });
    const hook = await webhook(routine.id, { signingMode: "none" });
    const fired = await fire(hook.path, {});
    expect(fired.status).toBe(202);
    // Before the handler: the public id's company and shard, from the directory (src/db/shards.ts).
    expect(roundTrips(fired)).toEqual({ auth: 1, handler: 2, command: 1, objectCalls: 1 });
  });
});

describe("races: one webhook fired 20 times at once", () => {
  for (const [policy, expected] of [
    ["coalesce_if_active", { issues: 1, statuses: { issue_created: 1, coalesced: 19 } }],
    ["always_enqueue", { issues: 20, statuses: { issue_created: 20 } }],
    ["skip_if_active", { issues: 1, statuses: { issue_created: 1, skipped: 19 } }],
  ] as const) {
    it(`${policy}: ${expected.issues} execution issue(s)`, async () => {
      const { company, routine } = await setup({ concurrencyPolicy: policy });
      const hook = await webhook(routine.id, { signingMode: "none" });
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => fire(hook.path, { i })));
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(202));
      const runs = await runsOf(routine.id);
      expect(runs.length).toBe(20);
      const statuses: Record<string, number> = {};
      for (const run of runs) statuses[run.status] = (statuses[run.status] ?? 0) + 1;
      expect(statuses).toEqual(expected.statuses);
      const issues = await get(`/api/companies/${company.id}/issues?originKind=routine_execution&originId=${routine.id}`);
      expect(issues.body.length).toBe(expected.issues);
      const identifiers = new Set(issues.body.map((i: any) => i.identifier));
      expect(identifiers.size).toBe(expected.issues);
      if (policy === "coalesce_if_active") expect(new Set(runs.map((r) => r.linkedIssueId)).size).toBe(1);
    });
  }
});
