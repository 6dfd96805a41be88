// Starts `npm run dev` on a free port with its own local state directory, waits for
// /api/health, and stops it (with its process group) when asked. Used by smoke and bench.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startDevServer({ quiet = true } = {}) {
  const port = await freePort();
  const persistDir = mkdtempSync(path.join(tmpdir(), "acp-dev-"));
  const child = spawn(process.execPath, [path.join(root, "test/tools/dev.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: String(port), WRANGLER_PERSIST_DIR: persistDir, CI: "true", WRANGLER_SEND_METRICS: "false" },
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dev server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`dev server did not become healthy in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  function stop() {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
    rmSync(persistDir, { recursive: true, force: true });
  }
  return { base, stop, output: () => output };
}
