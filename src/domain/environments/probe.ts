// Environment probes: form, reachability rules and required secrets, checked without any
// outbound network traffic. The same probe serves probe-config (nothing stored) and
// POST /environments/{id}/probe (result recorded on the environment).
import { inIds } from "../../db/id-list";
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { classifyHost, type HostClass } from "../../net/hosts";
import { environmentConfigSchemas, secretFields, type EnvironmentKind } from "./kinds";

export interface ProbeCheck {
  name: string;
  ok: boolean;
  message: string;
}

const IMAGE_REFERENCE =
  /^(?:[a-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

function hostRule(host: string, allowPrivate: boolean, what: string): ProbeCheck {
  const cls: HostClass = classifyHost(host);
  const name = "reachability";
  switch (cls) {
    case "invalid":
      return { name, ok: false, message: `${what} "${host}" is not a valid hostname or IP address` };
    case "link_local":
    case "unspecified":
      return { name, ok: false, message: `${what} "${host}" is a ${cls.replace("_", "-")} address, which is never allowed` };
    case "loopback":
    case "private":
      return allowPrivate
        ? { name, ok: true, message: `${what} "${host}" is a ${cls} address (allowed by allowPrivateNetwork)` }
        : { name, ok: false, message: `${what} "${host}" is a ${cls} address; set allowPrivateNetwork: true to allow it` };
    case "public":
      return { name, ok: true, message: `${what} "${host}" is a public host` };
  }
}

async function secretChecks(db: Db, companyId: string, kind: EnvironmentKind, config: Record<string, unknown>): Promise<ProbeCheck[]> {
  const refs = secretFields(kind)
    .map((field) => ({ field, ref: config[field] as { secretId: string; version?: "latest" | number } | undefined }))
    .filter((r): r is { field: string; ref: { secretId: string; version?: "latest" | number } } => !!r.ref);
  if (!refs.length) return [];
  const ids = refs.map((r) => r.ref.secretId);
  const secrets = await db
    .select({ id: schema.companySecrets.id, name: schema.companySecrets.name, latestVersion: schema.companySecrets.latestVersion })
    .from(schema.companySecrets)
    .where(and(eq(schema.companySecrets.companyId, companyId), inIds(schema.companySecrets.id, ids)));
  return refs.map(({ field, ref }) => {
    const secret = secrets.find((s) => s.id === ref.secretId);
    const name = `secret:${field}`;
    if (!secret) return { name, ok: false, message: `${field} references a secret that does not exist in this company` };
    const version = ref.version ?? "latest";
    if (version !== "latest" && version > secret.latestVersion) {
      return { name, ok: false, message: `${field} references version ${version} of secret "${secret.name}", which has only ${secret.latestVersion}` };
    }
    return {
      name,
      ok: true,
      message: `${field} resolves to secret "${secret.name}" (${version === "latest" ? `latest, v${secret.latestVersion}` : `v${version}`})`,
    };
  });
}

export async function probeEnvironmentConfig(db: Db, companyId: string, kind: EnvironmentKind, rawConfig: unknown) {
  const checks: ProbeCheck[] = [];
  const parsed = environmentConfigSchemas[kind].safeParse(rawConfig ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`);
    checks.push({ name: "config", ok: false, message: `Invalid ${kind} config: ${problems.join("; ")}` });
    return { ok: false, kind, checks };
  }
  // biome-ignore lint/suspicious/noExplicitAny: the kind's config, read field by field by the probe of that kind
  const config = parsed.data as Record<string, any>;
  checks.push({ name: "config", ok: true, message: `Configuration is valid for kind ${kind}` });
  if (kind === "local") {
    checks.push({ name: "workdir", ok: true, message: `Workspaces are created under ${config.workdir}` });
  } else if (kind === "ssh") {
    checks.push(hostRule(config.host, config.allowPrivateNetwork === true, "SSH host"));
    if (!config.knownHostsFingerprint) {
      checks.push({ name: "host_key", ok: true, message: "No knownHostsFingerprint: the host key is trusted on first use" });
    } else {
      const ok = /^SHA256:[A-Za-z0-9+/]{43}=?$/.test(config.knownHostsFingerprint);
      checks.push({
        name: "host_key",
        ok,
        message: ok ? "Host key fingerprint is well-formed" : "knownHostsFingerprint must look like SHA256:<43 base64 characters>",
      });
    }
  } else if (kind === "container") {
    const ok = IMAGE_REFERENCE.test(config.image);
    checks.push({ name: "image", ok, message: ok ? `Image reference ${config.image} is well-formed` : `"${config.image}" is not a valid image reference` });
  } else if (kind === "cloud_sandbox" && config.apiBaseUrl) {
    const url = new URL(config.apiBaseUrl);
    if (url.protocol !== "https:") checks.push({ name: "reachability", ok: false, message: "apiBaseUrl must use https" });
    else checks.push(hostRule(url.hostname, false, "apiBaseUrl host"));
  }
  checks.push(...(await secretChecks(db, companyId, kind, config)));
  return { ok: checks.every((c) => c.ok), kind, checks };
}
