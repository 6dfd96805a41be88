#!/usr/bin/env node
// .ci/run: adds another run's vitest JSON report (the end-to-end flows, the browser tests) to the
// suite's, so test/tools/test-timings.mjs prints its rows and counts it in its closing `N passed,
// N failed` line. A run that failed without a report (Chromium missing, a server that did not start)
// counts as one failure.
// Usage: merge-report.mjs <suite report.json> <other report.json> <other exit status> <label> <script>
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [suitePath, browserPath, status, label = "browser", script = "test:browser"] = process.argv.slice(2);
const suite = JSON.parse(readFileSync(suitePath, "utf8"));
let browser = null;
try {
  if (existsSync(browserPath)) browser = JSON.parse(readFileSync(browserPath, "utf8"));
} catch {
  browser = null;
}
if (!browser || (status !== "0" && browser.numFailedTests === 0)) {
  browser = {
    numPassedTests: browser?.numPassedTests ?? 0,
    numFailedTests: (browser?.numFailedTests ?? 0) + 1,
    testResults: [
      ...(browser?.testResults ?? []),
      {
        name: path.resolve(`test/${label}/(run)`),
        startTime: 0,
        endTime: 0,
        assertionResults: [{ title: `npm run ${script} exited ${status}`, status: "failed" }],
      },
    ],
  };
}
suite.testResults.push(...browser.testResults);
suite.numPassedTests += browser.numPassedTests;
suite.numFailedTests += browser.numFailedTests;
writeFileSync(suitePath, JSON.stringify(suite));
console.log(`${label} tests: ${browser.numPassedTests} passed, ${browser.numFailedTests} failed`);
