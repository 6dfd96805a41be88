// Env bindings (agent adapterConfig.env, project env): normalised before storage,
// resolved to plaintext only when a run starts.
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { and, eq, sql } from "drizzle-orm";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import type { Db } from "../../db/client";
import { schema } from "../../db/client";
import { badRequest, unprocessable } from "../errors";
import { isSensitiveKey } from "../sensitive-keys";
import { checkSecretValue, newSecretStatements, readSecretVersion, SECRET_NAME_PATTERN, type SecretRow } from "./store";
import { defaultProvider } from "./providers";
import { isRecord } from "../records";

/** A stored env value: a plain variable or a reference to a company secret. */
export type SecretRefBinding = { type: "secret_ref"; secretId: string; version: "latest" | number };
export type PlainBinding = { type: "plain"; value: string };
export type EnvBindingValue = string | PlainBinding | SecretRefBinding;

const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseVersion(key: string, raw: unknown): "latest" | number {
  if (raw === undefined || raw === null || raw === "latest") return "latest";
  const n = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n === "number" && Number.isInteger(n) && n >= 1) return n;
  throw badRequest(`env.${key}: version must be "latest" or a positive integer`, { key });
}

/** `<ownerLabel>_<KEY>` restricted to the secret-name charset, made unique within the company. */
function secretNameBase(ownerLabel: string, key: string) {
  let base = `${ownerLabel}_${key}`.replace(/[^A-Za-z0-9_.-]+/g, "_");
  if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
  return base.slice(0, 120);
}

type Pending = { kind: "ref"; secretId: string; version: "latest" | number } | { kind: "new"; value: string };

/**
 * Validates and normalises an env map inside a company command. References must
 * point at secrets of this company (422 naming the key); raw values under
 * secret-like keys, and explicit `{ type: "secret_ref" | "secret", value }`,
 * become new `local_encrypted` secrets (statements returned for the caller's
 * batch) bound as `latest` references. Plain variables are kept as given.
 */
export async function normalizeEnvBindings(
  ctx: CommandContext,
  actor: Actor,
  env: Record<string, unknown> | null | undefined,
  opts: { ownerLabel: string },
): Promise<{ env: Record<string, unknown> | null; statements: Statement[] }> {
  if (env === null || env === undefined) return { env: null, statements: [] };
  if (!isRecord(env)) throw badRequest("env must be an object mapping variable names to values");

  const out: Record<string, unknown> = {};
  const pending = new Map<string, Pending>();
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_KEY_PATTERN.test(key)) throw badRequest(`env key "${key}" is not a valid variable name (letters, digits, _; not starting with a digit)`, { key });
    if (typeof value === "string") {
      if (isSensitiveKey(key) && value.length > 0) {
        checkSecretValue(value, `env.${key}`);
        pending.set(key, { kind: "new", value });
      } else out[key] = value;
      continue;
    }
    if (!isRecord(value)) throw badRequest(`env.${key} must be a string, { type: "plain", value } or { type: "secret_ref", secretId, version }`, { key });
    if (value.type === "plain") {
      if (typeof value.value !== "string") throw badRequest(`env.${key}: a plain binding needs a string value`, { key });
      out[key] = { type: "plain", value: value.value };
    } else if (value.type === "secret_ref" && value.secretId !== undefined) {
      if (typeof value.secretId !== "string" || !value.secretId) throw badRequest(`env.${key}: secretId must be a string`, { key });
      pending.set(key, { kind: "ref", secretId: value.secretId, version: parseVersion(key, value.version) });
    } else if ((value.type === "secret_ref" || value.type === "secret") && value.value !== undefined) {
      if (typeof value.value !== "string") throw badRequest(`env.${key}: value must be a string`, { key });
      // A UUID-shaped value naming a secret of this company is a bound reference (secret picker); anything else is raw.
      if (UUID_SHAPE.test(value.value) && (await findCompanySecret(ctx, value.value))) {
        pending.set(key, { kind: "ref", secretId: value.value, version: parseVersion(key, value.version) });
      } else {
        checkSecretValue(value.value, `env.${key}`);
        pending.set(key, { kind: "new", value: value.value });
      }
    } else {
      throw badRequest(`env.${key} must be a string, { type: "plain", value } or { type: "secret_ref", secretId, version }`, { key });
    }
  }

  const statements: Statement[] = [];
  const refIds = [...new Set([...pending.values()].flatMap((p) => (p.kind === "ref" ? [p.secretId] : [])))];
  const secrets = refIds.length
    ? await ctx.db.query.companySecrets.findMany({
        where: and(eq(schema.companySecrets.companyId, ctx.companyId), inIds(schema.companySecrets.id, refIds)),
      })
    : [];
  const versionRows = refIds.length
    ? await ctx.db
        .select({ secretId: schema.companySecretVersions.secretId, version: schema.companySecretVersions.version })
        .from(schema.companySecretVersions)
        .where(inIds(schema.companySecretVersions.secretId, refIds))
    : [];
  const byId = new Map(secrets.map((s) => [s.id, s]));
  const usedNames = new Set<string>();

  for (const [key, p] of pending) {
    if (p.kind === "ref") {
      if (!byId.has(p.secretId)) {
        throw unprocessable(`env.${key} references a secret that does not exist in this company`, { key, secretId: p.secretId });
      }
      if (p.version !== "latest" && !versionRows.some((v) => v.secretId === p.secretId && v.version === p.version)) {
        throw unprocessable(`env.${key} references version ${p.version} of a secret that has no such version`, {
          key,
          secretId: p.secretId,
          version: p.version,
        });
      }
      out[key] = { type: "secret_ref", secretId: p.secretId, version: p.version } satisfies SecretRefBinding;
    } else {
      const name = await uniqueSecretName(ctx, secretNameBase(opts.ownerLabel, key), usedNames);
      usedNames.add(name);
      const created = await newSecretStatements(ctx, actor, {
        name,
        value: p.value,
        provider: defaultProvider(ctx.env),
        description: `Created from env ${key} of ${opts.ownerLabel}`,
        activity: { source: "env_binding", key, owner: opts.ownerLabel },
      });
      statements.push(...created.statements);
      out[key] = { type: "secret_ref", secretId: created.row.id, version: "latest" } satisfies SecretRefBinding;
    }
  }
  // Keep the caller's key order.
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(env)) ordered[key] = out[key];
  return { env: ordered, statements };
}

async function findCompanySecret(ctx: CommandContext, id: string) {
  return ctx.db.query.companySecrets.findFirst({
    where: and(eq(schema.companySecrets.id, id), eq(schema.companySecrets.companyId, ctx.companyId)),
  });
}

async function uniqueSecretName(ctx: CommandContext, base: string, reserved: Set<string>) {
  const rows = await ctx.db
    .select({ name: schema.companySecrets.name })
    .from(schema.companySecrets)
    // A prefix match by substr, not LIKE: D1 refuses LIKE patterns over 50 bytes (a long owner name makes one).
    .where(and(eq(schema.companySecrets.companyId, ctx.companyId), sql`substr(${schema.companySecrets.name}, 1, ${base.length}) = ${base}`));
  const taken = new Set([...rows.map((r) => r.name), ...reserved]);
  if (!taken.has(base) && SECRET_NAME_PATTERN.test(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}_${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Plaintext environment for a run. `latest` references follow rotation, pinned
 * versions do not. A reference to a deleted secret, a secret of another company,
 * a missing version or an unconfigured provider fails with a 422 naming the key.
 */
export async function resolveEnvBindings(
  env: Env,
  db: Db,
  companyId: string,
  bindings: Record<string, unknown> | null | undefined,
): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  if (!bindings) return result;
  if (!isRecord(bindings)) throw unprocessable("env bindings must be an object");
  const refs: Array<[string, SecretRefBinding]> = [];
  for (const [key, value] of Object.entries(bindings)) {
    if (typeof value === "string") result[key] = value;
    else if (isRecord(value) && value.type === "plain" && typeof value.value === "string") result[key] = value.value;
    else if (isRecord(value) && value.type === "secret_ref" && typeof value.secretId === "string") {
      const version = value.version === undefined || value.version === null ? "latest" : value.version;
      if (version !== "latest" && !(typeof version === "number" && Number.isInteger(version) && version >= 1)) {
        throw unprocessable(`env.${key} has an invalid secret version`, { key });
      }
      refs.push([key, { type: "secret_ref", secretId: value.secretId, version }]);
    } else throw unprocessable(`env.${key} is not a valid env binding`, { key });
  }
  if (!refs.length) return result;

  const ids = [...new Set(refs.map(([, r]) => r.secretId))];
  const secrets = await db.query.companySecrets.findMany({ where: inIds(schema.companySecrets.id, ids) });
  const byId = new Map<string, SecretRow>(secrets.map((s) => [s.id, s]));
  for (const [key, ref] of refs) {
    const secret = byId.get(ref.secretId);
    if (!secret) throw unprocessable(`env.${key} references a secret that no longer exists`, { key, secretId: ref.secretId });
    if (secret.companyId !== companyId) {
      throw unprocessable(`env.${key} references a secret of another company`, { key, secretId: ref.secretId });
    }
    const wanted = ref.version === "latest" ? secret.latestVersion : ref.version;
    const version = await db.query.companySecretVersions.findFirst({
      where: and(eq(schema.companySecretVersions.secretId, secret.id), eq(schema.companySecretVersions.version, wanted)),
    });
    if (!version)
      throw unprocessable(`env.${key} references version ${wanted} of secret "${secret.name}", which does not exist`, {
        key,
        secretId: secret.id,
        version: wanted,
      });
    result[key] = await readSecretVersion(env, secret, version);
  }
  return result;
}
