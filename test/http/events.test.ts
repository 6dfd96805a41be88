// The company's event stream (SSE) and event list: every catalogue type (read from the OpenAPI
// document) is produced by real changes; a stream resumes with Last-Event-ID without gaps or
// duplicates; filters; agents see no finance events; other companies' callers are refused before
// the stream opens; an event is written only when its change is (fault injection).
import { env, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, get, patch, post, unique } from "../helpers/api";
import { createCompany, dispatch, insertAgentKey, boardUser, testD1 } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";

const FAKE = env.FAKE_AGENT_URL;

const eventsOf = async (companyId: string, query = "", token?: string) => {
  const res = await get(`/api/companies/${companyId}/events?limit=500${query ? `&${query}` : ""}`, token ? { token } : {});
  if (res.status !== 200) throw new Error(`events list failed: ${res.status} ${res.text}`);
  return res.body.events as any[];
};

/** An open SSE stream: frames are parsed as they arrive. */
async function openStream(companyId: string, options: { lastEventId?: string; types?: string; token?: string } = {}) {
  const headers = new Headers({ accept: "text/event-stream" });
  if (options.lastEventId) headers.set("last-event-id", options.lastEventId);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  const response = await exports.default.fetch(
    new Request(`http://localhost/api/companies/${companyId}/events/stream${options.types ? `?types=${encodeURIComponent(options.types)}` : ""}`, { headers }),
  );
  const events: Array<{ id: string; event: string; data: any }> = [];
  if (response.status !== 200) return { response, events, close: async () => {}, until: async () => events };
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let closed = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const fields = Object.fromEntries(
            frame
              .split("\n")
              .filter((l) => !l.startsWith(":") && l.includes(": "))
              .map((l) => [l.slice(0, l.indexOf(": ")), l.slice(l.indexOf(": ") + 2)]),
          );
          if (fields.data) events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
        }
      }
    } catch {
      /* closed */
    }
  })();
  return {
    response,
    events,
    until: (n: number) => eventually(() => (events.length >= n ? events : null), { what: `${n} streamed events` }),
    close: async () => {
      if (closed) return;
      closed = true;
      await reader.cancel().catch(() => undefined);
      await pump;
    },
  };
}

async function httpAgent(companyId: string) {
  const res = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Http"),
    adapterType: "http",
    adapterConfig: { url: `${FAKE}/agent/${unique("ep")}` },
  });
  if (res.status !== 201) throw new Error(res.text);
  const key = await insertAgentKey(res.body.id, companyId);
  return { ...res.body, token: key.token } as { id: string; token: string; [k: string]: any };
}

describe("the event catalogue", () => {
  it("every type the OpenAPI document lists is produced by a real change, once, with its subject", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const described: string = doc.components.schemas.Event.properties.type.description;
    // wiki.* and plugin.* types are produced by their own tests (test/http/wiki.test.ts, test/http/plugins.test.ts).
    const catalogue = [...described.matchAll(/^- `([a-z_.]+)`/gm)]
      .map((m) => m[1])
      // webhook.disabled and notification_channel.disabled: test/http/webhooks.test.ts and test/http/notifications.test.ts.
      .filter((type) => !type.startsWith("wiki.") && !type.startsWith("plugin.") && !CONSOLE_TYPES.includes(type) && !type.endsWith(".disabled"));
    expect(catalogue.length).toBeGreaterThanOrEqual(18);

    const company = await createCompany();
    const agent = await httpAgent(company.id);
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: "Catalogue", status: "todo", assigneeAgentId: agent.id })).body;
    await patch(`/api/issues/${issue.id}`, { priority: "high" });
    await post(`/api/issues/${issue.id}/comments`, { body: "a comment" });
    const runId = crypto.randomUUID();
    expect((await post(`/api/issues/${issue.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, { token: agent.token, runId })).status).toBe(200);
    expect((await post(`/api/issues/${issue.id}/release`)).status).toBe(200);
    const approval = (
      await post(`/api/companies/${company.id}/approvals`, {
        type: "request_board_approval",
        payload: { title: "Go?", summary: "s", recommendedAction: "go", risks: [] },
      })
    ).body;
    await post(`/api/approvals/${approval.id}/approve`, { decisionNote: "fine" });
    await post(`/api/agents/${agent.id}/wakeup`, { reason: "catalogue" });
    await dispatch(company.id);
    await post(`/api/companies/${company.id}/budgets/policies`, { scopeType: "agent", scopeId: agent.id, amountCents: 50, notifyEnabled: false });
    await post(`/api/companies/${company.id}/cost-events`, {
      agentId: agent.id,
      provider: "anthropic",
      model: "m",
      costCents: 60,
      occurredAt: new Date().toISOString(),
    });
    const incident = (await testD1.prepare("SELECT id FROM budget_incidents WHERE company_id = ?").bind(company.id).first<{ id: string }>())!;
    expect((await post(`/api/companies/${company.id}/budget-incidents/${incident.id}/resolve`, { action: "keep_paused" })).status).toBe(200);
    await post(`/api/agents/${agent.id}/pause`);
    const routine = (await post(`/api/companies/${company.id}/routines`, { title: "Daily", assigneeAgentId: agent.id })).body;
    await post(`/api/routines/${routine.id}/run`, {});
    const hook = (await post(`/api/companies/${company.id}/webhooks`, { url: `${FAKE}/agent/${unique("hook")}`, events: ["issue.created"] })).body;
    await post(`/api/companies/${company.id}/webhooks/${hook.id}/test`);

    const events = await eventually(
      async () => {
        const list = await eventsOf(company.id);
        return catalogue.every((type) => list.some((e) => e.type === type)) ? list : null;
      },
      { what: "every catalogue type" },
    );
    const ofType = (type: string) => events.filter((e) => e.type === type);
    expect(ofType("issue.created")[0]).toMatchObject({
      subject: { type: "issue", id: issue.id },
      actor: { type: "user" },
      data: { title: "Catalogue", assigneeAgentId: agent.id },
    });
    expect(ofType("issue.updated")[0].data).toMatchObject({ changed: ["priority"], changes: { priority: { from: "medium", to: "high" } } });
    expect(ofType("issue.checked_out")[0]).toMatchObject({ actor: { type: "agent", id: agent.id }, data: { runId } });
    expect(ofType("approval.resolved")[0].data).toMatchObject({ status: "approved", decisionNote: "fine" });
    expect(ofType("run.queued")[0].data).toMatchObject({ agentId: agent.id, reason: "catalogue", invocationSource: "on_demand" });
    expect(ofType("run.started")[0]).toMatchObject({ subject: { type: "run" }, actor: { type: "system" }, data: { agentId: agent.id } });
    expect(ofType("run.finished")[0].data).toMatchObject({ agentId: agent.id, status: expect.stringMatching(/^(succeeded|failed|cancelled|timed_out)$/) });
    expect(ofType("agent.status_changed").some((e) => e.data.to === "paused")).toBe(true);
    expect(ofType("budget.incident_opened")[0].data).toMatchObject({ kind: "hard", amountCents: 50, observedCents: 60 });
    expect(ofType("cost.recorded")[0].data).toMatchObject({ agentId: agent.id, costCents: 60 });
    expect(ofType("ping")[0]).toMatchObject({ subject: { type: "webhook", id: hook.id } });
    // Ordered, each once.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(JSON.stringify(events)).not.toContain(hook.secret);
  });
});

/** The types the console follows (projects, goals, company, members, invites, documents, attachments, keys, questions, run log lines): produced below. */
const CONSOLE_TYPES = [
  "project.created",
  "project.updated",
  "goal.created",
  "goal.updated",
  "company.updated",
  "member.added",
  "member.role_changed",
  "member.removed",
  "invite.created",
  "document.written",
  "attachment.added",
  "agent_key.created",
  "agent_key.revoked",
  "question.asked",
  "question.answered",
  "question.cancelled",
  "run.event",
];

describe("the console's events", () => {
  it("projects, goals, the company, members, invites, documents, attachments, agent keys, questions and run log lines each announce their changes", async () => {
    const company = await createCompany();
    const agent = await httpAgent(company.id);
    const project = (await post(`/api/companies/${company.id}/projects`, { name: unique("Launch") })).body;
    expect((await patch(`/api/projects/${project.id}`, { description: "Q4" })).status).toBe(200);
    const goal = (await post(`/api/companies/${company.id}/goals`, { title: "Grow" })).body;
    expect((await patch(`/api/goals/${goal.id}`, { status: "active" })).status).toBe(200);
    expect((await patch(`/api/companies/${company.id}`, { description: "We build things" })).status).toBe(200);
    const person = await boardUser();
    expect(
      (await call("PUT", `/api/admin/users/${person.id}/company-access`, { body: { memberships: [{ companyId: company.id, membershipRole: "member" }] } }))
        .status,
    ).toBe(200);
    const member = (await get(`/api/companies/${company.id}/members`)).body.find((m: any) => m.principalId === person.id);
    expect((await patch(`/api/companies/${company.id}/members/${member.id}`, { membershipRole: "admin" })).status).toBe(200);
    expect((await post(`/api/companies/${company.id}/members/${member.id}/archive`)).status).toBe(200);
    expect((await post(`/api/companies/${company.id}/invites`, { membershipRole: "member" })).status).toBe(201);
    const issue = (await post(`/api/companies/${company.id}/issues`, { title: "Console events", status: "in_progress", assigneeAgentId: agent.id })).body;
    expect((await call("PUT", `/api/issues/${issue.id}/documents/plan`, { body: { body: "# Plan" } })).status).toBe(201);
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("notes")], { type: "text/plain" }), "notes.txt");
    expect((await call("POST", `/api/companies/${company.id}/issues/${issue.id}/attachments`, { rawBody: form })).status).toBe(201);
    const key = (await post(`/api/agents/${agent.id}/keys`, { name: "ci" })).body;
    expect((await call("DELETE", `/api/agents/${agent.id}/keys/${key.id}`)).status).toBe(200);
    const asked = (await post(`/api/issues/${issue.id}/questions`, { prompt: "Go?" }, { token: agent.token })).body;
    expect((await post(`/api/issues/${issue.id}/questions/${asked.id}/answer`, { text: "Yes" })).status).toBe(200);
    const second = (await post(`/api/issues/${issue.id}/questions`, { prompt: "Again?" }, { token: agent.token })).body;
    expect((await post(`/api/issues/${issue.id}/questions/${second.id}/cancel`, {}, { token: agent.token })).status).toBe(200);
    const run = (await post(`/api/agents/${agent.id}/wakeup`, { reason: "log lines" })).body;
    expect(
      (await post(`/api/heartbeat-runs/${run.id}/events`, { events: [{ kind: "assistant", message: "Looking at it" }] }, { token: agent.token })).status,
    ).toBe(202);

    const events = await eventually(
      async () => {
        const list = [...(await eventsOf(company.id)), ...(await eventsOf(company.id, "types=run.event"))];
        const missing = CONSOLE_TYPES.filter((type) => !list.some((e) => e.type === type));
        if (missing.length) throw new Error(`missing ${missing.join(", ")}`);
        return list;
      },
      { what: "every console type" },
    );
    const ofType = (type: string) => events.filter((e) => e.type === type);
    expect(ofType("project.updated")[0].data).toMatchObject({ changed: ["description"] });
    expect(ofType("member.role_changed")[0].data).toMatchObject({ userId: person.id, from: "member", to: "admin" });
    expect(ofType("member.removed")[0].data).toMatchObject({ userId: person.id });
    expect(ofType("document.written")[0].data).toMatchObject({ issueId: issue.id, key: "plan", revisionNumber: 1 });
    expect(ofType("agent_key.revoked")[0].data).toMatchObject({ agentId: agent.id, keyId: key.id, name: "ci" });
    expect(JSON.stringify(ofType("agent_key.created"))).not.toContain(key.token);
    expect(ofType("question.answered")[0].data).toMatchObject({ issueId: issue.id, agentId: agent.id });
    expect(ofType("run.event")[0]).toMatchObject({ subject: { type: "run" }, data: { seq: expect.any(Number), kind: expect.any(String) } });
    // Log lines only for those who name them: not in the unfiltered list, nor under run.*.
    expect((await eventsOf(company.id)).some((e) => e.type === "run.event")).toBe(false);
    expect((await eventsOf(company.id, "types=run.*")).some((e) => e.type === "run.event")).toBe(false);
  });
});

describe("the live stream", () => {
  it("streams new events in order; Last-Event-ID resumes without gaps or duplicates; types filter", async () => {
    const company = await createCompany();
    const stream = await openStream(company.id);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const first = (await post(`/api/companies/${company.id}/issues`, { title: "One" })).body;
    await post(`/api/companies/${company.id}/issues`, { title: "Two" });
    const seen = await stream.until(2);
    expect(seen.map((e) => [e.event, e.data.data.title])).toEqual([
      ["issue.created", "One"],
      ["issue.created", "Two"],
    ]);
    expect(seen[0].data.subject.id).toBe(first.id);
    await stream.close();

    // Three more while disconnected, then resume after the first: Two, then the three, then live.
    for (const title of ["Three", "Four", "Five"]) await post(`/api/companies/${company.id}/issues`, { title });
    const resumed = await openStream(company.id, { lastEventId: seen[0].id });
    const replay = await resumed.until(4);
    expect(replay.map((e) => e.data.data.title)).toEqual(["Two", "Three", "Four", "Five"]);
    await post(`/api/companies/${company.id}/issues`, { title: "Six" });
    const live = await resumed.until(5);
    expect(live.map((e) => e.data.data.title)).toEqual(["Two", "Three", "Four", "Five", "Six"]);
    expect(new Set(live.map((e) => e.id)).size).toBe(5);
    await resumed.close();

    const unknown = await openStream(company.id, { lastEventId: crypto.randomUUID() });
    expect(unknown.response.status).toBe(409);

    const filtered = await openStream(company.id, { types: "approval.*" });
    await post(`/api/companies/${company.id}/issues`, { title: "Ignored" });
    await post(`/api/companies/${company.id}/approvals`, {
      type: "request_board_approval",
      payload: { title: "Go?", summary: "s", recommendedAction: "go", risks: [] },
    });
    const approvals = await filtered.until(1);
    expect(approvals.map((e) => e.event)).toEqual(["approval.created"]);
    await filtered.close();
    expect((await openStream(company.id, { types: "nope.*" })).response.status).toBe(400);
  });

  it("the company object notifies its hub only while it has something to do: open streams, pending deliveries", async () => {
    const company = await createCompany();
    const hub = env.EVENTS.getByName(company.id);
    // Every notification this company's hub receives is counted (RPC calls the class's method).
    let notified = 0;
    const hubClass = await runInDurableObject(hub, (instance) => Object.getPrototypeOf(instance));
    const notify = hubClass.notify;
    hubClass.notify = function (this: unknown, companyId: string, ...rest: unknown[]) {
      if (companyId === company.id) notified++;
      return notify.call(this, companyId, ...rest);
    };
    try {
      const create = async (title: string) => expect((await post(`/api/companies/${company.id}/issues`, { title })).status).toBe(201);
      const settled = () => new Promise((resolve) => setTimeout(resolve, 50));
      // The first command since the object started tells the hub (and learns that no stream is open).
      await create("first");
      await eventually(() => notified === 1 || null, { what: "the first notification" });
      await create("second");
      await create("third");
      await settled();
      expect(notified, "no stream, no delivery pending, pruned within the hour").toBe(1);

      // A stream opens: the hub tells the object, which notifies it of every event again.
      const stream = await openStream(company.id);
      await create("streamed");
      expect((await stream.until(1)).map((e) => e.data.data.title)).toEqual(["streamed"]);
      expect(notified).toBe(2);
      await stream.close();
      await eventually(async () => ((await hub.streamCount()) === 0 ? true : null), { what: "the stream dropped" });
      // The next notification learns that the stream closed; after it, none again.
      await create("after the stream");
      await eventually(() => notified === 3 || null, { what: "the notification after the stream" });
      await create("quiet again");
      // Cost events too (their second batch, empty without an incident, keeps the first's deliveries read).
      const agent = (await post(`/api/companies/${company.id}/agents`, { name: unique("Spender"), adapterType: "process", adapterConfig: { command: "true" } }))
        .body;
      const cost = { agentId: agent.id, provider: "openai", model: "gpt", costCents: 1, occurredAt: new Date().toISOString() };
      await Promise.all([1, 2, 3].map(() => post(`/api/companies/${company.id}/cost-events`, cost)));
      await settled();
      expect(notified).toBe(3);

      // A webhook subscription: its deliveries are pending after each event, so each one notifies.
      const hook = (await post(`/api/companies/${company.id}/webhooks`, { url: `${FAKE}/agent/${unique("hook")}`, events: ["issue.created"] })).body;
      await create("delivered");
      await eventually(() => notified === 4 || null, { what: "the notification with a delivery pending" });
      await eventually(
        async () => {
          const deliveries = (await get(`/api/companies/${company.id}/webhooks/${hook.id}/deliveries`)).body.deliveries as any[];
          return deliveries.some((d) => d.status === "succeeded") || null;
        },
        { what: "the delivery" },
      );
    } finally {
      hubClass.notify = notify;
    }
  });

  it("a stream the company object cannot be told about is closed (the client reconnects) rather than left without notifications", async () => {
    const company = await createCompany();
    const objectClass = await runInDurableObject(env.COMPANY.getByName(company.id), (instance) => Object.getPrototypeOf(instance));
    const streamsOpened = objectClass.streamsOpened;
    let asked = 0;
    objectClass.streamsOpened = async () => {
      asked++;
      throw new Error("the company object is resetting");
    };
    try {
      const response = await exports.default.fetch(
        new Request(`http://localhost/api/companies/${company.id}/events/stream`, { headers: { accept: "text/event-stream" } }),
      );
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      expect(text).toContain(": connected");
      expect(asked, "tried three times before closing").toBe(3);
    } finally {
      objectClass.streamsOpened = streamsOpened;
    }
    // Told normally, a new stream gets the events.
    const stream = await openStream(company.id);
    await post(`/api/companies/${company.id}/issues`, { title: "after the reset" });
    expect((await stream.until(1)).map((e) => e.data.data.title)).toEqual(["after the reset"]);
    await stream.close();
  });

  it("another company's callers are refused before the stream opens; agents see no finance events", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const stranger = await boardUser(other.id);
    const refused = await openStream(company.id, { token: stranger.token });
    expect([403, 404]).toContain(refused.response.status);
    expect((await refused.response.json()) as any).toHaveProperty("error");
    const foreignAgent = await httpAgent(other.id);
    expect((await openStream(company.id, { token: foreignAgent.token })).response.status).toBe(403);
    expect((await get(`/api/companies/${company.id}/events`, { token: foreignAgent.token })).status).toBe(403);

    const agent = await httpAgent(company.id);
    const agentStream = await openStream(company.id, { token: agent.token });
    expect(agentStream.response.status).toBe(200);
    await post(`/api/companies/${company.id}/cost-events`, {
      agentId: agent.id,
      provider: "anthropic",
      model: "m",
      costCents: 3,
      occurredAt: new Date().toISOString(),
    });
    await post(`/api/companies/${company.id}/issues`, { title: "Visible" });
    const seen = await agentStream.until(1);
    expect(seen.map((e) => e.event)).toEqual(["issue.created"]);
    await agentStream.close();
    expect((await eventsOf(company.id, "", agent.token)).map((e) => e.type)).not.toContain("cost.recorded");
    expect((await eventsOf(company.id)).map((e) => e.type)).toContain("cost.recorded");
  });

  it("the list: oldest first, after an event id, types filter; a change that fails writes no event", async () => {
    const company = await createCompany();
    const a = (await post(`/api/companies/${company.id}/issues`, { title: "A" })).body;
    await patch(`/api/issues/${a.id}`, { status: "todo" });
    await post(`/api/companies/${company.id}/issues`, { title: "B" });
    const all = await eventsOf(company.id);
    expect(all.map((e) => e.type)).toEqual(["issue.created", "issue.updated", "issue.created"]);
    expect((await eventsOf(company.id, `after=${all[0].id}`)).map((e) => e.id)).toEqual([all[1].id, all[2].id]);
    expect((await eventsOf(company.id, "types=issue.updated")).map((e) => e.id)).toEqual([all[1].id]);
    expect((await get(`/api/companies/${company.id}/events?types=bogus`)).status).toBe(400);
    expect((await get(`/api/companies/${company.id}/events?after=${crypto.randomUUID()}`)).status).toBe(400);

    // The change's batch fails: neither the issue nor its event exists.
    const failed = await post(`/api/companies/${company.id}/issues`, { title: "Never" }, { headers: { "x-test-fault": "d1-write/company_events:1" } });
    expect(failed.status).toBe(500);
    expect((await get(`/api/companies/${company.id}/issues`)).body.map((i: any) => i.title).sort()).toEqual(["A", "B"]);
    expect(await eventsOf(company.id)).toHaveLength(3);
  });
});
