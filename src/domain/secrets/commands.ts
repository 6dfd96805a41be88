// Secret mutations, run inside the company's Durable Object (one at a time per
// company, so version numbers and name checks cannot race).
import type { Statement } from "../../db/batch";
import { and, eq, max } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { conflict, notFound, unprocessable } from "../errors";
import { defaultProvider, providerDescriptor, requireConfiguredProvider } from "./providers";
import { checkSecretValue, isUniqueViolation, newSecretStatements, newVersionStatement, secretView } from "./store";

export interface CreateSecretInput {
  name: string;
  value: string;
  provider?: string;
  description?: string | null;
  externalRef?: string | null;
}

export interface UpdateSecretInput {
  secretId: string;
  fields: { name?: string; description?: string | null; externalRef?: string | null };
}

export interface RotateSecretInput {
  secretId: string;
  value: string;
  externalRef?: string | null;
}

async function loadSecret(ctx: CommandContext, secretId: string) {
  const row = await ctx.db.query.companySecrets.findFirst({
    where: and(eq(schema.companySecrets.id, secretId), eq(schema.companySecrets.companyId, ctx.companyId)),
  });
  if (!row) throw notFound("Secret not found");
  return row;
}

async function requireFreeName(ctx: CommandContext, name: string, exceptId?: string) {
  const existing = await ctx.db.query.companySecrets.findFirst({
    where: and(eq(schema.companySecrets.companyId, ctx.companyId), eq(schema.companySecrets.name, name)),
  });
  if (existing && existing.id !== exceptId) throw conflict(`A secret named "${name}" already exists in this company`, { name });
}

/** Runs the batch; a UNIQUE failure the checks above did not see becomes `onConflict`. */
async function runBatch(ctx: CommandContext, statements: Statement[], onConflict: () => Error) {
  try {
    await ctx.batch(statements);
  } catch (err) {
    if (isUniqueViolation(err)) throw onConflict();
    throw err;
  }
}

function requireExternalRefIfNeeded(provider: string, externalRef: string | null | undefined) {
  if (providerDescriptor(provider)?.requiresExternalRef && !externalRef) {
    throw unprocessable(`Provider "${provider}" requires externalRef`, { provider });
  }
}

export const createSecret = defineCommand("secret.create", async (ctx, actor, input: CreateSecretInput) => {
  const provider = input.provider ?? defaultProvider(ctx.env);
  requireConfiguredProvider(ctx.env, provider);
  requireExternalRefIfNeeded(provider, input.externalRef);
  checkSecretValue(input.value);
  await requireFreeName(ctx, input.name);
  const { row, statements } = await newSecretStatements(ctx, actor, { ...input, provider });
  await runBatch(ctx, statements, () => conflict(`A secret named "${input.name}" already exists in this company`, { name: input.name }));
  return secretView(row);
});

export const updateSecret = defineCommand("secret.update", async (ctx, actor, input: UpdateSecretInput) => {
  const before = await loadSecret(ctx, input.secretId);
  const { fields } = input;
  if (fields.name !== undefined && fields.name !== before.name) await requireFreeName(ctx, fields.name, before.id);
  const changedFields = (Object.keys(fields) as Array<keyof typeof fields>).filter(
    (k) => fields[k] !== undefined && (fields[k] ?? null) !== (before[k] ?? null),
  );
  const set = Object.fromEntries(changedFields.map((k) => [k, fields[k] ?? null]));
  const after = { ...before, ...set, updatedAt: ctx.now };
  await runBatch(
    ctx,
    [
      ctx.db
        .update(schema.companySecrets)
        .set({ ...set, updatedAt: ctx.now })
        .where(eq(schema.companySecrets.id, before.id)),
      ctx.activity({
        action: "secret.updated",
        entityType: "secret",
        entityId: before.id,
        details: {
          name: after.name,
          version: before.latestVersion,
          changedFields,
          ...(after.name !== before.name ? { previousName: before.name } : {}),
        },
      }),
    ],
    () => conflict(`A secret named "${fields.name}" already exists in this company`, { name: fields.name }),
  );
  return secretView(after);
});

export const rotateSecret = defineCommand("secret.rotate", async (ctx, actor, input: RotateSecretInput) => {
  const secret = await loadSecret(ctx, input.secretId);
  requireConfiguredProvider(ctx.env, secret.provider);
  checkSecretValue(input.value);
  const externalRef = input.externalRef === undefined ? secret.externalRef : input.externalRef;
  requireExternalRefIfNeeded(secret.provider, externalRef);
  // latestVersion is authoritative; the max over versions guards against any row written outside this path.
  const [{ top }] = await ctx.db
    .select({ top: max(schema.companySecretVersions.version) })
    .from(schema.companySecretVersions)
    .where(eq(schema.companySecretVersions.secretId, secret.id));
  const version = Math.max(secret.latestVersion, top ?? 0) + 1;
  const after = { ...secret, latestVersion: version, externalRef: externalRef ?? null, updatedAt: ctx.now };
  const { statement: versionInsert } = await newVersionStatement(ctx, actor, secret, version, input.value, externalRef ?? null);
  await runBatch(
    ctx,
    [
      versionInsert,
      ctx.db
        .update(schema.companySecrets)
        .set({ latestVersion: version, externalRef: externalRef ?? null, updatedAt: ctx.now })
        .where(eq(schema.companySecrets.id, secret.id)),
      ctx.activity({
        action: "secret.rotated",
        entityType: "secret",
        entityId: secret.id,
        details: { name: secret.name, version },
      }),
    ],
    () => conflict("Another rotation of this secret happened at the same time; retry"),
  );
  return secretView(after);
});

export const deleteSecret = defineCommand("secret.delete", async (ctx, actor, input: { secretId: string }) => {
  const secret = await loadSecret(ctx, input.secretId);
  await runBatch(
    ctx,
    [
      ctx.db.delete(schema.companySecretVersions).where(eq(schema.companySecretVersions.secretId, secret.id)),
      ctx.db.delete(schema.companySecrets).where(eq(schema.companySecrets.id, secret.id)),
      ctx.activity({
        action: "secret.deleted",
        entityType: "secret",
        entityId: secret.id,
        details: { name: secret.name, version: secret.latestVersion },
      }),
    ],
    () => conflict("Secret could not be deleted; retry"),
  );
  return { ok: true as const, id: secret.id, name: secret.name };
});

export const secretCommands = [createSecret, updateSecret, rotateSecret, deleteSecret];
