// Host classification for environment probes (no network I/O): where a configured host
// would point, so private and metadata addresses are never reached by accident.
export type HostClass = "loopback" | "private" | "link_local" | "unspecified" | "public" | "invalid";

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

function ipv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

function classifyIpv4([a, b]: number[]): HostClass {
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return "private";
  if (a === 169 && b === 254) return "link_local";
  if (a >= 224) return "invalid";
  return "public";
}

function classifyIpv6(raw: string): HostClass {
  const host = raw.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(host) || !host.includes(":")) return "invalid";
  if (host === "::") return "unspecified";
  if (host === "::1") return "loopback";
  const mapped = host.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) {
    const v4 = ipv4(mapped[1]);
    return v4 ? classifyIpv4(v4) : "invalid";
  }
  if (/^f[cd]/.test(host)) return "private";
  if (/^fe[89ab]/.test(host)) return "link_local";
  return "public";
}

export function classifyHost(input: string): HostClass {
  const host = input.trim().replace(/^\[(.*)\]$/, "$1");
  if (!host) return "invalid";
  if (host.includes(":")) return classifyIpv6(host);
  const v4 = ipv4(host);
  if (v4) return classifyIpv4(v4);
  if (/^\d+(\.\d+)*$/.test(host)) return "invalid";
  if (!HOSTNAME.test(host)) return "invalid";
  const lower = host.toLowerCase().replace(/\.$/, "");
  if (lower === "localhost" || lower.endsWith(".localhost")) return "loopback";
  if (!lower.includes(".") || /\.(local|internal|lan|home|corp|intranet)$/.test(lower)) return "private";
  return "public";
}
