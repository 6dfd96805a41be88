// Fixtures: companies through HTTP; agents, keys and users straight into D1 where
// their own routes do not exist yet or are not the subject of the test.
import { env } from "cloudflare:workers";
import { AUTHENTICATED, post, unique, type CallOptions } from "./api";
import { mintApiKey, AGENT_KEY_PREFIX, BOARD_KEY_PREFIX, hashApiKey } from "../../src/crypto/api-keys";
import { mintAgentJwt } from "../../src/crypto/agent-jwt";

/** A company name with random leading letters, so issue prefixes rarely clash between tests. */
export const companyName = () =>
  Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("") + " " + unique("Co");

export async function createCompany(overrides: Record<string, unknown> = {}, options: CallOptions = {}) {
  const res = await post("/api/companies", { name: companyName(), ...overrides }, options);
  if (res.status !== 201) throw new Error(`createCompany failed: ${res.status} ${res.text}`);
  return res.body as { id: string; issuePrefix: string; [k: string]: any };
}

export async function insertAgent(
  companyId: string,
  fields: { name?: string; role?: string; status?: string; reportsTo?: string | null; adapterType?: string; permissions?: Record<string, unknown> } = {},
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const name = fields.name ?? unique("Agent");
  await env.DB.prepare(
    `INSERT INTO agents (id, company_id, name, url_key, role, adapter_type, adapter_config, runtime_config, status, permissions, reports_to, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, '{}', '{}', ?7, ?8, ?9, ?10, ?10)`,
  )
    .bind(
      id,
      companyId,
      name,
      name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
      fields.role ?? "engineer",
      fields.adapterType ?? "process",
      fields.status ?? "idle",
      JSON.stringify(fields.permissions ?? {}),
      fields.reportsTo ?? null,
      now,
    )
    .run();
  return { id, companyId, name };
}

export async function insertAgentKey(agentId: string, companyId: string) {
  const { token, hash } = mintApiKey(AGENT_KEY_PREFIX);
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO agent_api_keys (id, company_id, agent_id, name, key_hash, created_at) VALUES (?1, ?2, ?3, 'test', ?4, ?5)",
  )
    .bind(id, companyId, agentId, hash, new Date().toISOString())
    .run();
  return { id, token };
}

export const agentJwt = (agentId: string, companyId: string, opts: { runId?: string; lifetimeSec?: number; now?: number; secret?: string } = {}) =>
  mintAgentJwt(
    opts.secret ?? env.AGENT_JWT_SECRET,
    { agentId, companyId, adapterType: "process", runId: opts.runId ?? null },
    { lifetimeSec: opts.lifetimeSec, now: opts.now },
  );

export async function insertUser(name = unique("User")) {
  const id = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare("INSERT INTO users (id, name, email, email_verified, created_at, updated_at) VALUES (?1, ?2, ?3, 1, ?4, ?4)")
    .bind(id, name, `${id}@example.com`, now)
    .run();
  return { id, name };
}

export async function insertBoardKey(userId: string, opts: { expiresAt?: string; revokedAt?: string } = {}) {
  const { token, hash } = mintApiKey(BOARD_KEY_PREFIX);
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO board_api_keys (id, user_id, name, key_hash, expires_at, revoked_at, created_at) VALUES (?1, ?2, 'test', ?3, ?4, ?5, ?6)",
  )
    .bind(id, userId, hash, opts.expiresAt ?? new Date(Date.now() + 86_400_000).toISOString(), opts.revokedAt ?? null, new Date().toISOString())
    .run();
  return { id, token, hash: hashApiKey(token) };
}

export async function addMembership(companyId: string, userId: string, role = "member", status = "active") {
  const now = new Date().toISOString();
  await env.DB.prepare(
    "INSERT INTO company_memberships (id, company_id, principal_type, principal_id, membership_role, status, created_at, updated_at) VALUES (?1, ?2, 'user', ?3, ?4, ?5, ?6, ?6)",
  )
    .bind(crypto.randomUUID(), companyId, userId, role, status, now)
    .run();
}

/** A board user with a board API key and (optionally) a membership in `companyId`. */
export async function boardUser(companyId?: string, role = "owner") {
  const user = await insertUser();
  const key = await insertBoardKey(user.id);
  if (companyId) await addMembership(companyId, user.id, role);
  return { ...user, token: key.token, keyId: key.id };
}

/** Signs up through better-auth in authenticated mode; returns the session cookie. */
export async function signUp(name = unique("Person")) {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await post(
    "/api/auth/sign-up/email",
    { email, password: "correct horse battery", name },
    { env: AUTHENTICATED },
  );
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  const setCookie = res.headers.get("set-cookie") ?? "";
  const cookie = setCookie
    .split(/,(?=\s*[A-Za-z0-9_.-]+=)/)
    .map((c) => c.split(";")[0].trim())
    .join("; ");
  return { cookie, userId: res.body.user.id as string, email };
}
