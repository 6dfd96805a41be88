// D1 round trips per request, counted by the Worker itself (Server-Timing) — a regression in
// round trips fails here on any machine. Targets: at most one before the handler for any caller;
// one inside the company object for issue create/patch, comment, checkout, release, cost events
// and document writes (the issue allows two for documents; we make one); one for issue get,
// detail, lists and the dashboard (a cost event's references share the handler's one).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardNames } from "../../src/db/shards";
import { directoryRoundTrips, get, patch, post, put, roundTrips, unique, type CallOptions } from "../helpers/api";
import { agentJwt, boardUser, createCompany, insertAgent, insertAgentKey } from "../helpers/fixtures";

async function setup() {
  const company = await createCompany({ budgetMonthlyCents: 1_000_000 });
  const agent = await insertAgent(company.id);
  const key = await insertAgentKey(agent.id, company.id);
  const board = await boardUser(company.id);
  const run = crypto.randomUUID();
  const callers: Record<string, CallOptions> = {
    "board key": { token: board.token },
    "agent key": { token: key.token, runId: run },
    "agent JWT": { token: await agentJwt(agent.id, company.id, { runId: crypto.randomUUID() }) },
  };
  return { company, agent, key, board, callers };
}

const costBody = (agentId: string) => ({ agentId, provider: "anthropic", model: "m", costCents: 1, occurredAt: new Date().toISOString() });

describe("round trips per operation and caller", () => {
  for (const caller of ["board key", "agent key", "agent JWT"]) {
    it(`${caller}: ≤ 1 before the handler, 1 in the object per mutation, 1 per read`, async () => {
      const { company, agent, callers } = await setup();
      const as = callers[caller];
      const mutation = (res: Awaited<ReturnType<typeof get>>, label: string) => {
        expect(res.status, `${label}: ${res.text}`).toBeLessThan(300);
        const rt = roundTrips(res);
        expect(rt.auth, `${label} auth`).toBeLessThanOrEqual(1);
        expect(rt.command, `${label} in the object`).toBe(1);
        expect(rt.objectCalls, `${label} object calls`).toBe(1);
      };
      const read = (res: Awaited<ReturnType<typeof get>>, label: string) => {
        expect(res.status, `${label}: ${res.text}`).toBe(200);
        expect(roundTrips(res), label).toMatchObject({ handler: 1, command: 0, objectCalls: 0 });
        expect(roundTrips(res).auth, `${label} auth`).toBeLessThanOrEqual(1);
      };

      // Twice: the first call of a fresh object may seed its hot state; the second is the steady state.
      for (let round = 0; round < 2; round++) {
        const created = await post(`/api/companies/${company.id}/issues`, { title: unique("RT"), status: "todo", assigneeAgentId: agent.id }, as);
        if (round === 1) mutation(created, "issue create");
        const issue = created.body;
        mutation(await patch(`/api/issues/${issue.id}`, { priority: "high" }, as), "issue patch");
        mutation(await post(`/api/issues/${issue.id}/comments`, { body: "progress" }, as), "comment create");
        const cost = await post(`/api/companies/${company.id}/cost-events`, costBody(agent.id), as);
        mutation(cost, "cost-event create");
        // The access check and the event's references share one round trip before the object's command.
        expect(roundTrips(cost).handler, "cost-event create in the handler").toBe(1);
        const doc = await put(`/api/issues/${issue.id}/documents/plan`, { body: "# Plan" }, as);
        mutation(doc, "document create");
        mutation(await put(`/api/issues/${issue.id}/documents/plan`, { body: "# Plan v2", baseRevisionId: doc.body.latestRevisionId }, as), "document update");
        if (caller !== "board key") {
          mutation(await post(`/api/issues/${issue.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, as), "checkout");
          mutation(await post(`/api/issues/${issue.id}/release`, {}, as), "release");
        }
        read(await get(`/api/issues/${issue.identifier}`, as), "get by identifier (detail)");
        read(await get(`/api/issues/${issue.id}`, as), "get by id (detail)");
        read(await get(`/api/companies/${company.id}/issues`, as), "list");
        read(await get(`/api/companies/${company.id}/issues?status=todo,in_progress&assigneeAgentId=${agent.id}`, as), "filtered list");
        read(await get(`/api/companies/${company.id}/issues?q=${encodeURIComponent(issue.title.slice(0, 6))}`, as), "q search");
        read(await get(`/api/companies/${company.id}/dashboard`, as), "dashboard");
      }
    });
  }

  it("a fresh credential reads the directory at most once before the handler (key, memberships, the path's shard in one batch)", async () => {
    const { company, callers } = await setup();
    for (const caller of Object.keys(callers)) {
      const res = await get(`/api/companies/${company.id}/issues`, callers[caller]);
      expect(res.status).toBe(200);
      expect(directoryRoundTrips(res).auth, caller).toBeLessThanOrEqual(1);
      // A board key is all directory; an agent key naming a run also reads the run on its company's shard; a
      // JWT names its company, so the agent and the run are one shard read.
      // With several shards, a run id unknown on the agent's shard is also looked for on every other shard (another company's run is refused).
      const runLookups = caller !== "board key" && shardNames(env).length > 1 ? shardNames(env).length - 1 : 0;
      expect(roundTrips(res).auth, caller).toBe((caller === "agent key" ? 2 : 1) + runLookups);
      expect(roundTrips(res).handler, caller).toBe(1);
      expect(directoryRoundTrips(res).handler, caller).toBe(0);
    }
  });

  it("with companies on both shards, each request reaches one shard: the directory before the handler, the company's shard in it", async () => {
    const companies = await Promise.all([0, 1, 2, 3].map(() => setup()));
    for (const { company, callers } of companies) {
      const res = await get(`/api/companies/${company.id}/issues`, callers["board key"]);
      expect(res.status).toBe(200);
      expect(directoryRoundTrips(res)).toEqual({ auth: 1, handler: 0 });
      expect(roundTrips(res).handler).toBe(1);
    }
  });

  it("a mutation's guard and its command's loader share one round trip in the handler (one database, or the caller's company's is known)", async () => {
    const { company, agent, callers } = await setup();
    // The local board reaches every company: with several shards an entity it has not seen yet is
    // looked up on each first (these issues it has seen: it created them here).
    for (const caller of ["agent key", "agent JWT", "local board"]) {
      const as = callers[caller] ?? {};
      const created = await post(`/api/companies/${company.id}/issues`, { title: unique("RT"), status: "todo", assigneeAgentId: agent.id }, as);
      expect(created.status, created.text).toBe(201);
      expect(roundTrips(created).handler, `${caller}: issue create`).toBe(1);
      const issue = created.body;
      const steps: Array<[string, () => ReturnType<typeof post>]> = [
        ["issue patch", () => patch(`/api/issues/${issue.id}`, { priority: "high" }, as)],
        ["comment create", () => post(`/api/issues/${issue.id}/comments`, { body: "progress" }, as)],
        ["document write", () => put(`/api/issues/${issue.id}/documents/notes`, { body: "# Notes" }, as)],
        ["checkout", () => post(`/api/issues/${issue.identifier}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, as)],
        ["release", () => post(`/api/issues/${issue.id}/release`, {}, as)],
      ];
      for (const [label, call] of caller === "local board" ? steps.slice(0, 3) : steps) {
        const res = await call();
        expect(res.status, `${caller}: ${label}: ${res.text}`).toBeLessThan(300);
        expect(roundTrips(res), `${caller}: ${label}`).toMatchObject({ handler: 1, command: 1, objectCalls: 1 });
      }
      const detail = await get(`/api/issues/${issue.id}`, as);
      expect(detail.status).toBe(200);
      expect(roundTrips(detail), `${caller}: issue detail`).toMatchObject({ handler: 1, command: 0, objectCalls: 0 });
    }
  });

  it("an agent key seen a moment ago with a known run costs no round trip before the handler", async () => {
    const { company, agent, callers } = await setup();
    const as = callers["agent key"];
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: unique("RT"), status: "todo", assigneeAgentId: agent.id }, as)).body;
    await post(`/api/issues/${issue.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, as); // records the run
    await get(`/api/issues/${issue.id}`, as); // the run is now known to this isolate
    const res = await get(`/api/issues/${issue.id}`, as);
    expect(roundTrips(res).auth).toBe(0);
  });

  it("the local board in local_trusted mode reads nothing before the handler", async () => {
    const company = await createCompany();
    const res = await get(`/api/companies/${company.id}/issues`);
    expect(roundTrips(res)).toMatchObject({ auth: 0, handler: 1 });
  });
});
