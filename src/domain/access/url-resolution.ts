// Form-only URL check for invite test-resolution: parses the URL, classifies its host (loopback,
// private, link-local) and applies the remote gateway rule (HTTPS anywhere; plain HTTP only on
// loopback unless dangerouslyAllowInsecureRemoteHttp). Never makes a network call.

export type GatewayRule = "allowed" | "requires_insecure_http_flag" | "rejected";

function parseIpv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const nums = parts.map(Number);
  return nums.every((n) => n <= 255) ? nums : null;
}

function classifyIpv4([a, b]: number[]) {
  return {
    loopback: a === 127,
    private: a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a === 0,
    linkLocal: a === 169 && b === 254,
  };
}

function classifyIpv6(host: string) {
  const h = host.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) {
    const v4 = parseIpv4(mapped[1]);
    if (v4) return classifyIpv4(v4);
  }
  return {
    loopback: h === "::1",
    private: /^f[cd][0-9a-f]{0,2}:/.test(h) || h === "::",
    linkLocal: /^fe[89ab][0-9a-f]?:/.test(h),
  };
}

export function resolveUrlForm(raw: string) {
  const base = {
    url: raw,
    wellFormed: false,
    error: null as string | null,
    scheme: null as string | null,
    host: null as string | null,
    port: null as number | null,
    hostKind: null as "hostname" | "ipv4" | "ipv6" | null,
    isLoopback: false,
    isPrivate: false,
    isLinkLocal: false,
    usesTls: false,
    publiclyRoutable: false,
    gatewayRule: "rejected" as GatewayRule,
    reachableByGateway: false,
    notes: [] as string[],
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ...base, error: "Not a well-formed absolute URL" };
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (scheme !== "http" && scheme !== "https") {
    return { ...base, scheme, error: `Unsupported scheme ${scheme}: use http or https` };
  }
  if (!url.hostname) return { ...base, scheme, error: "URL has no host" };
  if (url.username || url.password) base.notes.push("Credentials in the URL are ignored; send them as headers instead");

  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port ? Number(url.port) : scheme === "https" ? 443 : 80;
  let kind: "hostname" | "ipv4" | "ipv6" = "hostname";
  let cls = { loopback: false, private: false, linkLocal: false };
  const v4 = parseIpv4(host);
  if (v4) {
    kind = "ipv4";
    cls = classifyIpv4(v4);
  } else if (host.includes(":")) {
    kind = "ipv6";
    cls = classifyIpv6(host);
  } else {
    cls = {
      loopback: host === "localhost" || host.endsWith(".localhost"),
      private: host.endsWith(".local") || host.endsWith(".internal") || host.endsWith(".lan") || host.endsWith(".home.arpa") || !host.includes("."),
      linkLocal: false,
    };
    if (!host.includes(".") && !cls.loopback) base.notes.push("Single-label host names resolve only inside a private network");
  }
  const usesTls = scheme === "https";
  const publiclyRoutable = !cls.loopback && !cls.private && !cls.linkLocal;
  const gatewayRule: GatewayRule = usesTls || cls.loopback ? "allowed" : "requires_insecure_http_flag";
  if (gatewayRule === "requires_insecure_http_flag") {
    base.notes.push("Plain HTTP to a non-loopback host needs adapterConfig.dangerouslyAllowInsecureRemoteHttp = true");
  }
  if (!publiclyRoutable)
    base.notes.push("This host is not reachable from the public internet; the service can reach it only through a tunnel or when running on the same network");
  return {
    ...base,
    wellFormed: true,
    scheme,
    host,
    port,
    hostKind: kind,
    isLoopback: cls.loopback,
    isPrivate: cls.private,
    isLinkLocal: cls.linkLocal,
    usesTls,
    publiclyRoutable,
    gatewayRule,
    reachableByGateway: gatewayRule === "allowed",
  };
}
