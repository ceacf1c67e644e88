// Prints one closing line over both runners: "tests: N passed, N failed, N skipped".
// A runner that wrote no report, or a suite that could not even load, counts as a failure.
import { existsSync, readFileSync } from "node:fs";

// The optional fourth report is vitest's second pass on Postgres (ARGUS_TEST_DB=postgres, scripts/test.sh).
const [vitestFile, playwrightFile, pythonFile, vitestPostgresFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

function countVitest(file, name) {
  if (file && existsSync(file)) {
    const v = JSON.parse(readFileSync(file, "utf8"));
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
    const brokenSuites = (v.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).length === 0);
    failed += brokenSuites.length;
  } else {
    console.log(`${name} wrote no report`);
    failed += 1;
  }
}

countVitest(vitestFile, "vitest");
if (vitestPostgresFile !== undefined) countVitest(vitestPostgresFile, "vitest (Postgres pass)");

if (playwrightFile && existsSync(playwrightFile)) {
  const p = JSON.parse(readFileSync(playwrightFile, "utf8"));
  passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
  failed += p.stats?.unexpected ?? 0;
  skipped += p.stats?.skipped ?? 0;
  failed += (p.errors ?? []).length;
} else {
  console.log("playwright wrote no report");
  failed += 1;
}

// unittest ends with "Ran N tests in Xs" then "OK (skipped=K)" or "FAILED (failures=F, errors=E, skipped=K)".
if (pythonFile && existsSync(pythonFile)) {
  // The last summary: scripts/python-tests.mjs keeps each module's own output above the total.
  const whole = readFileSync(pythonFile, "utf8");
  const text = whole.slice(Math.max(0, whole.lastIndexOf("\nRan ")));
  const ran = Number(/Ran (\d+) tests?/.exec(text)?.[1] ?? NaN);
  if (Number.isNaN(ran)) {
    console.log("python tests wrote no summary");
    failed += 1;
  } else {
    const count = (key) => Number(new RegExp(`${key}=(\\d+)`).exec(text)?.[1] ?? 0);
    const bad = count("failures") + count("errors");
    const skip = count("skipped");
    passed += ran - bad - skip;
    failed += bad;
    skipped += skip;
  }
}

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
