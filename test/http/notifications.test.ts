// Notifications against fake Slack, Discord, Telegram, Teams, email and push services
// (test/setup/fake-notify.ts): every default event reaches each channel in its format once; a
// service's 429 is waited out; a person's own business goes only to them; quiet hours hold
// messages; a push message decrypts with the browser's keys; a channel failing 24 h is disabled;
// secrets never in a read or a message; callers and bad input refused. The company's event hub
// sends them; the tests run its pass by hand (deliverNow) instead of waiting for its alarm.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { base64url } from "jose";
import { call, get, patch, post, unique } from "../helpers/api";
import { agentWithKey, boardUser, createCompany, createIssue, dispatch, testD1 } from "../helpers/fixtures";
import { decryptPushPayload } from "../../src/crypto/web-push";
import { runScheduledTick } from "../../src/scheduler/tick";

const FAKE = env.FAKE_AGENT_URL;
type Kind = "slack" | "discord" | "telegram" | "teams" | "email";
interface Received {
  service: string;
  path: string;
  headers: Record<string, string>;
  body: any;
  bodyBase64?: string;
}

const BOT_TOKEN = "123456789:AAE-secret-bot-token-value";
const EMAIL_KEY = "re_secret_provider_key_0123456789";

const received = async (id: string): Promise<Received[]> => (await fetch(`${FAKE}/__notify/${id}`)).json();
const deliver = (companyId: string) => env.EVENTS.getByName(companyId).deliverNow(companyId);

function channelBody(kind: Kind, scenario: string, id: string, extra: Record<string, unknown> = {}) {
  const base = { name: `${kind} ${id}`, events: ["*"], ...extra };
  if (kind === "telegram") return { kind, ...base, target: BOT_TOKEN, chatId: "-1001234567890", apiBaseUrl: `${FAKE}/notify/telegram/${scenario}/${id}` };
  if (kind === "email")
    return {
      kind,
      ...base,
      target: EMAIL_KEY,
      provider: "resend",
      apiBaseUrl: `${FAKE}/notify/resend/${scenario}/${id}`,
      from: "Acme <alerts@acme.dev>",
      to: ["board@acme.dev"],
    };
  return { kind, ...base, target: `${FAKE}/notify/${kind}/${scenario}/${id}` };
}

async function addChannel(companyId: string, kind: Kind, scenario = "ok", extra: Record<string, unknown> = {}) {
  const id = unique(kind);
  const res = await post(`/api/companies/${companyId}/notification-channels`, channelBody(kind, scenario, id, extra));
  if (res.status !== 201) throw new Error(`channel create failed: ${res.status} ${res.text}`);
  return { channel: res.body, id };
}

/** The text of a received message, whatever its service (for finding which event it announces). */
function textOf(r: Received): string {
  return JSON.stringify(r.body ?? "");
}

const deliveries = async (companyId: string) =>
  (
    await testD1
      .prepare(
        "SELECT destination, status, attempts, next_attempt_at, last_error, message, user_id, channel_id FROM notification_deliveries WHERE company_id = ? ORDER BY created_at",
      )
      .bind(companyId)
      .all<any>()
  ).results.map((r) => ({ ...r, message: JSON.parse(r.message) }));

/** The default events of a company: an approval, a question, a blocked issue, a failed run, a budget stop. */
async function produceDefaultEvents(companyId: string) {
  const agent = await agentWithKey(companyId);
  await post(`/api/companies/${companyId}/approvals`, { type: "request_board_approval", payload: { title: "Buy acme.dev" } });
  const issue = await createIssue(companyId, { title: "Ship the launch", status: "todo", assigneeAgentId: agent.id });
  expect((await post(`/api/issues/${issue.id}/questions`, { prompt: "Which launch date?" }, { token: agent.token })).status).toBe(201);
  expect((await patch(`/api/issues/${issue.id}`, { status: "blocked", comment: "Waiting on legal" })).status).toBe(200);
  const endpoint = unique("ep");
  const failing = await post(`/api/companies/${companyId}/agents`, {
    name: unique("Flaky"),
    adapterType: "http",
    adapterConfig: { url: `${FAKE}/agent/${endpoint}?statuses=400` },
  });
  await post(`/api/agents/${failing.body.id}/wakeup`, { reason: "try" });
  await dispatch(companyId);
  await post(`/api/companies/${companyId}/budgets/policies`, { scopeType: "agent", scopeId: agent.id, amountCents: 50, notifyEnabled: false });
  await post(`/api/companies/${companyId}/cost-events`, {
    agentId: agent.id,
    provider: "openai",
    model: "m",
    costCents: 80,
    occurredAt: new Date().toISOString(),
  });
  return { agent, issue };
}

describe("notification channels deliver the default events", () => {
  it("to Slack, Discord, Telegram, Teams and email, each in its format, each event once", async () => {
    const company = await createCompany();
    const kinds: Kind[] = ["slack", "discord", "telegram", "teams", "email"];
    const made = await Promise.all(kinds.map((kind) => addChannel(company.id, kind)));
    await produceDefaultEvents(company.id);
    await deliver(company.id);
    await deliver(company.id);
    const expected = ["Approval waiting: Buy acme.dev", "Question from", "Blocked:", "Run failed", "Budget hard stop"];
    for (const [i, kind] of kinds.entries()) {
      const got = await received(made[i].id);
      for (const title of expected) expect(got.filter((r) => textOf(r).includes(title)).length, `${kind}: ${title}`).toBe(1);
      expect(got).toHaveLength(expected.length);
      const first = got.find((r) => textOf(r).includes("Approval waiting"))!;
      if (kind === "slack") expect(first.body).toMatchObject({ text: expect.stringContaining("Approval waiting"), blocks: expect.any(Array) });
      if (kind === "discord")
        expect(first.body.embeds[0]).toMatchObject({ title: expect.stringContaining("Approval waiting"), url: expect.stringContaining("/inbox") });
      if (kind === "telegram") {
        expect(first.path).toContain(`/bot${BOT_TOKEN}/sendMessage`);
        expect(first.body).toMatchObject({ chat_id: "-1001234567890", parse_mode: "HTML" });
      }
      if (kind === "teams") expect(first.body.attachments[0].content.type).toBe("AdaptiveCard");
      if (kind === "email") {
        expect(first.headers.authorization).toBe(`Bearer ${EMAIL_KEY}`);
        expect(first.body).toMatchObject({ from: "Acme <alerts@acme.dev>", to: ["board@acme.dev"], subject: expect.stringContaining("Approval waiting") });
        expect(first.body.html).toContain("<");
        expect(first.body.text).toContain("Approval waiting");
      }
    }
    // Every delivery succeeded, once.
    const all = await deliveries(company.id);
    expect(all.every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
    expect(all).toHaveLength(kinds.length * expected.length);
    // No secret in any message, and no secret in a read.
    const everything = JSON.stringify(await Promise.all(made.map((m) => received(m.id))));
    expect(everything.replace(new RegExp(`/bot${BOT_TOKEN}/`, "g"), "")).not.toContain(BOT_TOKEN);
    const reads = await get(`/api/companies/${company.id}/notification-channels`);
    expect(reads.status).toBe(200);
    expect(reads.text).not.toContain(BOT_TOKEN);
    expect(reads.text).not.toContain(EMAIL_KEY);
    expect(reads.text).not.toContain("/notify/slack/");
    expect(reads.body[0].target).toMatchObject({ type: "secret_ref" });
  });

  it("waits out each service's 429 (Retry-After, retry_after, parameters.retry_after) and retries a 500", async () => {
    const company = await createCompany();
    const channels = await Promise.all([
      addChannel(company.id, "slack", "rate-limited"),
      addChannel(company.id, "discord", "rate-limited"),
      addChannel(company.id, "telegram", "rate-limited"),
      addChannel(company.id, "teams", "flaky"),
    ]);
    await post(`/api/companies/${company.id}/approvals`, { type: "request_board_approval", payload: { title: "Rate limits" } });
    const before = Date.now();
    await deliver(company.id);
    const pending = await deliveries(company.id);
    expect(pending.map((d) => d.status)).toEqual(["pending", "pending", "pending", "pending"]);
    for (const d of pending.slice(0, 3)) expect(Date.parse(d.next_attempt_at) - before).toBeGreaterThanOrEqual(1000);
    // Due now: sent again, delivered.
    await testD1
      .prepare("UPDATE notification_deliveries SET next_attempt_at = ? WHERE company_id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), company.id)
      .run();
    await deliver(company.id);
    expect((await deliveries(company.id)).map((d) => [d.status, d.attempts])).toEqual(Array(4).fill(["succeeded", 2]));
    for (const c of channels) expect(await received(c.id)).toHaveLength(2);
  });

  it("a channel failing for 24 hours is disabled, with an activity entry and a message to the other channels", async () => {
    const company = await createCompany();
    const down = await addChannel(company.id, "slack", "down");
    const ok = await addChannel(company.id, "discord");
    await testD1
      .prepare("UPDATE notification_channels SET failing_since = ? WHERE id = ?")
      .bind(new Date(Date.now() - 25 * 3600_000).toISOString(), down.channel.id)
      .run();
    await post(`/api/companies/${company.id}/approvals`, { type: "request_board_approval", payload: { title: "Anyone there?" } });
    await deliver(company.id);
    await deliver(company.id);
    const channel = (await get(`/api/companies/${company.id}/notification-channels/${down.channel.id}`)).body;
    expect(channel).toMatchObject({ enabled: false, disabledReason: "Every message failed for 24 hours" });
    const activity = (await get(`/api/companies/${company.id}/activity?entityType=notification_channel`)).body;
    expect(activity.some((a: any) => a.action === "notification_channel.disabled")).toBe(true);
    const told = await received(ok.id);
    expect(told.some((r) => textOf(r).includes("Notification channel disabled"))).toBe(true);
    expect((await received(down.id)).some((r) => textOf(r).includes("Notification channel disabled"))).toBe(false);
  });

  it("a webhook failing for 24 hours is disabled (webhook.disabled) and the channels are told", async () => {
    const company = await createCompany();
    const slack = await addChannel(company.id, "slack", "ok", { events: ["webhook.disabled"] });
    const hook = await post(`/api/companies/${company.id}/webhooks`, { url: `${FAKE}/agent/${unique("hook")}?statuses=500`, events: ["issue.*"] });
    expect(hook.status).toBe(201);
    await testD1
      .prepare("UPDATE webhook_subscriptions SET failing_since = ? WHERE id = ?")
      .bind(new Date(Date.now() - 25 * 3600_000).toISOString(), hook.body.id)
      .run();
    await createIssue(company.id, { title: "Anything" });
    await deliver(company.id);
    await deliver(company.id);
    expect((await get(`/api/companies/${company.id}/webhooks/${hook.body.id}`)).body).toMatchObject({ enabled: false });
    const events = (await get(`/api/companies/${company.id}/events?types=webhook.disabled`)).body.events;
    expect(events).toMatchObject([{ type: "webhook.disabled", subject: { type: "webhook", id: hook.body.id } }]);
    const told = await received(slack.id);
    expect(told).toHaveLength(1);
    expect(textOf(told[0])).toContain("Webhook disabled");
  });

  it("the test route sends now and answers the outcome; the log lists it; a failed delivery is redelivered", async () => {
    const company = await createCompany();
    const { channel, id } = await addChannel(company.id, "slack");
    const test = await post(`/api/companies/${company.id}/notification-channels/${channel.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ status: "succeeded", eventType: "test", attempts: 1 });
    expect((await received(id))[0].body.text).toContain("Test message");
    const log = await get(`/api/companies/${company.id}/notification-channels/${channel.id}/deliveries`);
    expect(log.body.map((d: any) => d.id)).toContain(test.body.id);
    const gone = await addChannel(company.id, "slack", "gone");
    const refused = await post(`/api/companies/${company.id}/notification-channels/${gone.channel.id}/test`);
    expect(refused.body).toMatchObject({ status: "failed", responseStatus: 404 });
    const again = await post(`/api/companies/${company.id}/notification-channels/${gone.channel.id}/deliveries/${refused.body.id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body.attempts).toBe(2);
    expect((await received(gone.id)).length).toBe(2);
  });
});

describe("people's own notifications", () => {
  async function member(companyId: string, prefs: Record<string, unknown>) {
    const user = await boardUser(companyId, "member");
    const res = await call("PUT", `/api/companies/${companyId}/notification-preferences`, { body: prefs, token: user.token });
    expect(res.status, res.text).toBe(200);
    return user;
  }

  async function browser() {
    const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
    const p256dh = base64url.encode(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
    const { d } = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
    return { p256dh, auth: base64url.encode(crypto.getRandomValues(new Uint8Array(16))), privateKey: d! };
  }

  it("an issue assigned to a person and a question asked of them go to that person only: email and a push message that decrypts", async () => {
    const company = await createCompany();
    const slack = await addChannel(company.id, "slack");
    const mail = await addChannel(company.id, "email");
    const sam = await member(company.id, { email: "sam@acme.dev", emailEnabled: true });
    const other = await member(company.id, { email: "other@acme.dev", emailEnabled: true });
    const keys = await browser();
    const pushId = unique("push");
    const sub = await post(
      `/api/companies/${company.id}/push-subscriptions`,
      { endpoint: `${FAKE}/notify/push/ok/${pushId}`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
      { token: sam.token },
    );
    expect(sub.status, sub.text).toBe(201);
    const issue = await createIssue(company.id, { title: "Review the contract", status: "todo", assigneeUserId: sam.id });
    await deliver(company.id);
    const emails = (await received(mail.id)).filter((r) => textOf(r).includes("Assigned to you"));
    expect(emails.map((e) => e.body.to)).toEqual([["sam@acme.dev"]]);
    expect((await received(slack.id)).some((r) => textOf(r).includes("Assigned to you"))).toBe(false);
    const pushed = await received(pushId);
    expect(pushed).toHaveLength(1);
    expect(pushed[0].headers["content-encoding"]).toBe("aes128gcm");
    expect(pushed[0].headers.authorization).toMatch(/^vapid t=.+, k=.+$/);
    const payload = JSON.parse(
      new TextDecoder().decode(
        await decryptPushPayload(
          Uint8Array.from(atob(pushed[0].bodyBase64!), (ch) => ch.charCodeAt(0)),
          keys,
        ),
      ),
    );
    expect(payload).toMatchObject({ title: expect.stringContaining("Assigned to you: "), url: expect.stringContaining(`/issues/${issue.identifier}`) });
    expect(JSON.stringify(payload)).not.toContain(EMAIL_KEY);
    // A question asked of the other member: only them.
    const agent = await agentWithKey(company.id);
    const mine = await createIssue(company.id, { title: "Agent work", status: "todo", assigneeAgentId: agent.id });
    await post(`/api/issues/${mine.id}/questions`, { prompt: "Budget ok?", askedOfUserId: other.id }, { token: agent.token });
    await deliver(company.id);
    const asked = (await received(mail.id)).filter((r) => textOf(r).includes("Budget ok?"));
    expect(asked.map((e) => e.body.to)).toEqual([["other@acme.dev"]]);
    expect((await received(slack.id)).some((r) => textOf(r).includes("Budget ok?"))).toBe(false);
  });

  it("topics and quiet hours are respected; preferences are the caller's own", async () => {
    const company = await createCompany();
    await addChannel(company.id, "email");
    const quiet = await member(company.id, { email: "night@acme.dev", emailEnabled: true, quietStart: "00:00", quietEnd: "23:59", timeZone: "UTC" });
    const muted = await member(company.id, { email: "muted@acme.dev", emailEnabled: true, topics: { approvals: false } });
    await post(`/api/companies/${company.id}/approvals`, { type: "request_board_approval", payload: { title: "Late night" } });
    await deliver(company.id);
    const personal = (await deliveries(company.id)).filter((d) => d.destination === "personal_email");
    expect(personal.map((d) => d.user_id)).toEqual([quiet.id]);
    expect(personal[0].status).toBe("pending");
    expect(Date.parse(personal[0].next_attempt_at)).toBeGreaterThan(Date.now());
    expect(muted).toBeTruthy();
    // Another member does not see someone else's preferences: they get their own.
    const mine = await get(`/api/companies/${company.id}/notification-preferences`, { token: muted.token });
    expect(mine.body).toMatchObject({ userId: muted.id, email: "muted@acme.dev", topics: { approvals: false, questions: true } });
    const agent = await agentWithKey(company.id);
    expect((await get(`/api/companies/${company.id}/notification-preferences`, { token: agent.token })).status).toBe(403);
    expect(
      (await call("PUT", `/api/companies/${company.id}/notification-preferences`, { body: { emailEnabled: true, email: null }, token: muted.token })).status,
    ).toBe(400);
    expect(
      (await call("PUT", `/api/companies/${company.id}/notification-preferences`, { body: { quietStart: "25:00", quietEnd: "06:00" }, token: muted.token }))
        .status,
    ).toBe(400);
  });
});

describe("the daily digest", () => {
  it("is built from the day (finished, blocked, waiting, spend) and sent once at the member's and the channel's hour", async () => {
    const company = await createCompany({ budgetMonthlyCents: 10_000 });
    const mail = await addChannel(company.id, "email");
    const now = new Date();
    const hour = now.getUTCHours();
    const slack = await addChannel(company.id, "slack", "ok", { digestHour: hour, timeZone: "UTC", events: ["approval.created"] });
    const user = await boardUser(company.id, "member");
    expect(
      (
        await call("PUT", `/api/companies/${company.id}/notification-preferences`, {
          body: { email: "digest@acme.dev", emailEnabled: true, digestHour: hour, timeZone: "UTC" },
          token: user.token,
        })
      ).status,
    ).toBe(200);
    // The seeded day: two issues finished, one blocked, one assigned to the member, an approval waiting, $12.34 spent.
    for (const title of ["Ship v1", "Write the docs"]) {
      const issue = await createIssue(company.id, { title, status: "todo" });
      expect((await patch(`/api/issues/${issue.id}`, { status: "done" })).status).toBe(200);
    }
    await createIssue(company.id, { title: "Pay the invoice", status: "blocked" });
    await createIssue(company.id, { title: "Sign the lease", status: "todo", assigneeUserId: user.id });
    await post(`/api/companies/${company.id}/approvals`, { type: "request_board_approval", payload: { title: "Hire a designer" } });
    const agent = await agentWithKey(company.id);
    await post(`/api/companies/${company.id}/cost-events`, {
      agentId: agent.id,
      provider: "openai",
      model: "m",
      costCents: 1234,
      occurredAt: now.toISOString(),
    });
    await deliver(company.id);
    const before = (await received(mail.id)).length;

    await runScheduledTick(env, now);
    await deliver(company.id);
    const digests = (await received(mail.id)).slice(before).filter((r) => textOf(r).includes("Daily digest"));
    expect(digests).toHaveLength(1);
    const text: string = digests[0].body.text;
    expect(digests[0].body.to).toEqual(["digest@acme.dev"]);
    expect(text).toContain("Finished in the last day (2)");
    expect(text).toContain("Ship v1");
    expect(text).toContain("Blocked (1)");
    expect(text).toContain("Pay the invoice");
    expect(text).toMatch(/Waiting on you: 1 approval, 1 issue assigned to you/);
    expect(text).toContain("$12.34");
    expect(text).toContain("$12.34 of $100.00");
    const toChannel = (await received(slack.id)).filter((r) => textOf(r).includes("Daily digest"));
    expect(toChannel).toHaveLength(1);
    // Once a day: the next tick sends nothing more.
    await runScheduledTick(env, new Date(now.getTime() + 60_000));
    await deliver(company.id);
    expect((await received(mail.id)).filter((r) => textOf(r).includes("Daily digest"))).toHaveLength(1);
    expect((await received(slack.id)).filter((r) => textOf(r).includes("Daily digest"))).toHaveLength(1);
  });
});

describe("notification channels: callers and input", () => {
  it("refuses bad input (400), other companies and agents; the VAPID key is one per instance", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/notification-channels`;
    expect((await post(path, { kind: "pager", name: "x", target: "y" })).status).toBe(400);
    expect((await post(path, { kind: "slack", name: "x", target: "http://hooks.example.com/x" })).status).toBe(400);
    expect((await post(path, { kind: "slack", name: "x", target: "not a url" })).status).toBe(400);
    expect((await post(path, { kind: "telegram", name: "x", target: BOT_TOKEN })).status).toBe(400);
    expect((await post(path, { kind: "email", name: "x", target: EMAIL_KEY, provider: "resend", from: "a@b.co", to: ["nope"] })).status).toBe(400);
    expect((await post(path, { kind: "slack", name: "x", target: `${FAKE}/notify/slack/ok/x`, events: ["nope.*"] })).status).toBe(400);
    expect((await get(path)).body).toHaveLength(0);
    const stranger = await boardUser((await createCompany()).id);
    expect([403, 404]).toContain((await get(path, { token: stranger.token })).status);
    const agent = await agentWithKey(company.id);
    expect((await get(path, { token: agent.token })).status).toBe(403);
    const viewer = await boardUser(company.id, "viewer");
    expect((await post(path, channelBody("slack", "ok", "v"), { token: viewer.token })).status).toBe(403);
    const first = (await get("/api/notifications/vapid-public-key")).body.publicKey;
    expect(base64url.decode(first)).toHaveLength(65);
    expect((await get("/api/notifications/vapid-public-key")).body.publicKey).toBe(first);
  });
});
