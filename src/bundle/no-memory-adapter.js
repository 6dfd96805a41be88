// The Worker bundle's "@better-auth/memory-adapter" (wrangler.toml [alias]): better-auth falls
// back to an in-memory database only when none is configured; ours is always D1 through drizzle
// (src/auth/better-auth.ts), so the fallback (~5 KB minified) is left out and would fail loudly.
export function memoryAdapter() {
  throw new Error("better-auth's memory adapter is not in this Worker's bundle: configure a database (wrangler.toml [alias], src/bundle/no-memory-adapter.js)");
}
