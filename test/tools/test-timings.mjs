#!/usr/bin/env node
// Prints the suite's per-project breakdown from vitest's JSON report (files, tests, summed file
// time, slowest file) and the closing `N passed, N failed` line.
// Usage: test-timings.mjs <report.json> [wall seconds] [smoke exit status] [name=status …] (more checks, e.g. lint=0 typecheck=0 budget=0)
import { readFileSync } from "node:fs";
import path from "node:path";

const [reportPath, wall, smokeStatus, ...checks] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const projects = new Map();
for (const file of report.testResults) {
  const project = path.relative(process.cwd(), file.name).split(path.sep)[1] ?? "?";
  const entry = projects.get(project) ?? { files: 0, tests: 0, ms: 0, slowest: ["", 0] };
  const ms = (file.endTime ?? 0) - (file.startTime ?? 0);
  entry.files += 1;
  entry.tests += file.assertionResults.length;
  entry.ms += ms;
  if (ms > entry.slowest[1]) entry.slowest = [path.basename(file.name), ms];
  projects.set(project, entry);
}
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log("\nproject   files  tests  summed file time  slowest file");
for (const [name, e] of [...projects].sort()) {
  console.log(
    `${name.padEnd(9)} ${String(e.files).padStart(5)}  ${String(e.tests).padStart(5)}  ${s(e.ms).padStart(16)}  ${e.slowest[0]} (${s(e.slowest[1])})`,
  );
}
if (wall) console.log(`npm test wall time: ${wall} s`);
// The end-to-end smoke (npm run smoke) counts as one more test when its status is given.
const smoke = smokeStatus === undefined ? null : smokeStatus === "0";
if (smoke !== null) console.log(`smoke (wrangler dev end to end): ${smoke ? "passed" : "FAILED"}`);
// Each further check (lint, typecheck, budget) counts as one test too.
const extra = checks.map((c) => c.split("=")).map(([name, status]) => ({ name, ok: status === "0" }));
for (const c of extra) console.log(`${c.name}: ${c.ok ? "passed" : "FAILED"}`);
const passed = report.numPassedTests + (smoke === true ? 1 : 0) + extra.filter((c) => c.ok).length;
const failed = report.numFailedTests + (smoke === false ? 1 : 0) + extra.filter((c) => !c.ok).length;
console.log(`${passed} passed, ${failed} failed`);
