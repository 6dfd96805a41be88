// The shape of adapterConfig.env before the secrets module normalises it:
// plain strings, { type: "plain", value } or { type: "secret_ref", secretId, version }.
import { z } from "zod";

export const EnvBindingsSchema = z.record(
  z.string(),
  z.union([z.string(), z.object({ type: z.literal("plain"), value: z.string() }), z.looseObject({ type: z.enum(["secret_ref", "secret"]) })]),
);

export const envField = {
  name: "env",
  required: false,
  description:
    'Environment variables for the run: a string, { "type": "plain", "value": "..." } or { "type": "secret_ref", "secretId": "<uuid>", "version": "latest" | <n> } (the secret must belong to the company). Raw values under secret-looking names (…_API_KEY, …_TOKEN) are stored as new company secrets.',
};
