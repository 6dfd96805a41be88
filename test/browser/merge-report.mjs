#!/usr/bin/env node
// .ci/run: adds the browser tests' vitest JSON report to the suite's, so test/tools/test-timings.mjs
// prints a `browser` row and counts them in its closing `N passed, N failed` line. A browser run that
// failed without a report (Chromium missing, a server that did not start) counts as one failure.
// Usage: merge-report.mjs <suite report.json> <browser report.json> <browser exit status>
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [suitePath, browserPath, status] = process.argv.slice(2);
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
        name: path.resolve("test/browser/(run)"),
        startTime: 0,
        endTime: 0,
        assertionResults: [{ title: `npm run test:browser exited ${status}`, status: "failed" }],
      },
    ],
  };
}
suite.testResults.push(...browser.testResults);
suite.numPassedTests += browser.numPassedTests;
suite.numFailedTests += browser.numFailedTests;
writeFileSync(suitePath, JSON.stringify(suite));
console.log(`browser tests: ${browser.numPassedTests} passed, ${browser.numFailedTests} failed`);
