// Secret request and response schemas (metadata only: a value is accepted, never returned).
import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";
import { SECRET_PROVIDER_IDS } from "../domain/secrets/providers";
import { MAX_SECRET_VALUE_BYTES, SECRET_NAME_PATTERN, utf8Length } from "../domain/secrets/store";

const SecretName = z
  .string()
  .regex(SECRET_NAME_PATTERN, "must start with a letter or _, then letters, digits, _ . - (at most 128 characters)")
  .openapi({ example: "OPENAI_API_KEY" });
const SecretValue = z
  .string()
  .min(1, "must not be empty")
  .refine((v) => utf8Length(v) <= MAX_SECRET_VALUE_BYTES, `must be at most ${MAX_SECRET_VALUE_BYTES} bytes`)
  .openapi({ description: "The plaintext; encrypted at rest and never returned", example: "sk-live-…" });
const Description = z.string().max(2000).nullable();
const ExternalRef = z
  .string()
  .min(1)
  .max(1000)
  .nullable()
  .openapi({ description: "Reference of the value in an external store (providers with requiresExternalRef)" });
const ProviderId = z.enum(SECRET_PROVIDER_IDS);

export const SecretSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    name: z.string(),
    provider: z.string(),
    externalRef: z.string().nullable(),
    latestVersion: z.number().int(),
    description: z.string().nullable(),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Secret");

export const SecretProviderSchema = z
  .object({
    id: ProviderId,
    label: z.string(),
    requiresExternalRef: z.boolean(),
    configured: z.boolean().openapi({ description: "Whether this deployment can store and fetch values through the provider" }),
  })
  .openapi("SecretProvider");

export const CreateSecretSchema = z
  .object({
    name: SecretName,
    value: SecretValue,
    provider: ProviderId.optional().openapi({ description: "Default: SECRETS_DEFAULT_PROVIDER when configured, else local_encrypted" }),
    description: Description.optional(),
    externalRef: ExternalRef.optional(),
  })
  .openapi("CreateSecret");

export const UpdateSecretSchema = z
  .strictObject({
    name: SecretName.optional(),
    description: Description.optional(),
    externalRef: ExternalRef.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "at least one of name, description, externalRef is required (use rotate to change the value)",
  })
  .openapi("UpdateSecret", { description: "Metadata only; the value changes through POST /api/secrets/{secretId}/rotate" });

export const RotateSecretSchema = z
  .object({
    value: SecretValue,
    externalRef: ExternalRef.optional().openapi({ description: "New external reference; the current one is kept when omitted" }),
  })
  .openapi("RotateSecret");

export const SecretIdParam = z.object({
  secretId: z
    .string()
    .min(1)
    .openapi({ param: { name: "secretId", in: "path" }, example: "5d0c3a52-8f7e-4b8e-9a57-3c1c5e2d9b11" }),
});

export const DeletedSecretSchema = z.object({ ok: z.literal(true), id: z.string(), name: z.string() }).openapi("DeletedSecret");
