// Prints one closing line over both runners: "tests: N passed, N failed, N skipped".
// A runner that wrote no report, or a suite that could not even load, counts as a failure.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

const firstLine = (text) => String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim()) ?? "";

// The optional fourth report is vitest's second pass on Postgres (ARGUS_TEST_DB=postgres, scripts/test.sh).
const [vitestFile, playwrightFile, pythonFile, vitestPostgresFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
// Every failure by name, printed last: CI keeps only the tail of the output, and the first pass's
// failures scroll out of it behind the later passes.
const failures = [];

function countVitest(file, name) {
  if (file && existsSync(file)) {
    const v = JSON.parse(readFileSync(file, "utf8"));
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
    const brokenSuites = (v.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).length === 0);
    failed += brokenSuites.length;
    for (const suite of v.testResults ?? []) {
      const file = relative(process.cwd(), suite.name ?? "");
      if (suite.status === "failed" && (suite.assertionResults ?? []).length === 0) failures.push(`[${name}] ${file}: ${firstLine(suite.message)}`);
      for (const t of suite.assertionResults ?? []) {
        if (t.status === "failed") failures.push(`[${name}] ${file} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      }
    }
  } else {
    console.log(`${name} wrote no report`);
    failed += 1;
  }
}

// The first pass's report, or several comma-separated (scripts/test.sh runs some files in a stream of their own).
for (const file of (vitestFile ?? "").split(",")) countVitest(file, "vitest");
if (vitestPostgresFile !== undefined) countVitest(vitestPostgresFile, "vitest (Postgres pass)");

// Playwright's report, or several comma-separated (scripts/test.sh runs two Playwright processes).
function countPlaywright(playwrightFile) {
  if (playwrightFile && existsSync(playwrightFile)) {
    const p = JSON.parse(readFileSync(playwrightFile, "utf8"));
    passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    failed += p.stats?.unexpected ?? 0;
    skipped += p.stats?.skipped ?? 0;
    failed += (p.errors ?? []).length;
    const walk = (suite, outer) => {
      // A file's suite is titled by its file name, which the line already shows.
      const trail = suite.title && suite.title !== suite.file ? [...outer, suite.title] : outer;
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== "unexpected") continue;
          const result = t.results?.at(-1);
          failures.push(`[playwright] ${spec.file}:${spec.line} > ${[...trail, spec.title].join(" > ")}: ${firstLine(result?.error?.message)}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, trail);
    };
    for (const suite of p.suites ?? []) walk(suite, []);
    for (const e of p.errors ?? []) failures.push(`[playwright] ${firstLine(e.message)}`);
  } else {
    console.log(`playwright wrote no report${playwrightFile ? ` (${playwrightFile})` : ""}`);
    failed += 1;
  }
}
for (const file of (playwrightFile ?? "").split(",")) countPlaywright(file);

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
    // unittest names each failing test on a line "FAIL: test (module.Class.test)" / "ERROR: …".
    for (const m of whole.matchAll(/^(FAIL|ERROR): (.+)$/gm)) failures.push(`[python] ${m[1]}: ${m[2]}`);
    const skip = count("skipped");
    passed += ran - bad - skip;
    failed += bad;
    skipped += skip;
  }
}

for (const f of failures) console.log(`failed: ${f.slice(0, 400)}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
