// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property
// Notifications in the console (issue #38), in a real browser against a real `npm run dev`
// (local_trusted): the console installs (its web app manifest linked and served, its service worker
// registered at / and active, a push message shown as a notification); a member enables push on
// this device with PushManager stubbed in the page (a real subscription needs a push service this
// machine cannot reach) — the subscription registered through the API, a notification pushed to its
// endpoint that decrypts with the device's keys and shows through the service worker — and disables
// it; permission denied said plainly; Settings › Notifications (a refused URL's error next to its
// field, a Slack channel added, its test message delivered and logged, redelivered, edited,
// disabled, enabled and deleted after asking; a Telegram channel whose bot token is a company secret
// chosen by reference); the member's own preferences saved and kept after a reload; a channel the
// service disabled after a day of failures waiting on the board, live, linked to its settings. The
// fake Slack, Telegram and push service are test/setup/fake-notify.ts, served here. Every page gets
// axe-core and a screenshot, a 390 px pass and its ready time.
import { createDecipheriv, createECDH, type ECDH, hkdfSync, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { stoppedDeliveries } from "../../src/console/lib/inbox-items";
import { base64UrlBytes, bytesBase64Url, type ChannelDraft, channelBody, quietHours } from "../../src/console/lib/notifications";
import { serveFakeNotify } from "../setup/fake-notify";
import { type apiClient, browserSuite, checkPage, type DevServer, expectReadyWithin, noHorizontalScroll, ours, ready, visit } from "./harness";

let server: DevServer;
let api: ReturnType<typeof apiClient>;
const { newPage, newCompany } = browserSuite((suite) => ({ server, api } = suite));

const READY_BUDGET_MS = 1000;
let made = 0;
const unique = (what: string) => `${what}-${Date.now().toString(36)}-${++made}`;

/** A request the fake received: JSON bodies parsed, anything else (a push message) in base64. */
interface Received {
  service: string;
  path: string;
  headers: Record<string, string>;
  body: ({ text?: string } & Record<string, unknown>) | null;
  bodyBase64?: string;
}

/** The fake notification services (Slack, Telegram, a push service …) on a port of the test's own. */
async function fakeNotify() {
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!serveFakeNotify(new URL(req.url ?? "/", "http://fake"), req, res, Buffer.concat(chunks))) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  return {
    base,
    /** What the fake received under this id, in order. */
    received: async (id: string): Promise<Received[]> => (await fetch(`${base}/__notify/${id}`)).json(),
    close: () => http.close(),
  };
}

/** A browser's push keys as PushSubscription.toJSON() gives them (an uncompressed P-256 point, 16 bytes of auth), and its ECDH key to decrypt with. */
function deviceKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url"), ecdh, authSecret: auth };
}

/** A push message's payload, decrypted as the browser does (RFC 8291: aes128gcm, one record). */
function decryptPush(body: Buffer, device: { ecdh: ECDH; authSecret: Buffer }): string {
  const salt = body.subarray(0, 16);
  const keyLength = body[20];
  const serverKey = body.subarray(21, 21 + keyLength);
  const record = body.subarray(21 + keyLength);
  const info = (label: string) => Buffer.from(`Content-Encoding: ${label}\0`);
  const ikm = Buffer.from(
    hkdfSync(
      "sha256",
      device.ecdh.computeSecret(serverKey),
      device.authSecret,
      Buffer.concat([Buffer.from("WebPush: info\0"), device.ecdh.getPublicKey(), serverKey]),
      32,
    ),
  );
  const key = Buffer.from(hkdfSync("sha256", ikm, salt, info("aes128gcm"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, info("nonce"), 12));
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end], "the last record's delimiter").toBe(2);
  return padded.subarray(0, end).toString("utf8");
}

/**
 * Replaces the page's PushManager and Notification.requestPermission: `subscribe` answers a
 * subscription to `endpoint` with these keys (kept for the tab's session, so a reload still has it)
 * and records what it was asked; `requestPermission` answers `permission`.
 */
async function stubPush(page: Page, stub: { endpoint: string; p256dh: string; auth: string; permission: NotificationPermission }) {
  await page.addInitScript((s) => {
    const w = window as unknown as Record<string, unknown>;
    const make = (key: ArrayBuffer | null) => ({
      endpoint: s.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: key },
      getKey: () => null,
      toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: { p256dh: s.p256dh, auth: s.auth } }),
      unsubscribe: async () => {
        sessionStorage.removeItem("fake-push-key");
        w.__unsubscribed = true;
        return true;
      },
    });
    const manager = PushManager.prototype as unknown as Record<string, unknown>;
    manager.subscribe = async (options: PushSubscriptionOptionsInit) => {
      const key = new Uint8Array(options.applicationServerKey as ArrayBuffer);
      w.__subscribeOptions = { userVisibleOnly: options.userVisibleOnly, applicationServerKey: Array.from(key) };
      sessionStorage.setItem("fake-push-key", JSON.stringify(Array.from(key)));
      return make(key.buffer);
    };
    manager.getSubscription = async () => {
      const key = sessionStorage.getItem("fake-push-key");
      return key ? make(new Uint8Array(JSON.parse(key)).buffer) : null;
    };
    (Notification as unknown as Record<string, unknown>).requestPermission = async () => s.permission;
  }, stub);
}

/** The console's service worker registration as the page sees it once ready. */
const workerState = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { scope: registration.scope, active: registration.active?.scriptURL ?? null, state: registration.active?.state ?? null };
  });

/** Delivers a push message to the page's service worker (through the DevTools protocol, as a push service would) and returns the notifications it shows. */
async function pushToWorker(page: Page, data: string) {
  const cdp = await page.context().newCDPSession(page);
  const registrations: string[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (e: { registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> }) => {
    for (const r of e.registrations) if (!r.isDeleted && r.scopeURL === `${server.base}/`) registrations.push(r.registrationId);
  });
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.length).toBeGreaterThan(0);
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: server.base, registrationId: registrations[0], data });
  let shown: Array<{ title: string; body: string; tag: string; data: { url?: string } }> = [];
  await expect
    .poll(async () => {
      shown = await page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })),
      );
      return shown.length;
    })
    .toBeGreaterThan(0);
  await cdp.detach();
  return shown;
}

/** Sets columns of one row in the dev server's local D1 (every shard is tried: the row is on one): what no route makes, such as a channel failing for a day. */
function seedD1(table: string, id: string, set: string) {
  const dir = path.join(server.persistDir, "v3/d1/miniflare-D1DatabaseObject");
  let changed = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")) {
    // Node's own SQLite (no sqlite3 binary needed); workerd holds the file open, so wait for its lock.
    const db = new DatabaseSync(path.join(dir, file), { timeout: 5000 });
    try {
      changed += Number(db.prepare(`UPDATE ${table} SET ${set} WHERE id = ?`).run(id).changes);
    } catch {
      /* a database without the table (the directory) */
    } finally {
      db.close();
    }
  }
  expect(changed, `${table} ${id} seeded`).toBe(1);
}

const draft = (change: Partial<ChannelDraft>): ChannelDraft => ({
  kind: "slack",
  name: "Alerts",
  events: "",
  url: "",
  secretId: "",
  secretValue: "",
  chatId: "",
  apiBaseUrl: "",
  provider: "resend",
  from: "",
  to: "",
  ...change,
});

describe("notification forms and waiting items (pure)", () => {
  it("a new channel's body: the URL as it is, a token or key as a secret reference or pasted, each kind's own fields only", () => {
    expect(channelBody(draft({ url: " https://hooks.slack.com/services/T/B/X " }))).toEqual({
      body: { kind: "slack", name: "Alerts", events: ["*"], target: "https://hooks.slack.com/services/T/B/X" },
      errors: {},
    });
    expect(channelBody(draft({ kind: "discord" })).errors).toEqual({ target: "The webhook URL is required." });
    expect(channelBody(draft({ kind: "telegram", secretId: "s1", chatId: " -100 ", events: "approval.created question.asked" })).body).toEqual({
      kind: "telegram",
      name: "Alerts",
      events: ["approval.created", "question.asked"],
      target: { type: "secret_ref", secretId: "s1", version: "latest" },
      chatId: "-100",
    });
    expect(channelBody(draft({ kind: "telegram", secretValue: "123:abc", apiBaseUrl: "http://127.0.0.1:1/tg" })).body).toMatchObject({
      target: "123:abc",
      apiBaseUrl: "http://127.0.0.1:1/tg",
    });
    expect(channelBody(draft({ kind: "telegram", name: " " })).errors).toEqual({
      target: "Choose the bot token's secret, or paste the token.",
      name: "A name is required.",
    });
    expect(channelBody(draft({ kind: "email", provider: "postmark", secretId: "k", from: "Acme <a@acme.dev>", to: "b@acme.dev, c@acme.dev" })).body).toEqual({
      kind: "email",
      name: "Alerts",
      events: ["*"],
      target: { type: "secret_ref", secretId: "k", version: "latest" },
      provider: "postmark",
      from: "Acme <a@acme.dev>",
      to: ["b@acme.dev", "c@acme.dev"],
    });
  });

  it("quiet hours are both or neither; the VAPID key's base64url as bytes and back", () => {
    expect(quietHours("", "")).toEqual({ quietStart: null, quietEnd: null });
    expect(quietHours("22:00", "07:30")).toEqual({ quietStart: "22:00", quietEnd: "07:30" });
    expect(quietHours("22:00", "")).toEqual({ error: { quietEnd: "Give the end as well, or clear both." } });
    expect(quietHours("", "07:00")).toEqual({ error: { quietStart: "Give the start as well, or clear both." } });
    const key = randomBytes(65);
    const text = key.toString("base64url");
    expect(Buffer.from(base64UrlBytes(text))).toEqual(key);
    expect(bytesBase64Url(key.buffer.slice(key.byteOffset, key.byteOffset + key.length))).toBe(text);
  });

  it("waits on you: webhooks and channels the service disabled (not those the board turned off), latest first, linked to their settings", () => {
    const hook = (id: string, enabled: boolean, disabledReason: string | null, updatedAt: string, description: string | null = null) =>
      ({ id, url: `https://hooks.example.com/${id}`, enabled, disabledReason, updatedAt, description }) as Parameters<typeof stoppedDeliveries>[0][number];
    const channel = (id: string, enabled: boolean, disabledReason: string | null, updatedAt: string) =>
      ({ id, name: id.toUpperCase(), kind: "slack", enabled, disabledReason, updatedAt }) as Parameters<typeof stoppedDeliveries>[1][number];
    const stopped = stoppedDeliveries(
      [hook("h1", false, "Every delivery failed for 24 hours", "2026-01-01T00:00:00Z", "CI"), hook("h2", false, null, "2026-01-03T00:00:00Z")],
      [channel("c1", false, "Every message failed for 24 hours", "2026-01-02T00:00:00Z"), channel("c2", true, null, "2026-01-04T00:00:00Z")],
    );
    expect(stopped.map((s) => [s.kind, s.name, s.rest])).toEqual([
      ["channel", "C1 (slack)", "settings/notifications/c1"],
      ["webhook", "CI (hooks.example.com)", "settings/webhooks/h1"],
    ]);
  });
});

describe("board console: notifications", () => {
  it("installs: the web app manifest is linked and served, the service worker at /sw.js is active for the whole console and shows a push message", async () => {
    const { prefix } = await newCompany("Install Co");
    const page = await newPage();
    await page.context().grantPermissions(["notifications"], { origin: server.base });
    await visit(page, server.base, `${prefix}/dashboard`, "dashboard-installable", "Dashboard");
    expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/manifest.webmanifest");
    expect(await page.locator('meta[name="theme-color"]').getAttribute("content")).toMatch(/^#[0-9a-f]{6}$/i);
    const manifest = await fetch(`${server.base}/manifest.webmanifest`);
    expect(manifest.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const app = await manifest.json();
    expect(app).toMatchObject({ name: "Agent Control Plane", start_url: "/", scope: "/", display: "standalone", theme_color: expect.stringMatching(/^#/) });
    for (const icon of app.icons) {
      const res = await fetch(new URL(icon.src, server.base));
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    }
    const sw = await fetch(`${server.base}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
    // The first page loads no more than the registration: the worker is not among its modules.
    const scripts: string[] = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
    expect(scripts.filter((s) => s.includes("sw"))).toEqual([]);

    await expect.poll(() => workerState(page), { timeout: 15_000 }).toEqual({ scope: `${server.base}/`, active: `${server.base}/sw.js`, state: "activated" });
    // A push message (the service's payload shape) becomes a notification that opens the console's page.
    const shown = await pushToWorker(
      page,
      JSON.stringify({
        title: "Approval waiting: Buy a domain",
        body: "Ada (agent) asks the board to approve Buy a domain.",
        url: `${server.base}${prefix}/inbox`,
        tag: `${server.base}${prefix}/inbox`,
        level: "warning",
        eventType: "approval.created",
        companyId: "c",
      }),
    );
    expect(shown).toEqual([
      {
        title: "Approval waiting: Buy a domain",
        body: "Ada (agent) asks the board to approve Buy a domain.",
        tag: `${server.base}${prefix}/inbox`,
        data: { url: `${server.base}${prefix}/inbox` },
      },
    ]);
  });

  it("a member enables push on this device (PushManager stubbed): registered through the API, kept after a reload, a notification pushed to it decrypts and shows; Disable removes it", async () => {
    const { company, prefix } = await newCompany("Push Co");
    const fake = ours(await fakeNotify());
    const pushId = unique("push");
    const keys = deviceKeys();
    const page = await newPage();
    await page.context().grantPermissions(["notifications"], { origin: server.base });
    await stubPush(page, { endpoint: `${fake.base}/notify/push/ok/${pushId}`, p256dh: keys.p256dh, auth: keys.auth, permission: "granted" });
    await visit(page, server.base, `${prefix}/settings/my-notifications`, "my-notifications-push-off", "My notifications");
    const push = page.getByRole("region", { name: "Push on this device" });
    await expect.poll(() => push.locator("[data-push-state]").getAttribute("data-push-state")).toBe("off");
    await push.getByRole("button", { name: "Enable push on this device" }).click();
    await expect.poll(() => push.getByRole("status").innerText()).toBe("Push is enabled on this device.");
    await expect.poll(() => push.locator("[data-push-state]").getAttribute("data-push-state")).toBe("on");
    expect(await push.innerText()).toContain("This device is subscribed");
    // Subscribed with the instance's VAPID key, user-visible only.
    const { publicKey } = await api.get("/api/notifications/vapid-public-key");
    const asked = (await page.evaluate(() => (window as unknown as { __subscribeOptions: unknown }).__subscribeOptions)) as {
      userVisibleOnly: boolean;
      applicationServerKey: number[];
    };
    expect(asked.userVisibleOnly).toBe(true);
    expect(Buffer.from(asked.applicationServerKey).toString("base64url")).toBe(publicKey);
    // The API has the subscription (only its push service shown) and push on.
    const prefs = await api.get(`/api/companies/${company.id}/notification-preferences`);
    expect(prefs.pushEnabled).toBe(true);
    expect(prefs.pushSubscriptions).toEqual([
      { id: expect.any(String), service: new URL(fake.base).host, userAgent: expect.stringContaining("Chrome"), createdAt: expect.any(String) },
    ]);
    await checkPage(page, "my-notifications-push-on");
    await page.reload();
    await ready(page, "My notifications");
    await expect.poll(() => push.locator("[data-push-state]").getAttribute("data-push-state")).toBe("on");
    expect(await push.innerText()).toContain("No other device receives your push notifications.");

    // An issue assigned to the member: a push message to the device's endpoint that decrypts with its keys…
    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Renew the certificate", assigneeUserId: "local-board", status: "todo" });
    await expect.poll(async () => (await fake.received(pushId)).length, { timeout: 20_000 }).toBe(1);
    const [message] = await fake.received(pushId);
    expect(message.headers["content-encoding"]).toBe("aes128gcm");
    const payload = decryptPush(Buffer.from(message.bodyBase64!, "base64"), keys);
    expect(JSON.parse(payload)).toMatchObject({
      title: `Assigned to you: ${issue.identifier} Renew the certificate`,
      url: expect.stringContaining(`${prefix}/issues/${issue.identifier}`),
    });
    // …and the service worker shows it, linking to the issue.
    const [shown] = await pushToWorker(page, payload);
    expect(shown.title).toBe(`Assigned to you: ${issue.identifier} Renew the certificate`);
    expect(new URL(shown.data.url!).pathname).toBe(`${prefix}/issues/${issue.identifier}`);

    await push.getByRole("button", { name: "Disable push on this device" }).click();
    await expect.poll(() => push.locator("[data-push-state]").getAttribute("data-push-state")).toBe("off");
    expect((await api.get(`/api/companies/${company.id}/notification-preferences`)).pushSubscriptions).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __unsubscribed?: boolean }).__unsubscribed)).toBe(true);
    await checkPage(page, "my-notifications-push-disabled");
  });

  it("push refused by the browser: a clear message, nothing registered", async () => {
    const { company, prefix } = await newCompany("Denied Co");
    const keys = deviceKeys();
    const page = await newPage();
    await stubPush(page, { endpoint: "https://push.example.net/send/x", p256dh: keys.p256dh, auth: keys.auth, permission: "denied" });
    await visit(page, server.base, `${prefix}/settings/my-notifications`, "my-notifications-push", "My notifications");
    const push = page.getByRole("region", { name: "Push on this device" });
    await push.getByRole("button", { name: "Enable push on this device" }).click();
    await expect.poll(() => push.getByRole("alert").innerText()).toContain("Notifications are blocked for this site in the browser");
    expect(await page.evaluate(() => "__subscribeOptions" in window)).toBe(false);
    expect((await api.get(`/api/companies/${company.id}/notification-preferences`)).pushSubscriptions).toEqual([]);
    await checkPage(page, "my-notifications-push-denied");
  });

  it("Settings › Notifications: a refused URL's error next to its field; a Slack channel added, its test delivered and logged, redelivered, edited, disabled, enabled, deleted after asking", async () => {
    const { company, prefix } = await newCompany("Slack Co");
    const fake = ours(await fakeNotify());
    const slackId = unique("slack");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/settings`, "settings-with-notifications", "Settings");
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Notifications", exact: true }).click();
    await ready(page, "Notifications");
    await expect.poll(() => page.getByText("No notification channels yet.").count()).toBe(1);
    await checkPage(page, "settings-notifications-empty");

    const form = page.getByRole("form", { name: "New channel" });
    await form.getByLabel("Name").fill("Team alerts");
    const url = form.getByLabel("Webhook URL");
    await url.fill("http://hooks.example.com/services/T000/B000/XXXX");
    await form.getByRole("button", { name: "Add channel" }).click();
    await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true");
    const refusal = form.locator(".field-error");
    expect(await refusal.innerText()).toContain("target must be the slack webhook URL");
    expect(await url.getAttribute("aria-describedby")).toContain(await refusal.getAttribute("id"));
    expect(await api.get(`/api/companies/${company.id}/notification-channels`)).toEqual([]);
    await checkPage(page, "settings-notifications-refused");

    const hook = `${fake.base}/notify/slack/ok/${slackId}`;
    await url.fill(hook);
    await form.getByRole("button", { name: "Add channel" }).click();
    await ready(page, "Team alerts");
    const [channel] = await api.get(`/api/companies/${company.id}/notification-channels`);
    expect(channel).toMatchObject({ kind: "slack", name: "Team alerts", events: ["*"], enabled: true, target: { type: "secret_ref" } });
    expect(JSON.stringify(channel)).not.toContain("/notify/slack/");
    expect(await page.content()).not.toContain(hook);
    expect(await page.locator("main").innerText()).toContain("URL in the secret");
    await checkPage(page, "settings-notification");

    await page.getByRole("button", { name: "Send test" }).click();
    const controls = page.getByRole("region", { name: "Channel controls" });
    await expect.poll(() => controls.getByRole("status").innerText(), { timeout: 15_000 }).toBe("Test message delivered (the service answered 200).");
    const deliveries = page.getByRole("region", { name: "Deliveries", exact: true });
    await expect.poll(() => deliveries.innerText()).toMatch(/Succeeded\s+test\s+Test message from Slack Co[\s\S]*1 attempt · answered 200/);
    const sent = await fake.received(slackId);
    expect(sent).toHaveLength(1);
    expect(sent[0].body?.text).toContain("Test message");
    await deliveries.getByRole("button", { name: /^Redeliver test/ }).click();
    await expect.poll(async () => (await fake.received(slackId)).length, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => deliveries.innerText()).toContain("2 attempts · answered 200");
    await checkPage(page, "settings-notification-deliveries");

    // Its events: a refused one next to the field, then saved.
    await page.getByText("Edit name, events and digest").click();
    const edit = page.locator("details.edit form");
    const events = edit.getByLabel("Events");
    await events.fill("approval.created, nope.*");
    await edit.getByRole("button", { name: "Save channel" }).click();
    await expect.poll(() => events.getAttribute("aria-invalid")).toBe("true");
    expect(await edit.locator(".field-error").innerText()).toContain("Unknown event types: nope.*");
    await events.fill("approval.created, question.asked");
    await edit.getByRole("button", { name: "Save channel" }).click();
    await expect.poll(() => edit.getByRole("status").innerText()).toBe("Channel saved.");
    expect((await api.get(`/api/companies/${company.id}/notification-channels/${channel.id}`)).events).toEqual(["approval.created", "question.asked"]);

    await controls.getByRole("button", { name: "Disable" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}/notification-channels/${channel.id}`)).enabled).toBe(false);
    await controls.getByRole("button", { name: "Enable" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}/notification-channels/${channel.id}`)).enabled).toBe(true);

    await controls.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => controls.innerText()).toContain("Delete the channel “Team alerts”?");
    expect(await api.get(`/api/companies/${company.id}/notification-channels`)).toHaveLength(1);
    await controls.getByRole("button", { name: "Delete channel" }).click();
    await ready(page, "Notifications");
    await expect.poll(() => page.getByText("No notification channels yet.").count()).toBe(1);
    expect(await api.get(`/api/companies/${company.id}/notification-channels`)).toEqual([]);
  });

  it("a Telegram channel: its bot token one of the company's secrets, chosen by reference; its test message reaches the chat", async () => {
    const { company, prefix } = await newCompany("Telegram Co");
    const fake = ours(await fakeNotify());
    const telegramId = unique("telegram");
    const secret = await api.post(`/api/companies/${company.id}/secrets`, { name: "TELEGRAM_BOT_TOKEN", value: "123456:AAE-fake-bot-token" });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/settings/notifications`, "settings-notifications", "Notifications");
    const form = page.getByRole("form", { name: "New channel" });
    await form.getByLabel("Kind").selectOption("telegram");
    expect(await form.getByLabel("Webhook URL").count()).toBe(0);
    await form.getByLabel("Name").fill("Ops chat");
    await form.getByLabel("Bot token", { exact: true }).selectOption({ label: "TELEGRAM_BOT_TOKEN" });
    expect(await form.getByLabel("New bot token").count()).toBe(0);
    await form.getByLabel("Chat ID").fill("-1001234567890");
    await form.getByLabel("Bot API server").fill(`${fake.base}/notify/telegram/ok/${telegramId}`);
    await checkPage(page, "settings-notifications-telegram");
    await form.getByRole("button", { name: "Add channel" }).click();
    await ready(page, "Ops chat");
    const [channel] = await api.get(`/api/companies/${company.id}/notification-channels`);
    expect(channel).toMatchObject({ kind: "telegram", chatId: "-1001234567890", target: { type: "secret_ref", secretId: secret.id } });
    expect(await page.locator("main").innerText()).toContain("chat -1001234567890 · bot token in the secret TELEGRAM_BOT_TOKEN");
    await page.getByRole("button", { name: "Send test" }).click();
    await expect.poll(() => page.getByRole("region", { name: "Channel controls" }).getByRole("status").innerText(), { timeout: 15_000 }).toContain("delivered");
    const [sent] = await fake.received(telegramId);
    expect(sent.path).toBe(`/notify/telegram/ok/${telegramId}/bot123456:AAE-fake-bot-token/sendMessage`);
    expect(sent.body).toMatchObject({ chat_id: "-1001234567890", parse_mode: "HTML" });
    expect(await page.content()).not.toContain("AAE-fake-bot-token");
  });

  it("My notifications: topics, email, quiet hours in a time zone and the digest hour saved and kept after a reload; refusals next to their fields", async () => {
    const { company, prefix } = await newCompany("Prefs Co");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/settings`, "settings-company", "Settings");
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "My notifications" }).click();
    await ready(page, "My notifications");
    const form = page.getByRole("form", { name: "Notification settings" });
    // The defaults: everything but failed runs.
    expect(await form.getByLabel("A run fails or times out").isChecked()).toBe(false);
    expect(await form.getByLabel("A budget warning or hard stop").isChecked()).toBe(true);
    await form.getByLabel("A run fails or times out").check();
    await form.getByLabel("A budget warning or hard stop").uncheck();
    // Email without an address: the API's refusal under the address.
    await form.getByLabel("Email me").check();
    await form.getByRole("button", { name: "Save my notification settings" }).click();
    const email = form.getByLabel("Your email address");
    await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByRole("alert").innerText()).toContain("emailEnabled needs an email address");
    await email.fill("ada@example.com");
    // Quiet hours need both ends.
    await form.getByLabel("Quiet from").fill("22:00");
    await form.getByRole("button", { name: "Save my notification settings" }).click();
    await expect.poll(() => form.getByLabel("Quiet until").getAttribute("aria-invalid")).toBe("true");
    await form.getByLabel("Quiet until").fill("07:00");
    await form.getByLabel("Your time zone").selectOption("Europe/Berlin");
    await form.getByLabel("Daily digest").selectOption({ label: "At 08:00" });
    await form.getByRole("button", { name: "Save my notification settings" }).click();
    await expect.poll(() => form.getByRole("status").innerText()).toBe("Your notification settings are saved.");
    expect(await form.locator("[aria-invalid]").count()).toBe(0);
    const saved = await api.get(`/api/companies/${company.id}/notification-preferences`);
    expect(saved).toMatchObject({
      topics: { approvals: true, questions: true, assignments: true, blocked: true, runs: true, budgets: false, channels: true },
      email: "ada@example.com",
      emailEnabled: true,
      quietStart: "22:00",
      quietEnd: "07:00",
      timeZone: "Europe/Berlin",
      digestHour: 8,
    });
    await checkPage(page, "my-notifications-saved");

    await page.reload();
    await ready(page, "My notifications");
    expect(await form.getByLabel("A run fails or times out").isChecked()).toBe(true);
    expect(await form.getByLabel("A budget warning or hard stop").isChecked()).toBe(false);
    expect(await form.getByLabel("Email me").isChecked()).toBe(true);
    expect(await form.getByLabel("Your email address").inputValue()).toBe("ada@example.com");
    expect(await form.getByLabel("Quiet from").inputValue()).toBe("22:00");
    expect(await form.getByLabel("Quiet until").inputValue()).toBe("07:00");
    expect(await form.getByLabel("Your time zone").inputValue()).toBe("Europe/Berlin");
    expect(await form.getByLabel("Daily digest").inputValue()).toBe("8");
  });

  it("a channel the service disabled after a day of failures waits on you, live, and links to its settings; enabled again, it is gone", async () => {
    const { company, prefix } = await newCompany("Failing Co");
    const fake = ours(await fakeNotify());
    const channel = await api.post(`/api/companies/${company.id}/notification-channels`, {
      kind: "slack",
      name: "Ops alerts",
      target: `${fake.base}/notify/slack/down/${unique("down")}`,
    });
    const page = await newPage();
    await visit(page, server.base, `${prefix}/inbox`, "inbox-nothing-disabled", "Waiting on you");
    const stopped = page.getByRole("region", { name: /^Disabled webhooks and channels/ });
    await expect.poll(() => stopped.getByRole("heading", { level: 2 }).innerText()).toBe("Disabled webhooks and channels (0)");
    expect(await stopped.innerText()).toContain("Every webhook and notification channel is working.");
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));

    // Failing since yesterday (no route makes that): its next failure disables it.
    seedD1("notification_channels", channel.id, `failing_since = '${new Date(Date.now() - 25 * 3600_000).toISOString()}'`);
    const test = await api.post(`/api/companies/${company.id}/notification-channels/${channel.id}/test`);
    expect(test).toMatchObject({ status: expect.not.stringMatching(/^succeeded$/), responseStatus: 500 });
    expect(await api.get(`/api/companies/${company.id}/notification-channels/${channel.id}`)).toMatchObject({
      enabled: false,
      disabledReason: "Every message failed for 24 hours",
    });
    const [disabled] = (await api.get(`/api/companies/${company.id}/events?types=notification_channel.disabled`)).events;
    expect(disabled).toMatchObject({ subject: { type: "notification_channel", id: channel.id }, data: { kind: "slack", name: "Ops alerts" } });
    // The events hub streams what its own delivery pass wrote (this event) at the end of the pass.
    await expect.poll(() => stopped.getByRole("heading", { level: 2 }).innerText(), { timeout: 10_000 }).toBe("Disabled webhooks and channels (1)");
    const nav = page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: /Waiting on you/ });
    await expect.poll(() => nav.innerText()).toMatch(/Waiting on you\s*1/);
    expect(await stopped.innerText()).toContain("Notification channel Ops alerts (slack)");
    expect(await stopped.innerText()).toContain("Every message failed for 24 hours");
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await checkPage(page, "inbox-channel-disabled");

    await stopped.getByRole("link", { name: "Notification channel Ops alerts (slack)" }).click();
    await ready(page, "Ops alerts");
    expect(await page.locator("main").innerText()).toContain("Disabled: Every message failed for 24 hours");
    await page.getByRole("region", { name: "Channel controls" }).getByRole("button", { name: "Enable" }).click();
    await expect.poll(async () => (await api.get(`/api/companies/${company.id}/notification-channels/${channel.id}`)).enabled).toBe(true);
    await expect.poll(() => nav.innerText()).toBe("Waiting on you");
    await page
      .getByRole("navigation", { name: "Company" })
      .getByRole("link", { name: /Waiting on you/ })
      .click();
    await ready(page, "Waiting on you");
    await expect.poll(() => stopped.getByRole("heading", { level: 2 }).innerText()).toBe("Disabled webhooks and channels (0)");
  });

  it("live: projects, goals, the company's name, invites and an issue's documents change on the open page without a reload", async () => {
    const { company, prefix } = await newCompany("Live Co");
    const page = await newPage();
    await visit(page, server.base, `${prefix}/projects`, "projects-live", "Projects");
    await expect.poll(() => page.locator(".live").innerText()).toBe("Live");
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    const main = page.locator("main");
    const project = await api.post(`/api/companies/${company.id}/projects`, { name: "Made elsewhere" });
    await expect.poll(() => main.innerText(), { timeout: 10_000 }).toContain("Made elsewhere");

    await page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: "Goals" }).click();
    await ready(page, "Goals");
    const goal = await api.post(`/api/companies/${company.id}/goals`, { title: "Grow the user base", level: "company" });
    await expect.poll(() => main.innerText(), { timeout: 10_000 }).toContain("Grow the user base");
    await main.getByRole("link", { name: "Grow the user base" }).click();
    await ready(page, "Grow the user base");
    await api.patch(`/api/goals/${goal.id}`, { title: "Grow the user base tenfold" });
    await expect.poll(() => page.locator("main h1").innerText(), { timeout: 10_000 }).toBe("Grow the user base tenfold");
    // A project set to work towards it shows under it.
    await api.patch(`/api/projects/${project.id}?companyId=${company.id}`, { goalIds: [goal.id] });
    await expect.poll(() => main.innerText(), { timeout: 10_000 }).toContain("Made elsewhere");

    // The company renamed: the header says so.
    await api.patch(`/api/companies/${company.id}/branding`, { name: `${company.name} Renamed` });
    await expect.poll(() => page.locator("header .company-name").innerText(), { timeout: 10_000 }).toBe(`${company.name} Renamed`);

    await page.getByRole("navigation", { name: "Company" }).getByRole("link", { name: "Settings" }).click();
    await ready(page, "Settings");
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Members and invites" }).click();
    await ready(page, "Members and invites");
    const invites = page.getByRole("region", { name: "Invites", exact: true });
    await expect.poll(() => invites.innerText()).toContain("No invites yet.");
    await api.post(`/api/companies/${company.id}/invites`, { inviteType: "agent", agentName: "Dex" });
    await expect.poll(() => invites.innerText(), { timeout: 10_000 }).toContain("Agent Dex");

    const issue = await api.post(`/api/companies/${company.id}/issues`, { title: "Write it down" });
    await page.goto(`${server.base}${prefix}/issues/${issue.identifier}`);
    await ready(page, /Write it down/);
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    const documents = page.getByRole("region", { name: "Documents", exact: true });
    await api.put(`/api/issues/${issue.id}/documents/notes`, { title: "Meeting notes", body: "# Notes\n\nShip on Friday.\n" });
    await expect.poll(() => documents.innerText(), { timeout: 10_000 }).toContain("Meeting notes");
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  /** A company with a Slack channel that has delivered a test message, and one disabled after failing. */
  async function notifyingCompany() {
    const { company, prefix } = await newCompany("Notify Co");
    const fake = ours(await fakeNotify());
    const channel = await api.post(`/api/companies/${company.id}/notification-channels`, {
      kind: "slack",
      name: "A channel with a rather long name for a narrow screen",
      target: `${fake.base}/notify/slack/ok/${unique("slack")}`,
      events: ["approval.created", "question.asked", "issue.assigned", "run.finished"],
    });
    await api.post(`/api/companies/${company.id}/notification-channels/${channel.id}/test`);
    const down = await api.post(`/api/companies/${company.id}/notification-channels`, {
      kind: "slack",
      name: "Down",
      target: `${fake.base}/notify/slack/down/${unique("down")}`,
    });
    seedD1("notification_channels", down.id, `enabled = 0, disabled_reason = 'Every message failed for 24 hours'`);
    return { company, prefix, channel };
  }

  it("at 390 px wide none of these pages scrolls sideways", async () => {
    const { prefix, channel } = await notifyingCompany();
    const small = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const pages: Array<[string, string]> = [
      [`${prefix}/settings/notifications`, "settings-notifications"],
      [`${prefix}/settings/notifications/${channel.id}`, "settings-notification"],
      [`${prefix}/settings/my-notifications`, "my-notifications"],
      [`${prefix}/inbox`, "inbox-channel-disabled"],
    ];
    for (const [url, name] of pages) {
      await small.goto(`${server.base}${url}`);
      await ready(small);
      await noHorizontalScroll(small, name);
      await checkPage(small, `phone-${name}`);
    }
    // The new-channel form with an email channel's fields.
    await small.goto(`${server.base}${prefix}/settings/notifications`);
    await ready(small, "Notifications");
    await small.getByRole("form", { name: "New channel" }).getByLabel("Kind").selectOption("email");
    await noHorizontalScroll(small, "new email channel");
    await checkPage(small, "phone-settings-notifications-email");
  });

  it("the notification pages are ready within 1 s of their navigation (median of 3 loads)", async () => {
    const { prefix, channel } = await notifyingCompany();
    const page = await newPage();
    await expectReadyWithin(
      page,
      server.base,
      [
        ["notifications", `${prefix}/settings/notifications`],
        ["notification channel", `${prefix}/settings/notifications/${channel.id}`],
        ["my notifications", `${prefix}/settings/my-notifications`],
        ["inbox with a disabled channel", `${prefix}/inbox`],
      ],
      READY_BUDGET_MS,
    );
  });
});
