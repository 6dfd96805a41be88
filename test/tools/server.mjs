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

/**
 * `beforeStart(persistDir)` runs after the local state directory exists and before the server
 * starts (the bench seeds large companies straight into local D1 there).
 */
/**
 * `npm run dev` on a free port with its own temporary state; `dir` is the checkout to serve (A/B
 * comparisons), `args` go to wrangler dev (e.g. `--inspector-port`).
 */
export async function startDevServer({ quiet = true, beforeStart, dir = root, args = [] } = {}) {
  const port = await freePort();
  const persistDir = mkdtempSync(path.join(tmpdir(), "acp-dev-"));
  if (beforeStart) await beforeStart(persistDir);
  const child = spawn(process.execPath, [path.join(dir, "test/tools/dev.mjs"), ...args], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      WRANGLER_PERSIST_DIR: persistDir,
      CI: "true",
      WRANGLER_SEND_METRICS: "false",
      WATCH_PARENT_PID: String(process.pid),
    },
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
  return { base, stop, output: () => output, pid: child.pid, persistDir };
}

/** Runs wrangler with the project's root as cwd; resolves with its output, rejects on failure. */
export function wrangler(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules", ".bin", "wrangler"), args, {
      cwd: root,
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(" ")} failed (${code}):\n${output.slice(-2000)}`))));
  });
}

/** The bench's ceiling Worker (test/tools/ceiling) on a free port with its own state. */
export async function startCeilingServer() {
  const port = await freePort();
  const persistDir = mkdtempSync(path.join(tmpdir(), "acp-ceiling-"));
  const child = spawn(
    path.join(root, "node_modules", ".bin", "wrangler"),
    [
      "dev",
      "--config",
      "test/tools/ceiling/wrangler.toml",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      persistDir,
      "--show-interactive-dev-session=false",
    ],
    { cwd: root, env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ceiling server exited early (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${base}/setup`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`ceiling server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    base,
    pid: child.pid,
    stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* gone */
      }
      rmSync(persistDir, { recursive: true, force: true });
    },
  };
}
