// Test-only bindings added in vitest.config.ts.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** The fake agent endpoint (test/setup/fake-agent-server.ts). */
    FAKE_AGENT_URL: string;
    GITHUB_API_URL: string;
    GITHUB_RAW_URL: string;
  }
}

/** A part of a Blob/File body in tests (the Workers types do not name it). */
type BlobPart = string | ArrayBuffer | ArrayBufferView | Blob;
