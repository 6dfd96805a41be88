// Webhook subscriptions and signed delivery, against the fake receiver served by the test run
// (test/setup/fake-agent-server.ts: /agent/<id>?statuses=… records every call with its raw body).
// Retries are made due by moving next_attempt_at back and running the hub's delivery pass by hand.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { call, del, get, patch, post, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, testD1 } from "../helpers/fixtures";
import { eventually } from "../helpers/eventually";
import { runScheduledTick } from "../../src/scheduler/tick";

const FAKE = env.FAKE_AGENT_URL;

interface Received {
  method: string;
  headers: Record<string, string>;
  body: any;
  raw: string;
}
const received = async (endpoint: string): Promise<Received[]> => (await fetch(`${FAKE}/__received/${endpoint}`)).json();

async function subscribe(companyId: string, events: string[], query = "", extra: Record<string, unknown> = {}) {
  const endpoint = unique("hook");
  const res = await post(`/api/companies/${companyId}/webhooks`, { url: `${FAKE}/agent/${endpoint}${query ? `?${query}` : ""}`, events, ...extra });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${res.text}`);
  return { ...res.body, endpoint } as { id: string; secret: string; endpoint: string; [k: string]: any };
}

/** The README's verification, verbatim in spirit: HMAC-SHA256 over "<timestamp>." + the raw body. */
function verify(call: Received, secret: string): boolean {
  const timestamp = call.headers["x-service-timestamp"];
  const expected = `sha256=${bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestamp}.${call.raw}`)))}`;
  return call.headers["x-service-signature"] === expected;
}

const hub = (companyId: string) => env.EVENTS.getByName(companyId);
/** Makes every pending delivery of the subscription due now and runs a delivery pass. */
async function retryNow(companyId: string, webhookId: string) {
  await testD1
    .prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE subscription_id = ? AND status = 'pending'")
    .bind(new Date(Date.now() - 1000).toISOString(), webhookId)
    .run();
  await hub(companyId).deliverNow(companyId);
}
const deliveries = async (companyId: string, webhookId: string) =>
  (await get(`/api/companies/${companyId}/webhooks/${webhookId}/deliveries`)).body.deliveries as any[];

describe("webhook subscriptions", () => {
  it("create returns the secret once; reads, lists and rotations never show it again; bad input is 400 and stores nothing", async () => {
    const company = await createCompany();
    const hook = await subscribe(company.id, ["issue.*", "approval.resolved"], "", { description: "ops" });
    expect(hook).toMatchObject({ companyId: company.id, events: ["issue.*", "approval.resolved"], enabled: true, description: "ops", disabledReason: null });
    expect(hook.secret).toMatch(/^whsec_/);
    const list = await get(`/api/companies/${company.id}/webhooks`);
    expect(list.status).toBe(200);
    expect(list.body.map((w: any) => w.id)).toEqual([hook.id]);
    expect(list.text).not.toContain(hook.secret);
    const one = await get(`/api/companies/${company.id}/webhooks/${hook.id}`);
    expect(one.body.secret).toBeUndefined();
    expect(one.text).not.toContain(hook.secret);

    const rotated = await post(`/api/companies/${company.id}/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const activity = await get(`/api/companies/${company.id}/activity`);
    expect(activity.text).not.toContain(hook.secret);
    expect(activity.text).not.toContain(rotated.body.secret);

    for (const [body, field] of [
      [{ url: "ftp://example.com/x", events: ["issue.created"] }, "url"],
      [{ url: "http://example.com/hook", events: ["issue.created"] }, "url"],
      [{ url: "not a url", events: ["issue.created"] }, "url"],
      [{ url: "https://example.com/hook", events: ["issue.exploded"] }, "events"],
      [{ url: "https://example.com/hook", events: ["nothing.*"] }, "events"],
      [{ url: "https://example.com/hook", events: [] }, "events"],
    ] as const) {
      const res = await post(`/api/companies/${company.id}/webhooks`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expect((await patch(`/api/companies/${company.id}/webhooks/${hook.id}`, { events: ["bogus"] })).status).toBe(400);
    expect((await get(`/api/companies/${company.id}/webhooks`)).body).toHaveLength(1);

    const changed = await patch(`/api/companies/${company.id}/webhooks/${hook.id}`, { events: ["run.*"], description: null });
    expect(changed.body).toMatchObject({ events: ["run.*"], description: null });
    expect((await del(`/api/companies/${company.id}/webhooks/${hook.id}`)).status).toBe(200);
    expect((await get(`/api/companies/${company.id}/webhooks/${hook.id}`)).status).toBe(404);
  });

  it("board only: agents get 403; another company's callers get 403/404 on every webhook route", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const hook = await subscribe(company.id, ["issue.*"]);
    const agent = await insertAgent(company.id, { name: unique("A") });
    const agentKey = await insertAgentKey(agent.id, company.id);
    const stranger = await boardUser(other.id);
    const viewer = await boardUser(company.id, "viewer");
    const base = `/api/companies/${company.id}/webhooks`;
    for (const token of [agentKey.token, stranger.token]) {
      for (const [method, path] of [
        ["GET", base],
        ["POST", base],
        ["GET", `${base}/${hook.id}`],
        ["PATCH", `${base}/${hook.id}`],
        ["DELETE", `${base}/${hook.id}`],
        ["POST", `${base}/${hook.id}/rotate-secret`],
        ["POST", `${base}/${hook.id}/test`],
        ["GET", `${base}/${hook.id}/deliveries`],
      ] as const) {
        const body =
          method === "POST" && path === base
            ? { url: "https://example.com/x", events: ["issue.created"] }
            : method === "PATCH"
              ? { enabled: false }
              : undefined;
        const res = await call(method, path, { token, body });
        expect([403, 404], `${method} ${path}`).toContain(res.status);
      }
    }
    // Viewers read, but do not change.
    expect((await get(base, { token: viewer.token })).status).toBe(200);
    expect((await post(base, { url: "https://example.com/x", events: ["issue.created"] }, { token: viewer.token })).status).toBe(403);
    expect((await get(`${base}/${hook.id}`)).body.enabled).toBe(true);
  });
});

describe("delivery", () => {
  it("signs every delivery over the exact bytes sent; the body is the event; headers name it", async () => {
    const company = await createCompany();
    const hook = await subscribe(company.id, ["issue.created"]);
    const issue = await post(`/api/companies/${company.id}/issues`, { title: "Signed" });
    const [call] = await eventually(async () => {
      const calls = await received(hook.endpoint);
      return calls.length ? calls : null;
    });
    expect(call.method).toBe("POST");
    expect(verify(call, hook.secret)).toBe(true);
    expect(verify({ ...call, raw: call.raw.replace("Signed", "Forged") }, hook.secret)).toBe(false);
    expect(call.body).toMatchObject({
      type: "issue.created",
      companyId: company.id,
      subject: { type: "issue", id: issue.body.id },
      actor: { type: "user" },
      data: { title: "Signed" },
    });
    expect(call.headers["x-service-event-id"]).toBe(call.body.id);
    expect(call.headers["x-service-event-type"]).toBe("issue.created");
    expect(Math.abs(Number(call.headers["x-service-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(call.raw).not.toContain(hook.secret);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(company.id, hook.id);
      return list[0]?.status === "succeeded" ? list : null;
    });
    expect(delivery).toMatchObject({
      eventId: call.body.id,
      eventType: "issue.created",
      status: "succeeded",
      attempts: 1,
      responseStatus: 200,
      nextAttemptAt: null,
    });
  });

  it("a receiver failing three times then succeeding gets the event exactly once more, with the same id; every attempt is logged", async () => {
    const company = await createCompany();
    const hook = await subscribe(company.id, ["issue.created"], "statuses=500,503,500,200");
    await post(`/api/companies/${company.id}/issues`, { title: "Flaky" });
    await eventually(async () => (await received(hook.endpoint)).length === 1);
    const first = (await deliveries(company.id, hook.id))[0];
    expect(first).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500, lastError: "HTTP 500" });
    // About 10 s later (first retry), doubling.
    const wait = Date.parse(first.nextAttemptAt) - Date.parse(first.updatedAt);
    expect(wait).toBeGreaterThan(7_000);
    expect(wait).toBeLessThan(13_000);
    for (let i = 0; i < 3; i++) await retryNow(company.id, hook.id);
    await retryNow(company.id, hook.id);
    const calls = await received(hook.endpoint);
    expect(calls).toHaveLength(4);
    expect(new Set(calls.map((c) => c.body.id)).size).toBe(1);
    expect(calls.every((c) => verify(c, hook.secret))).toBe(true);
    expect((await deliveries(company.id, hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 4, responseStatus: 200 });
  });

  it("429 with Retry-After waits at least that long; another 4xx fails at once; order per subscription holds", async () => {
    const company = await createCompany();
    const limited = await subscribe(company.id, ["issue.created"], "statuses=429,200&retryAfter=600");
    const gone = await subscribe(company.id, ["issue.created"], "statuses=410");
    await post(`/api/companies/${company.id}/issues`, { title: "First" });
    await post(`/api/companies/${company.id}/issues`, { title: "Second" });
    await eventually(async () => (await received(limited.endpoint)).length >= 1 && (await deliveries(company.id, gone.id)).every((d) => d.status === "failed"));
    const [, head] = await deliveries(company.id, limited.id);
    expect(head).toMatchObject({ status: "pending", responseStatus: 429 });
    expect(Date.parse(head.nextAttemptAt) - Date.now()).toBeGreaterThan(590_000);
    // The second event waits behind the first: one call so far, for "First".
    const calls = await received(limited.endpoint);
    expect(calls.map((c) => c.body.data.title)).toEqual(["First"]);
    await retryNow(company.id, limited.id);
    expect((await received(limited.endpoint)).map((c) => c.body.data.title)).toEqual(["First", "First", "Second"]);
    const failed = await deliveries(company.id, gone.id);
    expect(failed.map((d) => d.status)).toEqual(["failed", "failed"]);
    expect(failed[0]).toMatchObject({ responseStatus: 410, attempts: 1, nextAttemptAt: null });
    expect(await received(gone.endpoint)).toHaveLength(2);
  });

  it("filters: exact types and wildcards; a disabled subscription gets nothing; another company's events never arrive", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const issues = await subscribe(company.id, ["issue.*"]);
    const approvals = await subscribe(company.id, ["approval.created"]);
    const disabled = await subscribe(company.id, ["*"], "", { enabled: false });
    const created = await post(`/api/companies/${company.id}/issues`, { title: "Mine" });
    await patch(`/api/issues/${created.body.id}`, { status: "in_progress" });
    await post(`/api/companies/${other.id}/issues`, { title: "Theirs" });
    await post(`/api/companies/${company.id}/approvals`, {
      type: "request_board_approval",
      payload: { title: "Ok?", summary: "s", recommendedAction: "yes", risks: [] },
    });
    await eventually(async () => (await received(issues.endpoint)).length >= 2 && (await received(approvals.endpoint)).length >= 1);
    await hub(company.id).deliverNow(company.id);
    const issueTypes = (await received(issues.endpoint)).map((c) => c.body.type);
    expect(issueTypes).toEqual(["issue.created", "issue.updated"]);
    expect((await received(issues.endpoint)).every((c) => c.body.companyId === company.id && c.body.data.title !== "Theirs")).toBe(true);
    expect((await received(approvals.endpoint)).map((c) => c.body.type)).toEqual(["approval.created"]);
    expect(await received(disabled.endpoint)).toEqual([]);
    expect(await deliveries(company.id, disabled.id)).toEqual([]);
  });

  it("test ping, the delivery log and redelivery of the same event id", async () => {
    const company = await createCompany();
    const hook = await subscribe(company.id, ["issue.created"]);
    const ping = await post(`/api/companies/${company.id}/webhooks/${hook.id}/test`);
    expect(ping.status).toBe(202);
    await eventually(async () => (await received(hook.endpoint)).length === 1);
    const [call] = await received(hook.endpoint);
    expect(call.body).toMatchObject({ id: ping.body.eventId, type: "ping", data: { webhookId: hook.id } });
    expect(verify(call, hook.secret)).toBe(true);
    const redo = await post(`/api/companies/${company.id}/webhooks/${hook.id}/deliveries/${ping.body.deliveryId}/redeliver`);
    expect(redo.status).toBe(202);
    expect(redo.body).toMatchObject({ eventId: ping.body.eventId, status: "pending", attempts: 0 });
    await eventually(async () => (await received(hook.endpoint)).length === 2);
    expect((await received(hook.endpoint))[1].body.id).toBe(ping.body.eventId);
    const log = await deliveries(company.id, hook.id);
    expect(log.map((d) => d.id)).toEqual([redo.body.id, ping.body.deliveryId]);
    expect((await post(`/api/companies/${company.id}/webhooks/${hook.id}/deliveries/${crypto.randomUUID()}/redeliver`)).status).toBe(404);
  });

  it("an acknowledged delivery whose recording fails (the hub evicted mid-delivery) is recorded later and never sent again", async () => {
    const company = await createCompany();
    await post(`/api/companies/${company.id}/issues`, { title: "Once" });
    // The hub settles (its pending alarm, if any, is replaced by none: nothing is due).
    await hub(company.id).deliverNow(company.id);
    const hook = await subscribe(company.id, ["issue.created"]);
    const due = new Date(Date.now() - 5_000).toISOString();
    await testD1
      .prepare(
        "INSERT INTO webhook_deliveries SELECT lower(hex(randomblob(16))), company_id, ?, id, seq, type, 'pending', 0, ?, NULL, NULL, NULL, NULL, ?, ? FROM company_events WHERE company_id = ? AND type = 'issue.created'",
      )
      .bind(hook.id, due, due, due, company.id)
      .run();
    await hub(company.id).armFaults("d1-write/webhook_deliveries:1");
    await hub(company.id)
      .deliverNow(company.id)
      .catch(() => undefined);
    expect(await received(hook.endpoint)).toHaveLength(1);
    expect(await hub(company.id).journaled()).toHaveLength(1);
    await retryNow(company.id, hook.id);
    expect(await received(hook.endpoint)).toHaveLength(1);
    expect(await hub(company.id).journaled()).toEqual([]);
    expect((await deliveries(company.id, hook.id))[0]).toMatchObject({ status: "succeeded", attempts: 1, responseStatus: 200 });
  });

  it("a burst of events (more than a page of deliveries): each delivered once, in event order, all recorded succeeded with the journal emptied", async () => {
    const company = await createCompany();
    const hook = await subscribe(company.id, ["issue.created"]);
    const titles = Array.from({ length: 60 }, (_, i) => `Burst ${String(i).padStart(2, "0")}`);
    await Promise.all(titles.map((title) => post(`/api/companies/${company.id}/issues`, { title })));
    await eventually(async () => (await received(hook.endpoint)).length >= titles.length || null, { what: "every delivery" });
    await hub(company.id).deliverNow(company.id);
    const calls = await received(hook.endpoint);
    const events = (await get(`/api/companies/${company.id}/events?types=issue.created`)).body.events as Array<{ id: string }>;
    // Each event once, in the order the events were written.
    expect(calls.map((c) => c.body.id)).toEqual(events.map((e) => e.id));
    const log = (await get(`/api/companies/${company.id}/webhooks/${hook.id}/deliveries?limit=100`)).body.deliveries as any[];
    expect(log).toHaveLength(titles.length);
    expect(log.every((d) => d.status === "succeeded" && d.attempts === 1 && d.responseStatus === 200)).toBe(true);
    expect(await hub(company.id).journaled()).toEqual([]);
  });

  it("a delivery whose hub was never told (a lost notification) goes out on the next cron tick", async () => {
    const company = await createCompany();
    await post(`/api/companies/${company.id}/issues`, { title: "Missed" });
    await hub(company.id).deliverNow(company.id);
    const hook = await subscribe(company.id, ["issue.created"]);
    const overdue = new Date(Date.now() - 120_000).toISOString();
    await testD1
      .prepare(
        "INSERT INTO webhook_deliveries SELECT lower(hex(randomblob(16))), company_id, ?, id, seq, type, 'pending', 0, ?, NULL, NULL, NULL, NULL, ?, ? FROM company_events WHERE company_id = ? AND type = 'issue.created'",
      )
      .bind(hook.id, overdue, overdue, overdue, company.id)
      .run();
    expect(await received(hook.endpoint)).toEqual([]);
    await runScheduledTick(env, new Date());
    const calls = await eventually(async () => {
      const got = await received(hook.endpoint);
      return got.length ? got : null;
    });
    expect(calls.map((c) => c.body.data.title)).toEqual(["Missed"]);
  });
});
