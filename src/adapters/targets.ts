// Which hosts count as loopback or private-network targets (refused when the service is
// publicly exposed, so an agent URL cannot be used to reach the service's own network).

const PRIVATE_V4: Array<[number, number]> = [
  [0x0a000000, 8], // 10/8
  [0x7f000000, 8], // 127/8
  [0xa9fe0000, 16], // 169.254/16 (link-local, cloud metadata)
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
  [0x64400000, 10], // 100.64/10 (carrier-grade NAT)
  [0x00000000, 8], // 0/8
];

function ipv4(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

export function isPrivateTarget(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  const v4 = ipv4(host);
  if (v4 !== null) return PRIVATE_V4.some(([base, bits]) => v4 >>> (32 - bits) === base >>> (32 - bits));
  if (host.includes(":")) {
    if (host === "::1" || host === "::") return true;
    if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true; // unique local, link-local
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isPrivateTarget(mapped[1]);
    // IPv4 embedded in hex (URL parsing writes ::ffff:127.0.0.1 as ::ffff:7f00:1): IPv4-mapped,
    // IPv4-compatible and NAT64 addresses carry their IPv4 target in the last 32 bits.
    const embedded = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (embedded) {
      const hi = parseInt(embedded[1], 16);
      const lo = parseInt(embedded[2], 16);
      return isPrivateTarget([hi >> 8, hi & 255, lo >> 8, lo & 255].join("."));
    }
  }
  return false;
}
