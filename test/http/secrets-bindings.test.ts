// Env bindings: normalisation before storage (inside a company command) and resolution for a run.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { del, get, post } from "../helpers/api";
import { createCompany, schema, updateRow, testD1 } from "../helpers/fixtures";
import { createDb, type Db } from "../../src/db/client";
import { commandContext, type CommandContext } from "../../src/company/command";
import type { CompanyStorage } from "../../src/company/storage";
import type { Actor } from "../../src/domain/actor";
import { HttpError } from "../../src/domain/errors";
import { normalizeEnvBindings, resolveEnvBindings } from "../../src/domain/secrets/bindings";

const actor: Actor = { type: "board", source: "local_implicit", userId: "local-board", isInstanceAdmin: true, companyIds: [], keyId: null, runId: null };
const db: Db = createDb(testD1);
const ctxFor = (companyId: string): CommandContext =>
  commandContext({ env, db, companyId, actor, storage: undefined as unknown as CompanyStorage, now: new Date().toISOString() });

async function createSecret(companyId: string, name: string, value: string) {
  const res = await post(`/api/companies/${companyId}/secrets`, { name, value });
  if (res.status !== 201) throw new Error(`createSecret failed: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string };
}
const rotate = (id: string, value: string) => post(`/api/secrets/${id}/rotate`, { value });

async function normalizeAndStore(companyId: string, input: Record<string, unknown> | null | undefined, ownerLabel = "agent") {
  const result = await normalizeEnvBindings(ctxFor(companyId), actor, input, { ownerLabel });
  await ctxFor(companyId).batch(result.statements);
  return result;
}

async function expectHttpError(promise: Promise<unknown>, status: number, message?: RegExp) {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).status).toBe(status);
  if (message) expect((err as HttpError).message).toMatch(message);
  return err as HttpError;
}

const listSecrets = async (companyId: string) => (await get(`/api/companies/${companyId}/secrets`)).body as any[];

describe("normalizeEnvBindings", () => {
  it("keeps plain variables and normalises references of the same company", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id, "DB_PASSWORD", "hunter2");
    await rotate(secret.id, "hunter3");
    const { env: out, statements } = await normalizeEnvBindings(
      ctxFor(company.id),
      actor,
      {
        LOG_LEVEL: "debug",
        MODE: { type: "plain", value: "fast" },
        EMPTY_TOKEN: "",
        DB_PASSWORD: { type: "secret_ref", secretId: secret.id },
        PINNED: { type: "secret_ref", secretId: secret.id, version: 1 },
        PINNED_STR: { type: "secret_ref", secretId: secret.id, version: "2" },
        LATEST: { type: "secret_ref", secretId: secret.id, version: "latest" },
      },
      { ownerLabel: "agent" },
    );
    expect(statements).toEqual([]);
    expect(out).toEqual({
      LOG_LEVEL: "debug",
      MODE: { type: "plain", value: "fast" },
      EMPTY_TOKEN: "",
      DB_PASSWORD: { type: "secret_ref", secretId: secret.id, version: "latest" },
      PINNED: { type: "secret_ref", secretId: secret.id, version: 1 },
      PINNED_STR: { type: "secret_ref", secretId: secret.id, version: 2 },
      LATEST: { type: "secret_ref", secretId: secret.id, version: "latest" },
    });
  });

  it("passes null and undefined through as null", async () => {
    const company = await createCompany();
    expect(await normalizeEnvBindings(ctxFor(company.id), actor, null, { ownerLabel: "x" })).toEqual({ env: null, statements: [] });
    expect(await normalizeEnvBindings(ctxFor(company.id), actor, undefined, { ownerLabel: "x" })).toEqual({ env: null, statements: [] });
  });

  it("rejects a reference to another company's secret, a missing secret or a missing version with 422 naming the key", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const foreign = await createSecret(other.id, "FOREIGN", "theirs");
    const own = await createSecret(company.id, "OWN", "mine");
    const ctx = ctxFor(company.id);
    const e1 = await expectHttpError(
      normalizeEnvBindings(ctx, actor, { STOLEN: { type: "secret_ref", secretId: foreign.id } }, { ownerLabel: "a" }),
      422,
      /STOLEN/,
    );
    expect(e1.details).toMatchObject({ key: "STOLEN", secretId: foreign.id });
    await expectHttpError(normalizeEnvBindings(ctx, actor, { GONE: { type: "secret_ref", secretId: crypto.randomUUID() } }, { ownerLabel: "a" }), 422, /GONE/);
    await expectHttpError(
      normalizeEnvBindings(ctx, actor, { OLD: { type: "secret_ref", secretId: own.id, version: 9 } }, { ownerLabel: "a" }),
      422,
      /OLD.*version 9/,
    );
  });

  it("stores a raw value under a secret-like key as a new secret and binds it as latest", async () => {
    const company = await createCompany();
    const { env: out, statements } = await normalizeEnvBindings(
      ctxFor(company.id),
      actor,
      { OPENAI_API_KEY: "sk-raw-123", GITHUB_TOKEN: "ghp_raw", PATH_HINT: "/usr/bin" },
      { ownerLabel: "Coder Bot" },
    );
    expect(statements.length).toBeGreaterThan(0);
    expect(await listSecrets(company.id)).toEqual([]); // nothing written until the caller's batch runs
    await ctxFor(company.id).batch(statements);
    const secrets = await listSecrets(company.id);
    expect(secrets.map((s) => s.name).sort()).toEqual(["Coder_Bot_GITHUB_TOKEN", "Coder_Bot_OPENAI_API_KEY"]);
    const openai = secrets.find((s) => s.name === "Coder_Bot_OPENAI_API_KEY");
    expect(openai).toMatchObject({ provider: "local_encrypted", latestVersion: 1, createdByUserId: "local-board" });
    expect(out).toEqual({
      OPENAI_API_KEY: { type: "secret_ref", secretId: openai.id, version: "latest" },
      GITHUB_TOKEN: { type: "secret_ref", secretId: expect.any(String), version: "latest" },
      PATH_HINT: "/usr/bin",
    });
    expect(await resolveEnvBindings(env, db, company.id, out)).toEqual({ OPENAI_API_KEY: "sk-raw-123", GITHUB_TOKEN: "ghp_raw", PATH_HINT: "/usr/bin" });
    const activity = (await get(`/api/companies/${company.id}/activity`)).body as any[];
    const created = activity.filter((a) => a.action === "secret.created");
    expect(created).toHaveLength(2);
    expect(JSON.stringify(created)).not.toContain("sk-raw-123");
  });

  it("makes generated names unique and converts explicit raw secret values", async () => {
    const company = await createCompany();
    await normalizeAndStore(company.id, { API_TOKEN: "first" }, "bot");
    const existing = await createSecret(company.id, "PICKED", "picked-value");
    const { env: out } = await normalizeAndStore(
      company.id,
      {
        API_TOKEN: "second",
        EXPLICIT: { type: "secret_ref", value: "raw-explicit" },
        TYPED: { type: "secret", value: "raw-typed" },
        PICKER: { type: "secret_ref", value: existing.id },
      },
      "bot",
    );
    const names = (await listSecrets(company.id)).map((s) => s.name).sort();
    expect(names).toEqual(["PICKED", "bot_API_TOKEN", "bot_API_TOKEN_2", "bot_EXPLICIT", "bot_TYPED"]);
    expect((out as any).PICKER).toEqual({ type: "secret_ref", secretId: existing.id, version: "latest" });
    expect(await resolveEnvBindings(env, db, company.id, out)).toEqual({
      API_TOKEN: "second",
      EXPLICIT: "raw-explicit",
      TYPED: "raw-typed",
      PICKER: "picked-value",
    });
  });

  it("rejects malformed values with 400", async () => {
    const company = await createCompany();
    const own = await createSecret(company.id, "OWN", "mine");
    const bad: unknown[] = [
      { PORT: 3000 },
      { FLAG: true },
      { NOTHING: null },
      { LIST: ["a"] },
      { WEIRD: { type: "magic", value: "x" } },
      { PLAIN_NUM: { type: "plain", value: 1 } },
      { REF: { type: "secret_ref" } },
      { REF: { type: "secret_ref", secretId: own.id, version: 0 } },
      { REF: { type: "secret_ref", secretId: own.id, version: "newest" } },
      { REF: { type: "secret_ref", secretId: 5 } },
      { "BAD-KEY": "x" },
      { "1ST": "x" },
      { API_KEY: "x".repeat(64 * 1024 + 1) },
      ["not", "a", "map"],
    ];
    for (const input of bad) {
      await expectHttpError(normalizeEnvBindings(ctxFor(company.id), actor, input as Record<string, unknown>, { ownerLabel: "a" }), 400);
    }
    expect((await listSecrets(company.id)).map((s) => s.name)).toEqual(["OWN"]);
  });
});

describe("resolveEnvBindings", () => {
  it("latest follows rotation; pinned versions do not", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id, "ROTATING", "v1-value");
    const bindings = {
      LATEST: { type: "secret_ref", secretId: secret.id, version: "latest" },
      PINNED: { type: "secret_ref", secretId: secret.id, version: 1 },
      PLAIN: "literal",
      PLAIN_OBJ: { type: "plain", value: "object literal" },
    };
    expect(await resolveEnvBindings(env, db, company.id, bindings)).toEqual({
      LATEST: "v1-value",
      PINNED: "v1-value",
      PLAIN: "literal",
      PLAIN_OBJ: "object literal",
    });
    expect((await rotate(secret.id, "v2-value")).status).toBe(200);
    expect(await resolveEnvBindings(env, db, company.id, bindings)).toEqual({
      LATEST: "v2-value",
      PINNED: "v1-value",
      PLAIN: "literal",
      PLAIN_OBJ: "object literal",
    });
    const pinned2 = { P2: { type: "secret_ref", secretId: secret.id, version: 2 }, P3: { type: "secret_ref", secretId: secret.id, version: 3 } };
    await expectHttpError(resolveEnvBindings(env, db, company.id, pinned2), 422, /P3.*version 3/);
  });

  it("fails clearly for a deleted secret", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id, "DOOMED", "bye");
    const { env: stored } = await normalizeAndStore(company.id, { DOOMED: { type: "secret_ref", secretId: secret.id } });
    expect(await resolveEnvBindings(env, db, company.id, stored)).toEqual({ DOOMED: "bye" });
    expect((await del(`/api/secrets/${secret.id}`)).status).toBe(200);
    await expectHttpError(resolveEnvBindings(env, db, company.id, stored), 422, /DOOMED.*no longer exists/);
  });

  it("fails clearly for a secret of another company", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const foreign = await createSecret(other.id, "THEIRS", "not yours");
    const err = await expectHttpError(
      resolveEnvBindings(env, db, company.id, { X: { type: "secret_ref", secretId: foreign.id, version: "latest" } }),
      422,
      /another company/,
    );
    expect(JSON.stringify({ message: err.message, details: err.details })).not.toContain("not yours");
  });

  it("fails when the master key changed or the provider is not configured", async () => {
    const company = await createCompany();
    const secret = await createSecret(company.id, "KEYED", "value");
    const bindings = { K: { type: "secret_ref", secretId: secret.id } };
    await expectHttpError(resolveEnvBindings({ ...env, SECRETS_MASTER_KEY: "ff".repeat(32) }, db, company.id, bindings), 422, /cannot be decrypted/);
    await expectHttpError(resolveEnvBindings({ ...env, SECRETS_MASTER_KEY: "" }, db, company.id, bindings), 422, /not configured/);
    await updateRow(schema.companySecrets, secret.id, { provider: "vault" as never });
    await expectHttpError(resolveEnvBindings(env, db, company.id, bindings), 422, /vault.*not configured/);
  });

  it("returns an empty map for no bindings and rejects malformed stored entries with 422", async () => {
    const company = await createCompany();
    expect(await resolveEnvBindings(env, db, company.id, null)).toEqual({});
    expect(await resolveEnvBindings(env, db, company.id, {})).toEqual({});
    await expectHttpError(resolveEnvBindings(env, db, company.id, { N: 5 }), 422, /N/);
  });
});
