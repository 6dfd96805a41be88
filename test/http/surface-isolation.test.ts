// Generic checks over the whole HTTP surface, driven by /api/openapi.json:
//  1. tenant isolation: every route whose path carries an id of company A, called as company B's agent
//     and as a board user who owns B only, never answers 2xx or 5xx (401/403/404, or 400/422 when the
//     body is rejected first – company A's rows are then checked to be unchanged at the end);
//  2. robustness: every route called with garbage (malformed JSON, wrong types, huge numbers, strings for
//     ids, empty bodies, unknown ids, garbage query strings) as the local board never answers 5xx, and
//     every 4xx carries a JSON `{ error }` body;
//  3. company A's rows (every table with a company_id column, and the company row itself) are the same
//     after all of that as right after seeding.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post, put, unique, type ApiResponse, type CallOptions } from "../helpers/api";
import { boardUser, createCompany, insertAgentKey, testD1 } from "../helpers/fixtures";

type Json = any;
interface Route {
  method: string;
  path: string;
  op: Json;
}

let doc: Json;
const routes: Route[] = [];
/** Company A's ids by path-parameter name (`id` is resolved per path prefix, see paramValue). */
const ids: Record<string, string> = {};
/** Company B's ids, same names. */
const idsB: Record<string, string> = {};
let A: { id: string };
let B: { id: string };
let bAgentToken: string;
let bBoardToken: string;
let snapshotA: Record<string, string>;

// ---------------------------------------------------------------------------------------------
// Routes that carry no id of company A, or whose path parameter is itself the credential: skipped by
// the tenant-isolation loop (each with its reason). The robustness loop still covers them.
// ---------------------------------------------------------------------------------------------
const ISOLATION_SKIPS: Record<string, string> = {
  "GET /api/health": "instance-wide liveness probe, no tenant data",
  "POST /mcp": "MCP endpoint: no company in its path; its tools call the tenant routes with the caller's key (test/http/mcp.test.ts checks the refusals)",
  "GET /api/openapi.json": "the public API description",
  "POST /api/bootstrap/claim": "instance bootstrap (first admin), not tenant-scoped",
  "GET /api/auth/profile": "the caller's own profile",
  "PATCH /api/auth/profile": "the caller's own profile",
  "GET /api/auth/get-session": "better-auth session of the caller",
  "POST /api/auth/sign-up/email": "better-auth",
  "POST /api/auth/sign-in/email": "better-auth",
  "POST /api/auth/sign-out": "better-auth",
  "POST /api/cli-auth/challenges": "CLI login challenge: instance-wide, created anonymously",
  "GET /api/cli-auth/challenges/{id}": "CLI challenge id is the polling credential, not a tenant entity",
  "POST /api/cli-auth/challenges/{id}/approve": "approves a CLI login for the caller itself (needs the user code)",
  "POST /api/cli-auth/challenges/{id}/cancel": "CLI challenge, not a tenant entity",
  "GET /api/cli-auth/me": "the caller's own identity",
  "POST /api/cli-auth/revoke-current": "revokes the caller's own key",
  "GET /api/companies": "lists the caller's own companies",
  "POST /api/companies": "creates a new company",
  "GET /api/companies/stats": "board-only stats over the caller's companies",
  "GET /api/agents/me/inbox-lite": "the calling agent's own inbox",
  "GET /api/agents/me": "the calling agent itself",
  "GET /api/sidebar-preferences/me": "the caller's own instance-wide preferences",
  "PUT /api/sidebar-preferences/me": "the caller's own instance-wide preferences",
  "GET /api/invites/{token}": "recipient view: the invite token is the credential",
  "GET /api/invites/{token}/logo": "recipient view: the invite token is the credential",
  "GET /api/invites/{token}/onboarding": "recipient view: the invite token is the credential",
  "GET /api/invites/{token}/onboarding.txt": "recipient view: the invite token is the credential",
  "GET /api/invites/{token}/skills/index": "recipient view: the invite token is the credential",
  "GET /api/invites/{token}/skills/{skillName}": "recipient view: the invite token is the credential",
  "POST /api/invites/{token}/accept": "accepting an invite is how outsiders join: the token is the credential",
  "GET /api/invites/{token}/test-resolution": "recipient view: the invite token is the credential",
  "POST /api/join-requests/{requestId}/claim-api-key":
    "the claim secret in the body is the credential (B gets 400/403 without it; covered by access-invites tests)",
  "GET /api/board-claim/{token}": "the board-claim token is the credential",
  "POST /api/board-claim/{token}/claim": "the board-claim token is the credential",
  "GET /api/llms/agent-configuration.txt": "static adapter documentation, no tenant data",
  "GET /api/llms/agent-configuration/{adapterType}.txt": "static adapter documentation, no tenant data",
  "GET /api/llms/agent-icons.txt": "static icon list, no tenant data",
  "GET /api/adapters": "the adapter types and their fields: the same for every caller, no tenant data",
  "GET /api/notifications/vapid-public-key": "the instance's public VAPID key, the same for every caller",
  "POST /api/companies/import/preview": "board-only package validation; a target company in the body is access-checked (covered by portability tests)",
  "GET /api/skills/catalog": "the shipped skill catalog, the same for every caller",
  "GET /api/skills/catalog/{catalogId}": "the shipped skill catalog, the same for every caller",
  "GET /api/skills/catalog/{catalogId}/files": "the shipped skill catalog, the same for every caller",
  "GET /api/skills/available": "public catalog index",
  "GET /api/skills/index": "public catalog index",
  "GET /api/skills/{skillName}": "public catalog skill markdown",
  "POST /api/routine-triggers/public/{publicId}/fire":
    "public webhook: the unguessable public id and the trigger's secret are the credential (covered by routines tests)",
  "GET /api/plugins": "instance-wide plugin host (board reads; test/http/plugins.test.ts)",
  "POST /api/plugins/install": "instance-wide plugin host (instance admins; test/http/plugins.test.ts)",
  "GET /api/plugins/{pluginId}": "instance-wide plugin host (board reads; test/http/plugins.test.ts)",
  "POST /api/plugins/{pluginId}/enable": "instance-wide plugin host (instance admins; test/http/plugins.test.ts)",
  "POST /api/plugins/{pluginId}/disable": "instance-wide plugin host (instance admins; test/http/plugins.test.ts)",
  "POST /api/plugins/{pluginId}/upgrade": "instance-wide plugin host (instance admins; test/http/plugins.test.ts)",
  "DELETE /api/plugins/{pluginId}": "instance-wide plugin host (instance admins; test/http/plugins.test.ts)",
  "GET /api/plugins/tools": "the instance's plugin tools, the same for every caller",
  "POST /api/plugins/tools/execute": "the company is runContext's and must be the calling agent's own, in its own run (refusals: test/http/wiki.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/overview":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/bootstrap":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/sources":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/spaces":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/spaces":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "PATCH /api/plugins/knowledge-wiki/api/spaces/{spaceSlug}":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/spaces/{spaceSlug}/bootstrap":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/spaces/{spaceSlug}/archive":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/operations":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/query-sessions":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/file-as-page":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/pages":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki-pages.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/page":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki-pages.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/page/revisions":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki-pages.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/page/backlinks":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki-pages.test.ts)",
  "GET /api/plugins/knowledge-wiki/api/search":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki-pages.test.ts)",
  "POST /api/plugins/knowledge-wiki/api/pages":
    "knowledge-wiki scoped route: the company is companyId in the query or body, not the path (cross-company board and agent refusals: test/http/wiki-pages.test.ts)",
};
/**
 * Cross-company references that are accepted today in areas this file's author may not edit (issues,
 * costs): reported to their owners with a reproduction; logged as warnings here instead of failing.
 */
/**
 * Board-written activity entries are free-form audit records: actorId, entityId and agentId are stored as
 * given and not resolved (test/activity.test.ts writes an agentId that is no agent at all). Nothing of the
 * other company is read or changed, so this is not a tenant leak.
 */
const ALLOWED_FREE_FORM_REFERENCES: Record<string, string> = {
  "POST /api/companies/{companyId}/activity agentId": "free-form audit entry",
};

/** Instance-admin routes: B's board user (not an admin) and B's agent must get exactly 403. */
const isAdminRoute = (r: Route) => r.path.startsWith("/api/admin/");
/** Instance routes: board GETs are allowed to every board user (settings are read by the UI); the rest is admin-only. */
const isInstanceRoute = (r: Route) => r.path.startsWith("/api/instance/");

/** Path parameters that identify an entity of company A. */
const TENANT_PARAMS = new Set([
  "companyId",
  "agentId",
  "issueId",
  "commentId",
  "goalId",
  "projectId",
  "workspaceId",
  "approvalId",
  "questionId",
  "keyId",
  "channelId",
  "deliveryId",
  "subscriptionId",
  "secretId",
  "id",
  "leaseId",
  "attachmentId",
  "assetId",
  "revisionId",
  "threadId",
  "inviteId",
  "requestId",
  "memberId",
  "userSlug",
  "runId",
  "incidentId",
  "routineId",
  "triggerId",
  "skillId",
  "exportId",
  "webhookId",
  "deliveryId",
]);

function paramValue(name: string, path: string, m: Record<string, string> = ids): string {
  if (name === "id") {
    if (path.startsWith("/api/environments/")) return m.environmentId;
    if (path.startsWith("/api/execution-workspaces/")) return m.executionWorkspaceId;
    if (path.startsWith("/api/cli-auth/")) return crypto.randomUUID();
    throw new Error(`no id for ${path}`);
  }
  if (name === "action") {
    if (path.includes("/runtime-commands/")) return "run";
    return "start";
  }
  if (name === "key") return "plan";
  if (name === "adapterType") return "process";
  if (name === "skillName") return path.startsWith("/api/skills/") ? "heartbeat" : "service-api";
  if (name === "catalogId") return "catalog-heartbeat";
  if (name === "pluginId") return "knowledge-wiki";
  if (name === "spaceSlug") return "default";
  if (name === "token") return m.inviteToken;
  const v = m[name];
  if (!v) throw new Error(`no seeded value for path parameter ${name} (${path})`);
  return v;
}

const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
const fill = (path: string, value: (name: string) => string) => path.replace(/\{(\w+)\}/g, (_, n) => encodeURIComponent(value(n)));
const key = (r: Route) => `${r.method} ${r.path}`;
/** The url with the route's required query parameters (their example, else a sample), so a call reaches the guard. */
function withRequiredQuery(r: Route, url: string): string {
  const required = (r.op.parameters ?? []).filter((p: Json) => p.in === "query" && p.required);
  if (!required.length) return url;
  const value = (p: Json) => String(p.example ?? p.schema?.example ?? sample(p.schema ?? {}, p.name));
  return `${url}?${required.map((p: Json) => `${encodeURIComponent(p.name)}=${encodeURIComponent(value(p))}`).join("&")}`;
}
const withQuery = (url: string, query: string) => `${url}${url.includes("?") ? "&" : "?"}${query}`;

// ---------------------------------------------------------------------------------------------
// Request bodies from the OpenAPI schemas
// ---------------------------------------------------------------------------------------------
function deref(s: Json): Json {
  while (s?.$ref) s = doc.components.schemas[s.$ref.split("/").pop()];
  if (s?.allOf) {
    const parts = s.allOf.map(deref);
    return {
      type: "object",
      properties: Object.assign({}, ...parts.map((p: Json) => p.properties ?? {})),
      required: parts.flatMap((p: Json) => p.required ?? []),
      anyOf: parts.find((p: Json) => p.anyOf)?.anyOf,
    };
  }
  return s ?? {};
}
function firstOption(s: Json): Json {
  s = deref(s);
  const opts = s.anyOf ?? s.oneOf;
  if (opts && !s.properties) return deref(opts.find((o: Json) => deref(o).type !== "null") ?? opts[0]);
  return s;
}
function typeOf(s: Json): string | undefined {
  const t = s.type;
  if (Array.isArray(t)) return t.find((x: string) => x !== "null");
  return t;
}

/** A minimal instance of a schema: required properties only, ids of company A where names say so. */
function sample(schema: Json, name = "", m: Record<string, string> = ids): unknown {
  const s = firstOption(schema);
  if ("const" in s) return s.const;
  if (s.enum) return s.enum.find((e: unknown) => e !== null);
  const t = typeOf(s) ?? (s.properties ? "object" : undefined);
  switch (t) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const req of s.required ?? []) out[req] = sample(s.properties?.[req] ?? {}, req, m);
      return out;
    }
    case "array":
      return s.minItems ? [sample(s.items ?? {}, name, m)] : [];
    case "integer":
    case "number":
      return Math.max(typeof s.minimum === "number" ? s.minimum : 1, 1);
    case "boolean":
      return false;
    case "string":
      if (/Id$/.test(name) && m[name]) return m[name];
      if (s.format === "date-time" || /At$/.test(name)) return new Date().toISOString();
      return `sample-${name || "x"}`.slice(0, Math.max(typeof s.maxLength === "number" ? s.maxLength : 64, 1));
    default:
      return {};
  }
}

/** Every property of the schema set to a value of the wrong type. */
function wrongTypes(schema: Json): Record<string, unknown> | null {
  const s = firstOption(schema);
  const props = s.properties ?? {};
  const names = Object.keys(props);
  if (names.length === 0) return null;
  const out: Record<string, unknown> = {};
  for (const n of names) {
    const t = typeOf(firstOption(props[n])) ?? "string";
    out[n] = t === "string" ? { nested: [1, 2, 3] } : t === "object" ? "not-an-object" : t === "array" ? 42 : "not-a-number";
  }
  return out;
}
/** Huge/negative numbers in every numeric property, long strings in every string property. */
function extremes(schema: Json): Record<string, unknown> | null {
  const s = firstOption(schema);
  const props = s.properties ?? {};
  const names = Object.keys(props);
  if (names.length === 0) return null;
  const out: Record<string, unknown> = {};
  names.forEach((n, i) => {
    const t = typeOf(firstOption(props[n])) ?? "string";
    out[n] = t === "integer" || t === "number" ? [1e308, -1, 2 ** 64, -(2 ** 63)][i % 4] : t === "string" ? "x".repeat(200_000) : t === "boolean" ? 1 : null;
  });
  return out;
}

function jsonSchemaOf(r: Route): Json | null {
  return r.op.requestBody?.content?.["application/json"]?.schema ?? null;
}
const isMultipart = (r: Route) => !!r.op.requestBody?.content?.["multipart/form-data"];

function pngForm() {
  // 1x1 transparent PNG
  const b64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const f = new FormData();
  f.append("file", new File([bytes], "logo.png", { type: "image/png" }));
  return f;
}
function textForm() {
  const f = new FormData();
  f.append("file", new File(["hello"], "notes.txt", { type: "text/plain" }));
  return f;
}

/**
 * A body company A's owner could send successfully (so a cross-tenant caller is refused by the guard,
 * not by validation). Schema-generated, with these overrides where the minimal instance would not
 * change anything or would not be valid.
 */
function validBody(r: Route, m: Record<string, string> = ids): CallOptions {
  if (isMultipart(r)) return { rawBody: r.path.endsWith("/logo") ? pngForm() : textForm() };
  const overrides: Record<string, () => unknown> = {
    "PATCH /api/companies/{companyId}": () => ({ description: "pwned" }),
    "PATCH /api/companies/{companyId}/branding": () => ({ description: "pwned" }),
    "POST /api/companies/{companyId}/activity": () => ({ actorId: "x", action: "test.pwned", entityType: "issue", entityId: m.issueId }),
    "POST /api/companies/{companyId}/issues": () => ({ title: "pwned" }),
    "PATCH /api/issues/{issueId}": () => ({ title: "pwned" }),
    "POST /api/issues/{issueId}/checkout": () => ({
      agentId: m.agentId,
      expectedStatuses: ["backlog", "todo", "in_progress", "in_review", "blocked", "done", "cancelled"],
    }),
    "POST /api/issues/{issueId}/comments": () => ({ body: "pwned" }),
    "POST /api/companies/{companyId}/labels": () => ({ name: unique("pwned") }),
    "POST /api/companies/{companyId}/goals": () => ({ title: "pwned" }),
    "PATCH /api/goals/{goalId}": () => ({ title: "pwned" }),
    "POST /api/companies/{companyId}/secrets": () => ({ name: unique("PWNED").toUpperCase().replace(/-/g, "_"), value: "v" }),
    "PATCH /api/secrets/{secretId}": () => ({ description: "pwned" }),
    "POST /api/secrets/{secretId}/rotate": () => ({ value: "pwned" }),
    "POST /api/companies/{companyId}/projects": () => ({ name: unique("pwned") }),
    "PATCH /api/projects/{projectId}": () => ({ description: "pwned" }),
    "POST /api/projects/{projectId}/workspaces": () => ({ name: "pwned", sourceType: "local_path", cwd: "/tmp/pwned" }),
    "PATCH /api/projects/{projectId}/workspaces/{workspaceId}": () => ({ name: "pwned" }),
    "POST /api/companies/{companyId}/cost-events": () => ({
      agentId: m.agentId,
      provider: "openai",
      model: "gpt",
      costCents: 1,
      occurredAt: new Date().toISOString(),
    }),
    "POST /api/companies/{companyId}/finance-events": () => ({ kind: "platform_fee", direction: "debit", amountCents: 1 }),
    "PATCH /api/companies/{companyId}/budgets": () => ({ budgetMonthlyCents: 12345 }),
    "POST /api/companies/{companyId}/budgets/policies": () => ({ scopeType: "company", amountCents: 777 }),
    "POST /api/companies/{companyId}/budget-incidents/{incidentId}/resolve": () => ({ action: "keep_paused" }),
    "POST /api/companies/{companyId}/approvals": () => ({ type: "request_board_approval", payload: { pwned: true } }),
    "POST /api/approvals/{approvalId}/comments": () => ({ body: "pwned" }),
    "POST /api/companies/{companyId}/invites": () => ({ inviteType: "human", membershipRole: "owner" }),
    "POST /api/companies/{companyId}/remote-gateway/invite-prompt": () => ({ agentName: "pwned" }),
    "PATCH /api/companies/{companyId}/members/{memberId}": () => ({ membershipRole: "viewer" }),
    "PATCH /api/companies/{companyId}/members/{memberId}/permissions": () => ({ grants: [{ permissionKey: "agents:create" }] }),
    "PATCH /api/companies/{companyId}/members/{memberId}/role-and-grants": () => ({ membershipRole: "viewer" }),
    "PUT /api/companies/{companyId}/sidebar-preferences/me": () => ({ collapsed: true }),
    "POST /api/companies/{companyId}/inbox-dismissals": () => ({ itemKey: "pwned" }),
    "PUT /api/issues/{issueId}/documents/{key}": () => ({ body: "pwned" }),
    "POST /api/issues/{issueId}/documents/{key}/revisions/{revisionId}/restore": () => ({}),
    "POST /api/issues/{issueId}/documents/{key}/annotations": () => ({ revisionId: m.revisionId, start: 0, end: 6, quote: "# Plan", body: "pwned" }),
    "POST /api/issues/{issueId}/work-products": () => ({ kind: "link", title: "pwned", url: "https://example.com" }),
    "POST /api/companies/{companyId}/agents": () => ({ name: unique("pwned"), adapterType: "process", adapterConfig: { command: "echo" } }),
    "POST /api/companies/{companyId}/agent-hires": () => ({ name: unique("pwned"), adapterType: "process", adapterConfig: { command: "echo" } }),
    "PATCH /api/agents/{agentId}": () => ({ title: "pwned" }),
    "PATCH /api/agents/{agentId}/permissions": () => ({ canCreateAgents: true }),
    "PATCH /api/agents/{agentId}/budgets": () => ({ budgetMonthlyCents: 4242 }),
    "POST /api/agents/{agentId}/keys": () => ({ name: "pwned" }),
    "POST /api/agents/{agentId}/skills/sync": () => ({ desiredSkills: [] }),
    "POST /api/companies/{companyId}/environments": () => ({ name: unique("pwned"), kind: "local", config: { workdir: "/tmp/pwned" } }),
    "POST /api/companies/{companyId}/environments/probe-config": () => ({ kind: "local", config: { workdir: "/tmp/pwned" } }),
    "PATCH /api/environments/{id}": () => ({ description: "pwned" }),
    "POST /api/companies/{companyId}/execution-workspaces": () => ({ projectId: m.projectId }),
    "PATCH /api/execution-workspaces/{id}": () => ({ metadata: { pwned: true } }),
    "PUT /api/admin/users/{userId}/company-access": () => ({ memberships: [{ companyId: m.otherCompanyId, membershipRole: "owner" }] }),
    "PATCH /api/instance/settings/general": () => ({ instanceName: "pwned" }),
    "PATCH /api/instance/settings/experimental": () => ({ issueGraphLivenessAutoRecovery: true }),
    "POST /api/instance/settings/experimental/issue-graph-liveness-auto-recovery/preview": () => ({ companyId: m.companyId }),
    "POST /api/instance/settings/experimental/issue-graph-liveness-auto-recovery/run": () => ({ companyId: m.companyId }),
  };
  const o = overrides[key(r)];
  if (o) return { body: o() };
  const schema = jsonSchemaOf(r);
  if (schema) return { body: sample(schema, "", m) };
  return {};
}

// ---------------------------------------------------------------------------------------------
// Company A's rows
// ---------------------------------------------------------------------------------------------
async function snapshotCompany(companyId: string): Promise<Record<string, string>> {
  const tables = await testD1
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'd1\\_%' ESCAPE '\\'",
    )
    .all<{ name: string }>();
  const out: Record<string, string> = {};
  for (const { name } of tables.results) {
    const cols = await testD1.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>();
    if (!cols.results.some((c) => c.name === "company_id")) continue;
    const rows = await testD1.prepare(`SELECT * FROM "${name}" WHERE company_id = ?1 ORDER BY rowid`).bind(companyId).all();
    out[name] = JSON.stringify(rows.results);
  }
  const company = await testD1.prepare("SELECT * FROM companies WHERE id = ?1").bind(companyId).all();
  out.companies = JSON.stringify(company.results);
  return out;
}

function expectCreated(res: ApiResponse, what: string) {
  if (res.status < 200 || res.status >= 300) throw new Error(`seeding ${what} failed: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------
/** One company with one of everything, created through HTTP as the local board; ids by parameter name. */
async function seedCompany(): Promise<Record<string, string>> {
  const m: Record<string, string> = {};
  const company = await createCompany();
  const C = company.id;
  m.companyId = C;
  const agent = expectCreated(
    await post(`/api/companies/${C}/agents`, { name: unique("Builder"), adapterType: "process", adapterConfig: { command: "echo" } }),
    "agent",
  );
  m.agentId = agent.id;
  m.agentToken = (await insertAgentKey(agent.id, C)).token;
  m.keyId = expectCreated(await post(`/api/agents/${agent.id}/keys`, { name: "seed" }), "agent key").id;
  const notify = `${env.FAKE_AGENT_URL}/notify/slack/ok/${unique("seed")}`;
  m.channelId = expectCreated(
    await post(`/api/companies/${C}/notification-channels`, { kind: "slack", name: "Seed", target: notify }),
    "notification channel",
  ).id;
  m.deliveryId = expectCreated(await post(`/api/companies/${C}/notification-channels/${m.channelId}/test`), "test message").id;
  m.subscriptionId = expectCreated(
    await post(`/api/companies/${C}/push-subscriptions`, {
      endpoint: `${env.FAKE_AGENT_URL}/notify/push/ok/${unique("seed")}`,
      keys: { p256dh: "BOnSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeedSeed", auth: "c2VlZHNlZWRzZWVk" },
    }),
    "push subscription",
  ).id;
  expectCreated(await post(`/api/agents/${agent.id}/keys`, { name: "seed" }), "agent key through HTTP");
  const budgeted = expectCreated(
    await post(`/api/companies/${C}/agents`, { name: unique("Spender"), adapterType: "process", adapterConfig: { command: "echo" } }),
    "agent 2",
  );
  m.goalId = expectCreated(await post(`/api/companies/${C}/goals`, { title: "Ship it" }), "goal").id;
  const project = expectCreated(
    await post(`/api/companies/${C}/projects`, {
      name: unique("Proj"),
      goalIds: [m.goalId],
      workspace: { name: "main", sourceType: "local_path", cwd: "/tmp/proj" },
    }),
    "project",
  );
  m.projectId = project.id;
  const workspaces = expectCreated(await get(`/api/projects/${project.id}/workspaces`), "workspaces");
  m.workspaceId =
    workspaces[0]?.id ??
    expectCreated(await post(`/api/projects/${project.id}/workspaces`, { name: "main", sourceType: "local_path", cwd: "/tmp/proj" }), "workspace").id;
  m.labelId = expectCreated(await post(`/api/companies/${C}/labels`, { name: unique("bug") }), "label").id;
  const issue = expectCreated(
    await post(`/api/companies/${C}/issues`, { title: "Seed issue", status: "todo", projectId: m.projectId, goalId: m.goalId, labelIds: [m.labelId] }),
    "issue",
  );
  m.issueId = issue.id;
  m.commentId = expectCreated(await post(`/api/issues/${issue.id}/comments`, { body: "first" }), "comment").id;
  const document = expectCreated(await put(`/api/issues/${issue.id}/documents/plan`, { body: "# Plan\n\nhello world" }), "document");
  m.revisionId = document.latestRevisionId ?? document.revisionId ?? document.revision?.id;
  const thread = expectCreated(
    await post(`/api/issues/${issue.id}/documents/plan/annotations`, { revisionId: m.revisionId, start: 0, end: 6, quote: "# Plan", body: "why?" }),
    "annotation",
  );
  m.threadId = thread.id;
  m.attachmentId = expectCreated(await call("POST", `/api/companies/${C}/issues/${issue.id}/attachments`, { rawBody: textForm() }), "attachment").id;
  m.assetId = expectCreated(await call("POST", `/api/companies/${C}/logo`, { rawBody: pngForm() }), "logo").assetId;
  expectCreated(await post(`/api/issues/${issue.id}/work-products`, { kind: "link", title: "PR", url: "https://example.com/pr/1" }), "work product");
  const approval = expectCreated(
    await post(`/api/companies/${C}/approvals`, { type: "request_board_approval", payload: { reason: "seed" }, issueIds: [issue.id] }),
    "approval",
  );
  m.approvalId = approval.id;
  const asking = expectCreated(
    await post(`/api/companies/${C}/issues`, { title: "Seed question", status: "todo", assigneeAgentId: agent.id }),
    "issue for a question",
  );
  m.questionId = expectCreated(await post(`/api/issues/${asking.id}/questions`, { prompt: "Seed?" }, { token: m.agentToken }), "question").id;
  expectCreated(await post(`/api/approvals/${approval.id}/comments`, { body: "looks fine" }), "approval comment");
  m.secretId = expectCreated(await post(`/api/companies/${C}/secrets`, { name: "SEED_API_KEY", value: "s3cret" }), "secret").id;
  m.costEventId = expectCreated(
    await post(`/api/companies/${C}/cost-events`, {
      agentId: agent.id,
      provider: "openai",
      model: "gpt-x",
      costCents: 3,
      occurredAt: new Date().toISOString(),
    }),
    "cost event",
  ).id;
  expectCreated(await post(`/api/companies/${C}/finance-events`, { kind: "platform_fee", direction: "debit", amountCents: 5 }), "finance event");
  // A hard budget on the second agent, then spend above it: opens a budget incident.
  expectCreated(await post(`/api/companies/${C}/budgets/policies`, { scopeType: "agent", scopeId: budgeted.id, amountCents: 100 }), "budget policy");
  expectCreated(
    await post(`/api/companies/${C}/cost-events`, {
      agentId: budgeted.id,
      provider: "openai",
      model: "gpt-x",
      costCents: 250,
      occurredAt: new Date().toISOString(),
    }),
    "cost event over budget",
  );
  const overview = expectCreated(await get(`/api/companies/${C}/budgets/overview`), "budget overview");
  m.incidentId = overview.activeIncidents?.[0]?.id;
  m.environmentId = expectCreated(
    await post(`/api/companies/${C}/environments`, { name: unique("laptop"), kind: "local", config: { workdir: "/tmp/work" } }),
    "environment",
  ).id;
  const ews = expectCreated(
    await post(`/api/companies/${C}/execution-workspaces`, {
      projectId: m.projectId,
      issueId: issue.id,
      environmentId: m.environmentId,
      agentId: agent.id,
      mode: "isolated",
    }),
    "execution workspace",
  );
  m.executionWorkspaceId = ews.id;
  m.leaseId = ews.lease?.id;
  const invite = expectCreated(await post(`/api/companies/${C}/invites`, { inviteType: "agent", agentName: "Outsider" }), "invite");
  m.inviteId = invite.id;
  m.inviteToken = invite.token;
  const accepted = expectCreated(await post(`/api/invites/${invite.token}/accept`, {}), "invite accept");
  m.requestId = accepted.joinRequest?.id;
  const owner = await boardUser(C, "owner");
  m.userId = owner.id;
  m.ownerToken = owner.token;
  const members = expectCreated(await get(`/api/companies/${C}/members`), "members");
  m.memberId = members.find((x: Json) => x.principalId === owner.id)?.id;
  const directory = expectCreated(await get(`/api/companies/${C}/user-directory`), "user directory");
  m.userSlug = directory.find((u: Json) => u.id === owner.id)?.slug;
  m.skillId = expectCreated(await post(`/api/companies/${C}/skills`, { name: unique("Seed skill") }), "skill").id;
  m.exportId = expectCreated(await post(`/api/companies/${C}/exports`, {}), "stored export").exportId;
  // Listing brings the bundled skills into the library (a write on the first list only).
  expectCreated(await get(`/api/companies/${C}/skills`), "skill list");
  const routine = expectCreated(
    await post(`/api/companies/${C}/routines`, { title: "Seed routine", assigneeAgentId: agent.id, projectId: m.projectId }),
    "routine",
  );
  m.routineId = routine.id;
  const trigger = expectCreated(await post(`/api/routines/${routine.id}/triggers`, { kind: "webhook" }), "routine trigger");
  m.triggerId = trigger.id;
  m.publicId = new URL(trigger.webhookUrl).pathname.split("/")[4];
  // A run of the agent: an agent checkout with a run id records it.
  const runId = crypto.randomUUID();
  expectCreated(await post(`/api/issues/${issue.id}/checkout`, { agentId: agent.id, expectedStatuses: ["todo"] }, { token: m.agentToken, runId }), "checkout");
  m.runId = runId;
  // A webhook subscription (to an address nothing listens on) and its test ping's delivery.
  const webhook = expectCreated(
    await post(`/api/companies/${C}/webhooks`, { url: "https://127.0.0.1.invalid/hook", events: ["issue.*"], enabled: false }),
    "webhook",
  );
  m.webhookId = webhook.id;
  m.deliveryId = expectCreated(await post(`/api/companies/${C}/webhooks/${webhook.id}/test`), "webhook ping").deliveryId;
  for (const [k, v] of Object.entries(m)) if (!v) throw new Error(`seed left ${k} empty`);
  return m;
}

beforeAll(async () => {
  const res = await get("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
  for (const [path, ops] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(ops)) routes.push({ method: method.toUpperCase(), path, op });
  }
  // Company A and company B, each with one of everything.
  Object.assign(ids, await seedCompany());
  Object.assign(idsB, await seedCompany());
  // With shards bound, A and B live on different ones, so every probe below also crosses shards.
  const shards = (await get("/api/instance/shards")).body.map((s: { shard: string }) => s.shard).filter((s: string) => s !== "DB");
  if (shards.length > 1) {
    const shardOf = async (id: string) =>
      (await testD1.prepare("SELECT shard FROM directory_companies WHERE id = ?").bind(id).first<{ shard: string }>())?.shard;
    const [shardA, shardB] = [await shardOf(ids.companyId), await shardOf(idsB.companyId)];
    if (shardA === shardB) {
      const moved = await post(`/api/instance/companies/${idsB.companyId}/move`, { shard: shards.find((s: string) => s !== shardA) });
      expect(moved.status, moved.text).toBe(200);
    }
    expect(await shardOf(ids.companyId)).not.toBe(await shardOf(idsB.companyId));
  }
  ids.otherCompanyId = idsB.companyId;
  idsB.otherCompanyId = ids.companyId;
  A = { id: ids.companyId };
  B = { id: idsB.companyId };
  // B's agent (API key from insertAgentKey) and a board user who owns B only.
  bAgentToken = idsB.agentToken;
  bBoardToken = idsB.ownerToken;
  snapshotA = await snapshotCompany(A.id);
}, 180_000);

/** Mutations that destroy or retire A's entities run last, so a leak there cannot hide others. */
function order(r: Route) {
  if (r.method === "GET") return 0;
  if (r.method === "DELETE" || /\/(archive|terminate|revoke|reject|pause)$/.test(r.path)) return 2;
  return 1;
}

const tenantRoutes = () => routes.filter((r) => !ISOLATION_SKIPS[key(r)] && !isAdminRoute(r) && !isInstanceRoute(r)).sort((a, b) => order(a) - order(b));

describe("surface: tenant isolation", () => {
  it("every route is either tenant-scoped by a path id, or skipped with a reason", () => {
    const unclassified = routes
      .filter((r) => !ISOLATION_SKIPS[key(r)] && !isAdminRoute(r) && !isInstanceRoute(r))
      .filter((r) => !paramsOf(r.path).some((p) => TENANT_PARAMS.has(p)))
      .map(key);
    expect(unclassified).toEqual([]);
    expect(routes.length).toBeGreaterThan(150);
  });

  for (const who of ["agent", "board"] as const) {
    it(`B's ${who} never reaches company A (no 2xx, no 5xx)`, async () => {
      const token = who === "agent" ? bAgentToken : bBoardToken;
      // Control: the credential works on B's own data (so the refusals below are not just 401s).
      expect((await get(`/api/companies/${B.id}/issues`, { token })).status).toBe(200);
      expect((await get(`/api/agents/${idsB.agentId}`, { token })).status).toBe(200);
      const failures: string[] = [];
      const statuses: Record<number, number> = {};
      const rejectedByValidation: string[] = [];
      for (const r of tenantRoutes()) {
        const url = withRequiredQuery(
          r,
          fill(r.path, (n) => paramValue(n, r.path)),
        );
        const variants = [url];
        // Routes with a ?companyId= hint: naming B's own company must not let A's entity through.
        if ((r.op.parameters ?? []).some((p: Json) => p.in === "query" && p.name === "companyId")) variants.push(withQuery(url, `companyId=${B.id}`));
        for (const u of variants) {
          const res = await call(r.method, u, { ...validBody(r), token });
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const line = `${r.method} ${u} -> ${res.status} ${res.text.slice(0, 160)}`;
          if (res.status >= 500 || (res.status >= 200 && res.status < 300) || res.status < 200) failures.push(line);
          else if (![400, 401, 403, 404, 422].includes(res.status)) failures.push(line);
          else if (typeof res.body?.error !== "string") failures.push(`no {error}: ${line}`);
          else if (res.status === 400 || res.status === 422) rejectedByValidation.push(line);
        }
      }
      console.log(`[${who}] statuses on A's routes: ${JSON.stringify(statuses)}`);
      if (rejectedByValidation.length) console.log(`[${who}] rejected by validation before the guard:\n` + rejectedByValidation.join("\n"));
      expect(failures).toEqual([]);
    }, 300_000);
  }

  it("control: company A's own owner reads every tenant GET route (so the ids above are right)", async () => {
    const failures: string[] = [];
    for (const r of tenantRoutes().filter((x) => x.method === "GET")) {
      const url = withRequiredQuery(
        r,
        fill(r.path, (n) => paramValue(n, r.path)),
      );
      const res = await call("GET", url, { token: ids.ownerToken });
      // The runner upgrade answers a plain GET 426 once the caller passed its guard.
      if (r.path.endsWith("/runners/connect") && res.status === 426) continue;
      if (res.status < 200 || res.status >= 300) failures.push(`${url} -> ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  it("mixed paths: B's own outer id with A's inner id is refused (no 2xx, no 5xx)", async () => {
    const failures: string[] = [];
    let count = 0;
    for (const r of tenantRoutes()) {
      const tenantParams = paramsOf(r.path).filter((p) => TENANT_PARAMS.has(p));
      if (tenantParams.length < 2) continue;
      for (let split = 1; split < tenantParams.length; split++) {
        const fromB = new Set(tenantParams.slice(0, split));
        const url = fill(r.path, (n) => paramValue(n, r.path, fromB.has(n) ? idsB : ids));
        for (const [who, token] of [
          ["board", bBoardToken],
          ["agent", bAgentToken],
        ] as const) {
          count++;
          const res = await call(r.method, url, { ...validBody(r, idsB), token });
          if (res.status < 300 || res.status >= 500 || typeof res.body?.error !== "string") {
            failures.push(`[${who}] ${r.method} ${r.path} (B: ${[...fromB].join(",")}) -> ${res.status} ${res.text.slice(0, 160)}`);
          }
        }
      }
    }
    console.log(`mixed-path probes: ${count}`);
    expect(failures).toEqual([]);
  }, 300_000);

  it("cross-company references: B's owner cannot point B's entities at A's (ids in bodies)", async () => {
    const failures: string[] = [];
    const controls: string[] = [];
    const refKind = (prop: string, path: string): string | null => {
      if (prop === "parentId") return path.includes("/goals") ? "goalId" : path.includes("/issues") ? "issueId" : null;
      const kinds: Record<string, string> = {
        agentId: "agentId",
        assigneeAgentId: "agentId",
        ownerAgentId: "agentId",
        leadAgentId: "agentId",
        reportsTo: "agentId",
        requestedByAgentId: "agentId",
        issueId: "issueId",
        blockedByIssueIds: "issueId",
        issueIds: "issueId",
        sourceIssueId: "issueId",
        sourceIssueIds: "issueId",
        inheritExecutionWorkspaceFromIssueId: "issueId",
        projectId: "projectId",
        goalId: "goalId",
        goalIds: "goalId",
        labelIds: "labelId",
        executionWorkspaceId: "executionWorkspaceId",
        projectWorkspaceId: "workspaceId",
        environmentId: "environmentId",
        revisionId: "revisionId",
        costEventId: "costEventId",
        logoAssetId: "assetId",
        heartbeatRunId: "runId",
        assigneeUserId: "userId",
        scopeId: "agentId",
      };
      return kinds[prop] ?? null;
    };
    let count = 0;
    for (const r of tenantRoutes()) {
      const schema = jsonSchemaOf(r);
      if (r.method === "GET" || !schema) continue;
      const url = fill(r.path, (n) => paramValue(n, r.path, idsB));
      const props = Object.keys(firstOption(schema).properties ?? {}).filter((p) => refKind(p, r.path));
      for (const prop of props) {
        const kind = refKind(prop, r.path)!;
        const bodyWith = (m: Record<string, string>) => {
          const base = { ...((validBody(r, idsB).body as Record<string, unknown>) ?? {}) };
          if (prop === "scopeId") base.scopeType = "agent";
          base[prop] = /Ids$/.test(prop) ? [m[kind]] : m[kind];
          return base;
        };
        count++;
        // Control: the same body naming B's own entity (logged when refused, e.g. self-references).
        const control = await call(r.method, url, { body: bodyWith(idsB), token: bBoardToken });
        if (control.status >= 300) controls.push(`${r.method} ${r.path} ${prop}=B's -> ${control.status} ${control.text.slice(0, 140)}`);
        const res = await call(r.method, url, { body: bodyWith(ids), token: bBoardToken });
        if (res.status < 300 || res.status >= 500 || typeof res.body?.error !== "string") {
          const k = `${r.method} ${r.path} ${prop}`;
          const line = `${k}=A's ${kind} -> ${res.status} ${res.text.slice(0, 200)}`;
          if (!ALLOWED_FREE_FORM_REFERENCES[k]) failures.push(line);
        }
      }
    }
    // Nested references the generic loop does not reach: an SSH environment's private key secret.
    const ssh = await post(
      `/api/companies/${B.id}/environments`,
      {
        name: unique("ssh"),
        kind: "ssh",
        config: { host: "build.example.com", username: "runner", privateKey: { type: "secret_ref", secretId: ids.secretId } },
      },
      { token: bBoardToken },
    );
    if (ssh.status < 300 || ssh.status >= 500) failures.push(`POST environments ssh privateKey.secretId=A's -> ${ssh.status} ${ssh.text.slice(0, 200)}`);
    console.log(`cross-reference probes: ${count}\ncontrols refused:\n${controls.join("\n")}`);
    expect(failures).toEqual([]);
  }, 300_000);

  it("B's agent naming A's run (X-Service-Run-Id) on its own company's routes is refused with 403", async () => {
    // Actor resolution refuses a run id the service knows as another agent's; the end of the file also checks no row of B names A's run.
    const failures: string[] = [];
    for (const r of tenantRoutes().filter((x) => x.method !== "GET" && order(x) < 2)) {
      const url = fill(r.path, (n) => paramValue(n, r.path, idsB));
      const res = await call(r.method, url, { ...validBody(r, idsB), token: bAgentToken, runId: ids.runId });
      if (res.status !== 403 || typeof res.body?.error !== "string") failures.push(`${r.method} ${url} -> ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("instance-admin routes refuse B's board user and agent with 403", async () => {
    const failures: string[] = [];
    for (const r of routes.filter(isAdminRoute)) {
      const url = fill(r.path, (n) => paramValue(n, r.path));
      for (const token of [bAgentToken, bBoardToken]) {
        const res = await call(r.method, url, { ...validBody(r), token });
        if (res.status !== 403 || typeof res.body?.error !== "string") failures.push(`${r.method} ${url} -> ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("instance routes: agents get 403; B's board user may read settings but not change them", async () => {
    const failures: string[] = [];
    for (const r of routes.filter(isInstanceRoute)) {
      for (const [who, token] of [
        ["agent", bAgentToken],
        ["board", bBoardToken],
      ] as const) {
        const res = await call(r.method, r.path, { ...validBody(r), token });
        const allowed = who === "board" && r.method === "GET" ? [200] : [403];
        if (!allowed.includes(res.status)) failures.push(`[${who}] ${r.method} ${r.path} -> ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Robustness
// ---------------------------------------------------------------------------------------------
interface Probe {
  label: string;
  url: string;
  options: CallOptions;
}

function garbageProbes(r: Route): Probe[] {
  const probes: Probe[] = [];
  const params = paramsOf(r.path);
  const hasIds = params.length > 0;
  const schema = jsonSchemaOf(r);
  const bodyRequired = !!r.op.requestBody?.required;
  const canHaveBody = r.method !== "GET" && r.method !== "HEAD";
  const realUrl = hasIds ? fill(r.path, (n) => paramValue(n, r.path)) : r.path;
  const idVariants: Array<[string, (n: string) => string]> = [
    ["unknown ids", () => crypto.randomUUID()],
    ["string ids", () => "not-an-id"],
    ["huge number ids", () => "999999999999999999999999999999"],
    ["sql-ish ids", () => "' OR 1=1 --"],
    ["long ids", () => "a".repeat(2000)],
    ["empty-ish ids", () => " "],
  ];
  const plausible = validBody(r);
  if (hasIds) {
    for (const [label, v] of idVariants) probes.push({ label, url: fill(r.path, v), options: canHaveBody ? plausible : {} });
  }
  // Query garbage on real ids (reads only: garbage queries never mutate).
  const queryParams: Json[] = (r.op.parameters ?? []).filter((p: Json) => p.in === "query");
  if (queryParams.length && r.method === "GET") {
    for (const junk of ["abc", "-1", "0", "1e400", "99999999999999999999999", "", "%00", "[object Object]"]) {
      const qs = queryParams.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(junk)}`).join("&");
      probes.push({ label: `query=${junk}`, url: `${realUrl}?${qs}`, options: {} });
    }
    const dup = queryParams.map((p) => `${p.name}=a&${p.name}=b`).join("&");
    probes.push({ label: "duplicated query", url: `${realUrl}?${dup}`, options: {} });
  }
  if (!canHaveBody) return probes;
  // Body garbage. On A's real ids only bodies that must be rejected (a route without a body would act).
  const targets = hasIds ? [unknownUrl(r), ...(schema || isMultipart(r) ? [realUrl] : [])] : [r.path];
  const json = { "content-type": "application/json" };
  for (const url of targets) {
    const onReal = url === realUrl && hasIds;
    // A request without any body (and without Content-Type) is validated as `{}` by @hono/zod-openapi even
    // when the body is `required`, so on A's real ids it must be rejected only where `{}` is invalid
    // (the schema has required properties); elsewhere it is the same as an empty patch / default body.
    const schemaRequires = !!schema && (firstOption(schema).required ?? []).length > 0;
    const mustReject = !onReal || (bodyRequired && schemaRequires);
    probes.push({ label: "malformed JSON", url, options: { rawBody: '{"a":', headers: json } });
    probes.push({ label: "truncated JSON", url, options: { rawBody: '{"title": "x"', headers: json } });
    probes.push({ label: "array root", url, options: { body: [1, 2, 3] } });
    probes.push({ label: "string root", url, options: { body: "hello" } });
    probes.push({ label: "number root", url, options: { rawBody: "1e999", headers: json } });
    probes.push({ label: "null root", url, options: { body: null, rawBody: "null", headers: json } });
    probes.push({ label: "deep nesting", url, options: { rawBody: "[".repeat(5000) + "]".repeat(5000), headers: json } });
    if (mustReject) {
      probes.push({ label: "empty JSON body", url, options: { rawBody: "", headers: json } });
      probes.push({ label: "no body", url, options: {} });
      probes.push({ label: "text/plain body", url, options: { rawBody: "hello", headers: { "content-type": "text/plain" } } });
    }
    if (schema) {
      const wrong = wrongTypes(schema);
      if (wrong) probes.push({ label: "wrong types", url, options: { body: wrong } });
      const ext = extremes(schema);
      if (ext && (mustReject || !onReal)) probes.push({ label: "extreme values", url, options: { body: ext } });
      // Strings for every id-ish field of an otherwise plausible body.
      const base = plausible.body && typeof plausible.body === "object" ? (plausible.body as Record<string, unknown>) : {};
      const props = Object.keys(firstOption(schema).properties ?? {}).filter((n) => /Ids?$/.test(n));
      if (props.length) {
        const withJunkIds = { ...base };
        for (const n of props) withJunkIds[n] = n.endsWith("Ids") ? ["not-an-id", crypto.randomUUID()] : "not-an-id";
        probes.push({ label: "junk ids in body", url, options: { body: withJunkIds } });
        const withHugeIds = { ...base };
        for (const n of props) withHugeIds[n] = n.endsWith("Ids") ? [1e308] : 1e308;
        probes.push({ label: "numbers for ids in body", url, options: { body: withHugeIds } });
      }
    }
    if (isMultipart(r)) {
      const noFile = new FormData();
      noFile.append("other", "x");
      probes.push({ label: "multipart without file", url, options: { rawBody: noFile } });
      const stringFile = new FormData();
      stringFile.append("file", "just a string");
      probes.push({ label: "multipart string part", url, options: { rawBody: stringFile } });
      probes.push({
        label: "broken multipart",
        url,
        options: { rawBody: "--xyz\r\nbroken", headers: { "content-type": "multipart/form-data; boundary=xyz" } },
      });
      probes.push({ label: "JSON instead of multipart", url, options: { body: { file: "x" } } });
    }
  }
  return probes;
}

function unknownUrl(r: Route) {
  return fill(r.path, (n) => (n === "action" || n === "key" ? paramValue(n, r.path) : crypto.randomUUID()));
}

describe("surface: robustness", () => {
  it("garbage input as the local board: never 5xx, every 4xx is a JSON { error }", async () => {
    const failures: string[] = [];
    const accepted: string[] = [];
    const statuses: Record<number, number> = {};
    let count = 0;
    for (const r of routes) {
      if (r.path.startsWith("/api/auth/") && !r.path.startsWith("/api/auth/profile")) continue; // better-auth's own handler, not ours
      for (const p of garbageProbes(r)) {
        count++;
        let res: ApiResponse;
        try {
          res = await call(r.method, p.url, p.options);
        } catch (e) {
          failures.push(`[${p.label}] ${r.method} ${p.url.slice(0, 200)} threw ${String(e).slice(0, 200)}`);
          continue;
        }
        const line = `[${p.label}] ${r.method} ${p.url.slice(0, 160)} -> ${res.status} ${res.text.slice(0, 200)}`;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        // /mcp answers in its protocol's shape: JSON-RPC errors ({ jsonrpc, error: { code, message } }).
        const errorShaped = r.path === "/mcp" ? typeof res.body?.error?.message === "string" : typeof res.body?.error === "string";
        if (res.status >= 500) failures.push(line);
        else if (res.status >= 400 && !errorShaped) failures.push(`no {error}: ${line}`);
        else if (res.status < 300 && r.method !== "GET") accepted.push(line);
      }
    }
    console.log(`robustness probes: ${count}; statuses ${JSON.stringify(statuses)}\naccepted:\n${accepted.join("\n")}`);
    expect(failures).toEqual([]);
  }, 600_000);
});

// Body properties named like ids that are not entity UUIDs, each with its reason; every other
// `…Id` / `…Ids` property of a request body must be declared `format: uuid` (so "nope" is a 400).
const NON_UUID_BODY_IDS: Record<string, string> = {
  assigneeUserId: "user ids come from the auth provider (`me` on filters)",
  actorId: "activity actors: user ids or free text",
  entityId: "activity entities of any kind",
  originId: "free text from the origin system",
  catalogSkillId: "catalog id, key or slug",
  runId: "runner protocol messages",
  wikiId: "a wiki's slug within its company (`default`)",
  askedOfUserId: "user ids come from the auth provider",
  chatId: "a Telegram chat id (a number or @name)",
  optionId: "a question's option key, chosen by the asking agent",
};
/** Issue references accept an identifier (`ABC-12`) as well as a UUID. */
const ISSUE_REF_IDS = new Set(["parentId", "blockedByIssueIds", "inheritExecutionWorkspaceFromIssueId"]);

function idFormats(s: Json, path: string, out: Array<{ path: string; name: string; formats: string[] }>, depth = 0) {
  if (depth > 8) return;
  s = deref(s);
  for (const o of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) idFormats(o, path, out, depth + 1);
  if (s.type === "array" && s.items) idFormats(s.items, `${path}[]`, out, depth + 1);
  for (const [name, raw] of Object.entries<Json>(s.properties ?? {})) {
    if (/Ids?$/.test(name)) {
      let p = deref(raw);
      if (p.type === "array" || (Array.isArray(p.type) && p.type.includes("array"))) p = deref(p.items);
      const opts = [p, ...(p.anyOf ?? []), ...(p.oneOf ?? [])].map(deref);
      out.push({ path: `${path}.${name}`, name, formats: opts.map((o: Json) => o.format ?? (o.type === "null" ? "null" : "none")) });
    }
    idFormats(raw, `${path}.${name}`, out, depth + 1);
  }
}

describe("surface: ids in request bodies", () => {
  it("every id property of a request body is declared a UUID (issue references: a UUID or an identifier)", () => {
    const loose: string[] = [];
    let checked = 0;
    for (const r of routes) {
      const schema = jsonSchemaOf(r);
      if (!schema) continue;
      const found: Array<{ path: string; name: string; formats: string[] }> = [];
      idFormats(schema, "", found);
      for (const f of found) {
        if (NON_UUID_BODY_IDS[f.name]) continue;
        checked++;
        if (!f.formats.includes("uuid")) loose.push(`${key(r)} ${f.path} (${f.formats.join("|")})`);
        else if (!ISSUE_REF_IDS.has(f.name) && f.formats.some((x) => x === "none")) loose.push(`${key(r)} ${f.path} also takes any string`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(loose).toEqual([]);
  });

  it('a malformed id in a body ("nope") is a 400 naming the field, on every route, before anything else', async () => {
    const wrong: string[] = [];
    let probes = 0;
    for (const r of routes) {
      const schema = jsonSchemaOf(r);
      if (!schema || r.path.startsWith("/api/auth/")) continue;
      const props = Object.keys(firstOption(schema).properties ?? {}).filter((n) => /Ids?$/.test(n) && !NON_UUID_BODY_IDS[n]);
      const base = (validBody(r).body ?? {}) as Record<string, unknown>;
      const url = paramsOf(r.path).length ? unknownUrl(r) : r.path;
      for (const n of props) {
        probes++;
        const res = await call(r.method, url, { body: { ...base, [n]: n.endsWith("Ids") ? ["nope"] : "nope" } });
        if (res.status !== 400 || !res.text.includes(n)) wrong.push(`${key(r)} ${n}: ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(probes).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  }, 300_000);
});

describe("surface: company A is untouched", () => {
  it("every row of company A is as it was after seeding", async () => {
    const after = await snapshotCompany(A.id);
    const changed: string[] = [];
    for (const table of new Set([...Object.keys(snapshotA), ...Object.keys(after)])) {
      if (snapshotA[table] !== after[table]) {
        const before = JSON.parse(snapshotA[table] ?? "[]") as Json[];
        const now = JSON.parse(after[table] ?? "[]") as Json[];
        const rowKey = (x: Json) => String(x.id ?? JSON.stringify(x));
        const byKey = new Map(before.map((x) => [rowKey(x), x]));
        const diffs = now
          .map((x) => {
            const old = byKey.get(rowKey(x));
            if (!old) return `new ${JSON.stringify(x).slice(0, 300)}`;
            const cols = Object.keys(x).filter((k) => JSON.stringify(x[k]) !== JSON.stringify(old[k]));
            return cols.length ? `changed ${rowKey(x)}: ${cols.map((k) => `${k}=${JSON.stringify(x[k]).slice(0, 80)}`).join(", ")}` : null;
          })
          .filter(Boolean);
        changed.push(`${table}: ${before.length} -> ${now.length} rows; ${diffs.join(" | ").slice(0, 1500)}`);
      }
    }
    expect(changed).toEqual([]);
    // The headline counts, explicitly.
    const count = async (t: string) => (await testD1.prepare(`SELECT count(*) AS n FROM ${t} WHERE company_id = ?1`).bind(A.id).first<{ n: number }>())!.n;
    expect(await count("agents")).toBe(2);
    expect(await count("issues")).toBe(2); // the seed issue and the one a question is asked on
    expect(await count("company_secrets")).toBe(2); // the seed secret and the notification channel's webhook URL
  });

  it("no row of company B names an entity of company A", async () => {
    const aIds = new Map<string, string>();
    for (const [k, v] of Object.entries(ids)) {
      if (["ownerToken", "agentToken", "inviteToken", "otherCompanyId", "userSlug"].includes(k)) continue;
      aIds.set(v, k);
    }
    const found: string[] = [];
    const snap = await snapshotCompany(B.id);
    for (const [table, json] of Object.entries(snap)) {
      for (const row of JSON.parse(json) as Json[]) {
        // The free-form board activity entries written by the cross-reference test (see ALLOWED_FREE_FORM_REFERENCES).
        if (table === "activity_log" && row.action === "test.pwned") continue;
        for (const [col, value] of Object.entries(row)) {
          if (typeof value !== "string") continue;
          for (const [id, name] of aIds) {
            if (!value.includes(id)) continue;
            const line = `${table}.${col} (row ${row.id ?? "?"}) names A's ${name}: ${value.slice(0, 200)}`;
            found.push(line);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });
});
