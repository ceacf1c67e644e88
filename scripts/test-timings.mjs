// After `npm test`: per-file seconds of every runner, so the next slow test is visible.
// Writes test-results/timings.md (every file, slowest first, per pass) and prints the top 15, then
// the 15 vitest files that cost the most CPU (tests/helpers/cpu-probe.ts: on 2 cores the suite's
// length is its CPU work, and a file's wall-clock seconds stretch with what runs beside it).
// Reads the JSON reports scripts/test.sh asks for; a report that is missing is named, not fatal.
//   node scripts/test-timings.mjs [test-results]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = process.argv[2] ?? "test-results";
const root = process.cwd();
const rel = (file) => path.relative(root, file) || file;

/** vitest --reporter=json: one entry per file with its start and end (ms). */
function vitestFiles(file) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  return (report.testResults ?? []).map((r) => ({
    file: rel(r.name),
    seconds: Math.max(0, (r.endTime ?? 0) - (r.startTime ?? 0)) / 1000,
    tests: (r.assertionResults ?? []).length,
    failed: (r.assertionResults ?? []).filter((a) => a.status === "failed").length + (r.status === "failed" && !(r.assertionResults ?? []).length ? 1 : 0),
  }));
}

/** Playwright's json reporter: suites nest; a spec file is a top suite, each test's results have a duration. */
function playwrightFiles(file) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  const byFile = new Map();
  const walk = (suite, fileName) => {
    const name = suite.file ?? fileName;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const entry = byFile.get(name) ?? { file: `e2e/${name}`, seconds: 0, tests: 0, failed: 0 };
        entry.tests += 1;
        for (const result of test.results ?? []) entry.seconds += (result.duration ?? 0) / 1000;
        if (test.status === "unexpected") entry.failed += 1;
        byFile.set(name, entry);
      }
    }
    for (const child of suite.suites ?? []) walk(child, name);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return [...byFile.values()];
}

/** scripts/python-tests.mjs: one entry per module. */
function pythonFiles(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** tests/helpers/cpu-probe.ts: one JSON line per vitest file, its CPU seconds and its children's. */
function cpuByFile(file) {
  const byFile = new Map();
  if (!existsSync(file)) return byFile;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line);
    byFile.set(entry.file, (entry.self ?? 0) + (entry.children ?? 0));
  }
  return byFile;
}

const passes = [
  { name: "vitest", file: "vitest.json", read: vitestFiles, cpu: "cpu.jsonl" },
  { name: "vitest on Postgres + Redis", file: "vitest-postgres.json", read: vitestFiles, cpu: "cpu-postgres.jsonl" },
  // The kernel and computer files scripts/test.sh runs after the second Playwright process.
  { name: "vitest, after the second Playwright process", file: "vitest-late.json", read: vitestFiles, cpu: "cpu-late.jsonl", optional: true },
  // The first-pass files scripts/test.sh runs after the Postgres pass (AFTER_POSTGRES_FILES).
  { name: "vitest, after the Postgres pass", file: "vitest-after-postgres.json", read: vitestFiles, cpu: "cpu-after-postgres.jsonl", optional: true },
  { name: "python", file: "python-timings.json", read: pythonFiles },
  { name: "playwright", file: "playwright.json", read: playwrightFiles },
  // The second Playwright process of scripts/test.sh (playwright.config.ts's chromium-b).
  { name: "playwright (second process)", file: "playwright-b.json", read: playwrightFiles, optional: true },
];

// Each phase's wall-clock seconds and, when given, the CPU-seconds of the processes scripts/test.sh
// waited for during it ("phase<TAB>seconds[<TAB>cpu]" lines).
const phasesFile = path.join(dir, "phases.txt");
const phases = existsSync(phasesFile)
  ? readFileSync(phasesFile, "utf8").trim().split("\n").filter(Boolean).map((line) => {
      const [name, seconds, cpu] = line.split("\t");
      return { name, seconds: Number(seconds), cpu: cpu === undefined ? undefined : Number(cpu) };
    })
  : [];

const fmt = (s) => s.toFixed(1).padStart(7);
const lines = [
  "# Test timings",
  "",
  `${new Date().toISOString()} on ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} at the end.`,
  "Files run in parallel (see docs/testing.md), so a file's seconds overlap others'; the phases are wall-clock.",
  "",
];
if (phases.length) {
  // scripts/test.sh runs the build, then its streams (the vitest passes, Playwright, Python) all at
  // once: streams' CPU-s add up, their seconds overlap. The "wall-clock" line, when there, is the
  // streams' span, and the total is the build plus it.
  const span = phases.find((p) => p.name.endsWith("wall-clock"));
  const timed = phases.filter((p) => p !== span);
  const cpuTotal = timed.reduce((total, p) => total + (p.cpu ?? 0), 0);
  const seconds = span ? timed[0].seconds + span.seconds : timed.reduce((total, p) => total + p.seconds, 0);
  const withCpu = timed.some((p) => p.cpu !== undefined);
  lines.push("## Phases (wall-clock)", "");
  if (withCpu) lines.push("CPU-s: every process the phase waited for, vitest's own included; a process nobody waited for is not counted. After the build the streams run at the same time: their seconds overlap.", "");
  lines.push(`| phase | seconds |${withCpu ? " CPU-s |" : ""}`, `|---|---:|${withCpu ? "---:|" : ""}`);
  const cpuCell = (cpu) => (withCpu ? ` ${cpu === undefined ? "–" : cpu.toFixed(1)} |` : "");
  for (const p of phases) lines.push(`| ${p.name} | ${p.seconds.toFixed(1)} |${cpuCell(p.cpu)}`);
  lines.push(`| **total** | **${seconds.toFixed(1)}** |${withCpu ? ` **${cpuTotal.toFixed(1)}** |` : ""}`, "");
}
const all = [];
for (const pass of passes) {
  const file = path.join(dir, pass.file);
  if (!existsSync(file)) {
    if (pass.optional) continue;
    lines.push(`## ${pass.name}`, "", `(no report: ${file})`, "");
    continue;
  }
  const cpu = pass.cpu ? cpuByFile(path.join(dir, pass.cpu)) : new Map();
  const files = pass.read(file).sort((a, b) => b.seconds - a.seconds);
  for (const f of files) f.cpu = cpu.get(f.file);
  const total = files.reduce((sum, f) => sum + f.seconds, 0);
  const cpuTotal = files.reduce((sum, f) => sum + (f.cpu ?? 0), 0);
  const withCpu = cpu.size > 0;
  lines.push(`## ${pass.name}: ${files.length} files, ${total.toFixed(1)} s summed${withCpu ? `, ${cpuTotal.toFixed(1)} CPU-s` : ""}`, "");
  if (withCpu) lines.push("CPU-s: the file's process and the children it waited for (servers, jupyter-servers, kernels, models).", "");
  lines.push(`| seconds |${withCpu ? " CPU-s |" : ""} tests | file |`, `|---:|${withCpu ? "---:|" : ""}---:|---|`);
  for (const f of files) lines.push(`| ${f.seconds.toFixed(1)} |${withCpu ? ` ${f.cpu === undefined ? "–" : f.cpu.toFixed(1)} |` : ""} ${f.tests}${f.failed ? ` (${f.failed} failed)` : ""} | ${f.file} |`);
  lines.push("");
  for (const f of files) all.push({ ...f, pass: pass.name });
}
writeFileSync(path.join(dir, "timings.md"), lines.join("\n"));

console.log(`[timings] slowest files (all passes; every file in ${path.join(dir, "timings.md")}):`);
for (const f of all.sort((a, b) => b.seconds - a.seconds).slice(0, 15)) console.log(`${fmt(f.seconds)} s  ${f.file}${f.pass === "vitest" ? "" : `  [${f.pass}]`}`);
const costly = all.filter((f) => f.cpu !== undefined).sort((a, b) => b.cpu - a.cpu).slice(0, 15);
if (costly.length) console.log("[timings] most CPU (vitest files, both passes):");
for (const f of costly) console.log(`${fmt(f.cpu)} CPU-s ${fmt(f.seconds)} s  ${f.file}${f.pass === "vitest" ? "" : `  [${f.pass}]`}`);
for (const p of phases) console.log(`[timings] phase ${p.name}: ${p.seconds.toFixed(1)} s${p.cpu === undefined ? "" : `, ${p.cpu.toFixed(1)} CPU-s`}`);
