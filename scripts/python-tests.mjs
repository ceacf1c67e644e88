// The Python unit tests (python/tests, stdlib unittest), one process per test module, a few at once.
// Run one after another they took minutes (OCR and the vision tools are CPU work in subprocesses
// that wait on each other); the modules share nothing, so they run side by side like vitest files.
// Writes test-results/python.txt ending in unittest's own summary ("Ran N tests", "OK" or
// "FAILED (...)", read by summarize-tests.mjs) and test-results/python-timings.json (per module).
//   node scripts/python-tests.mjs [--jobs N]      (ARGUS_PYTHON picks the interpreter)
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";

const python = process.env.ARGUS_PYTHON ?? "/usr/bin/python3";
const jobsArg = process.argv.indexOf("--jobs");
const jobs = Math.max(1, Number(jobsArg > 0 ? process.argv[jobsArg + 1] : (process.env.ARGUS_PYTHON_TEST_JOBS ?? 2)));
// The slowest modules start first (measured in python-timings.json: the real photos ~110 s, the rest
// 30 s or less), so the last module to end is a short one; npm test starts them during setup.
const SLOW_FIRST = ["test_tools_real_photos.py", "test_tools_bad_input.py"];
const modules = readdirSync("python/tests")
  .filter((f) => /^test_.*\.py$/.test(f))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
function rank(file) {
  const i = SLOW_FIRST.indexOf(file);
  return i < 0 ? SLOW_FIRST.length : i;
}

function runModule(file) {
  const started = Date.now();
  return new Promise((resolve) => {
    // Exactly `unittest discover -s python/tests -t python`, narrowed to one file: same cwd, same imports.
    const child = spawn(python, ["-m", "unittest", "discover", "-s", "python/tests", "-t", "python", "-p", file], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("close", (code) => {
      const count = (key) => Number(new RegExp(`${key}=(\\d+)`).exec(out.slice(out.lastIndexOf("\nRan ")))?.[1] ?? 0);
      const ran = Number(/\nRan (\d+) tests?/.exec(out)?.[1] ?? NaN);
      resolve({
        file: `python/tests/${file}`,
        seconds: (Date.now() - started) / 1000,
        out,
        code,
        ran: Number.isNaN(ran) ? 0 : ran,
        // A module that could not even run (no summary, or a non-zero exit without failures counted) is one error.
        failures: count("failures"),
        errors: count("errors") + (Number.isNaN(ran) || (code !== 0 && count("failures") + count("errors") === 0) ? 1 : 0),
        skipped: count("skipped"),
      });
    });
  });
}

const started = Date.now();
const queue = [...modules];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const result = await runModule(file);
      results.push(result);
      const bad = result.failures + result.errors;
      console.log(`[python] ${bad ? "FAILED" : "ok    "} ${result.file} (${result.ran} tests, ${result.seconds.toFixed(1)} s)`);
      if (bad) process.stdout.write(result.out);
    }
  }),
);
results.sort((a, b) => a.file.localeCompare(b.file));
const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
const bad = total("failures") + total("errors");
const details = [];
if (total("failures")) details.push(`failures=${total("failures")}`);
if (total("errors")) details.push(`errors=${total("errors")}`);
if (total("skipped")) details.push(`skipped=${total("skipped")}`);
const summary = `Ran ${total("ran")} tests in ${((Date.now() - started) / 1000).toFixed(3)}s\n\n${bad ? "FAILED" : "OK"}${details.length ? ` (${details.join(", ")})` : ""}\n`;
mkdirSync("test-results", { recursive: true });
writeFileSync("test-results/python.txt", results.map((r) => `===== ${r.file}\n${r.out}`).join("\n") + "\n" + "-".repeat(70) + "\n" + summary);
writeFileSync("test-results/python-timings.json", JSON.stringify(results.map(({ file, seconds, ran, failures, errors }) => ({ file, seconds, tests: ran, failed: failures + errors })), null, 1));
console.log(summary.trim());
process.exit(bad ? 1 : 0);
