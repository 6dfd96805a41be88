// Notification formats (src/domain/notifications/formats/): each service's request from a
// Notification (its documented shape, every text escaped for its markup, long texts cut to its
// limits with "…"), what each service's answers mean, and both together against the fake services
// (test/setup/fake-notify.ts) in every scenario.
import type { Server } from "node:http";
import { base64url } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptPushPayload, generateVapidKeys, type VapidKeys } from "../../src/crypto/web-push";
import { classifyNotificationAnswer, type NotificationTarget, notificationRequest } from "../../src/domain/notifications/formats";
import type { ServiceAnswer } from "../../src/domain/notifications/formats/answer";
import { classifyDiscordAnswer, DISCORD_COLORS, DISCORD_LIMITS, discordRequest } from "../../src/domain/notifications/formats/discord";
import { emailContent } from "../../src/domain/notifications/formats/email";
import { classifyPostmarkAnswer, postmarkRequest } from "../../src/domain/notifications/formats/postmark";
import { classifyResendAnswer, resendRequest } from "../../src/domain/notifications/formats/resend";
import { classifySlackAnswer, SLACK_LIMITS, slackRequest } from "../../src/domain/notifications/formats/slack";
import { classifyTeamsAnswer, teamsRequest } from "../../src/domain/notifications/formats/teams";
import { classifyTelegramAnswer, redactBotToken, TELEGRAM_TEXT_LIMIT, telegramRequest } from "../../src/domain/notifications/formats/telegram";
import { cut, escapeDiscord, fitEscaped } from "../../src/domain/notifications/formats/text";
import type { DeliveryOutcome, Notification } from "../../src/domain/notifications/message";
import { startFakeAgentServer } from "../setup/fake-agent-server";

const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_x";

const approval: Notification = {
  eventType: "approval.created",
  title: "Approval waiting: Buy a domain",
  body: "Ada asks to buy acme.dev for $12.",
  actor: "Ada (agent)",
  fields: [
    { label: "Cost", value: "$12.00" },
    { label: "Issue", value: "ACME-7 Launch the site" },
  ],
  link: { url: "https://acp.example/c/acme/approvals/a1", label: "Review the approval" },
  level: "warning",
  company: { id: "co_1", name: "Acme" },
};

/** Every kind of markup each service would act on, in every text. */
const hostile: Notification = {
  eventType: "question.asked",
  title: "Question from <b>Ada</b> & co\nsecond line",
  body: 'Is <script>alert(1)</script> & "ok"? [click](https://evil.example) <!channel> <@U123> **bold** @everyone\n# heading\n- item',
  actor: "Ada <ada@acme.dev>",
  fields: [{ label: "Issue <i>", value: "ACME-1 <x> & [y](z)" }],
  link: { url: "https://acp.example/c/acme/issues/ACME-1?tab=a&b=<c>", label: "Open <ACME-1>" },
  level: "info",
  company: { id: "co_1", name: "Acme & Sons" },
};

const long = (n: Notification): Notification => ({
  ...n,
  title: "T".repeat(1000),
  body: "a & b < c ".repeat(2000),
  fields: Array.from({ length: 40 }, (_, i) => ({ label: `Field ${i} ${"L".repeat(300)}`, value: "v & w ".repeat(500) })),
});

const json = (body: string | Uint8Array) => JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
const answer = (status: number, body: unknown = "", headers: Record<string, string> = {}): ServiceAnswer => ({
  status,
  headers,
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("text helpers", () => {
  it("cuts to the limit with an ellipsis, never inside a surrogate pair", () => {
    expect(cut("abcdef", 6)).toBe("abcdef");
    expect(cut("abcdef", 4)).toBe("abc…");
    expect(cut("ab😀cd", 4)).toBe("ab…");
  });

  it("cuts the plain text, not the escaped one, so no entity or escape is broken", () => {
    const out = fitEscaped("&&&&&&&&&&", 12, (t) => t.replace(/&/g, "&amp;"));
    expect(out.length).toBeLessThanOrEqual(12);
    expect(out).toBe("&amp;&amp;…");
    expect(escapeDiscord("a*b_c `d` [e](f) <@1>\n# h\n- i\n1. j")).toBe("a\\*b\\_c \\`d\\` \\[e\\](f) \\<@1>\n\\# h\n\\- i\n1\\. j");
  });
});

describe("Slack", () => {
  it("posts Block Kit to the webhook: header, body, fields, who and which company, the console link, and a text fallback", () => {
    const request = slackRequest(approval, { webhookUrl: "https://hooks.slack.com/services/T0/B0/x" });
    expect(request).toMatchObject({ url: "https://hooks.slack.com/services/T0/B0/x", method: "POST", headers: { "content-type": "application/json" } });
    const { text, blocks } = json(request.body);
    expect(text).toBe("Approval waiting: Buy a domain (Acme) — <https://acp.example/c/acme/approvals/a1|Review the approval>");
    expect(blocks).toEqual([
      { type: "header", text: { type: "plain_text", text: "⚠️ Approval waiting: Buy a domain", emoji: true } },
      { type: "section", text: { type: "mrkdwn", text: "Ada asks to buy acme.dev for $12." } },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: "*Cost*\n$12.00" },
          { type: "mrkdwn", text: "*Issue*\nACME-7 Launch the site" },
        ],
      },
      { type: "context", elements: [{ type: "mrkdwn", text: "Ada (agent) · Acme" }] },
      { type: "section", text: { type: "mrkdwn", text: "<https://acp.example/c/acme/approvals/a1|Review the approval>" } },
    ]);
  });

  it("escapes &, < and > in every mrkdwn text, so no mention, link or markup can be injected", () => {
    const { text, blocks } = json(slackRequest(hostile, { webhookUrl: "https://hooks.slack.com/x" }).body);
    const link = "<https://acp.example/c/acme/issues/ACME-1?tab=a&amp;b=%3Cc%3E|Open &lt;ACME-1&gt;>";
    const mrkdwn = [
      text,
      ...blocks
        .flatMap((b: any) => [b.text, ...(b.fields ?? []), ...(b.elements ?? [])])
        .filter((t: any) => t?.type === "mrkdwn")
        .map((t: any) => t.text),
    ];
    for (const t of mrkdwn) expect(t.replace(link, "")).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
    expect(blocks[1].text.text).toContain('Is &lt;script&gt;alert(1)&lt;/script&gt; &amp; "ok"? [click](https://evil.example) &lt;!channel&gt; &lt;@U123&gt;');
    expect(blocks[0].text.text).toBe("Question from <b>Ada</b> & co second line");
    expect(blocks.at(-1).text.text).toBe(link);
  });

  it("cuts long texts to Block Kit's limits with …", () => {
    const { blocks } = json(slackRequest(long(approval), { webhookUrl: "https://hooks.slack.com/x" }).body);
    expect(blocks[0].text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.header);
    expect(blocks[1].text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(blocks[1].text.text.endsWith("…")).toBe(true);
    const fieldSections = blocks.filter((b: any) => b.fields);
    expect(fieldSections.map((b: any) => b.fields.length)).toEqual([10, 10]);
    for (const f of fieldSections.flatMap((b: any) => b.fields)) expect(f.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fieldText);
  });

  it("classifies Slack's answers: 200 ok, 429 after Retry-After, 5xx retried, 403/404/410 refusals failed", () => {
    expect(classifySlackAnswer(answer(200, "ok"))).toEqual({ kind: "delivered", status: 200 });
    expect(classifySlackAnswer(answer(429, "rate_limited", { "Retry-After": "30" }))).toEqual({
      kind: "retry",
      status: 429,
      retryAfterMs: 30_000,
      error: "Slack: HTTP 429 rate_limited",
    });
    const now = Date.parse("2026-11-20T10:00:00Z");
    expect(classifySlackAnswer(answer(429, "", { "retry-after": "Fri, 20 Nov 2026 10:00:09 GMT" }), now)).toMatchObject({ retryAfterMs: 9000 });
    expect(classifySlackAnswer(answer(500, "rollup_error"))).toEqual({ kind: "retry", status: 500, retryAfterMs: null, error: "Slack: HTTP 500 rollup_error" });
    expect(classifySlackAnswer(answer(404, "no_service"))).toEqual({ kind: "failed", status: 404, error: "Slack: HTTP 404 no_service" });
    expect(classifySlackAnswer(answer(404, "channel_not_found"))).toMatchObject({ kind: "failed", error: "Slack: HTTP 404 channel_not_found" });
    expect(classifySlackAnswer(answer(403, "invalid_token"))).toMatchObject({ kind: "failed", status: 403 });
    expect(classifySlackAnswer(answer(410, "channel_is_archived"))).toMatchObject({ kind: "failed", status: 410 });
    expect(classifySlackAnswer(answer(502, "<html>Bad gateway</html>"))).toMatchObject({ kind: "retry", error: "Slack: HTTP 502" });
  });
});

describe("Discord", () => {
  it("posts one embed with ?wait=true (keeping the webhook's own query), the level's colour and no mentions ever", () => {
    const request = discordRequest(approval, { webhookUrl: "https://discord.com/api/webhooks/1/tok?thread_id=9" }, "2026-11-20T10:00:00.000Z");
    expect(request.url).toBe("https://discord.com/api/webhooks/1/tok?thread_id=9&wait=true");
    const body = json(request.body);
    expect(body.content).toBeUndefined();
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds).toEqual([
      {
        title: "Approval waiting: Buy a domain",
        description: "Ada asks to buy acme.dev for $12.\n\n[Review the approval](https://acp.example/c/acme/approvals/a1)",
        url: "https://acp.example/c/acme/approvals/a1",
        color: DISCORD_COLORS.warning,
        fields: [
          { name: "Cost", value: "$12.00", inline: true },
          { name: "Issue", value: "ACME-7 Launch the site", inline: true },
        ],
        footer: { text: "Ada (agent) · Acme" },
        timestamp: "2026-11-20T10:00:00.000Z",
      },
    ]);
  });

  it("escapes markdown in the description and field values, so no masked link, mention or heading renders", () => {
    const [embed] = json(discordRequest(hostile, { webhookUrl: "https://discord.com/api/webhooks/1/tok" }).body).embeds;
    expect(embed.description).toContain("\\[click\\](https://evil.example) \\<!channel> \\<@U123> \\*\\*bold\\*\\* @everyone\n\\# heading\n\\- item");
    expect(embed.fields[0]).toEqual({ name: "Issue <i>", value: "ACME-1 \\<x> & \\[y\\](z)", inline: true });
    expect(embed.title).toBe("Question from <b>Ada</b> & co second line");
    expect(embed.url).toBe(hostile.link.url);
  });

  it("keeps within Discord's embed limits: 4096 description, 25 fields of 1024, 6000 in all", () => {
    const [embed] = json(discordRequest(long(approval), { webhookUrl: "https://discord.com/api/webhooks/1/tok" }).body).embeds;
    expect(embed.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(embed.description.length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
    expect(embed.fields.length).toBeGreaterThan(0);
    for (const f of embed.fields) {
      expect(f.name.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
      expect(f.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    }
    const total =
      embed.title.length +
      embed.description.length +
      embed.footer.text.length +
      embed.fields.reduce((n: number, f: any) => n + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.total);
    expect(embed.description).toContain("[Review the approval](https://acp.example/c/acme/approvals/a1)");
    const many = { ...approval, fields: Array.from({ length: 30 }, (_, i) => ({ label: `F${i}`, value: `v${i}` })) };
    expect(json(discordRequest(many, { webhookUrl: "https://discord.com/api/webhooks/1/tok" }).body).embeds[0].fields).toHaveLength(DISCORD_LIMITS.fields);
  });

  it("classifies Discord's answers: 200/204 delivered, 429 after its retry_after (or Retry-After), 401/403/404 failed", () => {
    expect(classifyDiscordAnswer(answer(200, { id: "1" }))).toEqual({ kind: "delivered", status: 200 });
    expect(classifyDiscordAnswer(answer(204))).toEqual({ kind: "delivered", status: 204 });
    expect(classifyDiscordAnswer(answer(429, { message: "You are being rate limited.", retry_after: 0.347, global: false }, { "retry-after": "1" }))).toEqual({
      kind: "retry",
      status: 429,
      retryAfterMs: 347,
      error: "Discord: HTTP 429 You are being rate limited.",
    });
    expect(classifyDiscordAnswer(answer(429, "", { "Retry-After": "2" }))).toMatchObject({ kind: "retry", retryAfterMs: 2000 });
    expect(classifyDiscordAnswer(answer(404, { message: "Unknown Webhook", code: 10015 }))).toEqual({
      kind: "failed",
      status: 404,
      error: "Discord: HTTP 404 Unknown Webhook (10015)",
    });
    expect(classifyDiscordAnswer(answer(401, { message: "401: Unauthorized", code: 0 }))).toMatchObject({ kind: "failed", status: 401 });
    expect(classifyDiscordAnswer(answer(403, { message: "Missing Access", code: 50001 }))).toMatchObject({ kind: "failed", status: 403 });
    expect(classifyDiscordAnswer(answer(503, "upstream connect error"))).toMatchObject({ kind: "retry", status: 503, retryAfterMs: null });
  });
});

describe("Telegram", () => {
  it("calls sendMessage on the Bot API (the public one by default) with safe HTML and no link preview", () => {
    const request = telegramRequest(approval, { botToken: TOKEN, chatId: "-1001234567890" });
    expect(request.url).toBe(`https://api.telegram.org/bot${TOKEN}/sendMessage`);
    expect(telegramRequest(approval, { botToken: TOKEN, chatId: "1", apiBaseUrl: "http://127.0.0.1:8081/" }).url).toBe(
      `http://127.0.0.1:8081/bot${TOKEN}/sendMessage`,
    );
    expect(json(request.body)).toEqual({
      chat_id: "-1001234567890",
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      text:
        "<b>⚠️ Approval waiting: Buy a domain</b>\nAda asks to buy acme.dev for $12.\n\n<b>Cost:</b> $12.00\n<b>Issue:</b> ACME-7 Launch the site\n\n" +
        '<i>Ada (agent) · Acme</i>\n<a href="https://acp.example/c/acme/approvals/a1">Review the approval</a>',
    });
  });

  it("escapes &, < and > in every text and uses only tags Telegram supports", () => {
    const { text } = json(telegramRequest(hostile, { botToken: TOKEN, chatId: "1" }).body);
    expect(new Set([...text.matchAll(/<\/?([a-z-]+)/g)].map((m) => m[1]))).toEqual(new Set(["b", "i", "a"]));
    expect(text).toContain("<b>Question from &lt;b&gt;Ada&lt;/b&gt; &amp; co second line</b>");
    expect(text).toContain('Is &lt;script&gt;alert(1)&lt;/script&gt; &amp; "ok"?');
    expect(text).toContain("<b>Issue &lt;i&gt;:</b> ACME-1 &lt;x&gt; &amp; [y](z)");
    expect(text).toContain('<a href="https://acp.example/c/acme/issues/ACME-1?tab=a&amp;b=&lt;c&gt;">Open &lt;ACME-1&gt;</a>');
  });

  it("keeps the message within 4096 characters, the body cut with … and the link kept", () => {
    const { text } = json(telegramRequest(long(approval), { botToken: TOKEN, chatId: "1" }).body);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text).toContain("…");
    expect(text.endsWith('<a href="https://acp.example/c/acme/approvals/a1">Review the approval</a>')).toBe(true);
  });

  it("classifies the Bot API's answers: ok, 429 after parameters.retry_after, chat not found / blocked / bad token failed", () => {
    expect(classifyTelegramAnswer(answer(200, { ok: true, result: { message_id: 1 } }))).toEqual({ kind: "delivered", status: 200 });
    expect(
      classifyTelegramAnswer(answer(429, { ok: false, error_code: 429, description: "Too Many Requests: retry after 5", parameters: { retry_after: 5 } })),
    ).toEqual({
      kind: "retry",
      status: 429,
      retryAfterMs: 5000,
      error: "Telegram: HTTP 429 Too Many Requests: retry after 5",
    });
    expect(classifyTelegramAnswer(answer(400, { ok: false, error_code: 400, description: "Bad Request: chat not found" }))).toEqual({
      kind: "failed",
      status: 400,
      error: "Telegram: HTTP 400 Bad Request: chat not found",
    });
    expect(
      classifyTelegramAnswer(
        answer(400, {
          ok: false,
          error_code: 400,
          description: "Bad Request: group chat was upgraded to a supergroup chat",
          parameters: { migrate_to_chat_id: -1009 },
        }),
      ),
    ).toMatchObject({ kind: "failed", error: expect.stringContaining("(the group is now chat -1009)") });
    expect(classifyTelegramAnswer(answer(403, { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" }))).toMatchObject({
      kind: "failed",
      status: 403,
    });
    expect(classifyTelegramAnswer(answer(401, { ok: false, error_code: 401, description: "Unauthorized" }))).toMatchObject({ kind: "failed", status: 401 });
    expect(classifyTelegramAnswer(answer(404, { ok: false, error_code: 404, description: "Not Found" }))).toMatchObject({ kind: "failed", status: 404 });
    expect(classifyTelegramAnswer(answer(502, "Bad Gateway"))).toMatchObject({ kind: "retry", status: 502 });
  });

  it("never puts the bot token in an error, even when an answer quotes it", () => {
    const outcome = classifyTelegramAnswer(answer(404, { ok: false, error_code: 404, description: `Not Found: /bot${TOKEN}/sendMessage` }));
    expect(outcome.kind === "failed" && outcome.error).toBe("Telegram: HTTP 404 Not Found: /bot[redacted]/sendMessage");
    expect(JSON.stringify(outcome)).not.toContain(TOKEN.split(":")[1]);
    expect(redactBotToken(`fetch failed: https://api.telegram.org/bot${TOKEN}/sendMessage`)).toBe(
      "fetch failed: https://api.telegram.org/bot[redacted]/sendMessage",
    );
  });
});

describe("Teams", () => {
  it("posts a message with one Adaptive Card 1.4: title, body, facts, who, and an Open URL action", () => {
    const request = teamsRequest(approval, { webhookUrl: "https://prod-1.westeurope.logic.azure.com/workflows/x/triggers/manual/paths/invoke?sig=s" });
    expect(request.url).toBe("https://prod-1.westeurope.logic.azure.com/workflows/x/triggers/manual/paths/invoke?sig=s");
    const body = json(request.body);
    expect(body.type).toBe("message");
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = body.attachments[0].content;
    expect(card).toMatchObject({ type: "AdaptiveCard", $schema: "http://adaptivecards.io/schemas/adaptive-card.json", version: "1.4" });
    expect(card.body).toEqual([
      { type: "TextBlock", text: "Approval waiting: Buy a domain", size: "Large", weight: "Bolder", color: "Warning", wrap: true },
      { type: "TextBlock", text: "Ada asks to buy acme.dev for $12.", wrap: true },
      {
        type: "FactSet",
        facts: [
          { title: "Cost", value: "$12.00" },
          { title: "Issue", value: "ACME-7 Launch the site" },
        ],
      },
      { type: "TextBlock", text: "Ada (agent) · Acme", isSubtle: true, size: "Small", wrap: true },
    ]);
    expect(card.actions).toEqual([{ type: "Action.OpenUrl", title: "Review the approval", url: "https://acp.example/c/acme/approvals/a1" }]);
  });

  it("carries texts as plain JSON strings and keeps a long notification small", () => {
    const card = json(teamsRequest(hostile, { webhookUrl: "https://x.example/w" }).body).attachments[0].content;
    expect(card.body[1].text).toBe(hostile.body);
    expect(card.actions[0].url).toBe(hostile.link.url);
    expect(teamsRequest(long(approval), { webhookUrl: "https://x.example/w" }).body.length).toBeLessThan(28_000);
  });

  it("classifies the workflow's answers: 200/202 delivered, 429 after Retry-After, 5xx retried, 4xx failed", () => {
    expect(classifyTeamsAnswer(answer(202))).toEqual({ kind: "delivered", status: 202 });
    expect(classifyTeamsAnswer(answer(200, "1"))).toEqual({ kind: "delivered", status: 200 });
    expect(classifyTeamsAnswer(answer(429, "", { "Retry-After": "12" }))).toMatchObject({ kind: "retry", retryAfterMs: 12_000 });
    expect(classifyTeamsAnswer(answer(404, { error: { code: "WorkflowNotFound", message: "gone" } }))).toEqual({
      kind: "failed",
      status: 404,
      error: "Teams: HTTP 404 WorkflowNotFound: gone",
    });
    expect(classifyTeamsAnswer(answer(400))).toMatchObject({ kind: "failed", status: 400 });
    expect(classifyTeamsAnswer(answer(500))).toMatchObject({ kind: "retry", status: 500 });
  });
});

describe("email", () => {
  const settings = { provider: "resend" as const, apiKey: "re_123", from: "Acme agents <agents@acme.dev>", to: ["sam@acme.dev", "ada@acme.dev"] };

  it("has a one-line subject, a plain-text part and an escaped, accessible HTML part", () => {
    const { subject, text, html } = emailContent(hostile);
    expect(subject).toBe("[Acme & Sons] Question from <b>Ada</b> & co second line");
    expect(text).toContain(hostile.body);
    expect(text).toContain("Issue <i>: ACME-1 <x> & [y](z)");
    expect(text).toContain("Open <ACME-1>: https://acp.example/c/acme/issues/ACME-1?tab=a&b=<c>");
    expect(html).not.toMatch(/<script|<b>|<i>|<x>|<c>/);
    expect(html).toContain("Is &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;ok&quot;?");
    expect(html).toContain('<a href="https://acp.example/c/acme/issues/ACME-1?tab=a&amp;b=&lt;c&gt;"');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1");
    expect(html).toContain('<th scope="row"');
    expect(html).toContain("<title>[Acme &amp; Sons] Question from &lt;b&gt;Ada&lt;/b&gt; &amp; co second line</title>");
  });

  it("sends through Resend: POST /emails with the bearer key, to as a list", () => {
    const request = resendRequest(approval, settings);
    expect(request.url).toBe("https://api.resend.com/emails");
    expect(request.headers).toEqual({ "content-type": "application/json", authorization: "Bearer re_123" });
    const body = json(request.body);
    expect(body).toMatchObject({
      from: "Acme agents <agents@acme.dev>",
      to: ["sam@acme.dev", "ada@acme.dev"],
      subject: "[Acme] Approval waiting: Buy a domain",
    });
    expect(body.text).toContain("Review the approval: https://acp.example/c/acme/approvals/a1");
    expect(body.html).toContain("Review the approval</a>");
    expect(resendRequest(approval, { ...settings, apiBaseUrl: "http://127.0.0.1:9/r/" }).url).toBe("http://127.0.0.1:9/r/emails");
  });

  it("sends through Postmark: POST /email with the server token, To joined, the outbound stream", () => {
    const request = postmarkRequest(approval, { ...settings, provider: "postmark", apiKey: "pm-token" });
    expect(request.url).toBe("https://api.postmarkapp.com/email");
    expect(request.headers).toEqual({ "content-type": "application/json", accept: "application/json", "x-postmark-server-token": "pm-token" });
    const body = json(request.body);
    expect(body).toMatchObject({
      From: "Acme agents <agents@acme.dev>",
      To: "sam@acme.dev, ada@acme.dev",
      Subject: "[Acme] Approval waiting: Buy a domain",
      MessageStream: "outbound",
    });
    expect(body.TextBody).toBe(emailContent(approval).text);
    expect(body.HtmlBody).toBe(emailContent(approval).html);
  });

  it("classifies the providers' answers: 429 retried (after Retry-After when given), 401/403/422 failed, 5xx retried", () => {
    expect(classifyResendAnswer(answer(200, { id: "x" }))).toEqual({ kind: "delivered", status: 200 });
    expect(classifyResendAnswer(answer(429, { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" }, { "retry-after": "1" }))).toEqual({
      kind: "retry",
      status: 429,
      retryAfterMs: 1000,
      error: "Resend: HTTP 429 rate_limit_exceeded: Too many requests",
    });
    expect(classifyResendAnswer(answer(429))).toMatchObject({ kind: "retry", retryAfterMs: null });
    for (const status of [401, 403, 422])
      expect(classifyResendAnswer(answer(status, { statusCode: status, name: "invalid_api_key", message: "x" }))).toMatchObject({ kind: "failed", status });
    expect(classifyResendAnswer(answer(500))).toMatchObject({ kind: "retry", status: 500 });

    expect(classifyPostmarkAnswer(answer(200, { ErrorCode: 0, Message: "OK", MessageID: "m" }))).toEqual({ kind: "delivered", status: 200 });
    expect(classifyPostmarkAnswer(answer(200, { ErrorCode: 300, Message: "Invalid email request" }))).toMatchObject({ kind: "failed", status: 200 });
    expect(classifyPostmarkAnswer(answer(422, { ErrorCode: 406, Message: "You tried to send to a recipient that has been marked as inactive." }))).toEqual({
      kind: "failed",
      status: 422,
      error: "Postmark: HTTP 422 ErrorCode 406: You tried to send to a recipient that has been marked as inactive.",
    });
    expect(classifyPostmarkAnswer(answer(401, { ErrorCode: 10, Message: "Bad token" }))).toMatchObject({ kind: "failed", status: 401 });
    expect(classifyPostmarkAnswer(answer(429, "", { "Retry-After": "3" }))).toMatchObject({ kind: "retry", retryAfterMs: 3000 });
    expect(classifyPostmarkAnswer(answer(503))).toMatchObject({ kind: "retry", status: 503 });
  });
});

describe("against the fake services", () => {
  let fake: { url: string; server: Server };
  let vapid: VapidKeys;
  let subscriber: { p256dh: string; auth: string; privateKey: string };

  beforeAll(async () => {
    fake = await startFakeAgentServer();
    vapid = await generateVapidKeys();
    const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
    subscriber = {
      p256dh: base64url.encode(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer)),
      auth: base64url.encode(crypto.getRandomValues(new Uint8Array(16))),
      privateKey: ((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey).d!,
    };
  });
  afterAll(() => fake.server.close());

  const SERVICES = ["slack", "discord", "teams", "telegram", "resend", "postmark", "push"] as const;
  const GONE_STATUS = { slack: 404, discord: 404, teams: 404, telegram: 403, resend: 401, postmark: 401, push: 410 };

  function target(service: (typeof SERVICES)[number], scenario: string, id: string): NotificationTarget {
    const at = `${fake.url}/notify/${service}/${scenario}/${id}`;
    const email = { from: "Acme <agents@acme.dev>", to: ["sam@acme.dev"], apiBaseUrl: at };
    switch (service) {
      case "slack":
      case "discord":
      case "teams":
        return { kind: service, webhookUrl: at };
      case "telegram":
        return { kind: "telegram", botToken: TOKEN, chatId: "-1001", apiBaseUrl: at };
      case "resend":
        return { kind: "email", provider: "resend", apiKey: "re_test", ...email };
      case "postmark":
        return { kind: "email", provider: "postmark", apiKey: "pm-test", ...email };
      case "push":
        return {
          kind: "push",
          subscription: { endpoint: at, keys: { p256dh: subscriber.p256dh, auth: subscriber.auth } },
          vapid,
          subject: "mailto:ops@acp.example",
        };
    }
  }

  async function deliver(to: NotificationTarget): Promise<DeliveryOutcome> {
    const request = await notificationRequest(approval, to);
    const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
    return classifyNotificationAnswer(to, { status: res.status, headers: res.headers, body: await res.text() });
  }

  const received = async (id: string) => (await fetch(`${fake.url}/__notify/${id}`)).json() as Promise<any[]>;

  for (const service of SERVICES) {
    it(`${service}: ok delivers; rate-limited waits 1 s then delivers; flaky retries then delivers; down keeps retrying; gone fails`, async () => {
      const id = `${service}-${crypto.randomUUID()}`;
      expect(await deliver(target(service, "ok", id))).toMatchObject({ kind: "delivered" });
      const limited = target(service, "rate-limited", id);
      expect(await deliver(limited)).toMatchObject({ kind: "retry", status: 429, retryAfterMs: 1000 });
      expect(await deliver(limited)).toMatchObject({ kind: "delivered" });
      const flaky = target(service, "flaky", id);
      expect(await deliver(flaky)).toMatchObject({ kind: "retry", status: 500 });
      expect(await deliver(flaky)).toMatchObject({ kind: "delivered" });
      const down = target(service, "down", id);
      expect(await deliver(down)).toMatchObject({ kind: "retry", status: 500 });
      expect(await deliver(down)).toMatchObject({ kind: "retry", status: 500 });
      expect(await deliver(target(service, "gone", id))).toMatchObject({ kind: "failed", status: GONE_STATUS[service] });
      const log = await received(id);
      expect(log.map((r) => r.scenario)).toEqual(["ok", "rate-limited", "rate-limited", "flaky", "flaky", "down", "down", "gone"]);
      expect(log[0].receivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      if (service === "push") {
        expect(log[0].body).toBeNull();
        const payload = await decryptPushPayload(Buffer.from(log[0].bodyBase64, "base64"), subscriber);
        expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ title: approval.title, url: approval.link.url });
        expect(log[0].headers).toMatchObject({ "content-encoding": "aes128gcm", ttl: "86400" });
      } else {
        const sent = json((await notificationRequest(approval, target(service, "ok", id))).body);
        if (service === "discord") sent.embeds[0].timestamp = log[0].body.embeds[0].timestamp;
        expect(log[0].body).toEqual(sent);
      }
    });
  }

  it("the fakes refuse a request the service could not act on, as the service would", async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    expect(await (await post("/notify/slack/ok/x", {})).text()).toBe("invalid_payload");
    expect(await (await post("/notify/discord/ok/x", { content: "" })).json()).toEqual({ message: "Cannot send an empty message", code: 50006 });
    expect((await post("/notify/telegram/ok/x/bot/sendMessage", { chat_id: 1, text: "x" })).status).toBe(404);
    expect((await post("/notify/resend/ok/x/emails", { from: "a@b.c", to: ["d@e.f"], subject: "s" })).status).toBe(401);
    expect((await post("/notify/postmark/ok/x/email", { From: "a@b.c" }, { "x-postmark-server-token": "t" })).status).toBe(422);
    expect((await post("/notify/push/ok/x", {})).status).toBe(401);
  });
});
