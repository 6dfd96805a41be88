#!/usr/bin/env node
// `npm run budget`: the deployed Worker's size and startup time against a committed baseline.
// - size: `wrangler deploy --dry-run --env production --outdir <tmp>` (the minified upload wrangler
//   would send; its "Total Upload … / gzip: … KiB" line);
// - startup: `wrangler check startup --worker <that bundle>` (the production bundle's module
//   evaluation profiled in workerd, locally and offline: no Cloudflare account or network). The
//   budgeted figure is its "Active" time (the CPU the startup used: what Cloudflare's startup limit
//   counts), the best of several runs since a busy machine only ever makes it slower; the "Profile
//   window" (wall time, with the script's parse) is printed too but swings with the machine's load.
// Fails when either is more than 20 % over test/tools/startup-baseline.json. `npm run budget --
// --update` measures and writes the baseline (commit it with the change that moved it).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const baselinePath = path.join(root, "test/tools/startup-baseline.json");
const TOLERANCE = 1.2;
const STARTUP_RUNS = 5;
const update = process.argv.includes("--update");

function wrangler(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules", ".bin", "wrangler"), args, {
      cwd: root,
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(" ")} failed (${code}):\n${output.slice(-3000)}`))));
  });
}

const number = (output, pattern, what) => {
  const match = pattern.exec(output);
  if (!match) throw new Error(`no ${what} in wrangler's output:\n${output.slice(-3000)}`);
  return Number(match[1]);
};

const work = mkdtempSync(path.join(tmpdir(), "acp-budget-"));
try {
  const deploy = await wrangler(["deploy", "--dry-run", "--env", "production", "--outdir", path.join(work, "out")]);
  const uploadKiB = number(deploy, /Total Upload: ([\d.]+) KiB/, "upload size");
  const gzipKiB = number(deploy, /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/, "gzip size");
  // The same production build as a multipart upload, which `check startup` profiles as it is.
  const bundle = path.join(work, "worker.bundle");
  await wrangler(["deploy", "--dry-run", "--env", "production", "--outfile", bundle]);
  const windows = [];
  const active = [];
  const profile = async (runs) => {
    for (let run = 0; run < runs; run++) {
      const check = await wrangler(["check", "startup", "--worker", bundle, "--outfile", path.join(work, `startup-${windows.length}.cpuprofile`)]);
      windows.push(number(check, /Profile window: ([\d.]+) ms/, "profile window"));
      active.push(number(check, /Active: ([\d.]+) ms/, "active time"));
    }
  };
  await profile(STARTUP_RUNS);
  const baseline = update ? null : JSON.parse(readFileSync(baselinePath, "utf8"));
  // Over the limit on a busy machine: as many runs again before calling it a regression.
  if (baseline && Math.min(...active) > baseline.startupMs * TOLERANCE) await profile(STARTUP_RUNS);
  const startupMs = Math.min(...active);
  const windowMs = Math.min(...windows);
  console.log(`bundle: ${uploadKiB} KiB, ${gzipKiB} KiB gzipped (production, minified)`);
  console.log(`startup: ${startupMs} ms active (best of ${active.join(", ")}); profile window ${windowMs} ms (best of ${windows.join(", ")})`);

  if (update) {
    const measured = { gzipKiB, uploadKiB, startupMs, windowMs, measured: new Date().toISOString().slice(0, 10) };
    writeFileSync(baselinePath, `${JSON.stringify(measured, null, 2)}\n`);
    console.log(`baseline written: ${path.relative(root, baselinePath)}`);
  } else {
    const checks = [
      { name: "gzip size", value: gzipKiB, limit: baseline.gzipKiB * TOLERANCE, unit: "KiB", base: baseline.gzipKiB },
      { name: "startup (active)", value: startupMs, limit: baseline.startupMs * TOLERANCE, unit: "ms", base: baseline.startupMs },
    ];
    let over = false;
    for (const c of checks) {
      const ok = c.value <= c.limit;
      over ||= !ok;
      console.log(`${ok ? "ok  " : "OVER"} ${c.name}: ${c.value} ${c.unit} (baseline ${c.base} ${c.unit}, limit ${c.limit.toFixed(1)} ${c.unit})`);
    }
    if (over) {
      console.log("budget exceeded: more than 20 % over test/tools/startup-baseline.json (npm run budget -- --update after a deliberate change)");
      process.exitCode = 1;
    } else console.log("budget kept");
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
