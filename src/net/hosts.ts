// Where a host points, without any network I/O: the one classifier behind every outbound target
// check (agent endpoints, gateways, webhook and notification URLs when the service is publicly
// exposed) and environment probes. IPv4 in any IPv6 form (mapped, compatible, NAT64; dotted or hex
// as URL parsing writes it) is judged by its IPv4 address; a dotless name resolves through the
// local resolver's search domains, so it counts as private, as do .local, .internal, .lan, ….
export type HostClass = "loopback" | "private" | "link_local" | "unspecified" | "public" | "invalid";

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const PRIVATE_SUFFIX = /\.(local|internal|lan|home|corp|intranet)$/;

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
  // IPv4-mapped, IPv4-compatible and NAT64 addresses carry their IPv4 target in the last 32 bits.
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted) {
    const v4 = ipv4(dotted[1]);
    return v4 ? classifyIpv4(v4) : "invalid";
  }
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return classifyIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  if (/^f[cd][0-9a-f]{0,2}:/.test(host)) return "private";
  if (/^fe[89ab][0-9a-f]?:/.test(host)) return "link_local";
  return "public";
}

/** What `input` (a hostname or address, IPv6 with or without brackets) points at. */
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
  if (!lower.includes(".") || PRIVATE_SUFFIX.test(lower)) return "private";
  return "public";
}

/** Whether a target is anything but a public host (refused when the service is publicly exposed). */
export const isPrivateTarget = (hostname: string): boolean => classifyHost(hostname) !== "public";
