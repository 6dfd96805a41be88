// Fixtures, in one module: companies through HTTP; rows the test's subject does not create (agents,
// keys, users, issues, projects, approvals, runs, …) as typed drizzle inserts straight into D1,
// and typed row updates for states a test needs to arrange (a paused agent, an expired token, …).
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { eq, sql, type InferInsertModel } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createDb, schema } from "../../src/db/client";
import { DIRECTORY, forEachShard, routerOver, shardNames } from "../../src/db/shards";
import { drainDirectoryOutbox } from "../../src/db/directory-sync";
import type { AGENT_STATUSES } from "../../src/db/schema/agents";
import type { MEMBERSHIP_ROLES, MEMBERSHIP_STATUSES, PRINCIPAL_TYPES } from "../../src/db/schema/access";
import type { ISSUE_PRIORITIES, ISSUE_STATUSES } from "../../src/db/schema/issues";
import type { PROJECT_STATUSES } from "../../src/db/schema/projects";
import type { APPROVAL_STATUSES, APPROVAL_TYPES } from "../../src/db/schema/approvals";
import type { HEARTBEAT_RUN_STATUSES, WAKEUP_STATUSES } from "../../src/db/schema/runs";
import { AUTHENTICATED, post, unique, type CallOptions } from "./api";
import { mintApiKey, AGENT_KEY_PREFIX, BOARD_KEY_PREFIX, hashApiKey } from "../../src/crypto/api-keys";
import { mintAgentJwt } from "../../src/crypto/agent-jwt";

/** A company name with random leading letters, so issue prefixes rarely clash between tests. */
export const companyName = () => Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("") + " " + unique("Co");

export async function createCompany(overrides: Record<string, unknown> = {}, options: CallOptions = {}) {
  const res = await post("/api/companies", { name: companyName(), ...overrides }, options);
  if (res.status !== 201) throw new Error(`createCompany failed: ${res.status} ${res.text}`);
  return res.body as { id: string; issuePrefix: string; [k: string]: any };
}

/** A write tried on every shard succeeds where its rows belong (elsewhere a foreign key refuses it); it fails only if it fails everywhere. */
async function everywhere<R>(calls: Array<() => Promise<R>>): Promise<R[]> {
  const settled = await Promise.allSettled(calls.map((call) => call()));
  const ok = settled.filter((s): s is PromiseFulfilledResult<Awaited<R>> => s.status === "fulfilled").map((s) => s.value);
  if (!ok.length) throw (settled[0] as PromiseRejectedResult).reason;
  return ok;
}

/**
 * The databases as the Worker sees them (src/db/shards.ts), for tests that read or write rows
 * directly: directory tables in `DB`, company tables on whichever shard holds them — a read looks
 * at every shard, a write outside a company goes to every shard and lands where its company is.
 */
const routed = routerOver(shardNames(env), (name) => (name === DIRECTORY ? env.DB : (env as unknown as Record<string, D1Database>)[name]), {
  fanOutWrites: everywhere,
});
/** After a direct write, what it changed in mirrored rows reaches the directory, as after a command (src/db/directory-sync.ts). */
const synced = <T>(result: Promise<T>): Promise<T> =>
  result.then(async (value) => {
    await forEachShard(env, () => drainDirectoryOutbox(createDb(routed)));
    return value;
  });
const WRITE = /^\s*(insert|update|delete|replace)\b/i;
const TERMINAL = new Set(["run", "all", "first", "raw"]);
const syncing = (statement: D1PreparedStatement): D1PreparedStatement =>
  new Proxy(statement, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "bind") return (...values: unknown[]) => syncing(target.bind(...values));
      if (typeof value !== "function") return value;
      if (TERMINAL.has(property as string)) return (...args: unknown[]) => synced((value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
export const testD1: D1Database = {
  prepare: (query: string) => (WRITE.test(query) ? syncing(routed.prepare(query)) : routed.prepare(query)),
  batch: (statements) => synced(routed.batch(statements)),
  exec: (query) => routed.exec(query),
  withSession: (constraint) => routed.withSession(constraint),
  dump: () => routed.dump(),
} as D1Database;

/** The test database through the app's own drizzle tables. */
export const testDb = () => createDb(testD1);
export { schema };

/** Inserts one row of `table`, typed by the table's columns. */
export async function insertRow<T extends SQLiteTable>(table: T, values: InferInsertModel<T>) {
  await testDb()
    .insert(table)
    .values(values as never)
    .run();
}

/** Updates the row with this id, typed by the table's columns. */
export async function updateRow<T extends SQLiteTable & { id: SQLiteColumn }>(table: T, id: string, set: Partial<InferInsertModel<T>>) {
  await testDb()
    .update(table)
    .set(set as never)
    .where(eq(table.id, id))
    .run();
}

/** Deletes every row of `table` (instance-wide singletons in isolated tests). */
export async function clearTable(table: SQLiteTable) {
  await testDb().delete(table).run();
}

const nowIso = () => new Date().toISOString();
const urlKeyOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

export async function insertAgent(
  companyId: string,
  fields: {
    name?: string;
    role?: string;
    status?: (typeof AGENT_STATUSES)[number];
    reportsTo?: string | null;
    adapterType?: string;
    permissions?: Record<string, unknown>;
  } = {},
) {
  const id = crypto.randomUUID();
  const now = nowIso();
  const name = fields.name ?? unique("Agent");
  await insertRow(schema.agents, {
    id,
    companyId,
    name,
    urlKey: urlKeyOf(name),
    role: fields.role ?? "engineer",
    adapterType: fields.adapterType ?? "process",
    adapterConfig: {},
    runtimeConfig: {},
    status: fields.status ?? "idle",
    permissions: (fields.permissions ?? {}) as never,
    reportsTo: fields.reportsTo ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return { id, companyId, name };
}

export async function insertAgentKey(agentId: string, companyId: string) {
  const { token, hash } = mintApiKey(AGENT_KEY_PREFIX);
  const id = crypto.randomUUID();
  await insertRow(schema.agentApiKeys, { id, companyId, agentId, name: "test", keyHash: hash, createdAt: nowIso() });
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
  const now = new Date();
  await insertRow(schema.users, { id, name, email: `${id}@example.com`, emailVerified: true, createdAt: now, updatedAt: now });
  return { id, name };
}

export async function insertBoardKey(userId: string, opts: { expiresAt?: string; revokedAt?: string } = {}) {
  const { token, hash } = mintApiKey(BOARD_KEY_PREFIX);
  const id = crypto.randomUUID();
  await insertRow(schema.boardApiKeys, {
    id,
    userId,
    name: "test",
    keyHash: hash,
    expiresAt: opts.expiresAt ?? new Date(Date.now() + 86_400_000).toISOString(),
    revokedAt: opts.revokedAt ?? null,
    createdAt: nowIso(),
  });
  return { id, token, hash: hashApiKey(token) };
}

export async function addMembership(
  companyId: string,
  userId: string,
  role: (typeof MEMBERSHIP_ROLES)[number] = "member",
  status: (typeof MEMBERSHIP_STATUSES)[number] = "active",
) {
  const now = nowIso();
  await insertRow(schema.companyMemberships, {
    id: crypto.randomUUID(),
    companyId,
    principalType: "user",
    principalId: userId,
    membershipRole: role,
    status,
    createdAt: now,
    updatedAt: now,
  });
}

/** An agent inserted straight into D1 with an API key of its own (`token`). */
export async function agentWithKey(companyId: string, fields: Parameters<typeof insertAgent>[1] = {}) {
  const agent = await insertAgent(companyId, fields);
  const key = await insertAgentKey(agent.id, companyId);
  return { ...agent, token: key.token };
}

/** An issue created through the API (as the local board unless `options` say otherwise); throws unless 201. */
export async function createIssue(companyId: string, body: Record<string, unknown> = {}, options: CallOptions = {}) {
  const res = await post(`/api/companies/${companyId}/issues`, { title: unique("Issue"), ...body }, options);
  if (res.status !== 201) throw new Error(`create issue failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A board user with a board API key and (optionally) a membership in `companyId`. */
export async function boardUser(companyId?: string, role: (typeof MEMBERSHIP_ROLES)[number] = "owner") {
  const user = await insertUser();
  const key = await insertBoardKey(user.id);
  if (companyId) await addMembership(companyId, user.id, role);
  return { ...user, token: key.token, keyId: key.id };
}

/** A random client address (the limits on sign-in, sign-up and CLI login attempts are per address). */
export const randomAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 256)).join(".")}`;

/** Signs up through better-auth in authenticated mode; returns the session cookie. */
export async function signUp(name = unique("Person")) {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await post(
    "/api/auth/sign-up/email",
    { email, password: "correct horse battery", name },
    // Each sign-up from its own address: sign-ups are limited per client address.
    { env: AUTHENTICATED, headers: { "cf-connecting-ip": randomAddress() } },
  );
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  const setCookie = res.headers.get("set-cookie") ?? "";
  const cookie = setCookie
    .split(/,(?=\s*[A-Za-z0-9_.-]+=)/)
    .map((c) => c.split(";")[0].trim())
    .join("; ");
  return { cookie, userId: res.body.user.id as string, email };
}

export interface IssueFixture {
  id: string;
  companyId: string;
  identifier: string;
  number: number;
  title: string;
}

type IssueInsert = InferInsertModel<typeof schema.issues>;

/**
 * An issue inserted straight into D1 (for tests whose subject is not issue creation); its number
 * comes from the company's counter, like real issues. Any other column may be given.
 */
export async function insertIssue(
  companyId: string,
  fields: Partial<Omit<IssueInsert, "id" | "companyId" | "number" | "identifier" | "status" | "priority">> & {
    status?: (typeof ISSUE_STATUSES)[number];
    priority?: (typeof ISSUE_PRIORITIES)[number];
  } = {},
): Promise<IssueFixture> {
  const db = testDb();
  const [counter] = await db
    .update(schema.companies)
    .set({ issueCounter: sql`${schema.companies.issueCounter} + 1` })
    .where(eq(schema.companies.id, companyId))
    .returning({ number: schema.companies.issueCounter, prefix: schema.companies.issuePrefix });
  if (!counter) throw new Error(`insertIssue: company ${companyId} not found`);
  const id = crypto.randomUUID();
  const identifier = `${counter.prefix}-${counter.number}`;
  const title = fields.title ?? unique("Issue");
  const now = nowIso();
  await insertRow(schema.issues, {
    originKind: "manual",
    createdAt: now,
    updatedAt: now,
    ...fields,
    status: fields.status ?? "todo",
    priority: fields.priority ?? "medium",
    id,
    companyId,
    number: counter.number,
    identifier,
    title,
  });
  return { id, companyId, identifier, number: counter.number, title };
}

type ProjectInsert = InferInsertModel<typeof schema.projects>;

export async function insertProject(
  companyId: string,
  name = unique("Project"),
  fields: Partial<Omit<ProjectInsert, "id" | "companyId" | "name" | "status">> & { status?: (typeof PROJECT_STATUSES)[number] } = {},
) {
  const id = crypto.randomUUID();
  const now = nowIso();
  await insertRow(schema.projects, {
    urlKey: urlKeyOf(name),
    createdAt: now,
    updatedAt: now,
    ...fields,
    status: fields.status ?? "in_progress",
    id,
    companyId,
    name,
  });
  return { id, companyId, name };
}

type ApprovalInsert = InferInsertModel<typeof schema.approvals>;

export async function insertApproval(
  companyId: string,
  fields: Partial<Omit<ApprovalInsert, "id" | "companyId" | "status" | "type">> & {
    status?: (typeof APPROVAL_STATUSES)[number];
    type?: (typeof APPROVAL_TYPES)[number];
  } = {},
) {
  const id = crypto.randomUUID();
  const now = nowIso();
  await insertRow(schema.approvals, {
    payload: { title: "t" },
    createdAt: now,
    updatedAt: now,
    ...fields,
    type: fields.type ?? "request_board_approval",
    status: fields.status ?? "pending",
    id,
    companyId,
  });
  return id;
}

type WakeupInsert = InferInsertModel<typeof schema.agentWakeupRequests>;

export async function insertWakeup(
  companyId: string,
  agentId: string,
  fields: Partial<Omit<WakeupInsert, "id" | "companyId" | "agentId" | "status">> & { status?: (typeof WAKEUP_STATUSES)[number] } = {},
) {
  const id = crypto.randomUUID();
  const now = nowIso();
  await insertRow(schema.agentWakeupRequests, {
    reason: "comment",
    source: "issue_comment",
    createdAt: now,
    updatedAt: now,
    ...fields,
    status: fields.status ?? "queued",
    id,
    companyId,
    agentId,
  });
  return id;
}

type RunInsert = InferInsertModel<typeof schema.heartbeatRuns>;

export async function insertRun(
  companyId: string,
  agentId: string,
  fields: Partial<Omit<RunInsert, "companyId" | "agentId" | "status">> & { status?: (typeof HEARTBEAT_RUN_STATUSES)[number] } = {},
) {
  const id = fields.id ?? crypto.randomUUID();
  const now = nowIso();
  await insertRow(schema.heartbeatRuns, {
    adapterType: "process",
    invocationSource: "on_demand",
    createdAt: now,
    updatedAt: now,
    ...fields,
    status: fields.status ?? "running",
    id,
    companyId,
    agentId,
  });
  return id;
}

/** A permission grant to a principal (user or agent) in the company. */
export async function insertGrant(
  companyId: string,
  principalType: (typeof PRINCIPAL_TYPES)[number],
  principalId: string,
  permissionKey: string,
  scope: Record<string, unknown> | null = null,
) {
  await insertRow(schema.principalPermissionGrants, {
    id: crypto.randomUUID(),
    companyId,
    principalType,
    principalId,
    permissionKey: permissionKey as never,
    scope: scope as never,
    createdAt: nowIso(),
  } as InferInsertModel<typeof schema.principalPermissionGrants>);
}

/** Fires the company object's alarm (the run dispatcher) once: deterministic, no waiting for it. */
export async function dispatch(companyId: string) {
  const stub = env.COMPANY.getByName(companyId);
  if (!(await runDurableObjectAlarm(stub))) await stub.dispatchNow();
}
