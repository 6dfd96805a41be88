// The Worker bundle's "@better-auth/telemetry" (wrangler.toml [alias]): telemetry is off
// (src/auth/better-auth.ts sets telemetry.enabled = false), so better-auth's collector and its
// runtime/database/framework detection (~9 KB minified) are left out. These are the names it imports.
export async function createTelemetry() {
  return { publish: async () => {} };
}

export function getTelemetryAuthConfig() {
  return {};
}
