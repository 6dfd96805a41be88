// Secrets over HTTP: providers, list, create, patch, rotate, delete; board-only access; values never leave.
import { describe, expect, it } from "vitest";
import { del, get, patch, post, unique, type ApiResponse } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, testD1 } from "../helpers/fixtures";
import { sha256Hex } from "../../src/crypto/hash";
import { nextMillisecond } from "../helpers/eventually";

const BOGUS = { token: "svc_agent_bogus" };
const METADATA_KEYS = [
  "companyId",
  "createdAt",
  "createdByAgentId",
  "createdByUserId",
  "description",
  "externalRef",
  "id",
  "latestVersion",
  "name",
  "provider",
  "updatedAt",
];
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

const secretName = () => unique("S").replace(/-/g, "_");

async function createSecret(companyId: string, body: Record<string, unknown> = {}, options = {}) {
  const res = await post(`/api/companies/${companyId}/secrets`, { name: secretName(), value: `v-${crypto.randomUUID()}`, ...body }, options);
  if (res.status !== 201) throw new Error(`createSecret failed: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string; latestVersion: number; [k: string]: any };
}

async function versions(secretId: string) {
  const { results } = await testD1
    .prepare("SELECT version, material, value_sha256, external_ref FROM company_secret_versions WHERE secret_id = ? ORDER BY version")
    .bind(secretId)
    .all<{ version: number; material: string; value_sha256: string; external_ref: string | null }>();
  return results;
}

async function agentToken(companyId: string) {
  const agent = await insertAgent(companyId);
  return (await insertAgentKey(agent.id, companyId)).token;
}

async function activity(companyId: string, action: string) {
  const res = await get(`/api/companies/${companyId}/activity`);
  return (res.body as any[]).filter((a) => a.action === action);
}

describe("GET /api/companies/{companyId}/secret-providers", () => {
  it("lists local_encrypted (configured) and external providers (not configured)", async () => {
    const company = await createCompany();
    const res = await get(`/api/companies/${company.id}/secret-providers`);
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({ id: "local_encrypted", label: expect.any(String), requiresExternalRef: false, configured: true });
    const ids = res.body.map((p: any) => p.id);
    expect(ids).toEqual(expect.arrayContaining(["aws_secrets_manager", "gcp_secret_manager", "vault"]));
    for (const p of res.body.filter((p: any) => p.id !== "local_encrypted")) expect(p).toMatchObject({ requiresExternalRef: true, configured: false });
  });

  it("reports local_encrypted unconfigured when the master key is invalid", async () => {
    const company = await createCompany();
    const res = await get(`/api/companies/${company.id}/secret-providers`, { env: { SECRETS_MASTER_KEY: "too-short" } });
    expect(res.status).toBe(200);
    expect(res.body.find((p: any) => p.id === "local_encrypted").configured).toBe(false);
  });

  it("is board only and company scoped", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/secret-providers`;
    expect((await get(path, BOGUS)).status).toBe(401);
    expect((await get(path, { token: await agentToken(company.id) })).status).toBe(403);
    const outsider = await boardUser((await createCompany()).id);
    expect((await get(path, { token: outsider.token })).status).toBe(403);
    const member = await boardUser(company.id, "viewer");
    expect((await get(path, { token: member.token })).status).toBe(200);
    expect((await get(`/api/companies/${MISSING_ID}/secret-providers`)).status).toBe(404);
  });
});

describe("POST /api/companies/{companyId}/secrets", () => {
  it("creates version 1, encrypted at rest with its SHA-256, and returns metadata only", async () => {
    const company = await createCompany();
    const owner = await boardUser(company.id, "owner");
    const value = "sk-live-create-0123456789";
    const res = await post(
      `/api/companies/${company.id}/secrets`,
      { name: "OPENAI_API_KEY", value, description: "model access", externalRef: "ref-1" },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(METADATA_KEYS);
    expect(res.body).toMatchObject({
      companyId: company.id,
      name: "OPENAI_API_KEY",
      provider: "local_encrypted",
      externalRef: "ref-1",
      latestVersion: 1,
      description: "model access",
      createdByAgentId: null,
      createdByUserId: owner.id,
    });
    expect(res.text).not.toContain(value);
    const rows = await versions(res.body.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].version).toBe(1);
    expect(rows[0].value_sha256).toBe(sha256Hex(value));
    const material = JSON.parse(rows[0].material);
    expect(material).toEqual({ scheme: "aes-256-gcm:v1", iv: expect.any(String), ciphertext: expect.any(String) });
    expect(rows[0].material).not.toContain(value);
    const [entry] = await activity(company.id, "secret.created");
    expect(entry.entityId).toBe(res.body.id);
    expect(entry.details).toEqual({ name: "OPENAI_API_KEY", version: 1 });
  });

  it("rejects bad input with 400 and changes nothing", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/secrets`;
    const bodies = [
      {},
      { value: "x" },
      { name: "A" },
      { name: "A", value: "" },
      { name: "1starts_with_digit", value: "x" },
      { name: "has space", value: "x" },
      { name: "x".repeat(129), value: "x" },
      { name: "A", value: 42 },
      { name: "A", value: "x", provider: "carrier_pigeon" },
      { name: "A", value: "é".repeat(32 * 1024 + 1) },
      { name: "A", value: "x", description: 5 },
    ];
    for (const body of bodies) {
      const res = await post(path, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await post(path, undefined, { rawBody: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await get(path)).body).toEqual([]);
  });

  it("accepts a value of exactly 64 KiB", async () => {
    const company = await createCompany();
    const res = await post(`/api/companies/${company.id}/secrets`, { name: "BIG", value: "v".repeat(64 * 1024) });
    expect(res.status).toBe(201);
  });

  it("gives 409 on a duplicate name in the same company but allows it in another", async () => {
    const company = await createCompany();
    const other = await createCompany();
    await createSecret(company.id, { name: "DUP" });
    const res = await post(`/api/companies/${company.id}/secrets`, { name: "DUP", value: "again" });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/DUP/);
    expect((await post(`/api/companies/${other.id}/secrets`, { name: "DUP", value: "again" })).status).toBe(201);
  });

  it("concurrent creates of one name: exactly one wins, the rest get 409", async () => {
    const company = await createCompany();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => post(`/api/companies/${company.id}/secrets`, { name: "RACE", value: `v${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await get(`/api/companies/${company.id}/secrets`)).body).toHaveLength(1);
  });

  it("refuses unconfigured providers with 422", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/secrets`;
    const external = await post(path, { name: "AWS", value: "x", provider: "aws_secrets_manager", externalRef: "arn:aws:secretsmanager:x" });
    expect(external.status).toBe(422);
    expect(external.body.error).toMatch(/aws_secrets_manager.*not configured/);
    const noKey = await post(path, { name: "LOCAL", value: "x" }, { env: { SECRETS_MASTER_KEY: "" } });
    expect(noKey.status).toBe(422);
    expect(noKey.body.error).toMatch(/SECRETS_MASTER_KEY/);
    expect((await get(path)).body).toEqual([]);
  });

  it("is board only, company scoped, and closed to viewers", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/secrets`;
    const body = () => ({ name: secretName(), value: "x" });
    expect((await post(path, body(), BOGUS)).status).toBe(401);
    expect((await post(path, body(), { token: await agentToken(company.id) })).status).toBe(403);
    const outsider = await boardUser((await createCompany()).id);
    expect((await post(path, body(), { token: outsider.token })).status).toBe(403);
    const viewer = await boardUser(company.id, "viewer");
    expect((await post(path, body(), { token: viewer.token })).status).toBe(403);
    const member = await boardUser(company.id, "member");
    expect((await post(path, body(), { token: member.token })).status).toBe(201);
    expect((await post(`/api/companies/${MISSING_ID}/secrets`, body())).status).toBe(404);
    expect((await get(path)).body).toHaveLength(1);
  });
});

describe("GET /api/companies/{companyId}/secrets", () => {
  it("lists the company's secrets newest first, metadata only", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const a = await createSecret(company.id, { name: "FIRST" });
    await nextMillisecond();
    const b = await createSecret(company.id, { name: "SECOND" });
    await createSecret(other.id, { name: "ELSEWHERE" });
    const res = await get(`/api/companies/${company.id}/secrets`);
    expect(res.status).toBe(200);
    expect(res.body.map((s: any) => s.id)).toEqual([b.id, a.id]);
    for (const s of res.body) expect(Object.keys(s).sort()).toEqual(METADATA_KEYS);
  });

  it("is board only and company scoped", async () => {
    const company = await createCompany();
    const path = `/api/companies/${company.id}/secrets`;
    expect((await get(path, BOGUS)).status).toBe(401);
    expect((await get(path, { token: await agentToken(company.id) })).status).toBe(403);
    const outsider = await boardUser((await createCompany()).id);
    expect((await get(path, { token: outsider.token })).status).toBe(403);
    expect((await get(path, { token: (await boardUser(company.id, "viewer")).token })).status).toBe(200);
    expect((await get(`/api/companies/${MISSING_ID}/secrets`)).status).toBe(404);
  });
});

describe("PATCH /api/secrets/{secretId}", () => {
  it("updates metadata only, without a new version", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id, { name: "OLD_NAME", externalRef: "r1" });
    const res = await patch(`/api/secrets/${secret.id}`, { name: "NEW_NAME", description: "now described", externalRef: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: secret.id, name: "NEW_NAME", description: "now described", externalRef: null, latestVersion: 1 });
    expect(await versions(secret.id)).toHaveLength(1);
    const listed = (await get(`/api/companies/${company.id}/secrets`)).body[0];
    expect(listed).toMatchObject({ name: "NEW_NAME", description: "now described", externalRef: null });
    const [entry] = await activity(company.id, "secret.updated");
    expect(entry.details).toMatchObject({ name: "NEW_NAME", version: 1, previousName: "OLD_NAME" });
  });

  it("gives 409 when renaming onto an existing name", async () => {
    const company = await createCompany();
    await createSecret(company.id, { name: "TAKEN" });
    const secret = await createSecret(company.id, { name: "MINE" });
    const res = await patch(`/api/secrets/${secret.id}`, { name: "TAKEN" });
    expect(res.status).toBe(409);
    expect((await patch(`/api/secrets/${secret.id}`, { name: "MINE" })).status).toBe(200);
  });

  it("rejects bad input with 400 (empty patch, value changes, bad name)", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id);
    for (const body of [{}, { value: "new" }, { name: "bad name" }, { description: 1 }]) {
      expect((await patch(`/api/secrets/${secret.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("guards: 401, agent 403, other company 404, missing 404, viewer 403", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id);
    const path = `/api/secrets/${secret.id}`;
    expect((await patch(path, { description: "x" }, BOGUS)).status).toBe(401);
    expect((await patch(path, { description: "x" }, { token: await agentToken(company.id) })).status).toBe(403);
    const outsider = await boardUser((await createCompany()).id);
    expect((await patch(path, { description: "x" }, { token: outsider.token })).status).toBe(404);
    expect((await patch(path, { description: "x" }, { token: (await boardUser(company.id, "viewer")).token })).status).toBe(403);
    expect((await patch(`/api/secrets/${MISSING_ID}`, { description: "x" })).status).toBe(404);
    expect((await get(`/api/companies/${company.id}/secrets`)).body[0].description).toBeNull();
  });
});

describe("POST /api/secrets/{secretId}/rotate", () => {
  it("adds an immutable version, advances latestVersion and keeps externalRef when omitted", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id, { value: "one", externalRef: "ref-a" });
    const first = (await versions(secret.id))[0];
    const res = await post(`/api/secrets/${secret.id}/rotate`, { value: "two" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: secret.id, latestVersion: 2, externalRef: "ref-a" });
    const again = await post(`/api/secrets/${secret.id}/rotate`, { value: "three", externalRef: "ref-b" });
    expect(again.body).toMatchObject({ latestVersion: 3, externalRef: "ref-b" });
    const rows = await versions(secret.id);
    expect(rows.map((r) => [r.version, r.value_sha256, r.external_ref])).toEqual([
      [1, sha256Hex("one"), "ref-a"],
      [2, sha256Hex("two"), "ref-a"],
      [3, sha256Hex("three"), "ref-b"],
    ]);
    expect(rows[0].material).toBe(first.material);
    const entries = await activity(company.id, "secret.rotated");
    expect(entries.map((e) => e.details).sort((x: any, y: any) => x.version - y.version)).toEqual([
      { name: secret.name, version: 2 },
      { name: secret.name, version: 3 },
    ]);
  });

  it("concurrent rotations get distinct consecutive versions", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post(`/api/secrets/${secret.id}/rotate`, { value: `r${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(results.map((r) => r.body.latestVersion).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
    expect((await versions(secret.id)).map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await get(`/api/companies/${company.id}/secrets`)).body[0].latestVersion).toBe(7);
  });

  it("rejects bad input with 400 and a broken master key with 422", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id);
    for (const body of [{}, { value: "" }, { value: 7 }, { value: "x".repeat(64 * 1024 + 1) }]) {
      expect((await post(`/api/secrets/${secret.id}/rotate`, body)).status).toBe(400);
    }
    expect((await post(`/api/secrets/${secret.id}/rotate`, { value: "x" }, { env: { SECRETS_MASTER_KEY: "nope" } })).status).toBe(422);
    expect(await versions(secret.id)).toHaveLength(1);
  });

  it("guards: 401, agent 403, other company 404, missing 404", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id);
    const path = `/api/secrets/${secret.id}/rotate`;
    expect((await post(path, { value: "x" }, BOGUS)).status).toBe(401);
    expect((await post(path, { value: "x" }, { token: await agentToken(company.id) })).status).toBe(403);
    const outsider = await boardUser((await createCompany()).id);
    expect((await post(path, { value: "x" }, { token: outsider.token })).status).toBe(404);
    expect((await post(`/api/secrets/${MISSING_ID}/rotate`, { value: "x" })).status).toBe(404);
    expect(await versions(secret.id)).toHaveLength(1);
  });
});

describe("DELETE /api/secrets/{secretId}", () => {
  it("removes the secret and all its versions", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id);
    await post(`/api/secrets/${secret.id}/rotate`, { value: "second" });
    const res = await del(`/api/secrets/${secret.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, id: secret.id, name: secret.name });
    expect(await versions(secret.id)).toHaveLength(0);
    expect((await get(`/api/companies/${company.id}/secrets`)).body).toEqual([]);
    expect((await del(`/api/secrets/${secret.id}`)).status).toBe(404);
    const [entry] = await activity(company.id, "secret.deleted");
    expect(entry.details).toEqual({ name: secret.name, version: 2 });
    // The name is free again.
    expect((await post(`/api/companies/${company.id}/secrets`, { name: secret.name, value: "x" })).status).toBe(201);
  });

  it("guards: 401, agent 403, other company 404, missing 404", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id);
    const path = `/api/secrets/${secret.id}`;
    expect((await del(path, BOGUS)).status).toBe(401);
    expect((await del(path, { token: await agentToken(company.id) })).status).toBe(403);
    const outsider = await boardUser((await createCompany()).id);
    expect((await del(path, { token: outsider.token })).status).toBe(404);
    expect((await del(`/api/secrets/${MISSING_ID}`)).status).toBe(404);
    expect(await versions(secret.id)).toHaveLength(1);
  });
});

describe("plaintext never leaves", () => {
  it("no response of the secrets routes (or the activity list) contains a value", async () => {
    const company = await createCompany();
    const owner = await boardUser(company.id, "owner");
    const opts = { token: owner.token };
    const values = [`plain-create-${crypto.randomUUID()}`, `plain-rotate-${crypto.randomUUID()}`, `plain-rotate2-${crypto.randomUUID()}`];
    const responses: ApiResponse[] = [];
    const record = (r: ApiResponse) => (responses.push(r), r);

    const created = record(await post(`/api/companies/${company.id}/secrets`, { name: "SCAN_ME", value: values[0] }, opts));
    const id = created.body.id;
    record(await post(`/api/companies/${company.id}/secrets`, { name: "SCAN_ME", value: values[0] }, opts)); // 409
    record(await post(`/api/companies/${company.id}/secrets`, { name: "bad name", value: values[0] }, opts)); // 400
    record(await post(`/api/companies/${company.id}/secrets`, { name: "EXT", value: values[0], provider: "vault" }, opts)); // 422
    record(await get(`/api/companies/${company.id}/secret-providers`, opts));
    record(await get(`/api/companies/${company.id}/secrets`, opts));
    record(await patch(`/api/secrets/${id}`, { description: "scan" }, opts));
    record(await patch(`/api/secrets/${id}`, { value: values[0] }, opts)); // 400 (strict)
    record(await post(`/api/secrets/${id}/rotate`, { value: values[1] }, opts));
    record(await post(`/api/secrets/${id}/rotate`, { value: values[2], externalRef: "ext" }, opts));
    record(await get(`/api/companies/${company.id}/secrets`, opts));
    record(await get(`/api/companies/${company.id}/activity`, opts));
    record(await del(`/api/secrets/${id}`, opts));
    record(await get(`/api/companies/${company.id}/activity`, opts));

    expect(responses.map((r) => r.status)).toEqual([201, 409, 400, 422, 200, 200, 200, 400, 200, 200, 200, 200, 200, 200]);
    for (const r of responses) for (const v of values) expect(r.text).not.toContain(v);
    const { results } = await testD1.prepare("SELECT details FROM activity_log WHERE company_id = ?").bind(company.id).all<{ details: string | null }>();
    for (const row of results) for (const v of values) expect(row.details ?? "").not.toContain(v);
  });
});

describe("OpenAPI", () => {
  it("documents every secrets route", async () => {
    const doc = (await get("/api/openapi.json")).body;
    expect(Object.keys(doc.paths["/api/companies/{companyId}/secrets"]).sort()).toEqual(["get", "post"]);
    expect(doc.paths["/api/companies/{companyId}/secret-providers"].get).toBeDefined();
    expect(Object.keys(doc.paths["/api/secrets/{secretId}"]).sort()).toEqual(["delete", "patch"]);
    expect(doc.paths["/api/secrets/{secretId}/rotate"].post.responses).toHaveProperty("409");
  });
});
