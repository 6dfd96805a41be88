// Environment kinds: one definition per kind (config fields, secret fields, what it supports).
// The create schema, the capabilities endpoint and the probe are all generated from these.
import { z } from "@hono/zod-openapi";
import { ENVIRONMENT_KINDS } from "../../db/schema/environments";

export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

export const SecretRefSchema = z
  .object({
    type: z.literal("secret_ref"),
    secretId: z.guid().openapi({ format: "uuid" }),
    version: z.union([z.literal("latest"), z.number().int().min(1)]).optional(),
  })
  .openapi("EnvironmentSecretRef", { description: "Reference to a company secret; version defaults to latest" });

const AbsolutePath = z
  .string()
  .min(1)
  .max(4000)
  .regex(/^(\/|[A-Za-z]:[\\/])/, "must be an absolute path");

interface FieldDef {
  schema: z.ZodType;
  description: string;
  /** The value is a secret reference (checked to exist in the company). */
  secret?: boolean;
}

interface KindDef {
  label: string;
  description: string;
  supports: { isolatedWorkspaces: boolean; runtimeServices: boolean; runtimeCommands: boolean; leases: boolean; networkIsolation: boolean };
  fields: Record<string, FieldDef>;
}

export const environmentKindDefinitions = {
  local: {
    label: "Local machine",
    description: "The machine the local agent runtime runs on; workspaces are directories under workdir.",
    supports: { isolatedWorkspaces: true, runtimeServices: true, runtimeCommands: true, leases: true, networkIsolation: false },
    fields: {
      workdir: { schema: AbsolutePath, description: "Absolute directory under which workspaces are created" },
      shell: { schema: z.string().min(1).max(200).optional(), description: "Shell for runtime commands (default /bin/sh)" },
    },
  },
  ssh: {
    label: "SSH host",
    description: "A remote host reached over SSH with a key held as a company secret.",
    supports: { isolatedWorkspaces: true, runtimeServices: true, runtimeCommands: true, leases: true, networkIsolation: false },
    fields: {
      host: { schema: z.string().min(1).max(253), description: "Hostname or IP address" },
      port: { schema: z.number().int().min(1).max(65535).default(22), description: "SSH port (default 22)" },
      username: { schema: z.string().min(1).max(100), description: "Login user" },
      privateKey: { schema: SecretRefSchema, description: "Private key (secret reference)", secret: true },
      knownHostsFingerprint: { schema: z.string().min(1).max(200).optional(), description: "Expected host key fingerprint (SHA256:…)" },
      workdir: { schema: AbsolutePath.optional(), description: "Absolute directory for workspaces on the host" },
      allowPrivateNetwork: {
        schema: z.boolean().default(false),
        description: "Allow loopback and private-range hosts (refused by default; link-local and unspecified addresses are never allowed)",
      },
    },
  },
  container: {
    label: "Container",
    description: "A container started from an image by a Docker-compatible runtime.",
    supports: { isolatedWorkspaces: true, runtimeServices: true, runtimeCommands: true, leases: true, networkIsolation: true },
    fields: {
      image: { schema: z.string().min(1).max(500), description: "Image reference, e.g. ghcr.io/acme/runner:1.2" },
      runtime: { schema: z.enum(["docker", "podman"]).default("docker"), description: "Container runtime (default docker)" },
      registryAuth: { schema: SecretRefSchema.optional(), description: "Registry credentials (secret reference)", secret: true },
      cpus: { schema: z.number().positive().max(256).optional(), description: "CPU limit" },
      memoryMb: { schema: z.number().int().min(64).max(1_048_576).optional(), description: "Memory limit in MiB" },
      network: { schema: z.enum(["none", "bridge"]).default("bridge"), description: "Network mode (default bridge)" },
      workdir: { schema: AbsolutePath.optional(), description: "Working directory inside the container" },
    },
  },
  cloud_sandbox: {
    label: "Cloud sandbox",
    description: "An ephemeral sandbox from a hosted provider, authenticated with an API key held as a company secret.",
    supports: { isolatedWorkspaces: true, runtimeServices: true, runtimeCommands: true, leases: true, networkIsolation: true },
    fields: {
      provider: { schema: z.string().min(1).max(100), description: "Sandbox provider name" },
      apiKey: { schema: SecretRefSchema, description: "Provider API key (secret reference)", secret: true },
      apiBaseUrl: { schema: z.url().max(2000).optional(), description: "Provider API base URL (https, public host)" },
      region: { schema: z.string().min(1).max(100).optional(), description: "Region" },
      template: { schema: z.string().min(1).max(200).optional(), description: "Sandbox template or image" },
      timeoutSec: { schema: z.number().int().min(60).max(86_400).default(3600), description: "Sandbox lifetime in seconds (default 3600)" },
    },
  },
} satisfies Record<EnvironmentKind, KindDef>;

type ConfigSchema = z.ZodObject<Record<string, z.ZodType>>;

function buildConfigSchema(kind: EnvironmentKind): ConfigSchema {
  const def = environmentKindDefinitions[kind] as KindDef;
  const shape = Object.fromEntries(Object.entries(def.fields).map(([name, f]) => [name, f.schema.openapi({ description: f.description })]));
  return z.strictObject(shape).openapi(`EnvironmentConfig_${kind}`) as unknown as ConfigSchema;
}

export const environmentConfigSchemas = {
  local: buildConfigSchema("local"),
  ssh: buildConfigSchema("ssh"),
  container: buildConfigSchema("container"),
  cloud_sandbox: buildConfigSchema("cloud_sandbox"),
};

/** Config fields that hold secret references, per kind. */
export function secretFields(kind: EnvironmentKind): string[] {
  return Object.entries((environmentKindDefinitions[kind] as KindDef).fields)
    .filter(([, f]) => f.secret)
    .map(([name]) => name);
}

/** What the capabilities endpoint returns, derived from the definitions. */
export function environmentCapabilities() {
  return ENVIRONMENT_KINDS.map((kind) => {
    const def = environmentKindDefinitions[kind] as KindDef;
    const fields = Object.entries(def.fields).map(([name, f]) => ({
      name,
      description: f.description,
      required: !f.schema.safeParse(undefined).success,
      secret: !!f.secret,
    }));
    return {
      kind,
      label: def.label,
      description: def.description,
      supports: def.supports,
      requiredConfig: fields.filter((f) => f.required).map((f) => f.name),
      optionalConfig: fields.filter((f) => !f.required).map((f) => f.name),
      secretFields: fields.filter((f) => f.secret).map((f) => f.name),
      fields,
    };
  });
}
