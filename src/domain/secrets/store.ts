// Secret rows: metadata view, version material (encrypt on write, decrypt on read)
// and the insert statements shared by the secrets commands and env bindings.
import type { Statement } from "../../db/batch";
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { newId } from "../../crypto/random";
import { sha256Hex } from "../../crypto/hash";
import { decryptSecretValue, encryptSecretValue, importMasterKey, SecretDecryptionError } from "../../crypto/secret-encryption";
import { badRequest, unprocessable } from "../errors";
import { requireConfiguredProvider } from "./providers";

export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
export const MAX_SECRET_VALUE_BYTES = 64 * 1024;

export type SecretRow = typeof schema.companySecrets.$inferSelect;
export type SecretVersionRow = typeof schema.companySecretVersions.$inferSelect;

/** Metadata only: never material, hash or plaintext. */
export function secretView(row: SecretRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    provider: row.provider,
    externalRef: row.externalRef ?? null,
    latestVersion: row.latestVersion,
    description: row.description ?? null,
    createdByAgentId: row.createdByAgentId ?? null,
    createdByUserId: row.createdByUserId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type SecretView = ReturnType<typeof secretView>;

export const utf8Length = (value: string) => new TextEncoder().encode(value).length;

/** Value rules shared by create, rotate and env bindings (400 on breach). */
export function checkSecretValue(value: string, what = "value") {
  if (value.length === 0) throw badRequest(`${what} must not be empty`);
  if (utf8Length(value) > MAX_SECRET_VALUE_BYTES) throw badRequest(`${what} must be at most ${MAX_SECRET_VALUE_BYTES} bytes`);
}

const creator = (actor: Actor) => ({
  createdByAgentId: actor.type === "agent" ? actor.agentId : null,
  createdByUserId: actor.type === "board" ? actor.userId : null,
});

/** Authenticated data binding material to its row: copying it to another secret or version fails decryption. */
const associatedData = (secretId: string, version: number) => `secret:${secretId}:v${version}`;

async function encryptMaterial(env: Env, provider: string, secretId: string, version: number, value: string) {
  requireConfiguredProvider(env, provider);
  // Only local_encrypted can be configured (see providers.ts).
  const key = await importMasterKey(env.SECRETS_MASTER_KEY);
  return (await encryptSecretValue(key, value, associatedData(secretId, version))) as unknown as Record<string, unknown>;
}

export interface NewSecret {
  name: string;
  value: string;
  provider: string;
  description?: string | null;
  externalRef?: string | null;
  /** Extra activity details (never the value). */
  activity?: Record<string, unknown>;
}

/** Statements creating a secret with version 1, plus its `secret.created` activity entry. */
export async function newSecretStatements(ctx: CommandContext, actor: Actor, input: NewSecret) {
  const id = newId();
  const material = await encryptMaterial(ctx.env, input.provider, id, 1, input.value);
  const by = creator(actor);
  const row: SecretRow = {
    id,
    companyId: ctx.companyId,
    name: input.name,
    provider: input.provider,
    externalRef: input.externalRef ?? null,
    latestVersion: 1,
    description: input.description ?? null,
    ...by,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const statements: Statement[] = [
    ctx.db.insert(schema.companySecrets).values(row),
    ctx.db.insert(schema.companySecretVersions).values({
      id: newId(),
      secretId: id,
      companyId: ctx.companyId,
      version: 1,
      material,
      valueSha256: sha256Hex(input.value),
      externalRef: input.externalRef ?? null,
      ...by,
      createdAt: ctx.now,
    }),
    ctx.activity({
      action: "secret.created",
      entityType: "secret",
      entityId: id,
      details: { name: input.name, version: 1, ...input.activity },
    }),
  ];
  return { row, statements };
}

/** Statement inserting version `version` of an existing secret (wrapped: an awaited query builder would run). */
export async function newVersionStatement(ctx: CommandContext, actor: Actor, secret: SecretRow, version: number, value: string, externalRef: string | null) {
  const material = await encryptMaterial(ctx.env, secret.provider, secret.id, version, value);
  const statement = ctx.db.insert(schema.companySecretVersions).values({
    id: newId(),
    secretId: secret.id,
    companyId: secret.companyId,
    version,
    material,
    valueSha256: sha256Hex(value),
    externalRef,
    ...creator(actor),
    createdAt: ctx.now,
  });
  return { statement };
}

/** Plaintext of one version, fetched through its provider (422 when the provider is unusable or the material is bad). */
export async function readSecretVersion(env: Env, secret: SecretRow, version: SecretVersionRow): Promise<string> {
  requireConfiguredProvider(env, secret.provider);
  const key = await importMasterKey(env.SECRETS_MASTER_KEY);
  let value: string;
  try {
    value = await decryptSecretValue(key, version.material, associatedData(secret.id, version.version));
  } catch (err) {
    if (err instanceof SecretDecryptionError) {
      throw unprocessable(`Secret "${secret.name}" version ${version.version} cannot be decrypted (master key changed or data damaged)`, {
        secretId: secret.id,
        version: version.version,
      });
    }
    throw err;
  }
  if (sha256Hex(value) !== version.valueSha256) {
    throw unprocessable(`Secret "${secret.name}" version ${version.version} failed its integrity check`, { secretId: secret.id, version: version.version });
  }
  return value;
}

/** True for a UNIQUE-constraint failure from D1 (a race the command's own check did not see). */
export function isUniqueViolation(err: unknown): boolean {
  const message = err instanceof Error ? `${err.message} ${(err as { cause?: Error }).cause?.message ?? ""}` : String(err);
  return /UNIQUE constraint failed/i.test(message);
}
