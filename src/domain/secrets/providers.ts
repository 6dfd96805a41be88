// Secret providers: the built-in `local_encrypted` plus descriptors of external
// stores users expect. External ones are listed but not configured in this
// deployment, so creating, rotating or resolving through them is refused.
import { unprocessable } from "../errors";
import { isValidMasterKey } from "../../crypto/secret-encryption";

export const SECRET_PROVIDER_IDS = ["local_encrypted", "aws_secrets_manager", "gcp_secret_manager", "vault"] as const;
export type SecretProviderId = (typeof SECRET_PROVIDER_IDS)[number];

export interface SecretProviderDescriptor {
  id: SecretProviderId;
  label: string;
  requiresExternalRef: boolean;
  configured: boolean;
}

const DESCRIPTORS: Array<Omit<SecretProviderDescriptor, "configured">> = [
  { id: "local_encrypted", label: "Local encrypted (AES-256-GCM)", requiresExternalRef: false },
  { id: "aws_secrets_manager", label: "AWS Secrets Manager", requiresExternalRef: true },
  { id: "gcp_secret_manager", label: "Google Cloud Secret Manager", requiresExternalRef: true },
  { id: "vault", label: "HashiCorp Vault", requiresExternalRef: true },
];

/** Whether the provider can store and fetch values in this deployment. */
export function isProviderConfigured(env: Pick<Env, "SECRETS_MASTER_KEY">, id: string): boolean {
  if (id === "local_encrypted") return isValidMasterKey(env.SECRETS_MASTER_KEY);
  return false;
}

export function listSecretProviders(env: Pick<Env, "SECRETS_MASTER_KEY">): SecretProviderDescriptor[] {
  return DESCRIPTORS.map((d) => ({ ...d, configured: isProviderConfigured(env, d.id) }));
}

export function providerDescriptor(id: string) {
  return DESCRIPTORS.find((d) => d.id === id);
}

/** Throws a clear 422 unless the provider is known and configured. */
export function requireConfiguredProvider(env: Pick<Env, "SECRETS_MASTER_KEY">, id: string) {
  const descriptor = providerDescriptor(id);
  if (!descriptor) throw unprocessable(`Unknown secret provider "${id}"`, { provider: id });
  if (!isProviderConfigured(env, id)) {
    const why =
      id === "local_encrypted"
        ? "SECRETS_MASTER_KEY is missing or invalid (64 hex characters or base64 of 32 bytes expected)"
        : "this deployment has no credentials for it";
    throw unprocessable(`Secret provider "${id}" is not configured: ${why}`, { provider: id });
  }
  return descriptor;
}

/**
 * The provider a create uses when none is given: `SECRETS_DEFAULT_PROVIDER`
 * when set to a configured provider, else `local_encrypted`.
 */
export function defaultProvider(env: Env): SecretProviderId {
  const wanted = env.SECRETS_DEFAULT_PROVIDER;
  if (typeof wanted === "string" && providerDescriptor(wanted) && isProviderConfigured(env, wanted)) return wanted as SecretProviderId;
  return "local_encrypted";
}
