// Fake notification services, served by the fake agent server (test/setup/fake-agent-server.ts);
// Workers-pool tests reach them under FAKE_AGENT_URL. Each answers in its service's documented
// shapes. Paths (a channel's URL or apiBaseUrl points at them):
//   POST /notify/slack/<scenario>/<id>                              Slack incoming webhook: 200 `ok` (text)
//   POST /notify/discord/<scenario>/<id>[?wait=true]                Discord webhook: 200 the message (JSON) with wait=true, else 204
//   POST /notify/teams/<scenario>/<id>                              Teams workflow webhook: 202, empty
//   POST /notify/telegram/<scenario>/<id>/bot<token>/sendMessage    Telegram Bot API (apiBaseUrl = /notify/telegram/<scenario>/<id>): { ok: true, result }
//   POST /notify/resend/<scenario>/<id>/emails                      Resend (apiBaseUrl = /notify/resend/<scenario>/<id>): 200 { id }
//   POST /notify/postmark/<scenario>/<id>/email                     Postmark (apiBaseUrl = /notify/postmark/<scenario>/<id>): 200 { ErrorCode: 0, Message: "OK", MessageID, … }
//   POST /notify/push/<scenario>/<id>                               a push service endpoint: 201, empty, Location
//   GET  /__notify/<id>   every request received under <id> (all services, in order):
//                         [{ service, scenario, path, headers, body, bodyBase64?, receivedAt }] — body is the parsed
//                         JSON when the request is JSON, else null with the bytes in bodyBase64 (a push message).
// Scenarios (counted per service, scenario and id):
//   ok            every request succeeds
//   rate-limited  the first request is a 429 the service's own way, each saying 1 second, then ok: a Retry-After header
//                 (Slack, Teams, Resend, Postmark, push), JSON retry_after (Discord), parameters.retry_after (Telegram)
//   flaky         the first request is a 500, then ok
//   down          500 always
//   gone          the service's permanent refusal: Slack 404 `no_service`, Discord 404 Unknown Webhook (10015), Telegram
//                 403 bot blocked, Teams 404, Resend and Postmark 401 (a bad key), push 410
// A request missing what the service requires is refused as the service would, whatever the scenario: Slack 400
// `invalid_payload` (no text nor blocks), Discord 400 50006 (no content nor embeds), Telegram 400 (empty text) or
// 404 (no token), Resend 401 (no bearer key) or 422 (no from/to/subject), Postmark 401 (no token) or 422 (ErrorCode
// 300), push 401 (no VAPID Authorization) or 400 (no TTL, or not aes128gcm).
import type { IncomingMessage, ServerResponse } from "node:http";

interface Received {
  service: string;
  scenario: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  bodyBase64?: string;
  receivedAt: string;
}

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

const received = new Map<string, Received[]>();
const counts = new Map<string, number>();

const SERVICES = ["slack", "discord", "teams", "telegram", "resend", "postmark", "push"] as const;
type Service = (typeof SERVICES)[number];

/** The answers of each service: success, its 429, a 500 and its permanent refusal. */
const ANSWERS: Record<Service, { ok: (body: any, url: URL, n: number) => Answer; rateLimited: Answer; error: Answer; gone: Answer }> = {
  slack: {
    ok: () => ({ status: 200, headers: { "content-type": "text/html" }, body: "ok" }),
    rateLimited: { status: 429, headers: { "retry-after": "1", "content-type": "text/html" }, body: "rate_limited" },
    error: { status: 500, headers: { "content-type": "text/html" }, body: "rollup_error" },
    gone: { status: 404, headers: { "content-type": "text/html" }, body: "no_service" },
  },
  discord: {
    ok: (body, url, n) =>
      url.searchParams.get("wait") === "true"
        ? {
            status: 200,
            body: {
              id: String(1_200_000_000_000_000_000n + BigInt(n)),
              type: 0,
              channel_id: "1100000000000000000",
              webhook_id: "1000000000000000000",
              content: body.content ?? "",
              embeds: body.embeds ?? [],
              timestamp: new Date().toISOString(),
            },
          }
        : { status: 204 },
    rateLimited: { status: 429, body: { message: "You are being rate limited.", retry_after: 1.0, global: false } },
    error: { status: 500, body: { message: "500: Internal Server Error", code: 0 } },
    gone: { status: 404, body: { message: "Unknown Webhook", code: 10015 } },
  },
  teams: {
    ok: () => ({ status: 202 }),
    rateLimited: {
      status: 429,
      headers: { "retry-after": "1" },
      body: { error: { code: "WorkflowTriggeredTooManyTimes", message: "Rate limit is exceeded. Try again in 1 seconds." } },
    },
    error: { status: 500, body: { error: { code: "InternalServerError", message: "The server encountered an internal error." } } },
    gone: { status: 404, body: { error: { code: "WorkflowNotFound", message: "The workflow could not be found." } } },
  },
  telegram: {
    ok: (body, _url, n) => ({
      status: 200,
      body: {
        ok: true,
        result: { message_id: n, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id) || -1001, type: "supergroup" }, text: body.text },
      },
    }),
    rateLimited: { status: 429, body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } } },
    error: { status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" } },
    gone: { status: 403, body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" } },
  },
  resend: {
    ok: (_body, _url, n) => ({ status: 200, body: { id: `49a3999c-0ce1-4ea6-ab68-afcd6dc2e7${String(n).padStart(2, "0")}` } }),
    rateLimited: {
      status: 429,
      headers: { "retry-after": "1" },
      body: { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests. You can only make 2 requests per second." },
    },
    error: { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "An unexpected error occurred." } },
    gone: { status: 401, body: { statusCode: 401, name: "invalid_api_key", message: "API key is invalid" } },
  },
  postmark: {
    ok: (body, _url, n) => ({
      status: 200,
      body: {
        To: body.To,
        SubmittedAt: new Date().toISOString(),
        MessageID: `b7bc2f4a-e38e-4336-af7d-e6c3922${String(n).padStart(5, "0")}`,
        ErrorCode: 0,
        Message: "OK",
      },
    }),
    rateLimited: { status: 429, headers: { "retry-after": "1" }, body: { ErrorCode: 429, Message: "Rate limit exceeded." } },
    error: { status: 500, body: { ErrorCode: 500, Message: "Internal server error." } },
    gone: {
      status: 401,
      body: {
        ErrorCode: 10,
        Message: "The Server Token you provided in the X-Postmark-Server-Token request header was invalid. Please verify that you are using a valid token.",
      },
    },
  },
  push: {
    ok: (_body, url, n) => ({ status: 201, headers: { location: `${url.pathname}/messages/${n}` } }),
    rateLimited: { status: 429, headers: { "retry-after": "1" }, body: "Too many requests" },
    error: { status: 500, body: "Internal error" },
    gone: { status: 410, body: "push subscription has unsubscribed or expired." },
  },
};

/** What the service refuses whatever the scenario: a request it could not act on. */
function invalid(service: Service, headers: Record<string, string>, body: any, token: string | null): Answer | null {
  const isObject = body !== null && typeof body === "object";
  switch (service) {
    case "slack":
      return isObject && (body.text || body.blocks) ? null : { status: 400, headers: { "content-type": "text/html" }, body: "invalid_payload" };
    case "discord":
      return isObject && (body.content || body.embeds?.length) ? null : { status: 400, body: { message: "Cannot send an empty message", code: 50006 } };
    case "teams":
      return isObject && body.type === "message" && Array.isArray(body.attachments)
        ? null
        : { status: 400, body: { error: { code: "InvalidRequestContent", message: "The request content is not valid." } } };
    case "telegram":
      if (!token) return { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } };
      return isObject && body.chat_id && body.text
        ? null
        : { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: message text is empty" } };
    case "resend":
      if (!/^Bearer \S+$/.test(headers.authorization ?? ""))
        return { status: 401, body: { statusCode: 401, name: "missing_api_key", message: "Missing API key in the authorization header" } };
      return isObject && body.from && Array.isArray(body.to) && body.to.length && body.subject
        ? null
        : { status: 422, body: { statusCode: 422, name: "missing_required_field", message: "Missing `from`, `to` or `subject` field." } };
    case "postmark":
      if (!headers["x-postmark-server-token"]) return { status: 401, body: { ErrorCode: 10, Message: "Request does not contain a valid Server token." } };
      return isObject && body.From && body.To && (body.TextBody || body.HtmlBody)
        ? null
        : { status: 422, body: { ErrorCode: 300, Message: "Invalid email request: From, To and a body are required." } };
    case "push":
      if (!/^vapid t=\S+, k=\S+$/.test(headers.authorization ?? "")) return { status: 401, body: "Missing or malformed VAPID Authorization." };
      return headers.ttl !== undefined && headers["content-encoding"] === "aes128gcm"
        ? null
        : { status: 400, body: "TTL and Content-Encoding: aes128gcm are required." };
  }
}

function respond(res: ServerResponse, answer: Answer) {
  const isText = typeof answer.body === "string";
  const headers = { ...(answer.body === undefined ? {} : { "content-type": isText ? "text/plain" : "application/json" }), ...answer.headers };
  res.writeHead(answer.status, headers);
  res.end(answer.body === undefined ? undefined : isText ? answer.body : JSON.stringify(answer.body));
}

/** Answers /notify/... and /__notify/...; false for any other path. */
export function serveFakeNotify(url: URL, req: IncomingMessage, res: ServerResponse, raw: Buffer): boolean {
  const parts = url.pathname.split("/").slice(1);
  if (parts[0] === "__notify" && parts[1]) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(received.get(parts[1]) ?? []));
    return true;
  }
  if (parts[0] !== "notify") return false;
  const [, service, scenario, id, ...rest] = parts as [string, Service, string, string, ...string[]];
  if (!SERVICES.includes(service) || !scenario || !id || req.method !== "POST") {
    res.writeHead(404).end();
    return true;
  }
  const expected = { telegram: /^bot[^/]*\/sendMessage$/, resend: /^emails$/, postmark: /^email$/ } as Record<string, RegExp>;
  if ((expected[service] && !expected[service].test(rest.join("/"))) || (!expected[service] && rest.length)) {
    res.writeHead(404).end();
    return true;
  }
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
  let body: unknown = null;
  let bodyBase64: string | undefined;
  try {
    body = (headers["content-type"] ?? "").includes("json") ? JSON.parse(raw.toString("utf8")) : null;
  } catch {
    body = null;
  }
  if (body === null && raw.length) bodyBase64 = raw.toString("base64");
  const calls = received.get(id) ?? [];
  calls.push({
    service,
    scenario,
    path: url.pathname + url.search,
    headers,
    body,
    ...(bodyBase64 ? { bodyBase64 } : {}),
    receivedAt: new Date().toISOString(),
  });
  received.set(id, calls);

  const key = `${service}/${scenario}/${id}`;
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  const answers = ANSWERS[service];
  const token = service === "telegram" ? (rest[0]?.slice("bot".length) ?? "") || null : null;
  const refusal = invalid(service, headers, body, token);
  if (refusal) respond(res, refusal);
  else if (scenario === "rate-limited" && n === 1) respond(res, answers.rateLimited);
  else if ((scenario === "flaky" && n === 1) || scenario === "down") respond(res, answers.error);
  else if (scenario === "gone") respond(res, answers.gone);
  else if (scenario === "ok" || scenario === "rate-limited" || scenario === "flaky") respond(res, answers.ok(body ?? {}, url, n));
  else respond(res, { status: 404, body: { error: `unknown scenario ${scenario}` } });
  return true;
}
