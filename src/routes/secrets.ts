// Secrets (board only, company-scoped): providers, list, create, update metadata, rotate, delete.
// Values go in, never come out: every response is metadata only.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { dbOf } from "../http/db";
import { createRouter } from "../http/router";
import { boardMembershipRole, requireBoard, requireCompanyAccess, requireEntityAccess, type MembershipRole } from "../http/access";
import { hasInstanceWideAccess } from "../domain/actor";
import { forbidden } from "../domain/errors";
import { runCompanyCommand } from "../company/client";
import { defaultProvider, listSecretProviders, requireConfiguredProvider } from "../domain/secrets/providers";
import { listSecrets, loadSecret } from "../domain/secrets/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  CreateSecretSchema,
  DeletedSecretSchema,
  RotateSecretSchema,
  SecretIdParam,
  SecretProviderSchema,
  SecretSchema,
  UpdateSecretSchema,
} from "../schemas/secrets";
import { createSecret, deleteSecret, rotateSecret, updateSecret } from "../domain/secrets/commands";

const tags = ["Secrets"];
/** Viewers may read secret metadata; changing secrets needs a writing role. */
const WRITER_ROLES: MembershipRole[] = ["owner", "admin", "member"];
const WRITE_NOTE = "Board only; company members with role owner, admin or member (viewers read metadata only).";

export const secretsRouter = createRouter();

/** Board caller + a secret of a company it can reach (other company → 404); `write` also checks the role. */
async function requireSecret(c: Context<AppEnv>, secretId: string, write: boolean) {
  const actor = requireBoard(c);
  const secret = await loadSecret(dbOf(c), secretId);
  requireEntityAccess(c, secret.companyId, "Secret");
  if (write && !hasInstanceWideAccess(actor)) {
    const role = await boardMembershipRole(c.env, secret.companyId, actor.userId);
    if (!role || !WRITER_ROLES.includes(role)) throw forbidden(`Requires company role ${WRITER_ROLES.join(" or ")}`);
  }
  return { actor, secret };
}

secretsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/secret-providers",
    tags,
    summary: "Secret providers: built-in local_encrypted plus external stores; only configured ones accept create, rotate and resolve",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(SecretProviderSchema), "Provider descriptors"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(listSecretProviders(c.env), 200);
  },
);

secretsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/secrets",
    tags,
    summary: "The company's secrets, newest first (metadata only, never values)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(SecretSchema), "Secrets"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listSecrets(dbOf(c), companyId), 200);
  },
);

secretsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/secrets",
    tags,
    summary: "Create a secret (version 1)",
    description: `Name unique per company (409 otherwise). Value up to 64 KiB, encrypted at rest and never returned. An unconfigured provider gives 422. ${WRITE_NOTE}`,
    request: { params: CompanyIdParam, body: jsonBody(CreateSecretSchema) },
    responses: { 201: jsonContent(SecretSchema, "The new secret's metadata"), ...errors(400, 401, 403, 404, 409, 413, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true, roles: WRITER_ROLES });
    const body = c.req.valid("json");
    const provider = body.provider ?? defaultProvider(c.env);
    requireConfiguredProvider(c.env, provider);
    const secret = await runCompanyCommand(c.env, companyId, createSecret, c.get("actor"), { ...body, provider });
    return c.json(secret, 201);
  },
);

secretsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/secrets/{secretId}",
    tags,
    summary: "Update a secret's metadata (name, description, externalRef); no new version",
    description: `Renaming onto an existing name gives 409. The value changes only through rotate. ${WRITE_NOTE}`,
    request: { params: SecretIdParam, body: jsonBody(UpdateSecretSchema) },
    responses: { 200: jsonContent(SecretSchema, "The updated secret's metadata"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { secretId } = c.req.valid("param");
    const { actor, secret } = await requireSecret(c, secretId, true);
    const updated = await runCompanyCommand(c.env, secret.companyId, updateSecret, actor, { secretId, fields: c.req.valid("json") });
    return c.json(updated, 200);
  },
);

secretsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/secrets/{secretId}/rotate",
    tags,
    summary: "Rotate: store a new immutable version and advance latestVersion",
    description: `\`latest\` bindings follow the new version; pinned numeric ones do not. externalRef is kept when omitted. Concurrent rotations get distinct consecutive versions. ${WRITE_NOTE}`,
    request: { params: SecretIdParam, body: jsonBody(RotateSecretSchema) },
    responses: { 200: jsonContent(SecretSchema, "The secret's metadata after rotation"), ...errors(400, 401, 403, 404, 409, 413, 422) },
  }),
  async (c) => {
    const { secretId } = c.req.valid("param");
    const { actor, secret } = await requireSecret(c, secretId, true);
    requireConfiguredProvider(c.env, secret.provider);
    const rotated = await runCompanyCommand(c.env, secret.companyId, rotateSecret, actor, { secretId, ...c.req.valid("json") });
    return c.json(rotated, 200);
  },
);

secretsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/secrets/{secretId}",
    tags,
    summary: "Delete a secret and all its versions",
    description: `Configs still bound to it keep their reference; resolving it at run time then fails with a clear error. ${WRITE_NOTE}`,
    request: { params: SecretIdParam },
    responses: { 200: jsonContent(DeletedSecretSchema, "Deleted"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { secretId } = c.req.valid("param");
    const { actor, secret } = await requireSecret(c, secretId, true);
    return c.json(await runCompanyCommand(c.env, secret.companyId, deleteSecret, actor, { secretId }), 200);
  },
);
